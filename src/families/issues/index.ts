// Issues with their three lists, links and time tracking; and, for now, merge requests. What
// they share with each other and with epics lives in the issuables family, which they register with.
import { issuesProjectSchema } from './schema.js';
import { defineFamily, type Family } from '../define.js';
import { registerIssuable, registerSocial, socialRoutes } from '../issuables/index.js';
import { registerLabelUse } from '../labels/index.js';
import { issueEventRoutes, mergeRequestEventRoutes } from './event-routes.js';
import { issueKind, issueSocial, mergeRequestKind, mergeRequestSocial } from './kinds.js';
import { issueLabels } from './label-use.js';
import { issueRoutes } from './routes.js';
import { mergeRequestRoutes } from './mr-routes.js';
import { refreshMergeRequests } from './mr-refresh.js';
import { mergeRequestCommitRoutes } from './mr-commit-routes.js';
import { mergeRequestPostReceive } from './push-options.js';
import { approvalRoutes } from './approval-routes.js';
import { seedIssues, type FixtureIssuesPart } from './seed.js';
import { emptyIssuesSlice, forgetProjectIssues, type IssuesSlice } from './store.js';

export const issues: Family<IssuesSlice, { project: FixtureIssuesPart }> = defineFamily({
  name: 'issues',
  schema: { project: issuesProjectSchema },
  state: emptyIssuesSlice,
  seed: { after: ['groups', 'projects', 'users', 'milestones', 'repositories', 'labels', 'epics'], run: seedIssues },
  routes: [
    ...issueRoutes, ...socialRoutes(issueSocial), ...issueEventRoutes,
    ...mergeRequestRoutes, ...socialRoutes(mergeRequestSocial), ...mergeRequestCommitRoutes, ...approvalRoutes, ...mergeRequestEventRoutes,
  ],
  forget: { project: forgetProjectIssues },
  pushed: refreshMergeRequests,
  postReceive: mergeRequestPostReceive,
});
registerLabelUse(issueLabels);
registerIssuable(issueKind);
registerIssuable(mergeRequestKind);
registerSocial(issueSocial);
registerSocial(mergeRequestSocial);

export type { IssuesSlice } from './store.js';
export type { Issue, MergeRequest } from './records.js';
export type { IssueTarget, MergeRequestTarget } from './kinds.js';
export type { FixtureIssue, FixtureIssuesPart, FixtureMergeRequest } from './seed.js';
export { milestoneIssueStats, issueById, issueByIid } from './store.js';
export { canReadIssues, issueVisible, readableIssue, seesConfidential } from './finder.js';
export { readableMergeRequest } from './merge-requests.js';
export { crossReference } from './system-notes.js';
