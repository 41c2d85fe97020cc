// What `emulator.git(project)` gives a test: the repository's objects on the shared in-memory
// volume (isomorphic-git reads the gitdir directly), the refs as the world has them now,
// files and history at a revision, and an export that the real `git` can check.
import type { FsClient } from 'isomorphic-git';
import { cloneRepository, exportRepository } from '../../git/export.js';
import { log, type LogEntry, type LogOptions } from '../../git/history.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { listFiles } from '../../git/tree.js';
import type { Project } from '../../store/state.js';
import type { State } from '../world.js';
import { namedProject, type Host } from '../define.js';
import { projectFullPath } from '../../policy/paths.js';
import type { TagRef } from './records.js';
import { fileAt } from './commit-service.js';
import { defaultBranchName, objectsOf, repoView, resolveCommit } from './rules.js';
import { branchesRecord, tagsRecord } from './refs.js';

export interface RepositoryRefs {
  /** The default branch (HEAD). */
  head: string;
  branches: Record<string, string>;
  tags: Record<string, TagRef>;
}

export interface RepositoryHandle {
  /** The emulator's in-memory volume, as an isomorphic-git file system (promise calls). */
  readonly fs: FsClient;
  /**
   * The bare git directory of this repository on `fs`. It may hold more objects than the world
   * sees (what another history, a restored snapshot or a fork, wrote to the same storage later):
   * read objects by sha through `objects`, which shows the world's own only. A storage that
   * continues another (the histories parted, then this one wrote) names its parent in
   * `objects/info/alternates`, which git follows and isomorphic-git does not: reading `gitdir`
   * here first copies the parent's objects into it, once.
   */
  readonly gitdir: string;
  /**
   * The repository's committed objects in the world as it is now; what a test writes here is
   * stored at once (a repository with no storage yet gets one, recorded in the world).
   */
  readonly objects: RepositoryObjects;
  refs(): RepositoryRefs;
  /** The commit a revision names (default: HEAD), or null. */
  resolve(revision?: string): Promise<string | null>;
  readFile(path: string, revision?: string): Promise<Uint8Array | null>;
  readText(path: string, revision?: string): Promise<string | null>;
  /** Every file at a revision: path -> content as text. */
  files(revision?: string): Promise<Record<string, string>>;
  log(revision?: string, options?: LogOptions): Promise<LogEntry[]>;
  /** Writes a bare repository (reachable objects, refs, HEAD) to a real directory. */
  export(dir: string): Promise<void>;
}

/**
 * `objects` gives the repository's committed objects as the world has them now (its storage may
 * change: a first write, a restore), so a handle taken once keeps following the world.
 */
export function repositoryHandle(objects: () => RepositoryObjects, world: () => State, project: () => Project): RepositoryHandle {
  const decoder = new TextDecoder();
  const view = () => repoView(world(), project());
  const commit = async (revision = 'HEAD') => resolveCommit(objects(), view(), revision);
  const handle: RepositoryHandle = {
    get fs() {
      return objects().fs;
    },
    get gitdir() {
      const repo = objects();
      if (!repo.store.empty) repo.store.materialize();
      return repo.gitdir;
    },
    get objects() {
      return objects();
    },
    refs() {
      const { project: p, refs } = view();
      return { head: defaultBranchName(p), branches: branchesRecord(refs), tags: tagsRecord(refs) };
    },
    resolve: commit,
    async readFile(path, revision) {
      const repo = objects();
      const sha = await commit(revision);
      const entry = sha ? await fileAt(repo, sha, path) : null;
      return entry ? repo.readBlob(entry.oid) : null;
    },
    async readText(path, revision) {
      const bytes = await handle.readFile(path, revision);
      return bytes ? decoder.decode(bytes) : null;
    },
    async files(revision) {
      const repo = objects();
      const sha = await commit(revision);
      const out: Record<string, string> = {};
      if (!sha) return out;
      for (const [path, e] of await listFiles(repo, (await repo.readCommit(sha)).tree)) {
        if (e.type === 'blob') out[path] = decoder.decode(await repo.readBlob(e.oid));
      }
      return out;
    },
    async log(revision, options) {
      const sha = await commit(revision);
      return sha ? log(objects(), [sha], options) : [];
    },
    async export(dir) {
      const refs = handle.refs();
      await exportRepository(objects(), refs, dir);
    },
  };
  return handle;
}

/** `emulator.git(project)`: the repository for tests, with the URL git clones it from and a working copy of it. */
export interface GitRepository extends RepositoryHandle {
  /** Where git clones it from: `http_url_to_repo` of the project. */
  readonly url: string;
  /** Writes a working copy to `dir` as `git clone` would (origin is `url`, or `options.url`); needs no git binary. */
  clone(dir: string, options?: { url?: string }): Promise<void>;
}

/** What the repositories family adds to the emulator for tests (its test handle). */
export interface RepositoriesMembers {
  /**
   * A project's repository, for tests: its objects (isomorphic-git can read the gitdir on `fs`),
   * its refs as the world has them now, files at a revision, the log, an export to a real
   * directory that the `git` command reads, and `clone(dir)`: a working copy whose `origin` is
   * the repository's URL on this emulator (`http_url_to_repo`; `{ url }` for a server's).
   */
  git(project: number | string): GitRepository;
}

export function repositoriesMembers(host: Host): RepositoriesMembers {
  return {
    git(project) {
      const find = namedProject(host, project);
      const objects = () => objectsOf({ db: host.objects, state: host.state(), update: (recipe) => void host.update(recipe), current: () => host.state() }, find());
      const handle = repositoryHandle(objects, () => host.state(), find);
      const url = () => `${host.url()}/${projectFullPath(host.state(), find())}.git`;
      Object.defineProperty(handle, 'url', { get: url, enumerable: true });
      return Object.assign(handle as RepositoryHandle & { readonly url: string }, {
        clone: (dir: string, options: { url?: string } = {}) => cloneRepository(objects(), handle.refs(), dir, options.url ?? url()),
      });
    },
  };
}
