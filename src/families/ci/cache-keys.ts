// Cache keys worked out from the repository when a pipeline is made (Gitlab::Ci::Build::Cache and
// Seed::Build::Cache#key_from_files): a `cache:key:files` key hashes the blobs of the named files
// (wildcards expanded) at the pipeline's commit, a `cache:key:files_commits` key the last commits
// that changed them; either is `<prefix>-<sha1>`, `<prefix>-default` when none of them exists. The
// prefix, unless the file gives one, is the cache's index in the job (`<index>_<file stems>` for
// `files`), so two caches of one job never share a key.
import { codec } from '../../git/format.js';
import { lastCommitForPath } from '../../git/history.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { entryAt, listFiles } from '../../git/tree.js';
import type { JobPlan } from './config/index.js';

type Cache = NonNullable<JobPlan['cache']>[number];
type FileKey = Exclude<Cache['key'], string>;

/** Build::Cache#cache_prefix: the index, with the stems of the `files` (`a.lock` -> `a`) joined by `_` when there are any. */
export function cacheKeyPrefix(key: FileKey, index: number): string {
  const files = key.files ?? [];
  if (files.length === 0) return String(index);
  return `${index}_${files.map((f) => f.split('.')[0] ?? '').join('_')}`;
}

/** The key as GitLab renders it: the prefix (the file's, else the index's) and the digest, blanks left out. */
function joinKey(key: FileKey, index: number, digest: string): string {
  const prefix = key.prefix ?? cacheKeyPrefix(key, index);
  return [prefix, digest].filter((part) => part.trim() !== '').join('-');
}

/** A plan's key with nothing read from a repository (a plan made without one): the digest is `default`. */
export function keyWithoutRepository(key: Cache['key'], index: number): string {
  return typeof key === 'string' ? key : joinKey(key, index, 'default');
}

/** `present?` entries, once each. */
const present = (list: readonly string[] | undefined) => [...new Set((list ?? []).filter((f) => f.trim() !== ''))];

/** Repository#search_files_by_wildcard_path: `**` any characters, `*` any but a slash, the rest literal, anchored. */
function wildcardPattern(pattern: string): RegExp {
  const escaped = pattern.replace(/[\\^$.*+?()[\]{}|/-]/g, (c) => `\\${c}`);
  return new RegExp(`^${escaped.replace(/\\\*\\\*/g, '.*?').replace(/\\\*/g, '([^/])*?')}$`);
}

/** SHA-1 of the sorted, unique ids joined by `-`; null when there are none. */
async function digestOf(ids: readonly (string | null)[]): Promise<string | null> {
  const list = [...new Set(ids.filter((x): x is string => x !== null))].sort();
  return list.length ? codec.sha1(new TextEncoder().encode(list.join('-'))) : null;
}

/** hash_of_file_contents: the blob ids of the files (patterns with `*` expanded against the commit's files). */
async function contentDigest(repo: RepositoryObjects, sha: string, files: readonly string[]): Promise<string | null> {
  if (files.length === 0) return null;
  const tree = (await repo.readCommit(sha)).tree;
  let all: Map<string, { oid: string; type: string }> | undefined;
  const paths: string[] = [];
  for (const pattern of files) {
    if (!pattern.includes('*')) {
      paths.push(pattern);
      continue;
    }
    all ??= await listFiles(repo, tree);
    const re = wildcardPattern(pattern);
    for (const path of all.keys()) if (re.test(path)) paths.push(path);
  }
  const blobs = await Promise.all([...new Set(paths)].map(async (path) => {
    const entry = await entryAt(repo, tree, path);
    return entry && entry.type === 'blob' ? entry.oid : null;
  }));
  return digestOf(blobs);
}

/** The key of one cache of a job at a commit. */
async function keyAt(repo: RepositoryObjects, sha: string, key: FileKey, index: number): Promise<string> {
  let digest: string | null = null;
  if (key.files !== undefined) digest = await contentDigest(repo, sha, present(key.files));
  else if (key.filesCommits !== undefined) digest = await digestOf(await Promise.all(present(key.filesCommits).map((f) => lastCommitForPath(repo, sha, f))));
  return joinKey(key, index, digest ?? 'default');
}

/** The jobs with each file-derived cache key worked out as a string. */
export async function withCacheKeys(repo: RepositoryObjects, sha: string, jobs: readonly JobPlan[]): Promise<JobPlan[]> {
  if (!jobs.some((j) => j.cache?.some((c) => typeof c.key !== 'string'))) return [...jobs];
  return Promise.all(jobs.map(async (job) => {
    if (!job.cache?.some((c) => typeof c.key !== 'string')) return job;
    const cache = await Promise.all(job.cache.map(async (c, i) => (typeof c.key === 'string' ? c : { ...c, key: await keyAt(repo, sha, c.key, i) })));
    return { ...job, cache };
  }));
}
