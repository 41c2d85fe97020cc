// Issues and what hangs on them: labels of projects and groups, issues with their three lists,
// time tracking, subscriptions, to-dos, award emoji, and merge requests as data.
import { defineFamily, type Family } from '../define.js';
import { labelRoutes } from './label-routes.js';
import { issueRoutes } from './routes.js';
import { mergeRequestRoutes } from './mr-routes.js';
import { seedIssues, type FixtureIssuesPart, type FixtureLabelsPart } from './seed.js';
import { emptyIssuesSlice, forgetGroupLabels, forgetProjectIssues, type IssuesSlice } from './store.js';

export const issues: Family<IssuesSlice, { group: FixtureLabelsPart; project: FixtureIssuesPart }> = defineFamily({
  name: 'issues',
  state: emptyIssuesSlice,
  seed: { after: ['groups', 'projects', 'users', 'milestones', 'repositories'], run: seedIssues },
  routes: [...labelRoutes, ...issueRoutes, ...mergeRequestRoutes],
  forget: { project: forgetProjectIssues, group: forgetGroupLabels },
});

export type { IssuesSlice } from './store.js';
export type { AwardEmoji, Issue, Label, MergeRequest, SystemNote, Todo } from './records.js';
export type { FixtureIssue, FixtureLabel, FixtureIssuesPart, FixtureLabelsPart } from './seed.js';
export { formatDuration, parseDuration } from './duration.js';
