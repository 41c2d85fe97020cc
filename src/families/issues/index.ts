// Issues and what hangs on them: labels of projects and groups, issues with their three lists,
// time tracking, subscriptions, to-dos, award emoji, and merge requests as data.
import { issuesGroupSchema, issuesProjectSchema } from './schema.js';
import { defineFamily, type Family } from '../define.js';
import { labelRoutes } from './label-routes.js';
import { issueRoutes } from './routes.js';
import { mergeRequestRoutes } from './mr-routes.js';
import { socialRoutes } from './social-routes.js';
import { epicRoutes } from './epics.js';
import { resourceEventRoutes } from './event-routes.js';
import { refreshMergeRequests } from './mr-refresh.js';
import { mergeRequestCommitRoutes } from './mr-commit-routes.js';
import { mergeRequestPostReceive } from './push-options.js';
import { approvalRoutes } from './approval-routes.js';
import { seedIssues, type FixtureGroupIssuesPart, type FixtureIssuesPart } from './seed.js';
import { emptyIssuesSlice, forgetGroupLabels, forgetProjectIssues, type IssuesSlice } from './store.js';

export const issues: Family<IssuesSlice, { group: FixtureGroupIssuesPart; project: FixtureIssuesPart }, { noteable: 'Issue' | 'MergeRequest' | 'Epic' }> = defineFamily({
  name: 'issues',
  noteables: ['Issue', 'MergeRequest', 'Epic'],
  schema: { group: issuesGroupSchema, project: issuesProjectSchema },
  state: emptyIssuesSlice,
  seed: { after: ['groups', 'projects', 'users', 'milestones', 'repositories'], run: seedIssues },
  routes: [...labelRoutes, ...issueRoutes, ...mergeRequestRoutes, ...socialRoutes, ...mergeRequestCommitRoutes, ...approvalRoutes, ...epicRoutes, ...resourceEventRoutes],
  forget: { project: forgetProjectIssues, group: forgetGroupLabels },
  pushed: refreshMergeRequests,
  postReceive: mergeRequestPostReceive,
});

export type { IssuesSlice } from './store.js';
export type { AwardEmoji, Epic, Issue, Iteration, Label, MergeRequest, SocialTarget, SocialType, Todo } from './records.js';
export type { FixtureEpic, FixtureGroupIssuesPart, FixtureIssue, FixtureIteration, FixtureLabel, FixtureIssuesPart, FixtureLabelsPart, FixtureMergeRequest } from './seed.js';
export { formatDuration, parseDuration } from './duration.js';
export { milestoneIssueStats } from './store.js';
export { canReadInternalNotes, isDiscussionLocked, isIssuableMember, mentionerReadable, readableEpic, readableIssue, readableMergeRequest, touchIssuable, type Issuable } from './noteables.js';
export { interpretNoteCommands, type GitAccess, type NoteCommands, type NoteTarget } from './note-commands.js';
export { eventsOf, type EventableType, type EventKind, type ResourceEvent } from './events.js';
export { dropAwards, issueById, issueByIid } from './store.js';
export { canReadIssues, issueVisible, seesConfidential } from './finder.js';
export { epicById, epicByIid } from './epics.js';
export { crossReference, systemNote } from './system-notes.js';
export { awardEmoji, reacted, socialTarget } from './social.js';
export { awardEmojiEntity } from './social-entity.js';
