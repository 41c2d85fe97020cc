// Merge request approvals (lib/api/merge_request_approvals.rb): read them, approve (with the
// head `sha` if given) and take an approval back.
import { notFound, unauthorized } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { pget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { approvalsEntity, approveMergeRequest, unapproveMergeRequest } from './approvals.js';
import { shaMismatch } from './merge.js';
import { canReadMergeRequests, mergeStatusOf } from './rules.js';
import type { MergeRequest } from './records.js';
import { mergeRequest } from './resolvers.js';

const BASE = '/projects/:id/merge_requests/:merge_request_iid';
const IID = { merge_request_iid: int().required() };

/** The approvals of the route's merge request as the world is now (after an approval and its note). */
function answer(ctx: Context<unknown, MergeRequest>, status: 200 | 201): Reply {
  const mr = pget(ctx.state.mergeRequests, ctx.project.id, ctx.subject.iid)!;
  const body = approvalsEntity({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase }, ctx.project, mr, mergeStatusOf(mr));
  return status === 201 ? created(body) : json(body);
}

export const approvalRoutes = [
  route({
    method: 'GET', path: `${BASE}/approvals`, cacheable: true, scope: project(canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: (ctx): Reply => answer(ctx, 200),
  }),
  route({
    method: 'POST', path: `${BASE}/approve`, auth: 'user', scope: project(canReadMergeRequests), params: { ...IID, sha: str() }, subject: mergeRequest(),
    handler: (ctx): Reply => {
      const mr = ctx.subject;
      // check_sha_param!
      if (ctx.params.sha !== undefined && ctx.params.sha !== mr.sha) throw shaMismatch(mr.sha);
      const change = approveMergeRequest(ctx.state, ctx.project, mr, ctx.user!, ctx.now());
      if (!change) throw unauthorized();
      ctx.update(change);
      return answer(ctx, 201);
    },
  }),
  route({
    method: 'POST', path: `${BASE}/unapprove`, auth: 'user', scope: project(canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: (ctx): Reply => {
      const change = unapproveMergeRequest(ctx.state, ctx.subject, ctx.user!, ctx.now());
      if (!change) throw notFound();
      ctx.update(change);
      return answer(ctx, 201);
    },
  }),
];
