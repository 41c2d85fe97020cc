// What a merge request holds (lib/api/merge_requests.rb): its commits, newest first, and the
// diffs of its changes, both as of its latest diff (head and merge base, which follow pushes to
// its source branch; see refresh.ts).
import { commitsBetween } from '../../git/merge-base.js';
import { treeDiffs } from '../../git/patch.js';
import { bool, int } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { commitEntity, diffEntity, withHeaders } from '../commits/index.js';
import { project, route } from '../define.js';
import { projectWebUrl } from '../projects/index.js';
import { objectsOf } from '../repositories/index.js';
import { canReadMergeRequests } from './rules.js';
import { mergeRequest } from './resolvers.js';

const ONE = { merge_request_iid: int().required() };

export const mergeRequestCommitRoutes = [
  route({
    method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/commits', cacheable: true, paginated: true, scope: project(canReadMergeRequests), params: ONE, subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => {
      const mr = ctx.subject;
      const repo = objectsOf(ctx, ctx.project);
      const shas = (await commitsBetween(repo, mr.baseSha, mr.sha)).reverse();
      const web = projectWebUrl(ctx.state, ctx.project, ctx);
      const page = ctx.paginate(shas);
      return json(await Promise.all(page.map(async (sha) => commitEntity(web, { sha, commit: await repo.readCommit(sha) }))));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid/diffs', cacheable: true, paginated: true, scope: project(canReadMergeRequests),
    params: { ...ONE, unidiff: bool() }, subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => {
      const mr = ctx.subject;
      const repo = objectsOf(ctx, ctx.project);
      const diffs = await treeDiffs(repo, (await repo.readCommit(mr.baseSha)).tree, (await repo.readCommit(mr.sha)).tree);
      return json(ctx.paginate(diffs).map((d) => diffEntity(ctx.params.unidiff ? withHeaders(d) : d)));
    },
  }),
];
