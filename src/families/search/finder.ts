// What a basic search finds (SearchService, Gitlab::SearchResults, GroupSearchResults,
// ProjectSearchResults): the records of each scope the caller may read, in the projects (and
// groups) the search is limited to, whose text holds the query, newest first. Every word of the
// query must appear (case-insensitively) in one of the searched fields, as GitLab's full-text
// match of several words does.
import { canUseFeature, isWithin, projectReader } from '../../policy/access.js';
import { notesTable, type Note } from '../../store/notes.js';
import { effectiveMembers } from '../../policy/members.js';
import { pvalues, tget, tvalues } from '../../store/table.js';
import { readableNoteOf } from '../notes/index.js';
import type { Namespace, Project, User } from '../../store/state.js';
import { canReadIssues, issueById, issueVisible, projectIssues, seesConfidential, type Issue } from '../issues/index.js';
import { canReadMergeRequests, type MergeRequest } from '../merge-requests/index.js';
import { canReadProjectMilestones, ownMilestones, type Milestone } from '../milestones/index.js';
import { findReadableSnippet, type Snippet } from '../snippets/index.js';
import type { State } from '../world.js';

export interface Limits {
  state: State;
  user: User;
  now: number;
  /** The group the search is limited to (with its subgroups), or the project; neither for the instance. */
  group?: Namespace;
  project?: Project;
}

/** Every word of the query in one of the texts (Gitlab::SQL::Pattern's full match of its words). */
export function matches(query: string, ...texts: (string | null | undefined)[]): boolean {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return false;
  const lower = texts.map((t) => (t ?? '').toLowerCase());
  return words.every((w) => lower.some((t) => t.includes(w)));
}

const newestFirst = <T extends { createdAt: number; id: number }>(a: T, b: T) => b.createdAt - a.createdAt || b.id - a.id;

/** The projects the search covers that the caller may read (ProjectsFinder, limited to the group or project). */
export function searchedProjects(l: Limits): Project[] {
  if (l.project) return [l.project];
  const readable = projectReader(l.state, l.user, l.now);
  const out: Project[] = [];
  for (const p of tvalues(l.state.projects)) {
    if (l.group && !isWithin(l.state, p.namespaceId, l.group.id)) continue;
    if (readable(p)) out.push(p);
  }
  return out;
}

export function findProjects(l: Limits, query: string): Project[] {
  return searchedProjects(l).filter((p) => matches(query, p.name, p.path, p.description)).sort(newestFirst);
}

export type StateFilter = 'all' | 'opened' | 'closed' | 'merged' | undefined;

export function findIssues(l: Limits, query: string, state: StateFilter, confidential: boolean | undefined): Issue[] {
  const out: Issue[] = [];
  for (const p of searchedProjects(l)) {
    if (!canReadIssues(l.state, l.user, p, l.now)) continue;
    const all = seesConfidential(l.state, l.user, p, l.now);
    for (const i of projectIssues(l.state, p.id)) {
      if (!issueVisible(l.state, l.user, i, all)) continue;
      if (state && state !== 'all' && i.state !== state) continue;
      if (confidential !== undefined && i.confidential !== confidential) continue;
      if (matches(query, i.title, i.description)) out.push(i);
    }
  }
  return out.sort(newestFirst);
}

export function findMergeRequests(l: Limits, query: string, state: StateFilter): MergeRequest[] {
  const out: MergeRequest[] = [];
  for (const p of searchedProjects(l)) {
    if (!canReadMergeRequests(l.state, l.user, p, l.now)) continue;
    for (const mr of pvalues(l.state.mergeRequests, p.id)) {
      if (state && state !== 'all' && mr.state !== state) continue;
      if (matches(query, mr.title, mr.description)) out.push(mr);
    }
  }
  return out.sort(newestFirst);
}

/** Project milestones of the searched projects, and the group's own (and its subgroups') in a group search. */
export function findMilestones(l: Limits, query: string): Milestone[] {
  const out: Milestone[] = [];
  for (const p of searchedProjects(l)) {
    if (!canReadProjectMilestones(l.state, l.user, p, l.now)) continue;
    for (const m of ownMilestones(l.state, { projectId: p.id })) if (matches(query, m.title, m.description)) out.push(m);
  }
  if (l.group) {
    for (const ns of tvalues(l.state.namespaces)) {
      if (ns.kind !== 'group' || !isWithin(l.state, ns.id, l.group.id)) continue;
      for (const m of ownMilestones(l.state, { groupId: ns.id })) if (matches(query, m.title, m.description)) out.push(m);
    }
  }
  return out.sort(newestFirst);
}

/**
 * User.search: a name, username or (for administrators, exactly) email holding the query; exact
 * names and usernames first, then by name. Non-administrators see active users only; a group or
 * project search is limited to its members.
 */
export function findUsers(l: Limits, query: string): User[] {
  const q = query.toLowerCase().trim();
  if (!q) return [];
  let pool: Iterable<User> = tvalues(l.state.users);
  const source = l.project ?? l.group;
  if (source) {
    const ids = [...effectiveMembers(l.state, source, l.now, () => true).keys()];
    pool = ids.map((id) => tget(l.state.users, id)).filter((u): u is User => !!u);
  }
  const out: User[] = [];
  for (const u of pool) {
    if (!l.user.admin && u.state !== 'active') continue;
    if (u.userType !== 'human' && u.userType !== 'service_account' && u.userType !== 'project_bot') continue;
    const hit = u.name.toLowerCase().includes(q) || u.username.toLowerCase().includes(q) || (l.user.admin && u.email.toLowerCase() === q);
    if (hit) out.push(u);
  }
  const exact = (u: User) => (u.name.toLowerCase() === q || u.username.toLowerCase() === q ? 0 : 1);
  return out.sort((a, b) => exact(a) - exact(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
}

/** Snippets the caller may read whose title or description holds the query. */
export function findSnippets(l: Limits, query: string): Snippet[] {
  const out: Snippet[] = [];
  for (const s of tvalues(l.state.snippets)) {
    if (!matches(query, s.title, s.description)) continue;
    if (findReadableSnippet(l.state, l.user, s.id, l.now)) out.push(s);
  }
  return out.sort(newestFirst);
}

/**
 * ProjectSearchResults#notes: the comments (not system notes) of the project's issues, merge
 * requests, snippets and commits that the caller may read, with the iid of what they are on.
 */
export function findNotes(l: Limits & { project: Project }, query: string): { note: Note; iid: number | null }[] {
  const out: { note: Note; iid: number | null }[] = [];
  const keys = tget(l.state.notes.byProject, l.project.id);
  if (!keys) return out;
  const readsCode = canUseFeature(l.state, l.user, l.project, 'repository', l.now);
  for (const key of tvalues(keys)) {
    for (const note of tvalues(notesTable(l.state, key))) {
      if (note.system || !matches(query, note.body)) continue;
      let iid: number | null = null;
      if (note.noteableType === 'Issue') iid = (note.noteableId !== null ? issueById(l.state, note.noteableId)?.iid : undefined) ?? null;
      else if (note.noteableType === 'MergeRequest') {
        for (const mr of pvalues(l.state.mergeRequests, l.project.id)) if (mr.id === note.noteableId) iid = mr.iid;
      }
      if (note.noteableType === 'Commit') {
        if (readsCode) out.push({ note, iid: null });
        continue;
      }
      const ref = { noteableType: note.noteableType, noteableId: note.noteableId ?? '', noteableIid: iid, noteId: note.id };
      if (readableNoteOf(l.state, l.user, l.project, ref, l.now)) out.push({ note, iid });
    }
  }
  return out.sort((a, b) => b.note.createdAt - a.note.createdAt || b.note.id - a.note.id);
}
