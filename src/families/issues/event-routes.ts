// The resource events routes (lib/api/resource_state_events.rb, resource_label_events.rb,
// resource_milestone_events.rb, ee/lib/api/resource_weight_events.rb,
// resource_iteration_events.rb; entities lib/api/entities/resource_*_event.rb): an issue's or
// merge request's events by its iid, an epic's label events by its id; authentication
// required; an issuable the caller cannot read is `404 <Type> Not Found`, an unknown event
// `404 Not found`.
import { notFound, recordNotFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { iso } from '../../render/time.js';
import { pget, tget } from '../../store/table.js';
import { milestoneEntity } from '../milestones/index.js';
import { userBasic } from '../users/index.js';
import { group, project, route, type Context } from '../define.js';
import { epicById, epicVisible, iterationById, iterationEntity } from './epics.js';
import { eventOf, eventsOf, type EventableType, type EventKind, type ResourceEvent } from './events.js';
import { canReadIssues, issueMilestone, issueVisible, seesConfidential } from './finder.js';
import { labelBasic, labelById } from '../labels/index.js';
import { canReadMergeRequests } from './merge-requests.js';
import { issueByIid } from './store.js';

function eventUser(ctx: Context<unknown>, e: ResourceEvent) {
  const u = tget(ctx.state.users, e.userId);
  return u ? userBasic(u, ctx) : null;
}

const head = (ctx: Context<unknown>, e: ResourceEvent) => ({ id: e.id, user: eventUser(ctx, e), created_at: iso(e.createdAt) });
const resource = (e: ResourceEvent) => ({ resource_type: e.resourceType, resource_id: e.resourceId });

/** The entity of an event, or null when what it names is gone (a deleted milestone takes its events along). */
function entity(ctx: Context<unknown>, e: ResourceEvent): object | null {
  switch (e.kind) {
    case 'state':
      return { ...head(ctx, e), ...resource(e), source_commit: e.sourceCommit, source_merge_request_id: e.sourceMergeRequestId, state: e.state };
    case 'label': {
      const label = labelById(ctx.state, e.labelId);
      return { ...head(ctx, e), ...resource(e), label: label ? labelBasic(label) : null, action: e.action };
    }
    case 'milestone': {
      const p = tget(ctx.state.projects, e.projectId);
      const m = p ? issueMilestone(ctx.state, p, e.milestoneId) : undefined;
      if (!m) return null;
      return { ...head(ctx, e), ...resource(e), milestone: milestoneEntity(ctx.state, m, ctx, ctx.now()), action: e.action, state: e.state };
    }
    case 'weight':
      return { ...head(ctx, e), issue_id: e.resourceId, weight: e.weight };
    case 'iteration': {
      const it = iterationById(ctx.state, e.iterationId);
      return { ...head(ctx, e), ...resource(e), iteration: it ? iterationEntity(ctx.state, it, ctx, ctx.now()) : null, action: e.action };
    }
  }
}

/** find_noteable: the issue of the iid as the caller may read it, or `404 Issue Not Found`. */
function issueOf(ctx: Context<{ eventable_id: string }>): number {
  const iid = /^\d+$/.test(ctx.params.eventable_id) ? Number(ctx.params.eventable_id) : NaN;
  const issue = Number.isSafeInteger(iid) ? issueByIid(ctx.state, ctx.project.id, iid) : undefined;
  if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw notFound('Issue');
  return issue.id;
}

function mergeRequestOf(ctx: Context<{ eventable_id: string }>): number {
  const iid = /^\d+$/.test(ctx.params.eventable_id) ? Number(ctx.params.eventable_id) : NaN;
  const mr = Number.isSafeInteger(iid) ? pget(ctx.state.mergeRequests, ctx.project.id, iid) : undefined;
  if (!mr) throw notFound('MergeRequest');
  return mr.id;
}

function epicOf(ctx: Context<{ eventable_id: string }>): number {
  const id = /^\d+$/.test(ctx.params.eventable_id) ? Number(ctx.params.eventable_id) : NaN;
  const epic = Number.isSafeInteger(id) ? epicById(ctx.state, id) : undefined;
  if (!epic || epic.groupId !== ctx.group.id || !epicVisible(ctx.state, ctx.user, epic, ctx.now())) throw notFound('Epic');
  return epic.id;
}

interface Eventable {
  type: EventableType;
  base: string;
  scope: ReturnType<typeof project>;
  find: (ctx: Context<{ eventable_id: string }>) => number;
  tier?: 'premium';
}

const ISSUE: Eventable = { type: 'Issue', base: '/projects/:id/issues', scope: project(canReadIssues), find: issueOf };
const MERGE_REQUEST: Eventable = { type: 'MergeRequest', base: '/projects/:id/merge_requests', scope: project(canReadMergeRequests), find: mergeRequestOf };
const EPIC: Eventable = { type: 'Epic', base: '/groups/:id/epics', scope: group(), find: epicOf, tier: 'premium' };

function eventRoutes(kind: EventKind, name: string, on: Eventable, tier: 'premium' | undefined) {
  const t = on.tier ?? tier;
  const list = route({
    method: 'GET', path: `${on.base}/:eventable_id/${name}`, auth: 'user', ...(t ? { tier: t } : {}), scope: on.scope, paginated: true,
    params: { eventable_id: str().required() },
    handler: (ctx): Reply => {
      const id = on.find(ctx);
      const page = ctx.paginate(eventsOf(ctx.state, kind, on.type, id));
      return json(page.map((e) => entity(ctx, e)).filter((x) => x !== null));
    },
  });
  const one = route({
    method: 'GET', path: `${on.base}/:eventable_id/${name}/:event_id`, auth: 'user', ...(t ? { tier: t } : {}), scope: on.scope,
    params: { eventable_id: str().required(), event_id: kind === 'state' ? int().required() : str().required() },
    handler: (ctx): Reply => {
      const id = on.find(ctx);
      const raw = String(ctx.params.event_id);
      const e = /^\d+$/.test(raw) ? eventOf(ctx.state, kind, on.type, id, Number(raw)) : undefined;
      const body = e ? entity(ctx, e) : null;
      if (!body) throw recordNotFound();
      return json(body);
    },
  });
  return [list, one];
}

export const resourceEventRoutes = [
  ...eventRoutes('state', 'resource_state_events', ISSUE, undefined),
  ...eventRoutes('state', 'resource_state_events', MERGE_REQUEST, undefined),
  ...eventRoutes('label', 'resource_label_events', ISSUE, undefined),
  ...eventRoutes('label', 'resource_label_events', MERGE_REQUEST, undefined),
  ...eventRoutes('label', 'resource_label_events', EPIC, 'premium'),
  ...eventRoutes('milestone', 'resource_milestone_events', ISSUE, undefined),
  ...eventRoutes('milestone', 'resource_milestone_events', MERGE_REQUEST, undefined),
  ...eventRoutes('weight', 'resource_weight_events', ISSUE, 'premium'),
  ...eventRoutes('iteration', 'resource_iteration_events', ISSUE, 'premium'),
];
