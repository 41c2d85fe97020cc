// GET /projects/:id/repository/commits/:sha/merge_requests (lib/api/commits.rb): the project's
// merge requests the caller may read that hold the commit (MergeRequestsFinder's `commit_sha`:
// a commit of the merge request's diff, or its merge or squash commit), as MergeRequestBasic.
import { commitsBetween } from '../../git/merge-base.js';
import { notFound } from '../../core/errors.js';
import { str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { tget, tvalues } from '../../store/table.js';
import { canReadMergeRequests, mergeRequestBasic, type MergeRequest } from '../merge-requests/index.js';
import { canReadCode, repoView, repositoryEnabled, resolveCommit } from '../repositories/index.js';
import { project, route } from '../define.js';

const STATES = ['opened', 'closed', 'locked', 'merged'] as const;

export const commitMergeRequestRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/merge_requests',
    scope: project(repositoryEnabled, canReadCode, canReadMergeRequests),
    cacheable: true,
    paginated: true,
    params: { sha: str().required(), state: str().values(STATES) },
    handler: async (ctx): Promise<Reply> => {
      const repo = ctx.env.git.repository(ctx.project.id);
      const sha = await resolveCommit(repo, repoView(ctx.state, ctx.project), ctx.params.sha);
      if (!sha) throw notFound('Commit');
      const holds = async (mr: MergeRequest) => {
        if (mr.mergeCommitSha === sha || mr.squashCommitSha === sha || mr.sha === sha) return true;
        try {
          return (await commitsBetween(repo, mr.baseSha, mr.sha)).includes(sha);
        } catch {
          return false; // a head whose objects are gone holds nothing
        }
      };
      const found: MergeRequest[] = [];
      const own = tget(ctx.state.mergeRequests, ctx.project.id);
      for (const mr of own ? tvalues(own) : []) {
        if (ctx.params.state !== undefined && mr.state !== ctx.params.state) continue;
        if (await holds(mr)) found.push(mr);
      }
      found.sort((a, b) => b.id - a.id);
      const view = { state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, projectId: ctx.project.id };
      return json(ctx.paginate(found).map((mr) => mergeRequestBasic(view, mr)));
    },
  }),
];
