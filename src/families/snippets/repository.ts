// A snippet's git repository (SnippetRepository, Gitaly's UserCommitFiles as snippets use it):
// its refs are an entry of the repositories table under a key of its own, its objects live in
// the object store with every other repository's. A change is one commit on the snippet's
// branch; the file actions apply one after another, with Gitaly's index errors.
import type { Ident, RepositoryObjects, TreeEntry } from '../../git/objects.js';
import { listFiles, writeTreeWith, MODE_FILE } from '../../git/tree.js';
import type { Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { branchTip, emptyRepository, resolveCommit, type Person, type Repository } from '../repositories/index.js';
import type { State } from '../world.js';
import type { Snippet } from './records.js';

/**
 * The key of a snippet's repository in the repositories table and the object store: below the
 * keys of projects (their ids) and of group wikis (their negated ids), so no two ever meet.
 */
export const SNIPPET_KEY_BASE = 2 ** 40;
export const snippetRepoKey = (id: number): number => -(SNIPPET_KEY_BASE + id);

const NO_REFS: Repository = Object.freeze(emptyRepository());

/** The refs of a snippet's repository as the world has them. */
export const snippetRefs = (state: State, id: number): Repository => tget(state.repositories, snippetRepoKey(id)) ?? NO_REFS;

/** The commit at the head of the snippet's branch, if its repository has one. */
export const snippetHead = (state: State, s: Snippet): string | undefined => branchTip(snippetRefs(state, s.id), s.branch);

/** Snippet::MAX_FILE_COUNT (`Snippet.max_file_limit`): the files a snippet's repository may hold. */
export const SNIPPET_MAX_FILES = 10;

/** The paths of the files at a commit of a snippet's repository, as git lists them. */
export async function snippetPathsAt(repo: RepositoryObjects, commit: string): Promise<string[]> {
  return sortPaths([...(await filesAt(repo, commit)).keys()]);
}

/** SnippetRepository::DEFAULT_EMPTY_FILE_NAME and EMPTY_FILE_PATTERN. */
const EMPTY_FILE = /^snippetfile(\d+)\.txt$/;

/** A file action as the API takes it (SnippetInputAction), or as the legacy params build it. */
export interface InputAction {
  action?: 'create' | 'update' | 'delete' | 'move';
  file_path?: string;
  previous_path?: string;
  content?: string;
}

const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/** SnippetInputAction's validations (`allowed` restricts the actions, as a create does). */
export function validAction(a: InputAction, allowed?: InputAction['action']): boolean {
  if (a.action === undefined) return false;
  if (allowed && a.action !== allowed) return false;
  if (a.action === 'move') {
    if (!present(a.previous_path)) return false;
    if (a.previous_path === a.file_path) return false;
  }
  if ((a.action === 'update' || a.action === 'delete') && !present(a.file_path)) return false;
  if ((a.action === 'create' || a.action === 'update') && !present(a.content)) return false;
  if (a.action === 'update' && present(a.previous_path) && present(a.file_path) && a.previous_path !== a.file_path) return false;
  return true;
}

/** SnippetInputAction#to_commit_action: an update's previous path is its file path when not given. */
export function toCommitAction(a: InputAction): InputAction {
  return a.action === 'update' ? { ...a, previous_path: present(a.previous_path) ? a.previous_path : a.file_path } : { ...a };
}

/** One change of a commit, as SnippetRepository#transform_file_entries leaves it. */
export interface CommitAction {
  action: 'create' | 'update' | 'delete' | 'move';
  path: string;
  previousPath?: string;
  /** Absent on a move: the file keeps its content. */
  content?: string;
}

/**
 * SnippetRepository#transform_file_entries over the snippet's current paths: a blank path takes
 * the previous one when that is a generated name, else the next `snippetfileN.txt`; a missing
 * action is inferred; an update without content is dropped.
 */
export function transformActions(paths: readonly string[], actions: readonly InputAction[]): CommitAction[] {
  let next = 1 + paths.reduce((max, p) => Math.max(max, Number(EMPTY_FILE.exec(p)?.[1] ?? 0)), 0);
  const out: CommitAction[] = [];
  for (const a of actions) {
    let path: string;
    if (present(a.file_path)) path = a.file_path;
    else if (present(a.previous_path) && EMPTY_FILE.test(a.previous_path)) path = a.previous_path;
    else path = `snippetfile${next++}.txt`;
    const action = a.action ?? (!present(a.previous_path) ? 'create' : a.previous_path !== path ? 'move' : 'update');
    if (action === 'update' && a.content === undefined) continue;
    out.push({ action, path, previousPath: a.previous_path, content: a.content });
  }
  return out;
}

/** A commit that Gitaly refuses: SnippetRepository::CommitError, or its InvalidPathError. */
export class CommitRefused extends Error {
  constructor(readonly invalidPath: boolean) {
    super(invalidPath ? 'Invalid file name' : 'commit refused');
  }
}

/** Gitaly's path checks: an empty path, a traversal, empty or `.`/`.git` components, NUL. */
function checkPath(path: string): void {
  if (path === '') throw new CommitRefused(false);
  const parts = path.split('/');
  if (parts.includes('..') || parts.some((p) => p === '' || p === '.' || p === '.git') || path.includes('\0')) throw new CommitRefused(true);
}

type Entry = { oid: string; mode: string };

/** Whether a file stands in the way of `path` (one of its directories is a file), or `path` is a directory. */
function blocked(files: Map<string, Entry>, path: string): 'file' | 'dir' | null {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) if (files.has(parts.slice(0, i).join('/'))) return 'file';
  const prefix = `${path}/`;
  for (const p of files.keys()) if (p.startsWith(prefix)) return 'dir';
  return null;
}

const encoder = new TextEncoder();

/** The files of a commit, by path (a snippet's whole tree: a handful of files). */
export async function filesAt(repo: RepositoryObjects, commit: string | null): Promise<Map<string, TreeEntry>> {
  if (commit === null) return new Map();
  return listFiles(repo, (await repo.readCommit(commit)).tree);
}

/**
 * Applies the actions one after another to the files at `base` (Gitaly's UserCommitFiles) and
 * writes the commit; returns its sha and the paths it leaves, sorted as git lists them.
 */
export async function writeSnippetCommit(
  repo: RepositoryObjects,
  base: string | null,
  actions: readonly CommitAction[],
  commit: { message: string; author: Person; now: number },
): Promise<{ sha: string; paths: string[] }> {
  const files = new Map<string, Entry>();
  for (const [path, e] of await filesAt(repo, base)) files.set(path, { oid: e.oid, mode: e.mode });
  for (const a of actions) {
    checkPath(a.path);
    if (a.action === 'create' || a.action === 'move') {
      let from: Entry | undefined;
      if (a.action === 'move') {
        checkPath(a.previousPath ?? '');
        from = files.get(a.previousPath!);
        if (!from) throw new CommitRefused(false);
      }
      // The target is checked with the moved file still in place: a move onto itself is refused.
      if (files.has(a.path) || blocked(files, a.path)) throw new CommitRefused(false);
      if (a.action === 'move') files.delete(a.previousPath!);
      const oid = a.content === undefined ? from!.oid : await repo.writeBlob(encoder.encode(a.content));
      files.set(a.path, { oid, mode: from?.mode ?? MODE_FILE });
    } else if (a.action === 'update') {
      const at = files.get(a.path);
      if (!at) throw new CommitRefused(false);
      files.set(a.path, { oid: await repo.writeBlob(encoder.encode(a.content ?? '')), mode: at.mode });
    } else {
      if (!files.has(a.path)) throw new CommitRefused(false);
      files.delete(a.path);
    }
  }
  const tree = await writeTreeWith(
    repo,
    null,
    [...files].map(([path, entry]) => ({ path, entry })),
  );
  const who: Ident = { name: commit.author.name, email: commit.author.email, timestamp: Math.floor(commit.now / 1000), offset: 0 };
  const sha = await repo.writeCommit({ tree, parents: base ? [base] : [], author: who, committer: who, message: commit.message });
  return { sha, paths: sortPaths([...files.keys()]) };
}

/** Git's order of paths (byte order). */
export function sortPaths(paths: string[]): string[] {
  const bytes = new Map(paths.map((p) => [p, encoder.encode(p)] as const));
  return paths.sort((a, b) => compareBytes(bytes.get(a)!, bytes.get(b)!));
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < a.length && i < b.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The commits of the snippet's branch, newest first (a snippet's history is a line). */
async function history(repo: RepositoryObjects, head: string): Promise<Set<string>> {
  return repo.memo(`snippet-history:${head}`, async () => {
    const seen = new Set<string>();
    for (let sha: string | undefined = head; sha && !seen.has(sha); sha = (await repo.readCommit(sha)).parents[0]) seen.add(sha);
    return seen;
  }, (s) => s.size);
}

/**
 * The commit a ref names in the snippet's repository (`repository.commit(ref)`): its branch,
 * HEAD, a full or abbreviated sha, with `~n`/`^n`; only commits of the snippet's own history.
 */
export async function resolveSnippetRef(repo: RepositoryObjects, state: State, s: Snippet, ref: string): Promise<string | null> {
  const refs = snippetRefs(state, s.id);
  const head = branchTip(refs, s.branch);
  if (!head) return null;
  // resolveCommit reads of the project only the branch HEAD names.
  const sha = await resolveCommit(repo, { project: { defaultBranch: s.branch } as Project, refs }, ref).catch(() => null);
  if (!sha) return null;
  return (await history(repo, head)).has(sha) ? sha : null;
}

/** The `content` column as the last write set it: the first file's text at the head of the snippet's branch ('' without one). */
export async function snippetContent(repo: RepositoryObjects, state: State, s: Snippet): Promise<string> {
  const head = snippetHead(state, s);
  const path = s.paths[0];
  const entry = head && path !== undefined ? (await filesAt(repo, head)).get(path) : undefined;
  return entry ? new TextDecoder().decode(await repo.readBlob(entry.oid)) : '';
}
