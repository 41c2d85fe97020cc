// Commits as GitLab renders them (lib/api/entities/commit.rb, commit_detail.rb, commit_stats.rb,
// blame_range_commit.rb). Git dates keep their offset: "2014-02-27T10:14:56.000+00:00".
import type { CommitStats } from '../../git/history.js';
import type { CommitData, Ident } from '../../git/objects.js';
import type { FileDiff } from '../../git/patch.js';

export function gitDate(i: Ident): string {
  const local = new Date((i.timestamp + i.offset * 60) * 1000).toISOString().slice(0, 23);
  const abs = Math.abs(i.offset);
  return `${local}${i.offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Commit#full_title: the first line, or GitLab's placeholder for an empty message. */
export function commitTitle(message: string): string {
  return message.trim() === '' ? 'No commit message' : message.split(/[\r\n]/, 1)[0]!;
}

export interface Trailers {
  trailers: Record<string, string>;
  extended_trailers: Record<string, string[]>;
}

/** Trailers (`Signed-off-by: ...`) of the message's last paragraph, as `git interpret-trailers` finds them. */
export function parseTrailers(message: string): Trailers {
  const out: Trailers = { trailers: {}, extended_trailers: {} };
  const paragraphs = message.trimEnd().split(/\n[ \t]*\n/);
  if (paragraphs.length < 2) return out;
  const pairs: [string, string][] = [];
  for (const line of paragraphs[paragraphs.length - 1]!.split('\n')) {
    if (/^[ \t]/.test(line) && pairs.length) {
      pairs[pairs.length - 1]![1] += ` ${line.trim()}`;
      continue;
    }
    const m = /^([A-Za-z0-9][A-Za-z0-9-]*)[ \t]*:[ \t]*(.*)$/.exec(line);
    if (!m) return out;
    pairs.push([m[1]!, m[2]!.trim()]);
  }
  for (const [k, v] of pairs) {
    out.trailers[k] = v;
    (out.extended_trailers[k] ??= []).push(v);
  }
  return out;
}

export interface CommitRef {
  sha: string;
  commit: CommitData;
}

/** Entities::Commit; `projectWebUrl` makes `web_url`. Trailers are parsed only when asked for. */
export function commitEntity(projectWebUrl: string, { sha, commit }: CommitRef, opts: { trailers?: boolean } = {}) {
  const t = opts.trailers ? parseTrailers(commit.message) : { trailers: {}, extended_trailers: {} };
  return {
    id: sha,
    short_id: sha.slice(0, 8),
    created_at: gitDate(commit.committer),
    parent_ids: [...commit.parents],
    title: commitTitle(commit.message),
    message: commit.message,
    author_name: commit.author.name,
    author_email: commit.author.email,
    authored_date: gitDate(commit.author),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
    committed_date: gitDate(commit.committer),
    trailers: t.trailers,
    extended_trailers: t.extended_trailers,
    web_url: `${projectWebUrl}/-/commit/${sha}`,
  };
}

/** Entities::CommitWithStats (lists with `with_stats`). */
export function commitWithStats(projectWebUrl: string, ref: CommitRef, stats: CommitStats, opts: { trailers?: boolean } = {}) {
  return { ...commitEntity(projectWebUrl, ref, opts), stats };
}

/** Entities::CommitDetail: stats when asked for; its newest pipeline's status and that pipeline (the CI family's), when the caller may see them. */
export function commitDetail(projectWebUrl: string, ref: CommitRef, projectId: number, stats: CommitStats | null, pipeline: { status: string | null; last_pipeline: unknown } | null = null) {
  return {
    ...commitEntity(projectWebUrl, ref, { trailers: true }),
    ...(stats ? { stats } : {}),
    status: pipeline?.status ?? null,
    project_id: projectId,
    last_pipeline: pipeline?.last_pipeline ?? null,
  };
}

/** Entities::BlameRangeCommit. */
export function blameCommit({ sha, commit }: CommitRef) {
  return {
    id: sha,
    parent_ids: [...commit.parents],
    message: commit.message,
    authored_date: gitDate(commit.author),
    author_name: commit.author.name,
    author_email: commit.author.email,
    committed_date: gitDate(commit.committer),
    committer_name: commit.committer.name,
    committer_email: commit.committer.email,
  };
}

/** Entities::Diff of one file, as Gitaly gives it (no rename detection; never collapsed). */
export function diffEntity(d: FileDiff) {
  return {
    diff: d.diff,
    collapsed: false,
    too_large: false,
    new_path: d.newPath,
    old_path: d.oldPath,
    a_mode: d.aMode,
    b_mode: d.bMode,
    new_file: d.newFile,
    renamed_file: d.renamedFile,
    deleted_file: d.deletedFile,
    generated_file: false,
  };
}

/** Entities::BasicRef. */
export const basicRef = (type: 'branch' | 'tag', name: string) => ({ type, name });

/** Entities::Contributor. */
export const contributorEntity = (c: { name: string; email: string; commits: number }) => ({
  name: c.name,
  email: c.email,
  commits: c.commits,
  additions: 0,
  deletions: 0,
});
