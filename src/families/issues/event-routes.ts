// The resource events routes of issues, merge requests and epics (the issuables family's
// eventRoutes): an issue's or merge request's events by its iid, an epic's label events by its id.
import { notFound } from '../../core/errors.js';
import { pget } from '../../store/table.js';
import { eventableId, eventRoutes, type Eventable } from '../issuables/index.js';
import { group, project, type Context } from '../define.js';
import { epicById, epicVisible, iterationById, iterationEntity } from './epics.js';
import { canReadIssues, issueVisible, seesConfidential } from './finder.js';
import { canReadMergeRequests } from './merge-requests.js';
import { issueByIid } from './store.js';

/** find_noteable: the issue of the iid as the caller may read it, or `404 Issue Not Found`. */
function issueOf(ctx: Context<{ eventable_id: string }>): number {
  const iid = eventableId(ctx);
  const issue = iid === undefined ? undefined : issueByIid(ctx.state, ctx.project.id, iid);
  if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw notFound('Issue');
  return issue.id;
}

function mergeRequestOf(ctx: Context<{ eventable_id: string }>): number {
  const iid = eventableId(ctx);
  const mr = iid === undefined ? undefined : pget(ctx.state.mergeRequests, ctx.project.id, iid);
  if (!mr) throw notFound('MergeRequest');
  return mr.id;
}

function epicOf(ctx: Context<{ eventable_id: string }>): number {
  const id = eventableId(ctx);
  const epic = id === undefined ? undefined : epicById(ctx.state, id);
  if (!epic || epic.groupId !== ctx.group.id || !epicVisible(ctx.state, ctx.user, epic, ctx.now())) throw notFound('Epic');
  return epic.id;
}

const ISSUE: Eventable = { type: 'Issue', base: '/projects/:id/issues', scope: project(canReadIssues), find: issueOf };
const MERGE_REQUEST: Eventable = { type: 'MergeRequest', base: '/projects/:id/merge_requests', scope: project(canReadMergeRequests), find: mergeRequestOf };
const EPIC: Eventable = { type: 'Epic', base: '/groups/:id/epics', scope: group(), find: epicOf, tier: 'premium' };

/** An iteration event's iteration (Entities::Iteration), null when it is gone. */
const iteration = (ctx: Context<unknown>, id: number) => {
  const it = iterationById(ctx.state, id);
  return it ? iterationEntity(ctx.state, it, ctx, ctx.now()) : null;
};

export const issueEventRoutes = [
  ...eventRoutes('state', 'resource_state_events', ISSUE, undefined),
  ...eventRoutes('label', 'resource_label_events', ISSUE, undefined),
  ...eventRoutes('milestone', 'resource_milestone_events', ISSUE, undefined),
  ...eventRoutes('weight', 'resource_weight_events', ISSUE, 'premium'),
  ...eventRoutes('iteration', 'resource_iteration_events', ISSUE, 'premium', iteration),
];

export const mergeRequestEventRoutes = [
  ...eventRoutes('state', 'resource_state_events', MERGE_REQUEST, undefined),
  ...eventRoutes('label', 'resource_label_events', MERGE_REQUEST, undefined),
  ...eventRoutes('milestone', 'resource_milestone_events', MERGE_REQUEST, undefined),
];

export const epicEventRoutes = eventRoutes('label', 'resource_label_events', EPIC, 'premium');
