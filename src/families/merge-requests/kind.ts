// Merge requests as the issuables family sees them: what a note touches, their quick actions,
// and what award emoji, subscriptions and to-dos hang on; registered when the family loads.
import { recordNotFound } from '../../core/errors.js';
import type { Project } from '../../store/state.js';
import { pget, pset, tget } from '../../store/table.js';
import { parseIid, type IssuableKind, type SocialKind } from '../issuables/index.js';
import { projectWebUrl } from '../projects/index.js';
import type { State } from '../world.js';
import { mergeRequestEntity } from './entity.js';
import { mergeRequestCommands } from './note-commands.js';
import type { MergeRequest } from './records.js';
import { changesCountOf, fullEntity } from './routes.js';
import { canReadMergeRequests, canUpdateMergeRequest, readableMergeRequest } from './rules.js';

/** A merge request with its project: what notes and quick actions take. */
export type MergeRequestTarget = { type: 'MergeRequest'; mr: MergeRequest; project: Project };

export const mergeRequestKind: IssuableKind<MergeRequestTarget> = {
  type: 'MergeRequest',
  touch(draft, target, now) {
    const mr = pget((draft as State).mergeRequests, target.project.id, target.mr.iid);
    if (mr) pset(draft.mergeRequests, target.project.id, mr.iid, { ...mr, updatedAt: now });
  },
  locked: (target) => target.mr.discussionLocked === true,
  commands: mergeRequestCommands,
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
  people: (mr) => ({ assignees: mr.assigneeIds, reviewers: mr.reviewerIds }),
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
