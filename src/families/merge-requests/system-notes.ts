// System notes and resource events of a change to a merge request, as GitLab writes them
// (app/services/system_notes/issuables_service.rb, time_tracking_service.rb,
// Issuable::CommonSystemNotesService, MergeRequests::UpdateService#handle_changes), and its
// draft titles (Gitlab::Regex.merge_request_draft).
import type { Draft } from 'immer';
import { assigneesBody, estimateBody, recordEvent, recordLabelChange, recordMilestoneChange, systemNote, timeSpentBody, titleChangeBody, toSentence, type SpentChange } from '../issuables/index.js';
import { tget } from '../../store/table.js';
import { crossReference } from '../issues/index.js';
import type { State } from '../world.js';
import type { MergeRequest } from './records.js';

const DRAFT_TITLE = /^\s*(?:\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s|\[wip\]|wip:|wip\s)/i;
const draftless = (title: string) => title.replace(/^\s*(?:\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s|\[wip\]|wip:|wip\s)\s*/i, '');
export const isDraftTitle = (title: string) => DRAFT_TITLE.test(title);
/** MergeRequest.draftless_title: the title without its draft prefixes. */
export function draftlessTitle(title: string): string {
  let t = title;
  while (isDraftTitle(t)) t = draftless(t);
  return t;
}

/**
 * What a merge request's update records: the state event, the draft note (`marked this merge
 * request as **draft**` / `**ready**`) and the title note when more than the draft prefix
 * changed, description, time tracking, lock, milestone and label events, assignees.
 */
export function recordMergeRequestChanges(draft: Draft<State>, before: MergeRequest, after: MergeRequest, userId: number, now: number, spent?: SpentChange): void {
  const on = { type: 'MergeRequest' as const, id: after.id };
  const note = (body: string) => systemNote(draft, 'MergeRequest', after, userId, body, now);
  if (before.state !== after.state) {
    const state = after.state === 'merged' ? 'merged' : after.state === 'closed' ? 'closed' : 'reopened';
    recordEvent(draft, 'state', on, userId, now, { state, sourceCommit: null, sourceMergeRequestId: null });
  }
  if (before.draft !== after.draft) note(`marked this merge request as **${after.draft ? 'draft' : 'ready'}**`);
  if (before.title !== after.title && draftless(before.title) !== draftless(after.title)) note(titleChangeBody(before.title, after.title));
  if (before.description !== after.description) note('changed the description');
  if (before.timeEstimate !== after.timeEstimate) note(estimateBody(after.timeEstimate));
  if (spent) note(timeSpentBody(spent.seconds, spent.spentAt, spent.today));
  if ((before.discussionLocked ?? false) !== (after.discussionLocked ?? false)) note(`${after.discussionLocked ? 'locked' : 'unlocked'} the discussion in this merge request`);
  recordMilestoneChange(draft, { ...on, projectId: after.projectId, state: after.state }, userId, before.milestoneId, after.milestoneId, now);
  recordLabelChange(draft, on, userId, before.labelIds, after.labelIds, now);
  const assignees = assigneesBody(draft as State, before.assigneeIds, after.assigneeIds);
  if (assignees) note(assignees);
  const reviewers = reviewersBody(draft as State, before.reviewerIds, after.reviewerIds);
  if (reviewers) note(reviewers);
  if (before.title !== after.title || before.description !== after.description) {
    crossReference(draft, { type: 'MergeRequest', id: after.id, iid: after.iid, projectId: after.projectId }, `${after.title}\n${after.description}`, userId, now);
  }
}

/** SystemNotes::IssuablesService#change_issuable_reviewers: `requested review from @a and removed review request for @b`. */
function reviewersBody(state: State, before: readonly number[], after: readonly number[]): string | null {
  const ref = (id: number) => `@${tget(state.users, id)?.username ?? 'ghost'}`;
  const added = after.filter((id) => !before.includes(id)).map(ref);
  const removed = before.filter((id) => !after.includes(id)).map(ref);
  const parts: string[] = [];
  if (added.length) parts.push(`requested review from ${toSentence(added)}`);
  if (removed.length) parts.push(`removed review request for ${toSentence(removed)}`);
  return parts.length ? parts.join(' and ') : null;
}
