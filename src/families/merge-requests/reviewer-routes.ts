// A merge request's reviewers with their states (lib/api/merge_requests.rb
// `GET :id/merge_requests/:merge_request_iid/reviewers`, Entities::MergeRequestReviewer): read as
// the merge request is (find_merge_request_with_access), first asked first, paginated.
import { int } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { project, route } from '../define.js';
import { mergeRequest } from './resolvers.js';
import { reviewerRows } from './reviewers.js';
import { canReadMergeRequests } from './rules.js';

export const reviewerRoutes = [
  route({
    method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/reviewers', cacheable: true, paginated: true, scope: project(canReadMergeRequests),
    params: { merge_request_iid: int().required() }, subject: mergeRequest(),
    handler: (ctx): Reply => json(ctx.paginate(reviewerRows(ctx.state, ctx.subject, ctx))),
  }),
];
