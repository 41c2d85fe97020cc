// What a note hangs on, as the routes address it (NotesHelpers#find_noteable): an issue or a
// merge request by iid, a project snippet by id, an epic by id (not iid). Each is found only when
// the caller may read it and its notes; otherwise `404 <Type> Not Found`.
import type { Note } from '../../store/notes.js';
import { findNote, noteKey } from '../../store/notes.js';
import { canUseFeature, hasGroupRole, hasProjectRole } from '../../policy/access.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { canReadInternalNotes, isDiscussionLocked, isIssuableMember, mentionerReadable } from '../issuables/index.js';
import { readableEpic, type EpicTarget } from '../epics/index.js';
import { readableIssue, type IssueTarget } from '../issues/index.js';
import { readableMergeRequest, type MergeRequestTarget } from '../merge-requests/index.js';
import { findProjectSnippet } from '../snippets/index.js';
import type { NoteableType, State } from '../world.js';
import { noteableNotFound } from './errors.js';

/** An issue or a merge request with its project, an epic with its group: what takes quick actions and internal notes. */
export type Issuable = IssueTarget | MergeRequestTarget | EpicTarget;

export interface Noteable {
  type: NoteableType;
  /** Where its notes are kept (`noteKey`). */
  key: string;
  id: number;
  /** An issue's or a merge request's iid (`noteable_iid`); null for the others. */
  iid: number | null;
  /** The project it is in; null for an epic. */
  project: Project | null;
  /** The group of an epic. */
  group: Namespace | null;
  /** An issue, merge request or epic: it takes quick actions and internal notes. */
  issuable: Issuable | null;
  /** A commit's sha: its notes name it instead of a noteable id. */
  commitId?: string;
}

export type NoteableKind = 'issues' | 'merge_requests' | 'snippets' | 'epics' | 'commits';

export const NOTEABLE_TYPE: Record<NoteableKind, NoteableType> = { issues: 'Issue', merge_requests: 'MergeRequest', snippets: 'Snippet', epics: 'Epic', commits: 'Commit' };

/** A commit of a project as the noteable of its discussions (its notes are the commit's comments too). */
export const commitNoteable = (project: Project, sha: string): Noteable => ({
  type: 'Commit', key: noteKey('Commit', `${project.id}:${sha}`), id: 0, iid: null, project, group: null, issuable: null, commitId: sha,
});

/** The noteable of a route, or `404 <Type> Not Found`. */
export function findNoteable(state: State, user: User | null, kind: NoteableKind, parent: { project?: Project; group?: Namespace }, id: number, now: number): Noteable {
  const type = NOTEABLE_TYPE[kind];
  const found = find(state, user, kind, parent, id, now);
  if (!found) throw noteableNotFound(type);
  return found;
}

function find(state: State, user: User | null, kind: NoteableKind, parent: { project?: Project; group?: Namespace }, id: number, now: number): Noteable | undefined {
  const { project, group } = parent;
  if (kind === 'epics') {
    const epic = group && readableEpic(state, user, group, id, now);
    return epic && group ? { type: 'Epic', key: noteKey('Epic', epic.id), id: epic.id, iid: null, project: null, group, issuable: { type: 'Epic', epic, group } } : undefined;
  }
  if (!project) return undefined;
  if (kind === 'issues') {
    const issue = readableIssue(state, user, project, id, now);
    return issue && { type: 'Issue', key: noteKey('Issue', issue.id), id: issue.id, iid: issue.iid, project, group: null, issuable: { type: 'Issue', issue, project } };
  }
  if (kind === 'merge_requests') {
    const mr = readableMergeRequest(state, user, project, id, now);
    return mr && { type: 'MergeRequest', key: noteKey('MergeRequest', mr.id), id: mr.id, iid: mr.iid, project, group: null, issuable: { type: 'MergeRequest', mr, project } };
  }
  const snippet = findProjectSnippet(state, user, project, id, now);
  return snippet && { type: 'Snippet', key: noteKey('Snippet', snippet.id), id: snippet.id, iid: null, project, group: null, issuable: null };
}

const KIND_OF: { readonly [T in NoteableType]?: NoteableKind } = { Issue: 'issues', MergeRequest: 'merge_requests', Snippet: 'snippets' };

/**
 * A project's comment as the events API shows it (Event#visible_to_user? for a note): the note
 * and its noteable, when `user` may read both; null otherwise, or when either is gone. A note
 * on a commit comes without its noteable: reading it is reading the code, the caller's to check.
 */
export function readableNoteOf(
  state: State, user: User | null, project: Project, ref: { noteableType: string; noteableId: number | string; noteableIid: number | null; noteId: number }, now: number,
): { note: Note; noteable: Noteable | null } | null {
  const note = findNote(state, noteKey(ref.noteableType as NoteableType, ref.noteableId), ref.noteId);
  if (!note) return null;
  if (ref.noteableType === 'Commit') return { note, noteable: null };
  const kind = KIND_OF[ref.noteableType as NoteableType];
  const noteable = kind && find(state, user, kind, { project }, kind === 'snippets' ? Number(ref.noteableId) : (ref.noteableIid ?? -1), now);
  return noteable && noteReadable(state, user, noteable, note, now) ? { note, noteable } : null;
}

/** A role of the caller where the noteable lives (the project, or the epic's group). */
function hasRole(state: State, user: User | null, n: Noteable, level: number, now: number): boolean {
  if (n.project) return hasProjectRole(state, user, n.project, level, now);
  return !!n.group && hasGroupRole(state, user, n.group, level, now);
}

/** `read_internal_note`: internal notes are for Planners, Reporters and up. */
export function canReadInternal(state: State, user: User | null, n: Noteable, now: number): boolean {
  return n.issuable ? canReadInternalNotes(state, user, n.issuable, now) : hasRole(state, user, n, ACCESS.reporter, now);
}

/** Note#readable_by?: an internal note only for those who may read internal notes, a cross-reference only for those who may read its mentioner. */
export function noteReadable(state: State, user: User | null, n: Noteable, note: Pick<Note, 'internal' | 'mentionedIn'>, now: number): boolean {
  return (!note.internal || canReadInternal(state, user, n, now)) && (!note.mentionedIn || mentionerReadable(state, user, note.mentionedIn, now));
}

/**
 * `create_note` on the noteable: a signed-in reader, in a project that is not archived and whose
 * notes feature it can use; a locked discussion takes notes from members only.
 */
export function canCreateNote(state: State, user: User, n: Noteable, now: number): boolean {
  if (n.project) {
    if (n.project.archived) return false;
    if (n.type === 'Snippet' && !canUseFeature(state, user, n.project, 'snippets', now)) return false;
  }
  if (n.issuable && isDiscussionLocked(n.issuable) && !isIssuableMember(state, user, n.issuable, now)) return false;
  return true;
}

/** `admin_note`: the note's author or a Maintainer up (`admin_note` on the project or group); never a system note. */
export function canAdminNote(state: State, user: User, n: Noteable, note: { authorId: number; system: boolean }, now: number): boolean {
  if (note.system) return false;
  if (n.project?.archived) return false;
  return note.authorId === user.id || hasRole(state, user, n, ACCESS.maintainer, now);
}

/** `set_note_created_at`: administrators and owners of the project (or of the epic's group). */
export function canBackdateNote(state: State, user: User, n: Noteable, now: number): boolean {
  return hasRole(state, user, n, ACCESS.owner, now);
}

/**
 * Discussion#can_resolve? and `resolve_note` (MergeRequestPolicy): the merge request's author,
 * or a Developer of its project.
 */
export function canResolve(state: State, user: User, n: Noteable, now: number): boolean {
  if (n.issuable?.type !== 'MergeRequest' || n.project?.archived) return false;
  return n.issuable.mr.authorId === user.id || hasRole(state, user, n, ACCESS.developer, now);
}

/** Noteable#supports_replying_to_individual_notes?: a note alone on an issue or a merge request may become a thread. */
export const repliesToNotesAlone = (n: Noteable) => n.type === 'Issue' || n.type === 'MergeRequest';
