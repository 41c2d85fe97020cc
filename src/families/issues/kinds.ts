// Issues and merge requests as the issuables family sees them: what a note touches,
// whether a discussion is locked, their quick actions, and (issues and merge requests) what
// award emoji, subscriptions and to-dos hang on; registered when the family loads.
import { recordNotFound } from '../../core/errors.js';
import type { Project } from '../../store/state.js';
import { pget, pset, tget } from '../../store/table.js';
import { parseIid, type IssuableKind, type SocialKind } from '../issuables/index.js';
import { projectWebUrl } from '../projects/index.js';
import type { State } from '../world.js';
import { issueEntity, issueWebUrl } from './entity.js';
import { canReadIssues, issueVisible, readableIssue, seesConfidential } from './finder.js';
import { mergeRequestCommands } from './mr-commands.js';
import { canReadMergeRequests, canUpdateMergeRequest, mergeRequestEntity, readableMergeRequest } from './merge-requests.js';
import { changesCountOf, fullEntity } from './mr-routes.js';
import { issueCommands } from './note-commands.js';
import type { Issue, MergeRequest } from './records.js';
import { issueById, issueByIid, putIssue } from './store.js';

export type IssueTarget = { type: 'Issue'; issue: Issue; project: Project };
export type MergeRequestTarget = { type: 'MergeRequest'; mr: MergeRequest; project: Project };

export const issueKind: IssuableKind<IssueTarget> = {
  type: 'Issue',
  touch(draft, target, now) {
    const issue = issueByIid(draft as State, target.project.id, target.issue.iid);
    if (issue) putIssue(draft, { ...issue, updatedAt: now });
  },
  locked: (target) => target.issue.discussionLocked === true,
  commands: issueCommands,
};

export const mergeRequestKind: IssuableKind<MergeRequestTarget> = {
  type: 'MergeRequest',
  touch(draft, target, now) {
    const mr = pget((draft as State).mergeRequests, target.project.id, target.mr.iid);
    if (mr) pset(draft.mergeRequests, target.project.id, mr.iid, { ...mr, updatedAt: now });
  },
  locked: () => false,
  commands: mergeRequestCommands,
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
  todoTarget: async (ctx, issue) => ({
    target: issueEntity({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, context: { kind: 'none' }, subscribed: false }, issue),
    url: issueWebUrl(ctx.state, issue, ctx),
  }),
};

export const mergeRequestSocial: SocialKind<MergeRequest> = {
  type: 'MergeRequest',
  segment: 'merge_requests',
  iidParam: 'merge_request_iid',
  readable: canReadMergeRequests,
  find: (ctx, iid) => {
    const n = parseIid(iid);
    const mr = n === undefined ? undefined : pget(ctx.state.mergeRequests, ctx.project.id, n);
    if (!mr) throw recordNotFound();
    return mr;
  },
  mayUpdate: (ctx, mr) => canUpdateMergeRequest(ctx.state, ctx.user, ctx.project, mr, ctx.now()),
  entity: (ctx, mr) => fullEntity(ctx, mr, ctx.project.id),
  readableByIid: readableMergeRequest,
  /** Found by its project and iid (merge requests have no index by id). */
  record(state, t) {
    const mr = pget(state.mergeRequests, t.projectId, t.iid);
    return mr && mr.id === t.id ? mr : undefined;
  },
  participants: (mr) => [mr.authorId, ...mr.assigneeIds, ...mr.reviewerIds],
  async todoTarget(ctx, mr) {
    const v = { state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase };
    const changes = await changesCountOf(ctx, mr);
    const project = tget(v.state.projects, mr.projectId)!;
    return {
      target: mergeRequestEntity(v, mr, changes, true),
      url: `${projectWebUrl(ctx.state, project, ctx)}/-/merge_requests/${mr.iid}`,
    };
  },
};
