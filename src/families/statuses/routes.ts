// Commit statuses (lib/api/commit_statuses.rb): the statuses of a commit, and posting one.
import { branchNames, branchTip, canPushToBranch, refsOf, repoView, resolveCommit } from '../repositories/index.js';
import { reachable } from '../../git/history.js';
import { forbidden, grapeError, notFound } from '../../core/errors.js';
import { any, bool, int, str } from '../../http/params.js';
import { created, json, type Reply } from '../../http/route.js';
import { tget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { commitStatusEntity } from './entity.js';
import { pipelineNotFound, referencesNotFound } from './errors.js';
import { canCreateStatus, canReadStatuses, matchingPipeline, postStatus, statusesOf, type PostedState } from './rules.js';
import type { CommitStatus } from './records.js';

const render = (ctx: Context<unknown>, s: CommitStatus) => commitStatusEntity(s, tget(ctx.state.users, s.userId), ctx);

/** Grape's Float coercion. */
function float(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n)) throw grapeError(400, `${name} is invalid`);
  return n;
}

export const statusRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/commits/:sha/statuses',
    auth: 'user',
    cacheable: true,
    scope: project(canReadStatuses),
    paginated: true,
    params: {
      sha: str().required(),
      ref: str(),
      stage: str(),
      name: str(),
      pipeline_id: int(),
      all: bool(),
      order_by: str().values(['id', 'pipeline_id']).default('id'),
      sort: str().values(['asc', 'desc']),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const repo = ctx.env.git.repository(ctx.project.id);
      if (!(await resolveCommit(repo, repoView(ctx.state, ctx.project), p.sha))) throw notFound('Commit');
      // Statuses are found by the sha as given, as GitLab's query does.
      let list = statusesOf(ctx.state, ctx.project.id, p.sha);
      if (p.pipeline_id !== undefined) list = list.filter((s) => s.pipelineId === p.pipeline_id);
      if (!p.all) list = list.filter((s) => !s.retried);
      if (p.ref) list = list.filter((s) => s.ref === p.ref);
      if (p.stage) list = list.filter(() => p.stage === 'external');
      if (p.name) list = list.filter((s) => s.name === p.name);
      const key = p.order_by === 'pipeline_id' ? (s: CommitStatus) => s.pipelineId : (s: CommitStatus) => s.id;
      const dir = p.sort === 'desc' ? -1 : 1;
      list = [...list].sort((a, b) => (key(a) - key(b)) * dir || (a.id - b.id) * dir);
      return json(ctx.paginate(list).map((s) => render(ctx, s)));
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/statuses/:sha',
    auth: 'user',
    scope: project(canCreateStatus),
    params: {
      sha: str().required(),
      state: str().required().values(['pending', 'running', 'success', 'failed', 'canceled', 'skipped']),
      ref: str(),
      target_url: str(),
      description: str(),
      name: str(),
      context: str(),
      coverage: any(),
      pipeline_id: int(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const coverage = float(p.coverage, 'coverage');
      const user = ctx.user!;
      const repo = ctx.env.git.repository(ctx.project.id);
      const sha = await resolveCommit(repo, repoView(ctx.state, ctx.project), p.sha);
      if (!sha) throw notFound('Commit');
      let ref = p.ref ?? matchingPipeline(ctx.state, ctx.project.id, sha, undefined, p.pipeline_id)?.ref;
      if (ref === undefined) {
        const refs = refsOf(ctx.state, ctx.project.id);
        for (const name of [...branchNames(refs)].sort()) {
          if ((await reachable(repo, branchTip(refs, name)!)).has(sha)) {
            ref = name;
            break;
          }
        }
      }
      if (!ref) throw referencesNotFound();
      if (p.pipeline_id !== undefined && !matchingPipeline(ctx.state, ctx.project.id, sha, p.ref, p.pipeline_id)) throw pipelineNotFound();
      // update_pipeline: a pipeline of a protected branch is the business of those who may push to it.
      if (branchTip(refsOf(ctx.state, ctx.project.id), ref) !== undefined && !canPushToBranch(ctx.state, user, ctx.project, ref, ctx.now())) throw forbidden();
      const status = ctx.update(
        postStatus(ctx.state, ctx.project, user, {
          sha,
          ref,
          name: p.name ?? p.context ?? 'default',
          state: p.state as PostedState,
          pipelineId: p.pipeline_id,
          targetUrl: p.target_url,
          description: p.description,
          coverage,
        }, ctx.now()),
      );
      return created(render(ctx, status));
    },
  }),
];

