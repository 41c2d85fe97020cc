// Snippets::{Create,Update,Destroy}Service: checks first, then the commit on the snippet's
// repository (written pending, kept only if the request commits), then a recipe that stores the
// snippet, moves its branch and keeps its indexes (by project, by author, public personal
// snippets). Each write touches one snippet's records and its own small tree, whatever the
// number of snippets.
import type { Draft } from 'immer';
import { sequences, type Project, type Visibility } from '../../store/state.js';
import { pdel, pset, tdel, tget, tset } from '../../store/table.js';
import { dropNotes, noteKey, noteList } from '../../store/notes.js';
import { dropAwards } from '../issuables/index.js';
import { assertRepositoryWritable, personOf, setBranchRef } from '../repositories/index.js';
import { plain, type Change, type GitWork } from '../define.js';
import type { State } from '../world.js';
import { repositoryError, snippetInvalid, snippetNotFound } from './errors.js';
import type { Snippet } from './records.js';
import { CommitRefused, snippetHead, snippetRepoKey, sortPaths, transformActions, writeSnippetCommit, type InputAction } from './repository.js';

export const ids = sequences(['snippet']);

/** Snippet#default_branch for a new repository: the instance's default branch name. */
export const SNIPPET_DEFAULT_BRANCH = 'main';

/** Snippets::BaseService's commit messages. */
export const INITIAL_COMMIT_MSG = 'Initial commit';
export const UPDATE_COMMIT_MSG = 'Update snippet';

/** Keeps the indexes of a stored snippet: by project, by author, public personal snippets. */
export function indexSnippet(d: State, s: Snippet): void {
  tset(d.snippets, s.id, s);
  if (s.projectId !== null) pset(d.projectSnippetIds, s.projectId, s.id, s.id);
  pset(d.userSnippetIds, s.authorId, s.id, s.id);
  if (s.projectId === null && s.visibility === 'public') tset(d.publicSnippetIds, s.id, s.id);
  else tdel(d.publicSnippetIds, s.id);
}

/** Moves the snippet's branch to `sha` in its refs (made with the repository's first objects). */
function moveBranch(d: Draft<State>, id: number, branch: string, sha: string): void {
  const refs = tget(d.repositories, snippetRepoKey(id));
  if (!refs) throw new Error(`snippet ${id} has no repository refs`);
  setBranchRef(refs, branch, sha);
}

/** Snippet's validations of `title` and `file_name` (255 characters at most). */
function validate(title: string | undefined, fileName: string | undefined): void {
  const errors: string[] = [];
  if (title !== undefined && [...title].length > 255) errors.push('Title is too long (maximum is 255 characters)');
  if (fileName !== undefined && [...fileName].length > 255) errors.push('File name is too long (maximum is 255 characters)');
  if (errors.length) throw snippetInvalid(errors);
}

export interface CreateSnippetInput {
  title: string;
  description?: string;
  visibility: Visibility;
  /** `files` as create actions, or the legacy `file_name`/`content` as one action. */
  actions: InputAction[];
  userAgent?: { userAgent: string; ipAddress: string };
}

/** Snippets::CreateService: the snippet and its repository's first commit, "Initial commit" by the caller. */
export async function createSnippet(w: GitWork, project: Project | null, input: CreateSnippetInput): Promise<Change<Snippet>> {
  const { now, user: author } = w;
  const actions = transformActions([], input.actions);
  validate(input.title, input.actions[0]?.file_path);
  // The id the change will take: its repository is written first.
  const id = ids.peek(w.state, 'snippet');
  const repo = w.git(snippetRepoKey(id));
  let commit;
  try {
    commit = await writeSnippetCommit(repo, null, actions, { message: INITIAL_COMMIT_MSG, author: personOf(author), now });
  } catch (e) {
    if (e instanceof CommitRefused) throw repositoryError('creating', e.invalidPath);
    throw e;
  }
  const { sha, paths } = commit;
  return (draft) => {
    const d = draft as State;
    if (ids.next(d, 'snippet') !== id) throw new Error('snippet ids moved during the request');
    const snippet: Snippet = {
      id,
      projectId: project?.id ?? null,
      authorId: author.id,
      title: input.title,
      description: input.description ?? null,
      visibility: input.visibility,
      fileName: actions[0]?.path ?? '',
      paths,
      branch: SNIPPET_DEFAULT_BRANCH,
      createdAt: now,
      updatedAt: now,
      ...(input.userAgent ? { userAgent: input.userAgent } : {}),
    };
    indexSnippet(d, snippet);
    moveBranch(draft, id, snippet.branch, sha);
    return snippet;
  };
}

export interface SnippetChanges {
  title?: string;
  description?: string;
  visibility?: Visibility;
  /** The file actions to commit ("Update snippet"); absent: nothing to commit. */
  actions?: InputAction[];
  /** The `file_name` column's new value (`file_name`, or the first action's path). */
  fileName?: string;
  /** Who asked, recorded as the user agent detail when the change is spam-checked (`checkedForSpam`). */
  userAgent?: { userAgent: string; ipAddress: string };
}

/**
 * Snippet#check_for_spam?: made or made public, or public with a new title or content. Only a
 * checked change records its user agent detail (UserAgentDetailService's `perform_spam_check`),
 * and only with a user agent and an address; so a private snippet has none (404 since GitLab 16).
 */
export function checkedForSpam(before: { visibility: Visibility } | null, after: { visibility: Visibility }, contentChanged: boolean): boolean {
  if (after.visibility !== 'public') return false;
  return before === null || before.visibility !== 'public' || contentChanged;
}

/**
 * Snippets::UpdateService: the attributes, and a commit when files or content change. A commit
 * Gitaly refuses changes nothing: 400 "Repository Error updating the snippet".
 */
export async function updateSnippet(w: GitWork, snippet: Snippet, changes: SnippetChanges): Promise<Change<Snippet>> {
  assertRepositoryWritable(w.state, 'snippet', snippet.id);
  validate(changes.title, changes.fileName);
  const now = w.now;
  let committed: { sha: string; paths: string[] } | null = null;
  const actions = changes.actions ? transformActions(snippet.paths, changes.actions) : [];
  if (actions.length > 0) {
    const repo = w.git(snippetRepoKey(snippet.id));
    try {
      committed = await writeSnippetCommit(repo, snippetHead(w.state, snippet) ?? null, actions, { message: UPDATE_COMMIT_MSG, author: personOf(w.user), now });
    } catch (e) {
      if (e instanceof CommitRefused) throw repositoryError('updating', e.invalidPath);
      throw e;
    }
  }
  const head = snippetHead(w.state, snippet);
  return (draft) => {
    const d = draft as State;
    assertRepositoryWritable(d, 'snippet', snippet.id);
    const s = tget(d.snippets, snippet.id);
    if (!s) throw snippetNotFound();
    const before = JSON.stringify([s.title, s.description, s.visibility, s.fileName]);
    if (changes.title !== undefined) s.title = changes.title;
    if (changes.description !== undefined) s.description = changes.description;
    if (changes.visibility !== undefined) s.visibility = changes.visibility;
    if (changes.fileName !== undefined) s.fileName = changes.fileName;
    if (committed) {
      if (snippetHead(d, s as Snippet) !== head) throw repositoryError('updating', false);
      s.paths = committed.paths;
      moveBranch(draft, s.id, s.branch, committed.sha);
    }
    if (committed || JSON.stringify([s.title, s.description, s.visibility, s.fileName]) !== before) s.updatedAt = now;
    const ua = changes.userAgent;
    if (ua && ua.userAgent !== '' && checkedForSpam(snippet, s, committed !== null || (changes.title !== undefined && changes.title !== snippet.title))) s.userAgent = ua;
    const out = plain(s as Snippet);
    indexSnippet(d, out);
    return out;
  };
}

/**
 * A push moved the snippet's branch (the git surface, on a draft, after GitLab's checks): the
 * branch points at `head`, the record keeps the paths of its files there, and the snippet is
 * touched (PostReceive#process_snippet_changes). A first push to an empty repository may name the
 * branch (SnippetCheck lets it choose); `snippet.change_head_to_default_branch` then follows it.
 */
export function recordSnippetPush(draft: Draft<State>, snippetId: number, push: { branch: string; head: string; paths: readonly string[]; now: number }): void {
  const d = draft as State;
  const s = tget(d.snippets, snippetId);
  if (!s) throw snippetNotFound();
  s.branch = push.branch;
  s.paths = sortPaths([...push.paths]);
  s.updatedAt = push.now;
  moveBranch(draft, snippetId, push.branch, push.head);
  indexSnippet(d, plain(s as Snippet));
}

/** Drops a snippet, its indexes, its notes and its repository's refs (its objects stay, unreachable). */
export function forgetSnippet(d: State, s: Pick<Snippet, 'id' | 'projectId' | 'authorId'>): void {
  tdel(d.snippets, s.id);
  if (s.projectId !== null) pdel(d.projectSnippetIds, s.projectId, s.id);
  pdel(d.userSnippetIds, s.authorId, s.id);
  tdel(d.publicSnippetIds, s.id);
  tdel(d.repositories, snippetRepoKey(s.id));
  tdel(d.readOnlyRepositories, `snippet:${s.id}`);
  tdel(d.repositoryPlacement, `snippet:${s.id}`);
  // Its award emoji and its notes' (AwardEmoji is `dependent: :destroy` of each awardable).
  for (const note of noteList(d, noteKey('Snippet', s.id))) dropAwards(d, { type: 'Note', id: note.id });
  dropAwards(d, { type: 'Snippet', id: s.id });
  dropNotes(d, noteKey('Snippet', s.id));
}

export function deleteSnippet(state: State, snippet: Snippet): Change<void> {
  assertRepositoryWritable(state, 'snippet', snippet.id);
  return (draft) => forgetSnippet(draft as State, snippet);
}
