// One commit of many file actions (Files::MultiService through Commits::CreateService, and
// Gitaly's UserCommitFiles): create, update, delete, move and chmod, applied one after another
// to the tree of the start commit, so a later action sees what an earlier one did.
import { checkWebCommit } from './git-push.js';
import { lastCommitForPath } from '../../git/history.js';
import type { RepositoryObjects, TreeEntry } from '../../git/objects.js';
import { MODE_EXECUTABLE, MODE_FILE, entryAt, listFiles, writeTreeWith, type PathChange } from '../../git/tree.js';
import type { Project, User } from '../../store/state.js';
import type { State } from '../world.js';
import { moveBranch, type Outcome, type Person } from './commit-service.js';
import {
  directoryExists, fileChanged, fileExists, fileMissing, filePathMissing, invalidPath, notOnBranch, pathTraversal, pushNotAllowed,
  startShaInvalid, startShaMissing, targetBranchExists, targetBranchInvalid,
} from './errors.js';
import { canPushToBranch, isValidBranchName, refsOf } from './rules.js';
import { branchTip, isEmptyRepository } from './refs.js';

export type ActionKind = 'create' | 'update' | 'delete' | 'move' | 'chmod';

export interface CommitAction {
  action: ActionKind;
  path: string;
  /** `move`: the file moved. */
  previousPath?: string;
  /** New content; a `move` without it keeps the moved file's content, a `create` without it is empty. */
  content?: Uint8Array;
  /** `chmod`: whether the file is executable. */
  executable?: boolean;
  /** `update`, `move`, `delete`, `chmod`: the commit the caller believes last changed the file. */
  lastCommitId?: string;
}

export interface MultiCommitRequest {
  branch: string;
  /** The branch the commit starts from (Grape sets it to `branch` unless `startSha` is given). */
  startBranch?: string;
  startSha?: string;
  force: boolean;
  message: string;
  author: Person;
  committer: Person;
  actions: CommitAction[];
  /** Epoch milliseconds. */
  now: number;
}

const ident = (p: Person, now: number) => ({ name: p.name, email: p.email, timestamp: Math.floor(now / 1000), offset: 0 });

/** Gitaly's path rules (UserCommitFiles' validatePath). */
function checkPath(path: string): void {
  if (path === '') throw filePathMissing();
  const parts = path.split('/');
  if (parts.includes('..')) throw pathTraversal();
  if (parts.some((p) => p === '' || p === '.' || p === '.git') || path.includes('\0')) throw invalidPath(path);
}

/**
 * The tree being edited: the start commit's tree with the changes made so far. Lookups read the
 * base tree lazily, so a commit costs what its actions touch, not the size of the repository.
 */
class EditedTree {
  readonly changes = new Map<string, PathChange['entry']>();
  /** Directory -> how many files the changes put under it: a directory check costs one look-up. */
  readonly #written = new Map<string, number>();
  constructor(private readonly repo: RepositoryObjects, private readonly base: string | null) {}

  #count(path: string, by: number): void {
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
      const dir = path.slice(0, i);
      this.#written.set(dir, (this.#written.get(dir) ?? 0) + by);
    }
  }

  /** The file at `path` now, or null. */
  async file(path: string): Promise<{ oid: string; mode: string } | null> {
    if (this.changes.has(path)) return this.changes.get(path)!;
    if (!this.base) return null;
    const e = await entryAt(this.repo, this.base, path);
    return e && e.type !== 'tree' ? { oid: e.oid, mode: e.mode } : null;
  }

  /** Whether a directory holds at least one file at `path` now (git has no empty directories). */
  async isDirectory(path: string): Promise<boolean> {
    const prefix = `${path}/`;
    if ((this.#written.get(path) ?? 0) > 0) return true;
    if (!this.base) return false;
    const e: TreeEntry | null = await entryAt(this.repo, this.base, path);
    if (!e || e.type !== 'tree' || this.changes.get(path)) return false;
    for (const p of (await listFiles(this.repo, e.oid, prefix)).keys()) if (!this.changes.has(p) || this.changes.get(p)) return true;
    return false;
  }

  /** Whether a file stands where one of the path's directories would be. */
  async blocked(path: string): Promise<boolean> {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) if (await this.file(parts.slice(0, i).join('/'))) return true;
    return false;
  }

  set(path: string, entry: PathChange['entry']): void {
    if (this.changes.get(path)) this.#count(path, -1);
    if (entry) this.#count(path, 1);
    this.changes.set(path, entry);
  }
}

/** Applies the actions in order, as Gitaly does, refusing the first one it cannot apply. */
async function applyActions(repo: RepositoryObjects, base: string | null, actions: readonly CommitAction[]): Promise<string> {
  const tree = new EditedTree(repo, base);
  const blob = (content: Uint8Array | undefined) => repo.writeBlob(content ?? new Uint8Array());
  for (const a of actions) {
    checkPath(a.path);
    if (a.action === 'create' || a.action === 'move') {
      if (a.action === 'move') {
        checkPath(a.previousPath ?? '');
        if (!(await tree.file(a.previousPath!))) throw fileMissing();
      }
      if (await tree.isDirectory(a.path)) throw directoryExists();
      if ((await tree.file(a.path)) || (await tree.blocked(a.path))) throw fileExists();
      if (a.action === 'create') {
        tree.set(a.path, { oid: await blob(a.content), mode: MODE_FILE });
      } else {
        const from = (await tree.file(a.previousPath!))!;
        tree.set(a.previousPath!, null);
        tree.set(a.path, { oid: a.content === undefined ? from.oid : await blob(a.content), mode: from.mode });
      }
      continue;
    }
    const current = await tree.file(a.path);
    if (!current) throw fileMissing();
    if (a.action === 'delete') tree.set(a.path, null);
    else if (a.action === 'update') tree.set(a.path, { oid: await blob(a.content), mode: current.mode });
    else tree.set(a.path, { oid: current.oid, mode: a.executable ? MODE_EXECUTABLE : MODE_FILE });
  }
  return writeTreeWith(repo, base, [...tree.changes].map(([path, entry]) => ({ path, entry })));
}

/**
 * Commits::CreateService#validate! and Files::MultiService for POST /projects/:id/repository/commits:
 * checks the branches and the files' last commits, writes the commit and returns the change that
 * moves the branch.
 */
export async function commitActions(repo: RepositoryObjects, state: State, project: Project, user: User, req: MultiCommitRequest): Promise<Outcome> {
  const refs = refsOf(state, project.id);
  const { branch, startBranch, startSha, force } = req;
  if (!canPushToBranch(state, user, project, branch, req.now)) throw pushNotAllowed();
  if (startSha !== undefined) {
    if (!/^[0-9a-f]{40}$/i.test(startSha)) throw startShaInvalid(startSha);
    if (!repo.has(startSha.toLowerCase()) || (await repo.type(startSha.toLowerCase())) !== 'commit') throw startShaMissing(startSha);
  }
  const empty = isEmptyRepository(refs);
  if (startBranch !== undefined && !empty && branchTip(refs, startBranch) === undefined) throw notOnBranch();
  const different = startBranch !== branch;
  const exists = branchTip(refs, branch) !== undefined;
  if (!empty && different && exists && !force) throw targetBranchExists(branch);
  if (different && !isValidBranchName(branch)) throw targetBranchInvalid(branch);
  if (!isValidBranchName(branch)) throw targetBranchInvalid(branch);
  const base = startSha !== undefined ? startSha.toLowerCase() : startBranch !== undefined ? branchTip(refs, startBranch) ?? null : null;
  // Files::MultiService#validate_file_status!: a file changed since the caller last saw it.
  for (const a of req.actions) {
    if (a.action === 'create' || a.lastCommitId === undefined || startBranch === undefined || !base) continue;
    const path = a.previousPath ?? a.path;
    const last = await lastCommitForPath(repo, base, path);
    if (last && last !== a.lastCommitId) throw fileChanged(path);
  }
  const tree = await applyActions(repo, base ? (await repo.readCommit(base)).tree : null, req.actions);
  const sha = await repo.writeCommit({
    tree,
    parents: base ? [base] : [],
    author: ident(req.author, req.now),
    committer: ident(req.committer, req.now),
    message: req.message,
  });
  await checkWebCommit({ state, project }, branch, sha, repo);
  return { sha, recipe: moveBranch(project.id, branch, branchTip(refs, branch), sha, req.now) };
}
