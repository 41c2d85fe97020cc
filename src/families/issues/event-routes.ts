// The resource events routes of issues (the issuables family's eventRoutes), by their iid.
import { notFound } from '../../core/errors.js';
import { eventableId, eventRoutes, type Eventable } from '../issuables/index.js';
import { project, type Context } from '../define.js';
import { eventIteration } from '../epics/index.js';
import { canReadIssues, issueVisible, seesConfidential } from './finder.js';
import { issueByIid } from './store.js';

/** find_noteable: the issue of the iid as the caller may read it, or `404 Issue Not Found`. */
function issueOf(ctx: Context<{ eventable_id: string }>): number {
  const iid = eventableId(ctx);
  const issue = iid === undefined ? undefined : issueByIid(ctx.state, ctx.project.id, iid);
  if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw notFound('Issue');
  return issue.id;
}

const ISSUE: Eventable = { type: 'Issue', base: '/projects/:id/issues', scope: project(canReadIssues), find: issueOf };

export const issueEventRoutes = [
  ...eventRoutes('state', 'resource_state_events', ISSUE, undefined),
  ...eventRoutes('label', 'resource_label_events', ISSUE, undefined),
  ...eventRoutes('milestone', 'resource_milestone_events', ISSUE, undefined),
  ...eventRoutes('weight', 'resource_weight_events', ISSUE, 'premium'),
  ...eventRoutes('iteration', 'resource_iteration_events', ISSUE, 'premium', eventIteration),
];
