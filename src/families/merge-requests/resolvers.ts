// The merge request a route acts on (`subject:`): the one `:merge_request_iid` names in the
// scoped project (`find_merge_request_with_access`'s `find_by!`: 404 Not found), then each
// ability on it (403).
import { recordNotFound } from '../../core/errors.js';
import { ACCESS, type Project } from '../../store/state.js';
import { pget, tget } from '../../store/table.js';
import { hasProjectRole } from '../../policy/access.js';
import { subject, type Ability } from '../define.js';
import type { State } from '../world.js';
import type { MergeRequest } from './records.js';
import { canCreateMergeRequest, canDestroyMergeRequest, canReadMergeRequests } from './rules.js';

/** The merge request `:merge_request_iid` names in the scoped project, then each ability. */
export const mergeRequest = (...abilities: Ability<MergeRequest>[]) =>
  subject<MergeRequest, { merge_request_iid: number }>((ctx) => {
    const mr = pget(ctx.state.mergeRequests, ctx.project.id, ctx.params.merge_request_iid);
    if (!mr) throw recordNotFound();
    return mr;
  }, ...abilities);

const projectOf = (state: State, mr: MergeRequest): Project => tget(state.projects, mr.projectId)!;

/** `update_merge_request`: who may create merge requests in its project, or its author. */
export const canUpdateMergeRequest: Ability<MergeRequest> = (state, user, mr, now) =>
  canCreateMergeRequest(state, user, projectOf(state, mr), now) || mr.authorId === user?.id;

/** `destroy_merge_request` in its project. */
export const canDeleteMergeRequest: Ability<MergeRequest> = (state, user, mr, now) => canDestroyMergeRequest(state, user, projectOf(state, mr), now);

/** `admin_merge_request`: developers and above. */
export const canAdminMergeRequest: Ability<MergeRequest> = (state, user, mr, now) => {
  const project = projectOf(state, mr);
  return canReadMergeRequests(state, user, project, now) && hasProjectRole(state, user, project, ACCESS.developer, now);
};
