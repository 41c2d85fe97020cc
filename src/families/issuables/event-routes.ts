// The resource events routes (lib/api/resource_state_events.rb, resource_label_events.rb,
// resource_milestone_events.rb, ee/lib/api/resource_weight_events.rb,
// resource_iteration_events.rb; entities lib/api/entities/resource_*_event.rb), which the
// family that owns each kind of issuable declares (eventRoutes): an issue's or merge request's
// events by its iid, an epic's label events by its id; authentication required; an issuable
// the caller cannot read is `404 <Type> Not Found`, an unknown event `404 Not found`.
import { recordNotFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { json, type Reply, type Scope } from '../../http/route.js';
import { iso } from '../../render/time.js';
import { tget } from '../../store/table.js';
import { labelBasic, labelById } from '../labels/index.js';
import { milestoneEntity } from '../milestones/index.js';
import { userBasic } from '../users/index.js';
import { route, type Context } from '../define.js';
import { eventOf, eventsOf, type EventableType, type EventKind, type ResourceEvent } from './events.js';
import { issueMilestone } from './milestones.js';

function eventUser(ctx: Context<unknown>, e: ResourceEvent) {
  const u = tget(ctx.state.users, e.userId);
  return u ? userBasic(u, ctx) : null;
}

const head = (ctx: Context<unknown>, e: ResourceEvent) => ({ id: e.id, user: eventUser(ctx, e), created_at: iso(e.createdAt) });
const resource = (e: ResourceEvent) => ({ resource_type: e.resourceType, resource_id: e.resourceId });

/** How an iteration event names its iteration (the family that owns iterations renders it). */
export type IterationRender = (ctx: Context<unknown>, iterationId: number) => object | null;

/** The entity of an event, or null when what it names is gone (a deleted milestone takes its events along). */
function entity(ctx: Context<unknown>, e: ResourceEvent, iteration?: IterationRender): object | null {
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
    case 'iteration':
      return { ...head(ctx, e), ...resource(e), iteration: iteration?.(ctx, e.iterationId) ?? null, action: e.action };
  }
}

/** `:eventable_id` as a number; undefined when it is not one. */
export function eventableId(ctx: Context<{ eventable_id: string }>): number | undefined {
  const n = /^\d+$/.test(ctx.params.eventable_id) ? Number(ctx.params.eventable_id) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

/** How the routes of one kind of issuable reach it: its path, its scope, and its id as the caller may read it (else `404 <Type> Not Found`). */
export interface Eventable {
  type: EventableType;
  base: string;
  scope: Scope;
  find: (ctx: Context<{ eventable_id: string }>) => number;
  tier?: 'premium';
}

/** The list and the one-event route of an issuable's events of a kind. */
export function eventRoutes(kind: EventKind, name: string, on: Eventable, tier: 'premium' | undefined, iteration?: IterationRender) {
  const t = on.tier ?? tier;
  const list = route({
    method: 'GET', path: `${on.base}/:eventable_id/${name}`, auth: 'user', ...(t ? { tier: t } : {}), scope: on.scope, paginated: true,
    params: { eventable_id: str().required() },
    handler: (ctx): Reply => {
      const id = on.find(ctx);
      const page = ctx.paginate(eventsOf(ctx.state, kind, on.type, id));
      return json(page.map((e) => entity(ctx, e, iteration)).filter((x) => x !== null));
    },
  });
  const one = route({
    method: 'GET', path: `${on.base}/:eventable_id/${name}/:event_id`, auth: 'user', ...(t ? { tier: t } : {}), scope: on.scope,
    params: { eventable_id: str().required(), event_id: kind === 'state' ? int().required() : str().required() },
    handler: (ctx): Reply => {
      const id = on.find(ctx);
      const raw = String(ctx.params.event_id);
      const e = /^\d+$/.test(raw) ? eventOf(ctx.state, kind, on.type, id, Number(raw)) : undefined;
      const body = e ? entity(ctx, e, iteration) : null;
      if (!body) throw recordNotFound();
      return json(body);
    },
  });
  return [list, one];
}
