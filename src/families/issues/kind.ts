// Issues as the issuables family sees them: what a note touches, whether a discussion is
// locked, their quick actions, and what award emoji, subscriptions and to-dos hang on;
// registered when the family loads.
import { recordNotFound } from '../../core/errors.js';
import type { Project } from '../../store/state.js';
import { parseIid, type IssuableKind, type SocialKind } from '../issuables/index.js';
import type { State } from '../world.js';
import { issueEntity, issueWebUrl } from './entity.js';
import { canReadIssues, issueVisible, readableIssue, seesConfidential } from './finder.js';
import { issueCommands } from './note-commands.js';
import type { Issue } from './records.js';
import { issueById, issueByIid, putIssue } from './store.js';

/** An issue with its project: what notes and quick actions take. */
export type IssueTarget = { type: 'Issue'; issue: Issue; project: Project };

export const issueKind: IssuableKind<IssueTarget> = {
  type: 'Issue',
  touch(draft, target, now) {
    const issue = issueByIid(draft as State, target.project.id, target.issue.iid);
    if (issue) putIssue(draft, { ...issue, updatedAt: now });
  },
  locked: (target) => target.issue.discussionLocked === true,
  commands: issueCommands,
};

export const issueSocial: SocialKind<Issue> = {
  type: 'Issue',
  segment: 'issues',
  iidParam: 'issue_iid',
  readable: canReadIssues,
  find: (ctx, iid) => {
    const n = parseIid(iid);
    const issue = n === undefined ? undefined : issueByIid(ctx.state, ctx.project.id, n);
    if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw recordNotFound();
    return issue;
  },
  entity: (ctx, issue) => issueEntity({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, context: { kind: 'project', id: issue.projectId }, subscribed: true }, issue),
  readableByIid: readableIssue,
  record: (state, t) => issueById(state, t.id),
  participants: (issue) => [issue.authorId, ...issue.assigneeIds],
  people: (issue) => ({ assignees: issue.assigneeIds, reviewers: [] }),
  todoTarget: async (ctx, issue) => ({
    target: issueEntity({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, context: { kind: 'none' }, subscribed: false }, issue),
    url: issueWebUrl(ctx.state, issue, ctx),
  }),
};
