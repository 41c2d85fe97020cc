// The resource events routes of merge requests (the issuables family's eventRoutes), by their iid.
import { notFound } from '../../core/errors.js';
import { pget } from '../../store/table.js';
import { project, type Context } from '../define.js';
import { eventableId, eventRoutes, type Eventable } from '../issuables/index.js';
import { canReadMergeRequests } from './rules.js';

function mergeRequestOf(ctx: Context<{ eventable_id: string }>): number {
  const iid = eventableId(ctx);
  const mr = iid === undefined ? undefined : pget(ctx.state.mergeRequests, ctx.project.id, iid);
  if (!mr) throw notFound('MergeRequest');
  return mr.id;
}

const MERGE_REQUEST: Eventable = { type: 'MergeRequest', base: '/projects/:id/merge_requests', scope: project(canReadMergeRequests), find: mergeRequestOf };

export const mergeRequestEventRoutes = [
  ...eventRoutes('state', 'resource_state_events', MERGE_REQUEST, undefined),
  ...eventRoutes('label', 'resource_label_events', MERGE_REQUEST, undefined),
  ...eventRoutes('milestone', 'resource_milestone_events', MERGE_REQUEST, undefined),
];
