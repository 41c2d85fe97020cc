// The issues routes (lib/api/issues.rb, time_tracking_endpoints.rb): the three lists and their
// statistics, one issue, create, edit, delete, move, clone, reorder, time tracking and a
// milestone's issues (links are link-routes.ts's; participants, subscriptions, to-dos and award
// emoji the issuables family's socialRoutes).
import type { Incoming } from '../../http/incoming.js';
import { messageError, notFound, recordNotFound, unauthorized, forbidden, grapeError } from '../../core/errors.js';
import { canReadProjectMilestones, ownMilestones, type Milestone } from '../milestones/index.js';
import { ancestry } from '../../policy/access.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { arr, bool, datetime, hash, int, str, type Constraint } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import type { Keyset } from '../../http/pagination.js';
import { tget } from '../../store/table.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { group, project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { issueEntity, type IssueView } from './entity.js';
import { issueNotFound, moveError } from './errors.js';
import { canReadIssues, findIssues, issueCounts, issueOrder, issueVisible, seesConfidential, sortIssues, type IssueFilters, type ListKind, type Position } from './finder.js';
import { fromBase64, toBase64, utf8 } from '../../git/bytes.js';
import { ISSUE_TYPES, SEVERITIES, type Issue, type IssueType, type Severity } from './records.js';
import {
  canAdminIssues, canBackdate, canCreateIssue, canDestroyIssue, canUpdateIssue, createIssue, deleteIssue,
  moveIssue, moveRefusal, reorderIssue, setEstimate, spendTime, updateIssue, type IssueInput,
} from './rules.js';
import { bget, bset, issueById, issueByIid, type Blocked } from './store.js';
import { issueDescriptionCommands } from './note-commands.js';
import type { Namespace, Project, User } from '../../store/state.js';
import { badEstimate, castDateLike, milestoneOf, parseDuration, spentInvalid, timeStats } from '../issuables/index.js';

const WILDCARD_ID = (v: string) => ['none', 'any'].includes(v.toLowerCase()) || /^\d+$/.test(v);
const ORDER_BY = ['created_at', 'due_date', 'label_priority', 'milestone_due', 'popularity', 'priority', 'relative_position', 'title', 'updated_at', 'weight'] as const;
const SCOPES = ['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const;
const DUE = ['0', 'any', 'today', 'tomorrow', 'overdue', 'week', 'month', 'next_month_and_previous_two_weeks', ''] as const;

const NOT_PARAMS = {
  labels: arr(str(), { commaSeparated: true }),
  milestone: str(),
  milestone_id: str().where((v) => ['none', 'any', 'upcoming', 'started'].includes(v.toLowerCase())),
  iids: arr(int(), { commaSeparated: true }),
  author_id: int(),
  author_username: str(),
  assignee_id: str().where(WILDCARD_ID),
  assignee_username: arr(str(), { commaSeparated: true }),
  my_reaction_emoji: str(),
  search: str(),
  in: str(),
  weight: str(),
  iteration_id: str(),
  iteration_title: str(),
  epic_id: str(),
};

const FILTER_PARAMS = {
  state: str().values(['opened', 'closed', 'all'] as const).default('all'),
  labels: arr(str(), { commaSeparated: true }),
  milestone: str(),
  milestone_id: str().where((v) => ['none', 'any', 'upcoming', 'started'].includes(v.toLowerCase())),
  iids: arr(int(), { commaSeparated: true }),
  search: str(),
  in: str(),
  created_after: datetime(),
  created_before: datetime(),
  updated_after: datetime(),
  updated_before: datetime(),
  author_id: int(),
  author_username: str(),
  assignee_id: str().where(WILDCARD_ID),
  assignee_username: arr(str(), { commaSeparated: true }),
  confidential: bool(),
  my_reaction_emoji: str(),
  due_date: str().values(DUE),
  issue_type: str().values(ISSUE_TYPES),
  scope: str().values(SCOPES),
  non_archived: bool().default(true),
  not: hash(NOT_PARAMS),
  // The higher tiers' filters, checked by `checkTierFilters` where the tier has them.
  weight: str(),
  epic_id: str(),
  iteration_id: str(),
  iteration_title: str(),
  health_status: str(),
};

const NUMBER_OR_WILDCARD = (v: string) => /^\d+$/.test(v) || ['none', 'any'].includes(v.toLowerCase());
const TIER_FILTERS: [string, (v: string) => boolean][] = [
  ['weight', NUMBER_OR_WILDCARD],
  ['epic_id', NUMBER_OR_WILDCARD],
  ['iteration_id', (v) => NUMBER_OR_WILDCARD(v) || v.toLowerCase() === 'current'],
];

/** EE's declarations of the higher tiers' filters: values they refuse are 400, as Grape's `values:` are. */
function checkTierFilters(ctx: Context<unknown>, p: ListParams): void {
  if (ctx.state.instance.tier === 'free') return;
  const not = (p.not ?? {}) as Record<string, unknown>;
  // EE's `mutually_exclusive :iteration_id, :iteration_title`, at the top and inside `not`.
  if (p.iteration_id !== undefined && p.iteration_title !== undefined) throw grapeError(400, 'iteration_id, iteration_title are mutually exclusive');
  if (not.iteration_id !== undefined && not.iteration_title !== undefined) throw grapeError(400, 'not[iteration_id], not[iteration_title] are mutually exclusive');
  for (const [name, ok] of TIER_FILTERS) {
    if (typeof p[name] === 'string' && !ok(p[name])) throw grapeError(400, `${name} does not have a valid value`);
    if (typeof not[name] === 'string' && !ok(not[name] as string)) throw grapeError(400, `not[${name}] does not have a valid value`);
  }
  if (typeof p.health_status === 'string' && !['none', 'any', 'on_track', 'needs_attention', 'at_risk'].includes(p.health_status.toLowerCase())) {
    throw grapeError(400, 'health_status does not have a valid value');
  }
}

const LIST_PARAMS = {
  ...FILTER_PARAMS,
  order_by: str().values(ORDER_BY).default('created_at'),
  sort: str().values(['asc', 'desc'] as const).default('desc'),
  with_labels_details: bool().default(false),
  pagination: str().values(['offset', 'keyset'] as const),
  cursor: str(),
};

const LIST_CONSTRAINTS: Constraint[] = [
  { kind: 'mutually_exclusive', names: ['assignee_id', 'assignee_username'] },
  { kind: 'mutually_exclusive', names: ['author_id', 'author_username'] },
  { kind: 'mutually_exclusive', names: ['milestone_id', 'milestone'] },
];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ListParams = { [k: string]: any; page?: number; per_page?: number };

/** The free tier takes one `assignee_username` (CheckAssigneesCount). */
function checkAssigneeCount(ctx: Context<unknown>, p: ListParams): void {
  const list = p.assignee_username as string[] | undefined;
  if (ctx.state.instance.tier === 'free' && list && list.length > 1) {
    throw grapeError(400, `assignee_username allows one value, but found ${list.length}: ${list.join(', ')}`);
  }
}

function filters(p: ListParams, defaultScope: IssueFilters['scope']): IssueFilters {
  const scope = ((p.scope as string | undefined)?.replace(/-/g, '_') ?? defaultScope) as IssueFilters['scope'];
  return { ...(p as object), scope, order_by: (p.order_by as string) ?? 'created_at', sort: (p.sort as 'asc' | 'desc') ?? 'desc' } as IssueFilters;
}

export function view(ctx: Context<unknown>, context: IssueView['context'], extra: Partial<IssueView> = {}): IssueView {
  return { state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, context, ...extra };
}

/**
 * Keyset pages of issues (`pagination=keyset`) for the orders GitLab offers them: the `cursor`
 * names where the last page ended (its sort key and id), so a page is right even when that
 * issue has since changed or gone. The next page's link repeats every parameter of the request,
 * sorted, as the offset links do.
 */
const ISSUE_KEYSET: Keyset<Issue, State> = {
  orderBy: ['created_at', 'updated_at', 'title', 'due_date', 'relative_position', 'popularity'],
  cursor: ['cursor'],
  headers: 'cursor',
  page(list, p, { perPage }, state) {
    const order = issueOrder(state, p.order_by as string, p.sort as 'asc' | 'desc');
    let start = 0;
    if (typeof p.cursor === 'string' && p.cursor !== '') {
      let at: Position | undefined;
      try {
        const decoded = JSON.parse(new TextDecoder().decode(fromBase64(p.cursor.replace(/-/g, '+').replace(/_/g, '/')))) as Partial<Position>;
        if (typeof decoded.id === 'number' && (decoded.k === null || typeof decoded.k === 'number' || typeof decoded.k === 'string')) at = { k: decoded.k, id: decoded.id };
      } catch {
        at = undefined;
      }
      if (!at) throw grapeError(400, 'cursor is invalid');
      const after = at;
      start = list.findIndex((i) => order.compare(order.position(i), after) > 0);
      if (start < 0) start = list.length;
    }
    const items = list.slice(start, start + perPage);
    const last = items[items.length - 1];
    if (!last || start + perPage >= list.length) return { items };
    return { items, next: { cursor: toBase64(utf8(JSON.stringify(order.position(last)))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') } };
  },
};

function listReply(ctx: Context<unknown>, kind: ListKind, p: ListParams, scope: { project?: Project; group?: import('../../store/state.js').Namespace }, context: IssueView['context']): Reply {
  checkAssigneeCount(ctx, p);
  checkTierFilters(ctx, p);
  // `weight` is among the orders of the higher tiers only (EE's sort options).
  if (p.order_by === 'weight' && ctx.state.instance.tier === 'free') throw grapeError(400, 'order_by does not have a valid value');
  const f = filters(p, kind === 'all' ? 'created_by_me' : 'all');
  const found = findIssues(ctx.state, kind, f, { user: ctx.user, now: ctx.now() }, scope);
  const v = view(ctx, context, { withLabelsDetails: p.with_labels_details === true });
  return json(ctx.paginate(found).map((i) => issueEntity(v, i)));
}

function statsReply(ctx: Context<unknown>, kind: ListKind, p: ListParams, scope: { project?: Project; group?: import('../../store/state.js').Namespace }): Reply {
  checkAssigneeCount(ctx, p);
  checkTierFilters(ctx, p);
  const f = filters(p, kind === 'all' ? 'created_by_me' : 'all');
  return json({ statistics: { counts: issueCounts(ctx.state, kind, f, { user: ctx.user, now: ctx.now() }, scope) } });
}

/** The issue of `:issue_iid` as the caller may see it, or `404 Not found` (find_by!). */
export function visibleIssue(ctx: Context<{ issue_iid: number }>): Issue {
  const issue = issueByIid(ctx.state, ctx.project.id, ctx.params.issue_iid);
  if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw recordNotFound();
  return issue;
}

const single = (ctx: Context<unknown>, issue: Issue, status = 200) =>
  json(issueEntity(view(ctx, { kind: 'project', id: issue.projectId }, { subscribed: true }), issue), status);

const ISSUE_PARAMS = {
  description: str(),
  assignee_ids: arr(int(), { commaSeparated: true }),
  assignee_id: int(),
  milestone_id: int(),
  labels: arr(str(), { commaSeparated: true }),
  add_labels: arr(str(), { commaSeparated: true }),
  remove_labels: arr(str(), { commaSeparated: true }),
  due_date: str(),
  confidential: bool().notBlank(),
  discussion_locked: bool(),
  issue_type: str().values(ISSUE_TYPES),
  weight: int(),
  epic_id: int(),
  epic_iid: int(),
};

interface IssueParams {
  title?: string;
  description?: string;
  assignee_ids?: number[];
  assignee_id?: number;
  milestone_id?: number;
  labels?: string[];
  add_labels?: string[];
  remove_labels?: string[];
  due_date?: string;
  confidential?: boolean;
  discussion_locked?: boolean;
  issue_type?: string;
  severity?: string;
  weight?: number;
  epic_id?: number;
  epic_iid?: number;
  created_at?: number;
  updated_at?: number;
  iid?: number;
  state_event?: 'close' | 'reopen';
}

function issueInput(p: IssueParams, raw: Record<string, unknown>): IssueInput {
  const assignees = p.assignee_ids ?? (p.assignee_id !== undefined ? [p.assignee_id] : undefined);
  return {
    title: p.title,
    description: p.description,
    assigneeIds: assignees,
    milestoneId: raw.milestone_id === undefined ? undefined : p.milestone_id ?? null,
    labels: p.labels,
    addLabels: p.add_labels,
    removeLabels: p.remove_labels,
    dueDate: p.due_date === undefined ? (raw.due_date === null ? null : undefined) : castDateLike(p.due_date),
    confidential: p.confidential,
    discussionLocked: p.discussion_locked,
    issueType: p.issue_type as IssueType | undefined,
    severity: p.severity?.toLowerCase() as Severity | undefined,
    weight: p.weight,
    epicId: raw.epic_id === undefined && raw.epic_iid === undefined ? undefined : p.epic_id ?? p.epic_iid ?? null,
    epicByIid: p.epic_id === undefined && p.epic_iid !== undefined,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
    iid: p.iid,
    stateEvent: p.state_event,
  };
}


const UPDATE_AT_LEAST = ['assignee_id', 'assignee_ids', 'confidential', 'created_at', 'description', 'discussion_locked', 'due_date', 'labels', 'add_labels', 'remove_labels', 'milestone_id', 'state_event', 'title', 'issue_type'];

function needUser(ctx: Context<unknown>): User {
  if (!ctx.user) throw unauthorized();
  return ctx.user;
}

function timeRoute(path: string, method: 'GET' | 'POST', handler: (ctx: Context<{ issue_iid: number; duration?: string; summary?: string }>, issue: Issue, user: User) => Reply, params: Record<string, import('../../http/params.js').Param<unknown, boolean>> = {}) {
  return route({
    method,
    path: `/projects/:id/issues/:issue_iid/${path}`,
    auth: method === 'GET' ? 'public' : 'user',
    cacheable: method === 'GET',
    scope: project(canReadIssues),
    params: { issue_iid: int().required(), ...params },
    handler: (ctx): Reply => {
      const issue = visibleIssue(ctx);
      if (method === 'GET') return handler(ctx, issue, ctx.user!);
      const user = needUser(ctx);
      if (!canAdminIssues(ctx.state, user, ctx.project, ctx.now())) throw forbidden();
      return handler(ctx, issue, user);
    },
  });
}

/** A milestone's issues (lib/api/milestone_responses.rb), which the milestones family cannot see. */
function milestoneIssues(ctx: Context<{ milestone_id: number }>, m: Milestone, scope: { project?: Project; group?: Namespace }): Reply {
  const f: IssueFilters = { scope: 'all', state: 'all', milestone: m.title, order_by: 'label_priority', sort: 'asc', non_archived: true };
  const caller = { user: ctx.user, now: ctx.now() };
  let found = scope.project ? findIssues(ctx.state, 'project', f, caller, scope) : findIssues(ctx.state, 'group', f, caller, scope);
  // The group's own projects only (the finder's group_id without include_subgroups).
  if (scope.group) found = found.filter((i) => tget(ctx.state.projects, i.projectId)?.namespaceId === scope.group!.id);
  const v = { state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, context: scope.project ? { kind: 'project' as const, id: scope.project.id } : { kind: 'group' as const, id: scope.group!.id } };
  return json(ctx.paginate(found).map((i) => issueEntity(v, i)));
}

export const issueRoutes = [
  route({
    method: 'GET', path: '/issues', cacheable: true, paginated: { keyset: ISSUE_KEYSET }, params: LIST_PARAMS, constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => {
      if (!ctx.user && ctx.params.scope !== 'all') throw unauthorized();
      return listReply(ctx, 'all', ctx.params, {}, { kind: 'none' });
    },
  }),
  route({
    method: 'GET', path: '/issues_statistics', cacheable: true, params: { ...FILTER_PARAMS, scope: str().values(['created_by_me', 'assigned_to_me', 'all'] as const) }, constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => {
      if (!ctx.user && ctx.params.scope !== 'all') throw unauthorized();
      return statsReply(ctx, 'all', ctx.params, {});
    },
  }),
  route({
    method: 'GET', path: '/issues/:issue_id', auth: 'admin', params: { issue_id: int().required() },
    handler: (ctx): Reply => {
      const issue = issueById(ctx.state, ctx.params.issue_id);
      if (!issue) throw recordNotFound();
      return json(issueEntity(view(ctx, { kind: 'none' }, { subscribed: true }), issue));
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/issues', cacheable: true, scope: group(), paginated: { keyset: ISSUE_KEYSET }, params: LIST_PARAMS, constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => listReply(ctx, 'group', ctx.params, { group: ctx.group }, { kind: 'group', id: ctx.group.id }),
  }),
  route({
    method: 'GET', path: '/groups/:id/issues_statistics', cacheable: true, scope: group(), params: FILTER_PARAMS, constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => statsReply(ctx, 'group', ctx.params, { group: ctx.group }),
  }),
  route({
    method: 'GET', path: '/projects/:id/issues', cacheable: true, scope: project(canReadIssues), paginated: { keyset: ISSUE_KEYSET }, params: LIST_PARAMS, constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => listReply(ctx, 'project', ctx.params, { project: ctx.project }, { kind: 'project', id: ctx.project.id }),
  }),
  route({
    method: 'GET', path: '/projects/:id/issues_statistics', cacheable: true, scope: project(canReadIssues), params: FILTER_PARAMS, constraints: LIST_CONSTRAINTS,
    handler: (ctx): Reply => statsReply(ctx, 'project', ctx.params, { project: ctx.project }),
  }),
  route({
    method: 'GET', path: '/projects/:id/issues/:issue_iid', cacheable: true, scope: project(canReadIssues), params: { issue_iid: int().required() },
    handler: (ctx): Reply => single(ctx, visibleIssue(ctx)),
  }),
  route({
    method: 'POST', path: '/projects/:id/issues', auth: 'user', scope: project(canCreateIssue), rateLimit: 'issues_create',
    params: {
      title: str().required(), ...ISSUE_PARAMS, milestone: str(), severity: str().where((v) => (SEVERITIES as readonly string[]).includes(v.toLowerCase())), created_at: datetime(), iid: int(),
      merge_request_to_resolve_discussions_of: int(), discussion_to_resolve: str(),
    },
    constraints: [{ kind: 'mutually_exclusive', names: ['milestone_id', 'milestone'] }],
    handler: (ctx): Reply => {
      const user = ctx.user!;
      const p = { ...ctx.params } as IssueParams & { milestone?: string };
      if (!canBackdate(ctx.state, user, ctx.project, ctx.now())) {
        delete p.created_at;
        delete p.iid;
      }
      const input = issueInput(p, ctx.raw);
      if (p.milestone !== undefined) input.milestoneId = milestoneByTitle(ctx.state, ctx.project, p.milestone);
      const commands = issueDescriptionCommands(ctx.state, ctx.project, user, { ...input, title: ctx.params.title }, null, ctx.now(), ctx.webBase);
      const made = ctx.update(createIssue(ctx.state, ctx.project, user, { ...(commands?.input ?? input), title: ctx.params.title }, ctx.now()));
      const issue = commands ? ctx.update(commands.after(made)) : made;
      // SpamCheck records the request's user agent and address for the new issue (UserAgentDetail).
      const detail = { userAgent: ctx.request.headers.get('user-agent') ?? '', ipAddress: requestAddress(ctx.request) };
      ctx.update((draft) => bset(draft.userAgentDetails as Blocked<typeof detail>, issue.id, detail));
      return single(ctx, issue, 201);
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/issues/:issue_iid', auth: 'user', scope: project(canReadIssues),
    params: { issue_iid: int().required(), title: str(), ...ISSUE_PARAMS, updated_at: datetime().notBlank(), created_at: datetime(), state_event: str().values(['close', 'reopen'] as const) },
    handler: (ctx): Reply => {
      // IssuesHelpers.update_params_at_least_one_of, with EE's additions on the higher tiers.
      const names = ctx.state.instance.tier === 'free' ? UPDATE_AT_LEAST : [...UPDATE_AT_LEAST, 'weight', 'epic_id', 'epic_iid'];
      if (!names.some((n) => ctx.raw[n] !== undefined)) throw grapeError(400, `${names.join(', ')} are missing, at least one parameter must be provided`);
      const issue = visibleIssue(ctx);
      const user = ctx.user!;
      if (!canUpdateIssue(ctx.state, user, ctx.project, issue, ctx.now())) throw forbidden();
      const p = { ...ctx.params } as IssueParams;
      if (!canBackdate(ctx.state, user, ctx.project, ctx.now())) {
        delete p.updated_at;
        delete p.created_at;
      }
      const input = issueInput(p, ctx.raw);
      const commands = issueDescriptionCommands(ctx.state, ctx.project, user, input, issue, ctx.now(), ctx.webBase);
      const saved = ctx.update(updateIssue(ctx.state, ctx.project, issue, user, commands?.input ?? input, ctx.now()));
      return single(ctx, commands ? ctx.update(commands.after(saved)) : saved);
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/issues/:issue_iid', auth: 'user', scope: project(canReadIssues), params: { issue_iid: int().required() },
    handler: (ctx): Reply => {
      const issue = issueByIid(ctx.state, ctx.project.id, ctx.params.issue_iid);
      if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw issueNotFound();
      if (!canDestroyIssue(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      checkUnmodifiedSince(ctx, issue.updatedAt);
      ctx.update(deleteIssue(issue));
      return noContent();
    },
  }),
  ...(['move', 'clone'] as const).map((mode) =>
    route({
      method: 'POST', path: `/projects/:id/issues/:issue_iid/${mode}`, auth: 'user', scope: project(canReadIssues),
      params: { issue_iid: int().required(), to_project_id: str().required(), ...(mode === 'clone' ? { with_notes: bool().default(false) } : {}) },
      handler: (ctx): Reply => {
        const issue = issueByIid(ctx.state, ctx.project.id, ctx.params.issue_iid);
        if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw issueNotFound();
        const target = projectByIdOrPath(ctx.state, ctx.params.to_project_id);
        if (!target || target.pendingDelete) throw issueTargetMissing();
        const user = ctx.user!;
        const refusal = moveRefusal(ctx.state, ctx.project, target, issue, user, ctx.now(), mode);
        if (refusal) throw moveError(refusal);
        const withNotes = 'with_notes' in ctx.params && ctx.params.with_notes === true;
        const copy = ctx.update(moveIssue(ctx.state, ctx.project, target, issue, user, ctx.now(), mode, withNotes));
        return json(issueEntity(view(ctx, { kind: 'project', id: ctx.project.id }, { subscribed: true }), copy), 201);
      },
    }),
  ),
  route({
    method: 'PUT', path: '/projects/:id/issues/:issue_iid/reorder', auth: 'user', scope: project(canReadIssues),
    params: { issue_iid: int().required(), move_after_id: int(), move_before_id: int() },
    constraints: [{ kind: 'at_least_one_of', names: ['move_after_id', 'move_before_id'] }],
    handler: (ctx): Reply => {
      const issue = visibleIssue(ctx);
      const user = ctx.user!;
      if (!canUpdateIssue(ctx.state, user, ctx.project, issue, ctx.now())) throw forbidden();
      const neighbour = (id: number | undefined) => {
        if (id === undefined) return undefined;
        const n = issueById(ctx.state, id);
        // Issues::ReorderService: the neighbours must be issues of the same project (or, in a group, of its projects).
        if (!n || n.projectId !== ctx.project.id) throw unprocessableReorder();
        return n;
      };
      const after = neighbour(ctx.params.move_after_id);
      const before = neighbour(ctx.params.move_before_id);
      // An empty id is sent but nil (Grape's at_least_one_of counts it); ReorderService#move_between_ids then has none.
      if (!after && !before) throw unprocessableReorder();
      return single(ctx, ctx.update(reorderIssue(ctx.state, issue, after, before, ctx.now())));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/issues/:issue_iid/user_agent_detail', auth: 'admin', scope: project(canReadIssues), params: { issue_iid: int().required() },
    handler: (ctx): Reply => {
      const issue = visibleIssue(ctx);
      const d = bget(ctx.state.userAgentDetails, issue.id);
      if (!d) throw notFound('UserAgentDetail');
      return json({ user_agent: d.userAgent, ip_address: d.ipAddress, akismet_submitted: false });
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/milestones/:milestone_id/issues', auth: 'user', cacheable: true, scope: project(canReadProjectMilestones), paginated: true,
    params: { milestone_id: int().required() },
    handler: (ctx): Reply => milestoneIssues(ctx, milestoneOf(ctx, { projectId: ctx.project.id }), { project: ctx.project }),
  }),
  route({
    method: 'GET', path: '/groups/:id/milestones/:milestone_id/issues', auth: 'user', cacheable: true, scope: group(), paginated: true,
    params: { milestone_id: int().required() },
    handler: (ctx): Reply => milestoneIssues(ctx, milestoneOf(ctx, { groupId: ctx.group.id }), { group: ctx.group }),
  }),
  timeRoute('time_estimate', 'POST', (ctx, issue, user) => {
    const seconds = parseDuration(ctx.params.duration ?? '', true);
    if (seconds === null || seconds < 0) throw badEstimate();
    return json(timeStats(ctx.update(setEstimate(issue, user, seconds, ctx.now()))));
  }, { duration: str().required() }),
  timeRoute('reset_time_estimate', 'POST', (ctx, issue, user) => json(timeStats(ctx.update(setEstimate(issue, user, 0, ctx.now()))))),
  timeRoute('add_spent_time', 'POST', (ctx, issue, user) => {
    const seconds = parseDuration(ctx.params.duration ?? '');
    if (seconds === null) throw spentInvalid();
    return created(timeStats(ctx.update(spendTime(issue, user, seconds, ctx.now(), ctx.params.summary))));
  }, { duration: str().required(), summary: str() }),
  timeRoute('reset_spent_time', 'POST', (ctx, issue, user) => json(timeStats(ctx.update(spendTime(issue, user, 'reset', ctx.now()))))),
  timeRoute('time_stats', 'GET', (_ctx, issue) => json(timeStats(issue))),
];

const issueTargetMissing = () => notFound('Project');

/** The client's address as the front proxy reports it (X-Forwarded-For, X-Real-IP), else the local one. */
function requestAddress(request: Incoming): string {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || request.headers.get('x-real-ip') || '127.0.0.1';
}
const unprocessableReorder = () => messageError(422, { error: 'Unprocessable Entity' });

/** `milestone` (a title) on create: the project's milestone of that title, else its groups'. */
function milestoneByTitle(state: State, p: Project, title: string): number | null {
  const ns = tget(state.namespaces, p.namespaceId);
  const owners: ({ projectId: number } | { groupId: number })[] = [{ projectId: p.id }];
  if (ns && ns.kind === 'group') for (const g of ancestry(state, ns.id)) owners.push({ groupId: g.id });
  for (const o of owners) for (const m of ownMilestones(state, o)) if (m.title === title) return m.id;
  return null;
}

export { sortIssues, SEVERITIES };
