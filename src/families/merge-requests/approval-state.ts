// Approval rules and what they ask of a merge request (ee/app/models/approval_state.rb,
// approval_wrapped_rule.rb, approval_project_rule.rb, approval_merge_request_rule.rb): a merge
// request's own rules where it has them, else its project's; each rule approved when enough of
// its eligible approvers (anyone, for an any-approver rule) approved. Approval rules are a
// feature of the higher tiers: on the free tier none applies.
import { membersOf } from '../../store/members.js';
import type { Project } from '../../store/state.js';
import { emptyTable, tentries, tget, tvalues } from '../../store/table.js';
import type { State } from '../world.js';
import type { ApprovalRule, ApprovalSettings, MergeRequest } from './records.js';

/** ProjectSetting and Project's defaults for approvals. */
export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  approvalsBeforeMerge: 0,
  resetApprovalsOnPush: true,
  disableOverridingApproversPerMergeRequest: false,
  mergeRequestsAuthorApproval: false,
  mergeRequestsDisableCommittersApproval: false,
  requirePasswordToApprove: false,
  selectiveCodeOwnerRemovals: false,
};

export const approvalSettingsOf = (state: State, projectId: number): ApprovalSettings => tget(state.approvalSettings, projectId) ?? DEFAULT_APPROVAL_SETTINGS;

/** Whether the instance's tier has approval rules (merge_request_approvers). */
export const approvalRulesAvailable = (state: State) => state.instance.tier !== 'free';

/** A project's rules (`mergeRequestId` null) or one merge request's, in id order. */
export function rulesWhere(state: State, projectId: number, mergeRequestId: number | null): ApprovalRule[] {
  const t = tget(state.approvalRules, projectId);
  if (!t) return [];
  return [...tvalues(t)].filter((r) => r.mergeRequestId === mergeRequestId).sort((a, b) => a.id - b.id);
}

export const projectApprovalRules = (state: State, projectId: number) => rulesWhere(state, projectId, null);
export const mergeRequestApprovalRules = (state: State, mr: MergeRequest) => rulesWhere(state, mr.projectId, mr.id);

/** ApprovalState#approval_rules_overwritten?: the merge request has rules of its own, and the project lets it. */
export function rulesOverwritten(state: State, mr: MergeRequest): boolean {
  return !approvalSettingsOf(state, mr.projectId).disableOverridingApproversPerMergeRequest && mergeRequestApprovalRules(state, mr).length > 0;
}

/** ApprovalState#wrapped_approval_rules: the rules that apply to the merge request. */
export function applicableRules(state: State, mr: MergeRequest): ApprovalRule[] {
  if (!approvalRulesAvailable(state)) return [];
  return rulesOverwritten(state, mr) ? mergeRequestApprovalRules(state, mr) : projectApprovalRules(state, mr.projectId);
}

/** ApprovalRuleLike#approvers: the rule's users and its groups' members, active ones, in id order. */
export function eligibleApprovers(state: State, rule: ApprovalRule): number[] {
  const ids = new Set(rule.userIds);
  for (const groupId of rule.groupIds) {
    const g = tget(state.namespaces, groupId);
    if (g) for (const m of membersOf(state, g)) ids.add(m.userId);
  }
  return [...ids].filter((id) => tget(state.users, id)?.state === 'active').sort((a, b) => a - b);
}

/** Who approved the merge request, oldest first. */
export function approverIds(state: State, mr: MergeRequest): number[] {
  const t = tget(state.mergeRequestApprovals, mr.id) ?? emptyTable<number>();
  return [...tentries(t)].sort((a, b) => a[1] - b[1] || Number(a[0]) - Number(b[0])).map(([id]) => Number(id));
}

/** ApprovalWrappedRule: the rule's approvals from those it counts, and how many it still needs. */
export function ruleProgress(state: State, mr: MergeRequest, rule: ApprovalRule): { approvedBy: number[]; left: number } {
  const approvers = approverIds(state, mr);
  const counted = rule.ruleType === 'any_approver' ? approvers : approvers.filter((id) => eligibleApprovers(state, rule).includes(id));
  return { approvedBy: counted, left: Math.max(rule.approvalsRequired - counted.length, 0) };
}

/** ApprovalState#approved? negated: some applicable rule still needs approvals. */
export function approvalsMissing(state: State, _project: Project, mr: MergeRequest): boolean {
  return applicableRules(state, mr).some((r) => ruleProgress(state, mr, r).left > 0);
}
