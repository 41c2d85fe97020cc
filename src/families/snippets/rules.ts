// Snippet's rules: who may read, create, update and delete a project's or a personal snippet
// (ProjectSnippetPolicy, PersonalSnippetPolicy), and the finder's lists (SnippetsFinder).
import { ACCESS, type Project, type User } from '../../store/state.js';
import { canReadProject, canUseFeature, projectAccess } from '../../policy/access.js';
import { pvalues, tget, tvalues } from '../../store/table.js';
import type { State } from '../world.js';
import type { Snippet } from './records.js';

/** A snippet's visibility for a caller: public for all, internal for signed-in users who are not external, private for its readers below. */
function levelAllows(user: User | null, s: Snippet): boolean {
  if (s.visibility === 'public') return true;
  if (s.visibility === 'internal') return !!user && !user.external;
  return false;
}

/** ProjectPolicy `create_snippet`: reporters and up, with the snippets feature. */
export function canCreateProjectSnippet(state: State, user: User | null, project: Project, now: number): boolean {
  if (!user || project.archived || !canUseFeature(state, user, project, 'snippets', now)) return false;
  return user.admin || projectAccess(state, user, project, now) >= ACCESS.reporter;
}

/** `check_snippets_enabled`: the project's snippets feature, for the caller. */
export const snippetsEnabled = (state: State, user: User | null, project: Project, now: number): boolean => canUseFeature(state, user, project, 'snippets', now);

export function canReadSnippet(state: State, user: User | null, s: Snippet, now: number): boolean {
  if (user?.admin) return true;
  if (user && s.authorId === user.id) return true;
  if (s.projectId === null) return levelAllows(user, s);
  const project = tget(state.projects, s.projectId);
  if (!project || project.pendingDelete || !canReadProject(state, user, project, now) || !canUseFeature(state, user, project, 'snippets', now)) return false;
  if (projectAccess(state, user, project, now) >= ACCESS.guest) return true;
  return levelAllows(user, s);
}

/** `update_snippet` / `admin_snippet`: the author, a project's maintainers, administrators. */
export function canAdminSnippet(state: State, user: User | null, s: Snippet, now: number): boolean {
  if (!user) return false;
  const project = s.projectId === null ? undefined : tget(state.projects, s.projectId);
  // A snippet of an archived project takes no writes.
  if (project?.archived) return false;
  if (user.admin || s.authorId === user.id) return true;
  return !!project && projectAccess(state, user, project, now) >= ACCESS.maintainer;
}

/** `update_snippet`: who may read the snippet and administer it (what a push to its repository needs). */
export const canUpdateSnippet = (state: State, user: User | null, s: Snippet, now: number): boolean => canReadSnippet(state, user, s, now) && canAdminSnippet(state, user, s, now);

/** SnippetsFinder's order: newest first. */
const newestFirst = (a: Snippet, b: Snippet) => b.id - a.id;

export function snippetsOf(state: State, ids: Iterable<number>): Snippet[] {
  const out: Snippet[] = [];
  for (const id of ids) {
    const s = tget(state.snippets, id);
    if (s) out.push(s);
  }
  return out;
}

/**
 * A project's snippet the caller may read (SnippetsFinder with `project:`, then `find`), or
 * undefined: what notes on project snippets look their snippet up with.
 */
export function findProjectSnippet(state: State, user: User | null, project: Project, snippetId: number, now: number): Snippet | undefined {
  const s = tget(state.snippets, snippetId);
  return s && s.projectId === project.id && canReadSnippet(state, user, s, now) ? s : undefined;
}

/** Any snippet (personal or of a project) the caller may read, or undefined. */
export function findReadableSnippet(state: State, user: User | null, snippetId: number, now: number): Snippet | undefined {
  const s = tget(state.snippets, snippetId);
  return s && canReadSnippet(state, user, s, now) ? s : undefined;
}

/** `created_after` / `created_before` of the snippet lists (SnippetsFinder#by_created_*). */
export interface CreatedRange {
  created_after?: number;
  created_before?: number;
}

export const inRange = (r: CreatedRange) => (s: Snippet) =>
  (r.created_after === undefined || s.createdAt >= r.created_after) && (r.created_before === undefined || s.createdAt <= r.created_before);

/** A project's snippets the caller may read, newest first. */
export function projectSnippets(state: State, user: User | null, project: Project, now: number): Snippet[] {
  return snippetsOf(state, pvalues(state.projectSnippetIds, project.id)).filter((s) => canReadSnippet(state, user, s, now)).sort(newestFirst);
}

/** GET /snippets: the caller's own snippets, personal and of projects, newest first. */
export function authoredSnippets(state: State, user: User): Snippet[] {
  return snippetsOf(state, pvalues(state.userSnippetIds, user.id)).sort(newestFirst);
}

/** GET /snippets/public: public personal snippets, newest first (read off their index). */
export function publicSnippets(state: State): Snippet[] {
  return snippetsOf(state, tvalues(state.publicSnippetIds)).sort(newestFirst);
}

/** GET /snippets/all: every snippet the caller may read, newest first. */
export function allSnippets(state: State, user: User | null, now: number): Snippet[] {
  return Array.from(tvalues(state.snippets)).filter((s) => canReadSnippet(state, user, s, now)).sort(newestFirst);
}
