// What the notes family needs of issues, merge requests and epics alike: what the note policy
// asks of one (locked discussion, internal notes, a cross-reference's mentioner), and the touch
// a new note gives it; each kind's own answer comes from the family that registers it.
import type { Draft } from 'immer';
import { hasGroupRole, hasProjectRole } from '../../policy/access.js';
import { ACCESS, type User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import type { State } from '../world.js';
import { issuableKind, socialKind, type IssuableTarget } from './kinds.js';
import type { SocialType } from './records.js';

/**
 * Note#cross_reference_not_visible_for?: a `mentioned in` note is read only by those who may
 * read its mentioner (a confidential issue, a project's merge requests).
 */
export function mentionerReadable(state: State, user: User | null, m: { type: SocialType; projectId: number; iid: number }, now: number): boolean {
  const project = tget(state.projects, m.projectId);
  if (!project) return false;
  return socialKind(m.type).readableByIid(state, user, project, m.iid, now) !== undefined;
}

/** Whether the caller is a member (Guest and up) where the issuable lives: a locked discussion takes notes from members only. */
export function isIssuableMember(state: State, user: User, target: IssuableTarget, now: number): boolean {
  return target.type === 'Epic' ? hasGroupRole(state, user, target.group, ACCESS.guest, now) : hasProjectRole(state, user, target.project, ACCESS.guest, now);
}

export function isDiscussionLocked(target: IssuableTarget): boolean {
  return issuableKind(target).locked(target);
}

/** `read_internal_note` and `mark_note_as_internal`: Planners and Reporters up, and administrators. */
export function canReadInternalNotes(state: State, user: User | null, target: IssuableTarget, now: number): boolean {
  if (!user) return false;
  if (target.type === 'Epic') return hasGroupRole(state, user, target.group, ACCESS.planner, now);
  return hasProjectRole(state, user, target.project, ACCESS.planner, now);
}

/** A new note touches what it is on (Note#touch_noteable): its `updated_at` moves to now. */
export function touchIssuable(draft: Draft<State>, target: IssuableTarget, now: number): void {
  issuableKind(target).touch(draft, target, now);
}
