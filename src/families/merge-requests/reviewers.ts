// A merge request's reviewers as GitLab keeps them (merge_request_reviewers, with
// MergeRequestReviewerState): each one's state and when they were asked, and the authors of its
// submitted reviews (Review, MergeRequest#reviewed_by_users). A reviewer added starts
// `unreviewed` (MergeRequests::UpdateService), one removed is forgotten (added again, they start
// over); approving makes them `approved` and unapproving `unapproved` (ApprovalService and
// RemoveApprovalService through UpdateReviewerStateService), a submitted review `reviewed`
// (DraftNotes::PublishService#set_reviewed), which an approved reviewer does not leave.
import type { Draft } from 'immer';
import { iso } from '../../render/time.js';
import type { Project, User } from '../../store/state.js';
import { pget, pset, tget } from '../../store/table.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { MergeRequest, ReviewerState } from './records.js';
import { canUpdateMergeRequest } from './rules.js';

export type ReviewerEntry = NonNullable<MergeRequest['reviewerStates']>[number];

/**
 * The merge request's reviewers with their states, first asked first. A reviewer an older world
 * kept without a state is `unreviewed`, asked when the merge request was made.
 */
export function reviewerEntries(mr: MergeRequest): ReviewerEntry[] {
  const kept = (mr.reviewerStates ?? []).filter((e) => mr.reviewerIds.includes(e.userId));
  const missing = [...new Set(mr.reviewerIds)].filter((id) => !kept.some((e) => e.userId === id));
  return [...kept, ...missing.map((userId) => ({ userId, state: 'unreviewed' as const, createdAt: mr.createdAt }))];
}

/**
 * The states of `mr`'s reviewers as saved over `before`: those kept keep theirs, those added
 * start `unreviewed`, asked now (the save's `updatedAt`), after the others.
 */
export function savedReviewerStates(before: MergeRequest | null, mr: MergeRequest): ReviewerEntry[] {
  const previous = before ? reviewerEntries(before) : [];
  const kept = previous.filter((e) => mr.reviewerIds.includes(e.userId));
  const added = [...new Set(mr.reviewerIds)].filter((id) => !kept.some((e) => e.userId === id));
  return [...kept, ...added.map((userId) => ({ userId, state: 'unreviewed' as const, createdAt: mr.updatedAt }))];
}

/** MergeRequest#find_reviewer: the user's entry, when they are a reviewer. */
export function findReviewer(mr: MergeRequest, userId: number): ReviewerEntry | undefined {
  return reviewerEntries(mr).find((e) => e.userId === userId);
}

/**
 * UpdateReviewerStateService for a reviewer: their new state (the merge request's `updated_at`
 * stays, as only its reviewer row changes); nothing for a user who is not a reviewer.
 */
export function setReviewerState(draft: Draft<State>, projectId: number, iid: number, userId: number, state: ReviewerState): void {
  const mr = pget(draft.mergeRequests, projectId, iid) as MergeRequest | undefined;
  if (!mr || !findReviewer(mr, userId)) return;
  const reviewerStates = reviewerEntries(mr).map((e) => (e.userId === userId ? { ...e, state } : e));
  pset<MergeRequest>(draft.mergeRequests, projectId, iid, { ...mr, reviewerStates });
}

/**
 * What a submitted review (DraftNotes::PublishService with drafts to publish) leaves on the merge
 * request: its author among `reviewed_by_users`, and, when they are a reviewer who may update
 * it, `reviewed` (UpdateReviewerStateService refuses to move an approved reviewer).
 */
export function recordReview(state: State, project: Project, mr: MergeRequest, user: User, now: number) {
  const mayUpdate = canUpdateMergeRequest(state, user, project, mr, now);
  return (draft: Draft<State>): void => {
    const current = pget(draft.mergeRequests, project.id, mr.iid) as MergeRequest | undefined;
    if (!current) return;
    const authors = current.reviewAuthorIds ?? [];
    if (!authors.includes(user.id)) pset<MergeRequest>(draft.mergeRequests, project.id, mr.iid, { ...current, reviewAuthorIds: [...authors, user.id] });
    if (mayUpdate && findReviewer(current, user.id)?.state !== 'approved') setReviewerState(draft, project.id, mr.iid, user.id, 'reviewed');
  };
}

/** MergeRequest#reviewed_by_users: the authors of its submitted reviews, each once. */
export function reviewedByUsers(state: State, mr: MergeRequest): User[] {
  return (mr.reviewAuthorIds ?? []).map((id) => tget(state.users, id)).filter((u): u is User => !!u);
}

/** Entities::MergeRequestReviewer of each reviewer (a user deleted since is left out). */
export function reviewerRows(state: State, mr: MergeRequest, v: UrlBase) {
  return reviewerEntries(mr).flatMap((e) => {
    const u = tget(state.users, e.userId);
    return u ? [{ user: userBasic(u, v), state: e.state, created_at: iso(e.createdAt) }] : [];
  });
}
