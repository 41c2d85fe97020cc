// Merge request approvals (MergeRequests::ApprovalService and RemoveApprovalService, and the
// entities of lib/api/merge_request_approvals.rb): who approved, who may, and the system notes
// of both. At the higher tiers the approval rules decide who may approve and how many are left
// (approval-state.ts), and GitLab's default keeps authors from approving their own merge request
// (merge_requests_author_approval). Approving makes a reviewer `approved`, taking it back
// `unapproved` (reviewers.ts).
import { hasProjectRole } from '../../policy/access.js';
import { iso } from '../../render/time.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { emptyTable, tdel, tentries, tget, tset } from '../../store/table.js';
import type { Change } from '../define.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import { canReadMergeRequests } from './rules.js';
import { applicableRules, approvalSettingsOf, eligibleApprovers, ruleProgress } from './approval-state.js';
import type { MergeRequest } from './records.js';
import { systemNote } from '../issuables/index.js';
import { setReviewerState } from './reviewers.js';
import { emit } from '../stream.js';

/** The merge request's approvals, oldest first: who and when. */
export function approvalsOf(state: State, mr: MergeRequest): { userId: number; at: number }[] {
  const t = tget(state.mergeRequestApprovals, mr.id);
  return t ? [...tentries(t)].map(([userId, at]) => ({ userId: Number(userId), at })).sort((a, b) => a.at - b.at || a.userId - b.userId) : [];
}

export function approvedBy(state: State, mr: MergeRequest, user: User | null): boolean {
  return !!user && tget(tget(state.mergeRequestApprovals, mr.id) ?? emptyTable<number>(), user.id) !== undefined;
}

/** MergeRequest#eligible_for_approval_by?: an open merge request, not approved by them yet, and `approve_merge_request` (Developers and up). */
export function canApprove(state: State, user: User | null, project: Project, mr: MergeRequest, now: number): boolean {
  if (!user || mr.state !== 'opened' || approvedBy(state, mr, user) || !canReadMergeRequests(state, user, project, now)) return false;
  if (!user.admin && !hasProjectRole(state, user, project, ACCESS.developer, now)) return false;
  if (state.instance.tier === 'free') return true;
  if (mr.authorId === user.id && !approvalSettingsOf(state, project.id).mergeRequestsAuthorApproval) return false;
  // ApprovalState#eligible_for_approval_by?: anyone where no rule names approvers (or one takes any), else a rule's approver.
  const rules = applicableRules(state, mr);
  return rules.length === 0 || rules.some((r) => r.ruleType === 'any_approver' || eligibleApprovers(state, r).includes(user.id));
}

/** MergeRequests::ApprovalService: the approval and its note; null when the user may not approve (401). */
export function approveMergeRequest(state: State, project: Project, mr: MergeRequest, user: User, now: number): Change | null {
  if (!canApprove(state, user, project, mr, now)) return null;
  return (draft) => {
    if (!tget(draft.mergeRequestApprovals, mr.id)) tset(draft.mergeRequestApprovals, mr.id, emptyTable<number>());
    tset(tget(draft.mergeRequestApprovals, mr.id)!, user.id, now);
    systemNote(draft, 'MergeRequest', mr, user.id, 'approved this merge request', now);
    setReviewerState(draft, mr.projectId, mr.iid, user.id, 'approved');
    emit(draft, { kind: 'merge_request.approved', projectId: mr.projectId, mergeRequestId: mr.id, iid: mr.iid });
  };
}

/** MergeRequests::RemoveApprovalService: the approval taken back and its note; null when there is none (404). */
export function unapproveMergeRequest(state: State, mr: MergeRequest, user: User, now: number, quiet = false): Change | null {
  if (!approvedBy(state, mr, user)) return null;
  return (draft) => {
    const t = tget(draft.mergeRequestApprovals, mr.id)!;
    tdel(t, user.id);
    if (t.size === 0) tdel(draft.mergeRequestApprovals, mr.id);
    // `quiet`: skip_system_note and skip_updating_state, as a review requested again removes an approval.
    if (!quiet) systemNote(draft, 'MergeRequest', mr, user.id, 'unapproved this merge request', now);
    if (!quiet) setReviewerState(draft, mr.projectId, mr.iid, user.id, 'unapproved');
    emit(draft, { kind: 'merge_request.unapproved', projectId: mr.projectId, mergeRequestId: mr.id, iid: mr.iid });
  };
}

/**
 * Entities::MergeRequestApprovals; at the higher tiers EE's ApprovalState, the merge request's
 * own fields first, then the (empty) rules.
 */
export function approvalsEntity(v: UrlBase & { state: State; viewer: User | null; now: number }, project: Project, mr: MergeRequest, mergeStatus: string) {
  const approvedByList = approvalsOf(v.state, mr).flatMap(({ userId }) => {
    const u = tget(v.state.users, userId);
    return u ? [{ user: userBasic(u, v) }] : [];
  });
  const mine = { user_has_approved: approvedBy(v.state, mr, v.viewer), user_can_approve: canApprove(v.state, v.viewer, project, mr, v.now) };
  if (v.state.instance.tier === 'free') return { ...mine, approved: approvedByList.length > 0, approved_by: approvedByList };
  const rules = applicableRules(v.state, mr);
  const progress = rules.map((rule) => ({ rule, ...ruleProgress(v.state, mr, rule) }));
  const settings = approvalSettingsOf(v.state, project.id);
  return {
    id: mr.id, iid: mr.iid, project_id: mr.projectId, title: mr.title, description: mr.description, state: mr.state,
    created_at: iso(mr.createdAt), updated_at: iso(mr.updatedAt), merge_status: mergeStatus,
    approved: progress.every((p) => p.left === 0), approvals_required: rules.reduce((n, r) => n + r.approvalsRequired, 0),
    approvals_left: progress.reduce((n, p) => n + p.left, 0), require_password_to_approve: settings.requirePasswordToApprove, approved_by: approvedByList,
    suggested_approvers: [], approvers: [], approver_groups: [], ...mine,
    approval_rules_left: progress.filter((p) => p.left > 0).map((p) => ({ id: p.rule.id, name: p.rule.name, rule_type: p.rule.ruleType })),
    has_approval_rules: rules.length > 0, merge_request_approvers_available: true, multiple_approval_rules_available: true, invalid_approvers_rules: [],
  };
}
