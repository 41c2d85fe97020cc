// Approval rules and settings (ee/lib/api/project_approval_rules.rb, merge_request_approval_rules.rb,
// project_approvals.rb, merge_request_approvals.rb's approval_state and reset_approvals), with
// their entities (ee/lib/ee/api/entities/approval_rule*.rb). A feature of the higher tiers: on
// the free tier these routes are not there (404), as in GitLab's Community Edition.
import { notFound, unauthorized, forbidden } from '../../core/errors.js';
import { arr, bool, int, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { canReadGroup, hasProjectRole } from '../../policy/access.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { pget, tget } from '../../store/table.js';
import { project, route, type Ability, type Context } from '../define.js';
import { groupEntity } from '../groups/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import { createRule, deleteRule, findRule, resetApprovals, updateApprovalSettings, updateRule, type RuleInput } from './approval-rules.js';
import {
  applicableRules, approvalRulesAvailable, approvalSettingsOf, eligibleApprovers, mergeRequestApprovalRules, projectApprovalRules, ruleProgress, rulesOverwritten,
} from './approval-state.js';
import type { ApprovalRule, MergeRequest } from './records.js';
import { mergeRequest } from './resolvers.js';
import { canReadMergeRequests, canUpdateMergeRequest } from './rules.js';

type View = UrlBase & { state: State; viewer: User | null; now: number };

const users = (v: View, ids: readonly number[]) => ids.flatMap((id) => {
  const u = tget(v.state.users, id);
  return u ? [userBasic(u, v)] : [];
});

/** EE::API::Entities::ApprovalRule: the short fields, then approvers, users and groups. */
function ruleEntity(v: View, rule: ApprovalRule) {
  const groups = rule.groupIds.flatMap((id) => {
    const g = tget(v.state.namespaces, id);
    return g ? [g] : [];
  });
  const visible = groups.filter((g) => canReadGroup(v.state, v.viewer, g, v.now));
  return {
    id: rule.id, name: rule.name, rule_type: rule.ruleType, report_type: null,
    eligible_approvers: users(v, eligibleApprovers(v.state, rule)),
    approvals_required: rule.approvalsRequired,
    users: users(v, rule.userIds),
    groups: visible.map((g) => groupEntity(v.state, g, v)),
    contains_hidden_groups: visible.length < groups.length,
  };
}

/** ProjectApprovalRule: protected branches are not rules' here; each rule applies to every branch. */
const projectRuleEntity = (v: View, rule: ApprovalRule) => ({ ...ruleEntity(v, rule), protected_branches: [], applies_to_all_protected_branches: rule.appliesToAllProtectedBranches });

/** MergeRequestApprovalRule: the rule, its section, the project rule it came from and whether it departs from it. */
function mrRuleEntity(v: View, rule: ApprovalRule) {
  const source = rule.sourceRuleId === null ? undefined : pget(v.state.approvalRules, rule.projectId, `p${rule.sourceRuleId}`);
  return {
    ...ruleEntity(v, rule), section: null,
    source_rule: source ? { approvals_required: source.approvalsRequired } : null,
    overridden: source ? source.approvalsRequired !== rule.approvalsRequired || source.name !== rule.name : false,
  };
}

/** MergeRequestApprovalStateRule: the rule as it stands on the merge request. */
function stateRuleEntity(v: View, mr: MergeRequest, rule: ApprovalRule) {
  const progress = ruleProgress(v.state, mr, rule);
  return { ...mrRuleEntity(v, rule), code_owner: false, approved_by: users(v, progress.approvedBy), approved: progress.left === 0 };
}

const view = (ctx: Context<unknown>): View => ({ state: ctx.state, viewer: ctx.user, webBase: ctx.webBase, now: ctx.now() });

/** The higher tiers' feature: absent (404) on the free tier. */
const available: Ability<Project> = (state) => {
  if (!approvalRulesAvailable(state)) throw notFound();
  return true;
};

/** authorize_read_project_approval_rule!: who administers the project, or may create merge requests in it. */
const canReadProjectRules: Ability<Project> = (state, user, p, now) => canReadMergeRequests(state, user, p, now) && hasProjectRole(state, user, p, ACCESS.developer, now);
/** admin_project. */
const canAdminProject: Ability<Project> = (state, user, p, now) => hasProjectRole(state, user, p, ACCESS.maintainer, now);

const RULE_PARAMS = {
  rule_type: str().values(['regular', 'any_approver'] as const), user_ids: arr(int(), { commaSeparated: true }), group_ids: arr(int(), { commaSeparated: true }),
  usernames: arr(str(), { commaSeparated: true }), applies_to_all_protected_branches: bool(), approval_project_rule_id: int(),
};

interface RuleParams {
  name?: string; approvals_required?: number; rule_type?: 'regular' | 'any_approver'; user_ids?: number[]; group_ids?: number[]; usernames?: string[];
  applies_to_all_protected_branches?: boolean; approval_project_rule_id?: number;
}

const ruleInput = (p: RuleParams): RuleInput => ({
  name: p.name, approvalsRequired: p.approvals_required, ruleType: p.rule_type, userIds: p.user_ids, groupIds: p.group_ids, usernames: p.usernames,
  appliesToAllProtectedBranches: p.applies_to_all_protected_branches, sourceRuleId: p.approval_project_rule_id,
});

function projectRule(ctx: Context<{ approval_rule_id: number }>): ApprovalRule {
  const rule = findRule(ctx.state, ctx.project.id, null, ctx.params.approval_rule_id);
  if (!rule) throw notFound();
  return rule;
}

function mrRule(ctx: Context<{ approval_rule_id: number }, MergeRequest>): ApprovalRule {
  const rule = findRule(ctx.state, ctx.project.id, ctx.subject, ctx.params.approval_rule_id);
  if (!rule) throw notFound();
  return rule;
}

/** `update_approvers`: who may edit the merge request, where the project lets merge requests override its rules. */
function authorizeUpdateApprovers(ctx: Context<unknown, MergeRequest>): void {
  if (approvalSettingsOf(ctx.state, ctx.project.id).disableOverridingApproversPerMergeRequest || !canUpdateMergeRequest(ctx.state, ctx.user, ctx.project, ctx.subject, ctx.now())) throw forbidden();
}

/** EE::API::Entities::ApprovalSettings (ProjectApprovals). */
function settingsEntity(state: State, projectId: number) {
  const s = approvalSettingsOf(state, projectId);
  return {
    approvers: [], approver_groups: [], approvals_before_merge: s.approvalsBeforeMerge, reset_approvals_on_push: s.resetApprovalsOnPush,
    selective_code_owner_removals: s.selectiveCodeOwnerRemovals, disable_overriding_approvers_per_merge_request: s.disableOverridingApproversPerMergeRequest,
    merge_requests_author_approval: s.mergeRequestsAuthorApproval, merge_requests_disable_committers_approval: s.mergeRequestsDisableCommittersApproval,
    require_password_to_approve: s.requirePasswordToApprove,
  };
}

const PROJECT_RULES = '/projects/:id/approval_rules';
const MR = '/projects/:id/merge_requests/:merge_request_iid';
const IID = { merge_request_iid: int().required() };
const RULE_ID = { approval_rule_id: int().required() };

export const approvalRuleRoutes = [
  route({
    method: 'GET', path: '/projects/:id/approvals', auth: 'user', scope: project(available, canReadProjectRules),
    handler: (ctx): Reply => json(settingsEntity(ctx.state, ctx.project.id)),
  }),
  route({
    method: 'POST', path: '/projects/:id/approvals', auth: 'user', scope: project(available, canAdminProject),
    params: {
      approvals_before_merge: int(), reset_approvals_on_push: bool(), disable_overriding_approvers_per_merge_request: bool(), merge_requests_author_approval: bool(),
      merge_requests_disable_committers_approval: bool(), require_password_to_approve: bool(), selective_code_owner_removals: bool(),
    },
    handler: (ctx): Reply => {
      const p = ctx.params;
      ctx.update(updateApprovalSettings(ctx.state, ctx.project.id, {
        approvalsBeforeMerge: p.approvals_before_merge, resetApprovalsOnPush: p.reset_approvals_on_push,
        disableOverridingApproversPerMergeRequest: p.disable_overriding_approvers_per_merge_request, mergeRequestsAuthorApproval: p.merge_requests_author_approval,
        mergeRequestsDisableCommittersApproval: p.merge_requests_disable_committers_approval, requirePasswordToApprove: p.require_password_to_approve,
        selectiveCodeOwnerRemovals: p.selective_code_owner_removals,
      }));
      return created(settingsEntity(ctx.state, ctx.project.id));
    },
  }),
  route({
    method: 'GET', path: PROJECT_RULES, auth: 'user', paginated: true, scope: project(available, canReadProjectRules),
    handler: (ctx): Reply => json(ctx.paginate(projectApprovalRules(ctx.state, ctx.project.id)).map((r) => projectRuleEntity(view(ctx), r))),
  }),
  route({
    method: 'GET', path: `${PROJECT_RULES}/:approval_rule_id`, auth: 'user', scope: project(available, canReadProjectRules), params: RULE_ID,
    handler: (ctx): Reply => json(projectRuleEntity(view(ctx), projectRule(ctx))),
  }),
  route({
    method: 'POST', path: PROJECT_RULES, auth: 'user', scope: project(available, canAdminProject),
    params: { name: str().required(), approvals_required: int().required(), ...RULE_PARAMS },
    handler: (ctx): Reply => created(projectRuleEntity(view(ctx), ctx.update(createRule(ctx.state, ctx.project, null, ctx.user!, ruleInput(ctx.params), ctx.now())))),
  }),
  route({
    method: 'PUT', path: `${PROJECT_RULES}/:approval_rule_id`, auth: 'user', scope: project(available, canAdminProject),
    params: { ...RULE_ID, name: str(), approvals_required: int(), ...RULE_PARAMS },
    handler: (ctx): Reply => json(projectRuleEntity(view(ctx), ctx.update(updateRule(ctx.state, ctx.project, projectRule(ctx), ctx.user!, ruleInput(ctx.params), ctx.now())))),
  }),
  route({
    method: 'DELETE', path: `${PROJECT_RULES}/:approval_rule_id`, auth: 'user', scope: project(available, canAdminProject), params: RULE_ID,
    handler: (ctx): Reply => {
      ctx.update(deleteRule(projectRule(ctx)));
      return noContent();
    },
  }),
  route({
    method: 'GET', path: `${MR}/approval_state`, auth: 'user', scope: project(available, canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: (ctx): Reply => json({
      approval_rules_overwritten: rulesOverwritten(ctx.state, ctx.subject),
      rules: applicableRules(ctx.state, ctx.subject).map((r) => stateRuleEntity(view(ctx), ctx.subject, r)),
    }),
  }),
  route({
    method: 'GET', path: `${MR}/approval_rules`, auth: 'user', paginated: true, scope: project(available, canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: (ctx): Reply => json(ctx.paginate(mergeRequestApprovalRules(ctx.state, ctx.subject)).map((r) => mrRuleEntity(view(ctx), r))),
  }),
  route({
    method: 'GET', path: `${MR}/approval_rules/:approval_rule_id`, auth: 'user', scope: project(available, canReadMergeRequests), params: { ...IID, ...RULE_ID }, subject: mergeRequest(),
    handler: (ctx): Reply => json(mrRuleEntity(view(ctx), mrRule(ctx))),
  }),
  route({
    method: 'POST', path: `${MR}/approval_rules`, auth: 'user', scope: project(available, canReadMergeRequests),
    params: { ...IID, name: str().required(), approvals_required: int().required(), ...RULE_PARAMS }, subject: mergeRequest(),
    handler: (ctx): Reply => {
      authorizeUpdateApprovers(ctx);
      return created(mrRuleEntity(view(ctx), ctx.update(createRule(ctx.state, ctx.project, ctx.subject, ctx.user!, ruleInput(ctx.params), ctx.now()))));
    },
  }),
  route({
    method: 'PUT', path: `${MR}/approval_rules/:approval_rule_id`, auth: 'user', scope: project(available, canReadMergeRequests),
    params: { ...IID, ...RULE_ID, name: str(), approvals_required: int(), ...RULE_PARAMS }, subject: mergeRequest(),
    handler: (ctx): Reply => {
      const rule = mrRule(ctx);
      authorizeUpdateApprovers(ctx);
      return json(mrRuleEntity(view(ctx), ctx.update(updateRule(ctx.state, ctx.project, rule, ctx.user!, ruleInput(ctx.params), ctx.now()))));
    },
  }),
  route({
    method: 'DELETE', path: `${MR}/approval_rules/:approval_rule_id`, auth: 'user', scope: project(available, canReadMergeRequests), params: { ...IID, ...RULE_ID }, subject: mergeRequest(),
    handler: (ctx): Reply => {
      const rule = mrRule(ctx);
      authorizeUpdateApprovers(ctx);
      ctx.update(deleteRule(rule));
      return noContent();
    },
  }),
  route({
    method: 'PUT', path: `${MR}/reset_approvals`, auth: 'user', scope: project(canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: (ctx): Reply => {
      const user = ctx.user!;
      // Bots only (project and group access tokens), with `reset_merge_request_approvals` (Developers and up).
      if (!user.bot || !hasProjectRole(ctx.state, user, ctx.project, ACCESS.developer, ctx.now())) throw unauthorized();
      ctx.update(resetApprovals(ctx.subject));
      // `status :accepted` is the endpoint's last expression: Grape renders it as the body.
      return { ...json(202), status: 202 };
    },
  }),
];
