// What the notes family needs of issues, merge requests and epics: each found as a caller may
// read it (NotesFinder#target with `read_issue`, `read_merge_request`, `read_epic`), what the
// note policy asks of it (locked discussion, internal notes), and the touch a new note gives it.
import type { Draft } from 'immer';
import { canReadGroup, hasGroupRole, hasProjectRole } from '../../policy/access.js';
import { ACCESS, type Namespace, type Project, type User } from '../../store/state.js';
import { pget, pset, tget } from '../../store/table.js';
import type { State } from '../world.js';
import { epicById, epicVisible } from './epics.js';
import { canReadIssues, issueVisible, seesConfidential } from './finder.js';
import { canReadMergeRequests } from './merge-requests.js';
import type { Epic, Issue, MergeRequest } from './records.js';
import { issueByIid, putIssue } from './store.js';

export type Issuable =
  | { type: 'Issue'; issue: Issue; project: Project }
  | { type: 'MergeRequest'; mr: MergeRequest; project: Project }
  | { type: 'Epic'; epic: Epic; group: Namespace };

/** The project's issue with this iid, when the caller may read it. */
export function readableIssue(state: State, user: User | null, project: Project, iid: number, now: number): Issue | undefined {
  if (!canReadIssues(state, user, project, now)) return undefined;
  const issue = issueByIid(state, project.id, iid);
  return issue && issueVisible(state, user, issue, seesConfidential(state, user, project, now)) ? issue : undefined;
}

export function readableMergeRequest(state: State, user: User | null, project: Project, iid: number, now: number): MergeRequest | undefined {
  return canReadMergeRequests(state, user, project, now) ? pget(state.mergeRequests, project.id, iid) : undefined;
}

/**
 * Note#cross_reference_not_visible_for?: a `mentioned in` note is read only by those who may
 * read its mentioner (a confidential issue, a project's merge requests).
 */
export function mentionerReadable(state: State, user: User | null, m: { type: 'Issue' | 'MergeRequest'; projectId: number; iid: number }, now: number): boolean {
  const project = tget(state.projects, m.projectId);
  if (!project) return false;
  return (m.type === 'Issue' ? readableIssue(state, user, project, m.iid, now) : readableMergeRequest(state, user, project, m.iid, now)) !== undefined;
}

/** The group's epic with this id (not iid, as the notes routes address it), when the caller may read it. */
export function readableEpic(state: State, user: User | null, group: Namespace, id: number, now: number): Epic | undefined {
  const epic = epicById(state, id);
  return epic && epic.groupId === group.id && canReadGroup(state, user, group, now) && epicVisible(state, user, epic, now) ? epic : undefined;
}

/** Whether the caller is a member (Guest and up) where the issuable lives: a locked discussion takes notes from members only. */
export function isIssuableMember(state: State, user: User, target: Issuable, now: number): boolean {
  return target.type === 'Epic' ? hasGroupRole(state, user, target.group, ACCESS.guest, now) : hasProjectRole(state, user, target.project, ACCESS.guest, now);
}

export function isDiscussionLocked(target: Issuable): boolean {
  return target.type === 'Issue' ? target.issue.discussionLocked === true : false;
}

/** `read_internal_note` and `mark_note_as_internal`: Planners and Reporters up, and administrators. */
export function canReadInternalNotes(state: State, user: User | null, target: Issuable, now: number): boolean {
  if (!user) return false;
  if (target.type === 'Epic') return hasGroupRole(state, user, target.group, ACCESS.planner, now);
  return hasProjectRole(state, user, target.project, ACCESS.planner, now);
}

/** A new note touches what it is on (Note#touch_noteable): its `updated_at` moves to now. */
export function touchIssuable(draft: Draft<State>, target: Issuable, now: number): void {
  const state = draft as State;
  if (target.type === 'Issue') {
    const issue = issueByIid(state, target.project.id, target.issue.iid);
    if (issue) putIssue(draft, { ...issue, updatedAt: now });
  } else if (target.type === 'MergeRequest') {
    const mr = pget(state.mergeRequests, target.project.id, target.mr.iid);
    if (mr) pset(draft.mergeRequests, target.project.id, mr.iid, { ...mr, updatedAt: now });
  } else {
    const at = tget(state.epicLocations, target.epic.id);
    const epic = at && pget(state.epics, at.groupId, at.iid);
    if (at && epic) pset(draft.epics, at.groupId, at.iid, { ...epic, updatedAt: now });
  }
}
