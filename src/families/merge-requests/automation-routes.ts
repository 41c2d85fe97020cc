// What a merge request does besides its edits (lib/api/merge_requests.rb, lib/api/commits.rb):
// cancel an auto-merge, rebase, the merge ref, its changes and the issues it closes
// (the merge requests a commit belongs to are the commits family's).
import { messageError, notAllowed, unauthorized, forbidden } from '../../core/errors.js';
import { treeDiffs } from '../../git/patch.js';
import { bool, int } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { diffEntity, withHeaders } from '../commits/index.js';
import { project, route } from '../define.js';
import { issueEntity } from '../issues/index.js';
import { canPushToBranch, objectsOf } from '../repositories/index.js';
import { cancelAutoMerge, trainStrategies } from './auto-merge.js';
import { canMerge } from './merge.js';
import { visibleClosingIssues } from './closing.js';
import { mergeRef, startRebase } from './rebase.js';
import { mergeRequest } from './resolvers.js';
import { fullEntity } from './routes.js';
import { canReadMergeRequests } from './rules.js';

const BASE = '/projects/:id/merge_requests/:merge_request_iid';
const IID = { merge_request_iid: int().required() };

export const automationRoutes = [
  route({
    method: 'POST', path: `${BASE}/cancel_merge_when_pipeline_succeeds`, auth: 'user', scope: project(canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => {
      const mr = ctx.subject;
      const user = ctx.user!;
      // MergeRequest#can_cancel_auto_merge?: whoever may merge it, and its author.
      if (!canMerge(ctx.state, user, ctx.project, mr.targetBranch, ctx.now()) && mr.authorId !== user.id) throw unauthorized();
      if (mr.state !== 'opened') throw notAllowed();
      // AutoMergeService#cancel without a strategy set.
      if (!mr.autoMerge) throw messageError(406, "Can't cancel the automatic merge");
      const trains = trainStrategies();
      if (mr.autoMerge.strategy !== 'merge_when_pipeline_succeeds' && trains) await trains.cancel(ctx, mr, user);
      else ctx.update(cancelAutoMerge(ctx.project, mr, user, ctx.now()));
      return created({ status: 'success' });
    },
  }),
  route({
    method: 'PUT', path: `${BASE}/rebase`, auth: 'user', scope: project(canReadMergeRequests), params: { ...IID, skip_ci: bool() }, subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => {
      const mr = ctx.subject;
      // authorize_push_to_merge_request!
      if (!canPushToBranch(ctx.state, ctx.user, ctx.project, mr.sourceBranch, ctx.now())) throw forbidden('Cannot push to source branch');
      ctx.update(await startRebase(ctx.state, objectsOf(ctx, ctx.project), ctx.project, mr, ctx.user!, ctx.now(), ctx.params.skip_ci === true));
      return { ...json({ rebase_in_progress: true }), status: 202 };
    },
  }),
  route({
    method: 'GET', path: `${BASE}/merge_ref`, scope: project(canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => {
      const made = await mergeRef(ctx.state, objectsOf(ctx, ctx.project), ctx.project, ctx.subject, ctx.now(), ctx.webBase);
      ctx.update(made.change);
      return json({ commit_id: made.sha });
    },
  }),
  route({
    method: 'GET', path: `${BASE}/changes`, cacheable: true, scope: project(canReadMergeRequests), params: { ...IID, access_raw_diffs: bool(), unidiff: bool() }, subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => {
      const mr = ctx.subject;
      const repo = objectsOf(ctx, ctx.project);
      const diffs = await treeDiffs(repo, (await repo.readCommit(mr.baseSha)).tree, (await repo.readCommit(mr.sha)).tree);
      // Entities::MergeRequestChanges: the merge request, its diffs as `changes`, and whether they overflowed.
      return json({ ...(await fullEntity(ctx, mr, ctx.project.id)), changes: diffs.map((d) => diffEntity(ctx.params.unidiff ? withHeaders(d) : d)), overflow: false });
    },
  }),
  route({
    method: 'GET', path: `${BASE}/closes_issues`, cacheable: true, paginated: true, scope: project(canReadMergeRequests), params: IID, subject: mergeRequest(),
    handler: (ctx): Reply => {
      const now = ctx.now();
      // MergeRequest#visible_closing_issues_for: the issues it closes (those kept at its merge, once merged) that the caller can see.
      const issues = visibleClosingIssues(ctx.state, ctx.project, ctx.subject, ctx.user, now);
      const v = { state: ctx.state, viewer: ctx.user, now, webBase: ctx.webBase, context: { kind: 'project' as const, id: ctx.project.id } };
      return json(ctx.paginate(issues).map((i) => issueEntity(v, i)));
    },
  }),
];
