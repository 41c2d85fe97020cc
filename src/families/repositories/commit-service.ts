// Changing a repository as GitLab's services do (app/services/commits/create_service.rb,
// files/{create,update,delete}_service.rb, branches/{create,delete}_service.rb, Gitaly's
// index errors). Each operation writes its git objects first and returns a recipe that moves
// the refs; the recipe checks that the branch is still where it was read, so a request that
// fails, or loses a race, leaves only unreachable objects behind.
import { checkWebCommit } from './git-push.js';
import { lastCommitForPath } from '../../git/history.js';
import type { Ident, RepositoryObjects, TreeEntry } from '../../git/objects.js';
import { MODE_EXECUTABLE, MODE_FILE, entryAt, writeTreeWith, type PathChange } from '../../git/tree.js';
import { notFound } from '../../core/errors.js';
import type { Project, User } from '../../store/state.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import { tget } from '../../store/table.js';
import {
  canDeleteBranch,
  canPushToBranch,
  defaultBranchName,
  draftRefs,
  isValidBranchName,
  refsOf,
  resolveCommit,
  type RepoView,
} from './rules.js';
import { branchTip, conflictsWithHierarchy, deleteBranchRef, isEmptyRepository, setBranchRef } from './refs.js';
import type { Repository } from './records.js';
import { recordPush } from './post-push.js';
import { emptyTable } from '../../store/table.js';
import {
  branchExists, branchHierarchyConflict, branchMoved, branchNameInvalid, changedBeforeDelete, changedWhileEditing, defaultBranchUndeletable,
  directoryExists, fileExists, fileMissing, filePathMissing, invalidPath, invalidReference, notOnBranch, nothingCommitted, pathTraversal,
  protectedBranchUndeletable, pushNotAllowed, targetBranchExists, targetBranchInvalid,
} from './errors.js';

/** A change of the world that returns nothing. */
export type Recipe = Change<void>;

export interface FileAction {
  action: 'create' | 'update' | 'delete';
  path: string;
  content?: Uint8Array;
  /** The executable bit; absent keeps the file's mode (a new file is not executable). */
  executable?: boolean;
  /** The commit the caller believes last changed the file. */
  lastCommitId?: string;
}

export interface Person {
  name: string;
  email: string;
}

export interface CommitRequest {
  branch: string;
  /** The branch the commit starts from; the target branch itself when absent. */
  startBranch?: string;
  message: string;
  author: Person;
  committer: Person;
  actions: FileAction[];
  /** Epoch milliseconds. */
  now: number;
}

/** A commit written, and the change that moves its branch there: it gives the project and its refs after the move. */
export interface Outcome {
  sha: string;
  recipe: Change<void>;
}

export const personOf = (user: User): Person => ({ name: user.name, email: user.email });

const ident = (p: Person, now: number): Ident => ({ name: p.name, email: p.email, timestamp: Math.floor(now / 1000), offset: 0 });

/** Gitaly's path rules for a file to change. */
function checkPath(path: string): void {
  if (path === '') throw filePathMissing();
  const parts = path.split('/');
  if (parts.includes('..')) throw pathTraversal();
  if (parts.some((p) => p === '' || p === '.' || p === '.git') || path.includes('\0')) throw invalidPath(path);
}

/** What is at `path` under a tree: a file, a directory, or a file in the way of the path. */
async function lookup(repo: RepositoryObjects, tree: string | null, path: string): Promise<{ file?: TreeEntry; dir?: boolean; blocked?: boolean }> {
  if (!tree) return {};
  const parts = path.split('/');
  let t = tree;
  for (let i = 0; i < parts.length; i++) {
    const e = (await repo.readTree(t)).get(parts[i]!);
    if (!e) return {};
    if (i === parts.length - 1) return e.type === 'tree' ? { dir: true } : { file: e };
    if (e.type !== 'tree') return { blocked: true };
    t = e.oid;
  }
  return {};
}

/**
 * Writes one commit of file changes on top of `base` (null: a root commit) and returns its sha.
 * No GitLab rule is checked here but Gitaly's own (existing files, directories, paths).
 */
export async function writeFileCommit(
  repo: RepositoryObjects,
  base: string | null,
  req: Pick<CommitRequest, 'message' | 'author' | 'committer' | 'actions' | 'now'>,
  opts: { allowEmpty?: boolean } = {},
): Promise<string> {
  const baseTree = base ? (await repo.readCommit(base)).tree : null;
  const changes: PathChange[] = [];
  const touched = new Set<string>();
  for (const a of req.actions) {
    checkPath(a.path);
    if (touched.has(a.path)) throw invalidPath(a.path);
    touched.add(a.path);
    const at = await lookup(repo, baseTree, a.path);
    if (a.action === 'create') {
      if (at.dir) throw directoryExists();
      if (at.file || at.blocked) throw fileExists();
    } else if (!at.file) throw fileMissing();
    if (a.action === 'delete') {
      changes.push({ path: a.path, entry: null });
      continue;
    }
    const oid = await repo.writeBlob(a.content ?? new Uint8Array());
    const keep = at.file?.mode === MODE_EXECUTABLE ? MODE_EXECUTABLE : MODE_FILE;
    const mode = a.executable === undefined ? keep : a.executable ? MODE_EXECUTABLE : MODE_FILE;
    changes.push({ path: a.path, entry: { oid, mode } });
  }
  const tree = await writeTreeWith(repo, baseTree, changes);
  if (tree === baseTree && !opts.allowEmpty) throw nothingCommitted();
  return repo.writeCommit({
    tree,
    parents: base ? [base] : [],
    author: ident(req.author, req.now),
    committer: ident(req.committer, req.now),
    message: req.message,
  });
}

/**
 * Moves a branch, if it is still where it was read (`expected`, undefined for a new branch).
 * It returns nothing: a copy of the drafted refs would cost a copy of the chunks it touched;
 * read the world after the update instead.
 */
export function moveBranch(projectId: number, branch: string, expected: string | undefined, sha: string, now: number): Change<void> {
  return (draft) => {
    const p = tget(draft.projects, projectId);
    if (!p) throw notFound('Project');
    const refs = draftRefs(draft, projectId);
    if (branchTip(refs, branch) !== expected) throw branchMoved(branch);
    const wasEmpty = isEmptyRepository(refs);
    setBranchRef(refs, branch, sha);
    recordPush(draft, { projectId, ref: branch, before: expected ?? null, after: sha });
    // The first branch pushed to an empty repository becomes HEAD unless HEAD's branch exists.
    if (wasEmpty && branch !== defaultBranchName(p as Project)) p.defaultBranch = branch;
    p.lastActivityAt = now;
  };
}

/** Files::{Create,Update,Delete}Service through Commits::CreateService#validate!. */
export async function commitFiles(
  repo: RepositoryObjects,
  state: State,
  project: Project,
  user: User,
  req: CommitRequest,
): Promise<Outcome> {
  const refs = refsOf(state, project.id);
  if (!canPushToBranch(state, user, project, req.branch, req.now)) throw pushNotAllowed();
  const empty = isEmptyRepository(refs);
  const start = req.startBranch ?? req.branch;
  if (!empty && branchTip(refs, start) === undefined) throw notOnBranch();
  const different = start !== req.branch;
  if (!empty && different && branchTip(refs, req.branch) !== undefined) throw targetBranchExists(req.branch);
  if (different && !isValidBranchName(req.branch)) throw targetBranchInvalid(req.branch);
  const base = empty ? null : branchTip(refs, start)!;
  for (const a of req.actions) {
    if (a.lastCommitId === undefined || a.action === 'create' || !base) continue;
    const last = await lastCommitForPath(repo, base, a.path);
    if (last && last !== a.lastCommitId) throw a.action === 'update' ? changedWhileEditing() : changedBeforeDelete();
  }
  const sha = await writeFileCommit(repo, base, req);
  await checkWebCommit({ state, project }, req.branch, sha, repo);
  return { sha, recipe: moveBranch(project.id, req.branch, branchTip(refs, req.branch), sha, req.now) };
}

/** The README that `initialize_with_readme` commits. */
export function readmeContent(project: Project): string {
  return project.description ? `# ${project.name}\n\n${project.description}\n` : `# ${project.name}\n`;
}

/** The first commit of an empty repository: README.md alone, on the default branch. */
async function firstReadmeCommit(repo: RepositoryObjects, project: Project, user: User, message: string, content: string, now: number): Promise<Outcome> {
  const branch = defaultBranchName(project);
  const who = personOf(user);
  const sha = await writeFileCommit(repo, null, {
    message,
    author: who,
    committer: who,
    now,
    actions: [{ action: 'create', path: 'README.md', content: new TextEncoder().encode(content) }],
  });
  return { sha, recipe: moveBranch(project.id, branch, undefined, sha, now) };
}

/** POST /projects with `initialize_with_readme`: an "Initial commit" of README.md on the default branch. */
export function initializeWithReadme(repo: RepositoryObjects, project: Project, user: User, now: number): Promise<Outcome> {
  return firstReadmeCommit(repo, project, user, 'Initial commit', readmeContent(project), now);
}

/** The refs of an empty repository with one branch (what a first README commit makes of it). */
function withBranch(empty: Repository, name: string, sha: string): Repository {
  const refs: Repository = { ...empty, branches: emptyTable(), branchDirs: emptyTable() };
  setBranchRef(refs, name, sha);
  return refs;
}

/** Branches::CreateService: an empty repository first gets an empty README.md on its default branch. */
export async function createBranch(repo: RepositoryObjects, current: RepoView, user: User, name: string, ref: string, now: number): Promise<Outcome> {
  if (!isValidBranchName(name)) throw branchNameInvalid();
  const { project } = current;
  const readme = isEmptyRepository(current.refs) ? await firstReadmeCommit(repo, project, user, 'Add README.md', '', now) : null;
  const view = readme ? { project, refs: withBranch(current.refs, defaultBranchName(project), readme.sha) } : current;
  if (branchTip(view.refs, name) !== undefined) throw branchExists();
  const target = await resolveCommit(repo, view, ref);
  if (!target) throw invalidReference(name, ref);
  if (conflictsWithHierarchy(view.refs, name)) throw branchHierarchyConflict(name);
  const move = moveBranch(project.id, name, undefined, target, now);
  const recipe: Change<void> = (draft) => {
    readme?.recipe(draft);
    if (branchTip(refsOf(draft as State, project.id), name) !== undefined) throw branchExists();
    return move(draft);
  };
  return { sha: target, recipe };
}

/** Branches::DeleteService, with the pre-receive checks Gitaly runs for it. */
export function deleteBranch(state: State, project: Project, user: User, name: string, now: number): Recipe {
  if (name === defaultBranchName(project)) throw defaultBranchUndeletable();
  if (!canDeleteBranch(state, user, project, name, now)) throw protectedBranchUndeletable();
  const expected = branchTip(refsOf(state, project.id), name);
  return (draft) => {
    const p = tget(draft.projects, project.id);
    if (!p) throw notFound('Project');
    const refs = draftRefs(draft, project.id);
    if (branchTip(refs, name) !== expected) throw branchMoved(name);
    deleteBranchRef(refs, name);
    recordPush(draft, { projectId: project.id, ref: name, before: expected ?? null, after: null });
    p.lastActivityAt = now;
  };
}

/** The file at `path` in a commit, or null. */
export async function fileAt(repo: RepositoryObjects, commit: string, path: string): Promise<TreeEntry | null> {
  const e = await entryAt(repo, (await repo.readCommit(commit)).tree, path);
  return e && e.type === 'blob' ? e : null;
}

/** Writes an annotated tag object for `commit`, as Gitaly does (the message ends in a newline). */
export function writeAnnotatedTag(repo: RepositoryObjects, name: string, commit: string, message: string, tagger: User, now: number): Promise<string> {
  return repo.writeTag({
    object: commit,
    type: 'commit',
    tag: name,
    message: message.endsWith('\n') ? message : `${message}\n`,
    tagger: { name: tagger.name, email: tagger.email, timestamp: Math.floor(now / 1000), offset: 0 },
  });
}
