// Issues with their three lists, links, time tracking and the milestone's issues; what they
// share with merge requests and epics lives in the issuables family, which they register with.
import { defineFamily, type Family } from '../define.js';
import { registerIssuable, registerSocial, socialRoutes } from '../issuables/index.js';
import { registerLabelUse } from '../labels/index.js';
import { issueEventRoutes } from './event-routes.js';
import { issueKind, issueSocial } from './kind.js';
import { issueLabels, issueMilestones } from './label-use.js';
import { registerMilestoneUse } from '../milestones/index.js';
import { issueLinkRoutes } from './link-routes.js';
import { issueRoutes } from './routes.js';
import { issuesProjectSchema } from './schema.js';
import { seedIssues, type FixtureIssuesPart } from './seed.js';
import { emptyIssuesSlice, forgetProjectIssues, type IssuesSlice } from './store.js';

declare module '../world.js' {
  interface Slices extends IssuesSlice {}
  interface FixtureProjectParts extends FixtureIssuesPart {}
  interface Noteables { Issue: true }
}

export const issues: Family<IssuesSlice> = defineFamily({
  name: 'issues',
  noteables: ['Issue'],
  schema: { project: issuesProjectSchema },
  state: emptyIssuesSlice,
  seed: { after: ['groups', 'projects', 'users', 'milestones', 'labels', 'epics'], run: seedIssues },
  routes: [...issueRoutes, ...issueLinkRoutes, ...socialRoutes(issueSocial), ...issueEventRoutes],
  forget: { project: forgetProjectIssues },
});
registerLabelUse(issueLabels);
registerMilestoneUse(issueMilestones);
registerIssuable(issueKind);
registerSocial(issueSocial);

export type { IssuesSlice } from './store.js';
export type { Issue } from './records.js';
export type { IssueTarget } from './kind.js';
export type { FixtureIssue, FixtureIssuesPart } from './seed.js';
export { issueById, issueByIid, milestoneIssueStats, projectIssues, putIssue } from './store.js';
export { canReadIssues, issueVisible, readableIssue, seesConfidential } from './finder.js';
export {
  crossReference, issueReferences, namingMergeRequest, namingMergeRequests, setNamingMergeRequest, type IssueRef, type NamingMergeRequest,
} from './references.js';
export { issueEntity, type IssueView } from './entity.js';
export { issueReference } from './links.js';
export { findIssues, type IssueFilters } from './finder.js';
export { canCreateIssue, canUpdateIssue, createIssue, updateIssue, type IssueInput } from './rules.js';
