// The merge request a route acts on (`subject:`): the one `:merge_request_iid` names in the
// scoped project (`find_merge_request_with_access`'s `find_by!`: 404 Not found), then each
// ability on it (403).
import { recordNotFound } from '../../core/errors.js';
import { pget } from '../../store/table.js';
import { subject, type Ability } from '../define.js';
import type { MergeRequest } from './records.js';

/** The merge request `:merge_request_iid` names in the scoped project, then each ability. */
export const mergeRequest = (...abilities: Ability<MergeRequest>[]) =>
  subject<MergeRequest, { merge_request_iid: number }>((ctx) => {
    const mr = pget(ctx.state.mergeRequests, ctx.project.id, ctx.params.merge_request_iid);
    if (!mr) throw recordNotFound();
    return mr;
  }, ...abilities);
