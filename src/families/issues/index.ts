// Issues with their three lists, links and time tracking; and, for now, merge requests, epics
// and iterations. What they share with each other lives in the issuables family, which they
// register with.
import { issuesGroupSchema, issuesProjectSchema } from './schema.js';
import { defineFamily, type Family } from '../define.js';
import { registerIssuable, registerSocial, socialRoutes } from '../issuables/index.js';
import { registerLabelUse } from '../labels/index.js';
import { epicEventRoutes, issueEventRoutes, mergeRequestEventRoutes } from './event-routes.js';
import { epicKind, issueKind, issueSocial, mergeRequestKind, mergeRequestSocial } from './kinds.js';
import { issueLabels } from './label-use.js';
import { issueRoutes } from './routes.js';
import { mergeRequestRoutes } from './mr-routes.js';
import { epicRoutes } from './epics.js';
import { refreshMergeRequests } from './mr-refresh.js';
import { mergeRequestCommitRoutes } from './mr-commit-routes.js';
import { mergeRequestPostReceive } from './push-options.js';
import { approvalRoutes } from './approval-routes.js';
import { seedIssues, type FixtureGroupIssuesPart, type FixtureIssuesPart } from './seed.js';
import { emptyIssuesSlice, forgetGroupEpics, forgetProjectIssues, type IssuesSlice } from './store.js';

export const issues: Family<IssuesSlice, { group: FixtureGroupIssuesPart; project: FixtureIssuesPart }> = defineFamily({
  name: 'issues',
  schema: { group: issuesGroupSchema, project: issuesProjectSchema },
  state: emptyIssuesSlice,
  seed: { after: ['groups', 'projects', 'users', 'milestones', 'repositories', 'labels'], run: seedIssues },
  routes: [
    ...issueRoutes, ...socialRoutes(issueSocial), ...issueEventRoutes,
    ...mergeRequestRoutes, ...socialRoutes(mergeRequestSocial), ...mergeRequestCommitRoutes, ...approvalRoutes, ...mergeRequestEventRoutes,
    ...epicRoutes, ...epicEventRoutes,
  ],
  forget: { project: forgetProjectIssues, group: forgetGroupEpics },
  pushed: refreshMergeRequests,
  postReceive: mergeRequestPostReceive,
});
registerLabelUse(issueLabels);
registerIssuable(issueKind);
registerIssuable(mergeRequestKind);
registerIssuable(epicKind);
registerSocial(issueSocial);
registerSocial(mergeRequestSocial);

export type { IssuesSlice } from './store.js';
export type { Epic, Issue, Iteration, MergeRequest } from './records.js';
export type { EpicTarget, IssueTarget, MergeRequestTarget } from './kinds.js';
export type { FixtureEpic, FixtureGroupIssuesPart, FixtureIssue, FixtureIteration, FixtureIssuesPart, FixtureMergeRequest } from './seed.js';
export { milestoneIssueStats, issueById, issueByIid } from './store.js';
export { canReadIssues, issueVisible, readableIssue, seesConfidential } from './finder.js';
export { readableMergeRequest } from './merge-requests.js';
export { epicById, epicByIid, readableEpic } from './epics.js';
export { crossReference } from './system-notes.js';
