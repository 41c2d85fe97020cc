// Approval rules of projects and merge requests (ee/app/services/approval_rules/create_service.rb,
// update_service.rb, finalize/destroy, ee/app/models/approval_project_rule.rb and
// approval_merge_request_rule.rb): their checks and the change each makes; approvals taken
// back (`reset_approvals`, and on a push where the project says so).
import { messageError } from '../../core/errors.js';
import { canReadGroup, projectAccess } from '../../policy/access.js';
import type { Project, User } from '../../store/state.js';
import { pdel, pget, pset, tdel, tget, tset } from '../../store/table.js';
import type { Change } from '../define.js';
import { findUserByUsername } from '../users/index.js';
import type { State } from '../world.js';
import { DEFAULT_APPROVAL_SETTINGS, approvalSettingsOf, rulesWhere } from './approval-state.js';
import type { ApprovalRule, ApprovalSettings, MergeRequest } from './records.js';
import { ids } from './store.js';

export interface RuleInput {
  name?: string;
  approvalsRequired?: number;
  ruleType?: ApprovalRule['ruleType'];
  userIds?: number[];
  groupIds?: number[];
  usernames?: string[];
  appliesToAllProtectedBranches?: boolean;
  sourceRuleId?: number;
}

/** How a rule is kept in its project's table: project rules and merge request rules are two id spaces, as in GitLab's two tables. */
export const ruleKey = (mergeRequestId: number | null, id: number) => `${mergeRequestId === null ? 'p' : 'm'}${id}`;

export function findRule(state: State, projectId: number, mr: MergeRequest | null, id: number): ApprovalRule | undefined {
  const r = pget(state.approvalRules, projectId, ruleKey(mr?.id ?? null, id));
  return r && r.mergeRequestId === (mr?.id ?? null) ? r : undefined;
}

/** filter_eligible_users and filter_eligible_groups: members of the project, groups the caller can see. */
function approvers(state: State, project: Project, user: User, input: RuleInput, now: number): { userIds?: number[]; groupIds?: number[] } {
  const out: { userIds?: number[]; groupIds?: number[] } = {};
  if (input.userIds !== undefined || input.usernames !== undefined) {
    const named = (input.usernames ?? []).flatMap((n) => findUserByUsername(state, n)?.id ?? []);
    const all = [...new Set([...(input.userIds ?? []), ...named])];
    out.userIds = all.filter((id) => {
      const u = tget(state.users, id);
      return u !== undefined && projectAccess(state, u, project, now) > 0;
    });
  }
  if (input.groupIds !== undefined) {
    out.groupIds = [...new Set(input.groupIds)].filter((id) => {
      const g = tget(state.namespaces, id);
      return g !== undefined && g.kind === 'group' && canReadGroup(state, user, g, now);
    });
  }
  return out;
}

/** The model's validations, as GitLab's `render_validation_error!` answers them (400, by attribute). */
function validate(state: State, rule: Omit<ApprovalRule, 'id'>, selfId: number | null): void {
  const errors: Record<string, string[]> = {};
  if (rule.name.trim() === '') errors.name = ["can't be blank"];
  else {
    const siblings = rulesWhere(state, rule.projectId, rule.mergeRequestId);
    if (siblings.some((r) => r.id !== selfId && r.name === rule.name)) errors.name = ['has already been taken'];
  }
  if (rule.approvalsRequired < 0) errors.approvals_required = ['must be greater than or equal to 0'];
  else if (rule.approvalsRequired > 100) errors.approvals_required = ['must be less than or equal to 100'];
  if (rule.ruleType === 'any_approver' && rule.mergeRequestId === null) {
    const other = rulesWhere(state, rule.projectId, null).find((r) => r.ruleType === 'any_approver' && r.id !== selfId);
    if (other) errors.rule_type = ['any-approver for the project already exists'];
  }
  if (Object.keys(errors).length > 0) throw messageError(400, errors);
}

/** ApprovalRules::CreateService for a project (`mr` null) or a merge request. */
export function createRule(state: State, project: Project, mr: MergeRequest | null, user: User, input: RuleInput, now: number): Change<ApprovalRule> {
  const who = approvers(state, project, user, input, now);
  let sourceRuleId: number | null = null;
  if (mr && input.sourceRuleId !== undefined) {
    // approval_project_rule_id: a rule of the merge request's project, else none.
    sourceRuleId = findRule(state, project.id, null, input.sourceRuleId)?.id ?? null;
  }
  const fields: Omit<ApprovalRule, 'id'> = {
    projectId: project.id,
    mergeRequestId: mr?.id ?? null,
    name: input.name ?? '',
    ruleType: input.ruleType ?? 'regular',
    approvalsRequired: input.approvalsRequired ?? 0,
    userIds: who.userIds ?? [],
    groupIds: who.groupIds ?? [],
    appliesToAllProtectedBranches: input.appliesToAllProtectedBranches ?? false,
    sourceRuleId,
  };
  validate(state, fields, null);
  return (draft) => {
    const id = ids.next(draft as State, mr ? 'approval_merge_request_rule' : 'approval_project_rule');
    const rule: ApprovalRule = { id, ...fields };
    pset(draft.approvalRules, project.id, ruleKey(rule.mergeRequestId, id), rule);
    return rule;
  };
}

/** ApprovalRules::UpdateService: the fields given, the others as they are. */
export function updateRule(state: State, project: Project, rule: ApprovalRule, user: User, input: RuleInput, now: number): Change<ApprovalRule> {
  const who = approvers(state, project, user, input, now);
  const next: ApprovalRule = {
    ...rule,
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.approvalsRequired !== undefined ? { approvalsRequired: input.approvalsRequired } : {}),
    ...(input.ruleType !== undefined ? { ruleType: input.ruleType } : {}),
    ...(who.userIds !== undefined ? { userIds: who.userIds } : {}),
    ...(who.groupIds !== undefined ? { groupIds: who.groupIds } : {}),
    ...(input.appliesToAllProtectedBranches !== undefined ? { appliesToAllProtectedBranches: input.appliesToAllProtectedBranches } : {}),
  };
  validate(state, next, rule.id);
  return (draft) => {
    pset(draft.approvalRules, project.id, ruleKey(rule.mergeRequestId, rule.id), next);
    return next;
  };
}

export function deleteRule(rule: ApprovalRule): Change<void> {
  return (draft) => void pdel(draft.approvalRules, rule.projectId, ruleKey(rule.mergeRequestId, rule.id));
}

/** Every approval of the merge request taken back (MergeRequests::ResetApprovalsService, and `reset_approvals`). */
export function resetApprovals(mr: MergeRequest): Change<void> {
  return (draft) => void tdel(draft.mergeRequestApprovals, mr.id);
}

export interface SettingsInput {
  approvalsBeforeMerge?: number;
  resetApprovalsOnPush?: boolean;
  disableOverridingApproversPerMergeRequest?: boolean;
  mergeRequestsAuthorApproval?: boolean;
  mergeRequestsDisableCommittersApproval?: boolean;
  requirePasswordToApprove?: boolean;
  selectiveCodeOwnerRemovals?: boolean;
}

/** `POST /projects/:id/approvals`: the project's approval settings changed. */
export function updateApprovalSettings(state: State, projectId: number, input: SettingsInput): Change<ApprovalSettings> {
  if (input.approvalsBeforeMerge !== undefined && input.approvalsBeforeMerge < 0) throw messageError(400, { approvals_before_merge: ['must be greater than or equal to 0'] });
  const next: ApprovalSettings = { ...DEFAULT_APPROVAL_SETTINGS, ...approvalSettingsOf(state, projectId) };
  for (const [k, v] of Object.entries(input)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
  return (draft) => {
    tset(draft.approvalSettings, projectId, next);
    return next;
  };
}

