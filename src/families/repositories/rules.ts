// A project's repository as GitLab sees it: who may read and push (ProjectPolicy read_code and
// push_code, protected branches), which names are valid refs (Gitlab::GitRefValidator), and
// what a revision names (branch, tag, full or abbreviated sha, HEAD, `~n` and `^n`).
import type { ObjectDatabase, RepositoryObjects, StorageBinding } from '../../git/objects.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import type { Draft } from 'immer';
import { tdel, tget, tset } from '../../store/table.js';
import { repositoryReadOnly } from './errors.js';
import { emptyRepository, type ProtectedBranch, type Repository } from './records.js';
import { branchTip, findTag, isEmptyRepository, protectedBranchEntries } from './refs.js';
import type { State } from '../world.js';
import { canUseFeature, hasProjectRole, projectAccess } from '../../policy/access.js';
import { notFound } from '../../core/errors.js';
import { matchesWildcard } from '../../policy/pattern.js';
import type { Context } from '../../http/context.js';

const NO_REFS: Repository = Object.freeze(emptyRepository());

/** The refs of a project's repository as the world has them (none yet: an empty repository). */
export function refsOf(state: State, projectId: number): Repository {
  return tget(state.repositories, projectId) ?? NO_REFS;
}

/** A project with its refs: what the rules of a repository read. */
export interface RepoView {
  project: Project;
  refs: Repository;
}

export const repoView = (state: State, project: Project): RepoView => ({ project, refs: refsOf(state, project.id) });

/** The branch HEAD names; an empty repository's first branch becomes it. */
export function defaultBranchName(project: Project): string {
  return project.defaultBranch ?? 'main';
}

/** `require_repository_enabled!`, as an ability of a route's scope: a disabled repository is 404 to everyone. */
export function repositoryEnabled(_state: State, _user: User | null, project: Project): boolean {
  if (project.features.repository === 'disabled') throw notFound();
  return true;
}

/** ProjectPolicy `read_code`. */
export function canReadCode(state: State, user: User | null, project: Project, now: number): boolean {
  return canUseFeature(state, user, project, 'repository', now);
}

/** ProjectPolicy `push_code`: developers and above, never into an archived project. */
export function canPushCode(state: State, user: User | null, project: Project, now: number): boolean {
  return !project.archived && project.features.repository !== 'disabled' && hasProjectRole(state, user, project, ACCESS.developer, now);
}

/** ProtectedRef's matcher (Gitlab::RefMatcher): the name itself, or a pattern where `*` is anything. */
export function matchesRefPattern(pattern: string, name: string): boolean {
  return matchesWildcard(pattern, name); // in linear time: a backtracking `.*?` per star is exponential in the stars
}

/** Every protection that applies to a branch: its own and the matching wildcards. */
export function protectionsFor(refs: Repository, branch: string): ProtectedBranch[] {
  const out: ProtectedBranch[] = [];
  for (const [pattern, p] of protectedBranchEntries(refs)) {
    if (matchesRefPattern(pattern, branch)) out.push(p);
  }
  return out;
}

export const isProtected = (refs: Repository, branch: string) => protectionsFor(refs, branch).length > 0;

/** Whether any protection lets developers do it (`developers_can_push`, `developers_can_merge`). */
export function developersCan(refs: Repository, branch: string, what: 'push' | 'merge'): boolean {
  return protectionsFor(refs, branch).some((p) => {
    const level = what === 'push' ? p.pushAccessLevel : p.mergeAccessLevel;
    return level > 0 && level <= ACCESS.developer;
  });
}

/** ProtectedBranch.protected?'s first rule: an empty repository whose default branch will be protected (levels 2 and 3). */
export const emptyAndProtected = (state: State, refs: Repository) => isEmptyRepository(refs) && [2, 3].includes(state.instance.settings.default_branch_protection);

/**
 * Gitlab::UserAccess#can_push_to_branch?: push_code, and a protection that lets the user in. An
 * empty repository's first push is protected when the default branch will be fully (2) or for
 * merges (3): maintainers only (ProtectedBranch.protected_ref_accessible_to?).
 */
export function canPushToBranch(state: State, user: User | null, project: Project, branch: string, now: number): boolean {
  if (!canPushCode(state, user, project, now)) return false;
  const refs = refsOf(state, project.id);
  const access = projectAccess(state, user, project, now);
  if (emptyAndProtected(state, refs)) return !!user?.admin || access >= ACCESS.maintainer;
  const rules = protectionsFor(refs, branch);
  if (rules.length === 0 || user?.admin) return true;
  return rules.some((p) => p.pushAccessLevel > 0 && access >= p.pushAccessLevel);
}

/** Only maintainers delete protected branches. */
export function canDeleteBranch(state: State, user: User | null, project: Project, branch: string, now: number): boolean {
  return !isProtected(refsOf(state, project.id), branch) || hasProjectRole(state, user, project, ACCESS.maintainer, now);
}

/** `git check-ref-format` for `refs/heads/<name>`, plus GitLab's own rules (no `-` start, not `HEAD`). */
export function isValidBranchName(name: string): boolean {
  if (name === '' || name === 'HEAD' || name.startsWith('-')) return false;
  if (/^refs\/(heads|tags|remotes)\//.test(name)) return false;
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes('..') || name.includes('@{') || name.includes('//') || name === '@') return false;
  if (name.endsWith('/') || name.endsWith('.') || name.startsWith('/')) return false;
  return name.split('/').every((part) => part !== '' && !part.startsWith('.') && !part.endsWith('.lock'));
}

/** The commit a tag or any object id peels to, or null. */
export async function peelToCommit(repo: RepositoryObjects, oid: string): Promise<string | null> {
  for (let i = 0; i < 10; i++) {
    const type = await repo.type(oid);
    if (type === 'commit') return oid;
    if (type !== 'tag') return null;
    oid = (await repo.readTag(oid)).object;
  }
  return null;
}

async function resolveName(repo: RepositoryObjects, { project, refs }: RepoView, name: string): Promise<string | null> {
  const branch = (n: string) => branchTip(refs, n) ?? null;
  const tag = (n: string) => findTag(refs, n)?.commit ?? null;
  if (name === 'HEAD') return branch(defaultBranchName(project));
  if (/^[0-9a-f]{40}$/.test(name) && repo.has(name)) return peelToCommit(repo, name);
  if (name.startsWith('refs/heads/')) return branch(name.slice(11));
  if (name.startsWith('refs/tags/')) return tag(name.slice(10));
  // git's lookup order: refs/<name>, refs/tags/<name>, refs/heads/<name>, then an abbreviated id.
  const found = tag(name) ?? branch(name);
  if (found !== null) return found;
  if (/^[0-9a-f]{4,39}$/.test(name)) {
    const found: string[] = [];
    for (const oid of repo.findByPrefix(name)) {
      const commit = await peelToCommit(repo, oid);
      if (commit && !found.includes(commit)) found.push(commit);
    }
    return found.length === 1 ? found[0]! : null;
  }
  return null;
}

/** The commit a revision names (`main`, `v1.0`, `1a2b3c4d`, `HEAD~2`, `main^2`), or null. */
export async function resolveCommit(repo: RepositoryObjects, view: RepoView, revision: string): Promise<string | null> {
  const m = /^(.+?)((?:[~^]\d*)*)$/.exec(revision);
  if (!m) return null;
  let sha = await resolveName(repo, view, m[1]!);
  for (const op of m[2]!.match(/[~^]\d*/g) ?? []) {
    if (!sha) return null;
    const n = op.length > 1 ? Number(op.slice(1)) : 1;
    if (op[0] === '~') {
      for (let i = 0; i < n && sha; i++) sha = (await repo.readCommit(sha)).parents[0] ?? null;
    } else if (n > 0) sha = (await repo.readCommit(sha)).parents[n - 1] ?? null;
  }
  return sha;
}

/** A role name or access level, as fixtures and settings give it. */
export type AccessInput = number | keyof typeof ACCESS;

export function protection(push: AccessInput = 'maintainer', merge: AccessInput = 'maintainer'): ProtectedBranch {
  const level = (a: AccessInput) => (typeof a === 'number' ? a : ACCESS[a]);
  return { pushAccessLevel: level(push), mergeAccessLevel: level(merge) };
}

/** A repository by its container: a project's (with its wiki and design repositories), a snippet's, a group's wiki. */
export type RepositoryContainer = 'project' | 'snippet' | 'group';

/** Whether a container's repositories take no writes for now (a storage move in progress). */
export function isRepositoryReadOnly(state: State, container: RepositoryContainer, id: number): boolean {
  return tget(state.readOnlyRepositories, `${container}:${id}`) !== undefined;
}

/** Marks a container's repositories read-only (with why), or writable again (use on a draft). */
export function setRepositoryReadOnly(draft: Draft<State>, container: RepositoryContainer, id: number, reason: string | null): void {
  if (reason === null) tdel(draft.readOnlyRepositories, `${container}:${id}`);
  else tset(draft.readOnlyRepositories, `${container}:${id}`, reason);
}

/**
 * The one check every write to a repository passes: while the container is read-only, GitLab's
 * "The repository is temporarily read-only. Please try again later." Reads never ask. Every ref
 * change and a request's first object write go through `draftRefs`, which asks; a door that
 * writes some other way (git push over HTTP, wikis, snippets) calls this itself first.
 */
export function assertRepositoryWritable(state: State, container: RepositoryContainer, id: number): void {
  if (isRepositoryReadOnly(state, container, id)) throw repositoryReadOnly();
}

/** The shard a container's repositories are on (the first shard until a move says otherwise). */
export function repositoryStorageOf(state: State, container: RepositoryContainer, id: number): string {
  return tget(state.repositoryPlacement, `${container}:${id}`) ?? state.storageShards[0]?.name ?? 'default';
}

/** Records the shard a container's repositories are on (use on a draft). */
export function placeRepository(draft: Draft<State>, container: RepositoryContainer, id: number, shard: string): void {
  if (shard === draft.storageShards[0]?.name) tdel(draft.repositoryPlacement, `${container}:${id}`);
  else tset(draft.repositoryPlacement, `${container}:${id}`, shard);
}

/**
 * The refs of a project's repository on a draft of the world, made when it has none yet, for a
 * write to the repository: refused while the repository is read-only.
 */
export function draftRefs(draft: Draft<State>, projectId: number): Repository {
  assertRepositoryWritable(draft as State, 'project', projectId);
  let refs = tget(draft.repositories, projectId);
  if (refs === undefined) {
    tset(draft.repositories, projectId, emptyRepository());
    refs = tget(draft.repositories, projectId)!;
  }
  return refs as Repository;
}

/**
 * The change that records the storage of a project's repository and the last write to it this
 * world made (objects were written: the first ones, or the first after the histories parted).
 */
export function recordStorage(projectId: number, storage: number, seen: number): (draft: Draft<State>) => void {
  return (draft) => {
    const refs = draftRefs(draft, projectId);
    refs.storage = storage;
    refs.seen = seen;
  };
}

/** How the object database finds a repository's storage in a world: with its refs. */
export const REPOSITORY_STORAGE: StorageBinding = {
  storageOf: (world, projectId) => {
    const refs = tget((world as State).repositories, projectId);
    return refs?.storage === undefined ? undefined : { id: refs.storage, seen: refs.seen ?? 0 };
  },
  record: recordStorage,
};

/**
 * The objects of a project's repository. In a request (`ctx`), its view of them: what the request
 * writes stays pending until it commits (this is `ctx.env.git.repository(project.id)`). Over a
 * world (`{ db, state }`), the committed objects the world sees; a write stores the object at
 * once and records the storage it went to, and the write, with `update`, when given (else the
 * write is refused), in the world `current` gives as it is then (default: `state`).
 */
export function objectsOf(
  from:
    | Pick<Context<unknown>, 'env'>
    | { db: ObjectDatabase; state: State; update?: (recipe: (draft: Draft<State>) => void) => void; current?: () => State },
  project: Pick<Project, 'id'>,
): RepositoryObjects {
  if ('env' in from) return from.env.git.repository(project.id);
  const { db, state, update, current } = from;
  if (!update) return db.repositoryIn(state, project.id);
  return db.repositoryIn(state, project.id, {
    world: current ?? (() => state),
    record: (storage, seen) => update(recordStorage(project.id, storage, seen)),
  });
}

