// What the shared quick actions read of an epic, and Epics::UpdateService with the commands'
// params (an epic has no commands of its own here); registered with the issuables family.
import type { Draft } from 'immer';
import { hasGroupRole } from '../../policy/access.js';
import { pset } from '../../store/table.js';
import { ACCESS, type User } from '../../store/state.js';
import { labelIdsAfter, recordEvent, recordLabelChange, systemNote, titleChangeBody, type CommandKind, type Updates } from '../issuables/index.js';
import type { State } from '../world.js';
import type { EpicTarget } from './kind.js';
import type { Epic } from './records.js';
import { epicById } from './rules.js';

export const epicCommands: CommandKind<EpicTarget> = {
  facts(state, target, user, now) {
    const canAdmin = hasGroupRole(state, user, target.group, ACCESS.planner, now);
    return { noun: 'epic', record: target.epic, social: null, canUpdate: canAdmin || target.epic.authorId === user.id, canAdmin };
  },
  commands: [],
  updates: (target, user, u, now) => ({ prepare: null, apply: (draft) => applyToEpic(draft, target, user, u, now) }),
};

/** Epics::UpdateService with the quick actions' params: state, title and labels (events and notes on the epic). */
function applyToEpic(draft: Draft<State>, target: EpicTarget, user: User, u: Updates, now: number): void {
  const before = epicById(draft as State, target.epic.id);
  if (!before) return;
  const next: Epic = { ...before, title: u.title ?? before.title, labelIds: labelIdsAfter(before.labelIds, u) };
  if (u.state_event === 'close' && before.state === 'opened') Object.assign(next, { state: 'closed', closedAt: now });
  if (u.state_event === 'reopen' && before.state === 'closed') Object.assign(next, { state: 'opened', closedAt: null });
  const changed = (Object.keys(next) as (keyof Epic)[]).some((k) => JSON.stringify(next[k]) !== JSON.stringify(before[k]));
  if (!changed) return;
  next.updatedAt = now;
  pset(draft.epics, before.groupId, before.iid, next);
  const on = { type: 'Epic' as const, id: before.id };
  if (before.state !== next.state) recordEvent(draft, 'state', on, user.id, now, { state: next.state === 'closed' ? 'closed' : 'reopened', sourceCommit: null, sourceMergeRequestId: null });
  if (before.title !== next.title) systemNote(draft, 'Epic', { id: before.id, projectId: null }, user.id, titleChangeBody(before.title, next.title), now);
  recordLabelChange(draft, on, user.id, before.labelIds, next.labelIds, now);
}
