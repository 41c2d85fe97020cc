// Pipelines and jobs as clients read them (lib/api/ci/pipelines.rb, lib/api/ci/jobs.rb): lists
// with their filters, one pipeline or job, a pipeline's jobs, a job's log, retry and cancel,
// and the current job of a job token (GET /job).
import { badRequest, forbidden, notFound, recordNotFound } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { tget } from '../../store/table.js';
import { arr, bool, hash, int, str } from '../../http/params.js';
import { json, noContent, type Reply } from '../../http/route.js';
import { offsetHeaders, pageRequest, type PageInput } from '../../http/pagination.js';
import { findUserByUsername } from '../users/index.js';
import { branchTip, findTag, refsOf } from '../repositories/index.js';
import { project, route, type Context } from '../define.js';
import { jobNotRetryable } from './errors.js';
import { jobEntity, pipelineBasic, pipelineEntity } from './job-entity.js';
import {
  AVAILABLE_STATUSES, canDestroyPipelines, canEraseJob, canReadBuilds, canUpdateBuilds, cancelJob, cancelPipeline, destroyPipeline, eraseJob, isErasable, isPlayable, playJob, retryPipeline, findJob, findPipeline, isRetryable, pipelineCount, pipelineJobs, projectJobs, projectPipelines, retryJob,
} from './pipelines.js';
import type { Job, Pipeline } from './records.js';

const READ = project(canReadBuilds);
const SCOPE = { scope: arr(str().values(AVAILABLE_STATUSES), { commaSeparated: true }) };

export async function renderJobs(ctx: Context<unknown>, jobs: readonly Job[]) {
  const repo = ctx.env.git.repository(ctx.project.id);
  const out = [];
  for (const j of jobs) out.push(await jobEntity(ctx.state, j, ctx, ctx.now(), repo));
  return out;
}

export const renderJob = async (ctx: Context<unknown>, job: Job) => (await renderJobs(ctx, [job]))[0]!;

function jobOf(ctx: Context<unknown>, id: number): Job {
  const job = findJob(ctx.state, ctx.project.id, id);
  if (!job) throw recordNotFound();
  return job;
}

/** `all_pipelines.find`: an unknown one is ActiveRecord's RecordNotFound. */
function pipelineOf(ctx: Context<unknown>, id: number): Pipeline {
  const p = findPipeline(ctx.state, ctx.project.id, id);
  if (!p) throw recordNotFound();
  return p;
}

const byScope = (jobs: Job[], scope: readonly string[] | undefined) => (scope?.length ? jobs.filter((j) => scope.includes(j.status)) : jobs);

/**
 * A page of a list GitLab paginates without counting (`without_count: true`): the rows of the
 * page read lazily, one more to know whether a next page follows; no X-Total headers.
 */
function pageWithoutCount<T>(ctx: Context<unknown>, rows: Iterable<T>): T[] {
  const paging = ctx.params as PageInput;
  const { page, perPage } = pageRequest(paging);
  const offset = (page - 1) * perPage;
  const out: T[] = [];
  let seen = 0;
  let more = false;
  for (const row of rows) {
    if (seen++ < offset) continue;
    if (out.length === perPage) {
      more = true;
      break;
    }
    out.push(row);
  }
  Object.assign(ctx.responseHeaders, offsetHeaders(offset + out.length + (more ? 1 : 0), paging, ctx.linkBase, { excludeTotalHeaders: true }));
  return out;
}

function* whereStatus(jobs: Iterable<Job>, scope: readonly string[] | undefined): IterableIterator<Job> {
  for (const j of jobs) if ((!scope?.length || scope.includes(j.status)) && !j.plan?.trigger) yield j;
}

/** Entities::Ci::Bridge: a trigger job, with its downstream pipeline instead of a runner and artifacts. */
function bridgeEntity(ctx: Context<unknown>, rendered: Awaited<ReturnType<typeof renderJob>>, job: Job) {
  const { runner: _r, runner_manager: _m, artifacts: _a, artifacts_expire_at: _e, artifacts_file: _f, tag_list: _t, archived: _x, ...rest } = rendered as Record<string, unknown>;
  const downstream = job.downstreamId === null ? undefined : findPipeline(ctx.state, job.downstreamProjectId ?? job.projectId, job.downstreamId);
  return { ...rest, downstream_pipeline: downstream ? pipelineBasic(ctx.state, downstream, ctx) : null };
}

const PIPELINE_SCOPES = ['running', 'pending', 'finished', 'branches', 'tags'] as const;
const FINISHED = ['success', 'failed', 'canceled', 'skipped'];

/** Ci::PipelinesFinder: scope, status, ref, sha, source, username, updated_* and order. */
function filterPipelines(ctx: Context<unknown>, p: {
  scope?: string; status?: string; ref?: string; sha?: string; source?: string; username?: string; order_by: string; sort: string;
}): Pipeline[] {
  let list = [...projectPipelines(ctx.state, ctx.project.id)];
  if (p.scope === 'running' || p.scope === 'pending') list = list.filter((x) => x.status === p.scope);
  if (p.scope === 'finished') list = list.filter((x) => FINISHED.includes(x.status));
  if (p.scope === 'branches' || p.scope === 'tags') {
    const tag = p.scope === 'tags';
    const latest = new Map<string, Pipeline>();
    for (const x of list) if (x.tag === tag && !latest.has(x.ref)) latest.set(x.ref, x);
    list = [...latest.values()];
  }
  if (p.status) list = list.filter((x) => x.status === p.status);
  if (p.ref) list = list.filter((x) => x.ref === p.ref);
  if (p.sha) list = list.filter((x) => x.sha === p.sha);
  if (p.source) list = list.filter((x) => x.source === p.source);
  if (p.username) {
    const u = findUserByUsername(ctx.state, p.username);
    list = u ? list.filter((x) => x.userId === u.id) : [];
  }
  const key = p.order_by as 'id' | 'status' | 'ref' | 'updated_at' | 'user_id';
  const val = (x: Pipeline): string | number => (key === 'status' ? x.status : key === 'ref' ? x.ref : key === 'updated_at' ? x.updatedAt : key === 'user_id' ? x.userId : x.id);
  const dir = p.sort === 'asc' ? 1 : -1;
  return [...list].sort((a, b) => (val(a) < val(b) ? -dir : val(a) > val(b) ? dir : (a.id - b.id) * dir));
}

export const jobRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/pipelines',
    cacheable: true,
    jobToken: true,
    scope: READ,
    paginated: true,
    params: {
      scope: str().values(PIPELINE_SCOPES),
      status: str().values(AVAILABLE_STATUSES),
      ref: str(),
      sha: str(),
      source: str(),
      username: str(),
      yaml_errors: bool(),
      order_by: str().values(['id', 'status', 'ref', 'updated_at', 'user_id'] as const).default('id'),
      sort: str().values(['asc', 'desc'] as const).default('desc'),
    },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const plain = !p.scope && !p.status && !p.ref && !p.sha && !p.source && !p.username && p.order_by === 'id' && p.sort === 'desc';
      if (!plain) return json(ctx.paginate(filterPipelines(ctx, p)).map((x) => pipelineBasic(ctx.state, x, ctx)));
      // Newest first, unfiltered: the page read lazily, the total from the table's size.
      const { page, perPage } = pageRequest(p as PageInput);
      const rows: Pipeline[] = [];
      let i = 0;
      for (const row of projectPipelines(ctx.state, ctx.project.id)) {
        if (i++ < (page - 1) * perPage) continue;
        if (rows.length === perPage) break;
        rows.push(row);
      }
      Object.assign(ctx.responseHeaders, offsetHeaders(pipelineCount(ctx.state, ctx.project.id), p as PageInput, ctx.linkBase));
      return json(rows.map((x) => pipelineBasic(ctx.state, x, ctx)));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipelines/latest',
    scope: READ,
    params: { ref: str() },
    handler: (ctx): Reply => {
      // Project#latest_pipeline: the newest pipeline of the ref's current commit; none is 403 (authorize! on nil).
      const ref = ctx.params.ref ?? ctx.project.defaultBranch ?? 'main';
      const refs = refsOf(ctx.state, ctx.project.id);
      const sha = branchTip(refs, ref) ?? findTag(refs, ref)?.commit;
      let latest: Pipeline | undefined;
      if (sha !== undefined) {
        for (const p of projectPipelines(ctx.state, ctx.project.id)) {
          if (p.parentId === null && p.ref === ref && p.sha === sha) {
            latest = p;
            break;
          }
        }
      }
      if (!latest) throw forbidden();
      return json(pipelineEntity(ctx.state, latest, ctx, ctx.now()));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id',
    jobToken: true,
    scope: READ,
    params: { pipeline_id: int().required() },
    handler: (ctx): Reply => json(pipelineEntity(ctx.state, pipelineOf(ctx, ctx.params.pipeline_id), ctx, ctx.now())),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id/variables',
    auth: 'user',
    scope: READ,
    params: { pipeline_id: int().required() },
    handler: (ctx): Reply => {
      // `read_pipeline_variable`: developers.
      if (!canUpdateBuilds(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      const p = pipelineOf(ctx, ctx.params.pipeline_id);
      return json(p.variables.map((v) => ({ variable_type: v.variableType, key: v.key, value: v.value })));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id/bridges',
    auth: 'user',
    scope: READ,
    paginated: true,
    params: { pipeline_id: int().required(), ...SCOPE },
    handler: async (ctx): Promise<Reply> => {
      const p = pipelineOf(ctx, ctx.params.pipeline_id);
      const bridges = byScope(pipelineJobs(ctx.state, p.id).filter((j) => !j.retried && j.plan?.trigger), ctx.params.scope);
      const rendered = await renderJobs(ctx, ctx.paginate(bridges));
      return json(rendered.map((r, i) => bridgeEntity(ctx, r, bridges[i]!)));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipelines/:pipeline_id/retry',
    auth: 'user',
    scope: project(canUpdateBuilds),
    params: { pipeline_id: int().required() },
    handler: (ctx): Reply => {
      const p = pipelineOf(ctx, ctx.params.pipeline_id);
      ctx.update(retryPipeline(p, ctx.user!.id, ctx.now()));
      return json(pipelineEntity(ctx.state, pipelineOf(ctx, p.id), ctx, ctx.now()), 201);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipelines/:pipeline_id/cancel',
    auth: 'user',
    scope: project(canUpdateBuilds),
    params: { pipeline_id: int().required() },
    handler: (ctx): Reply => {
      const p = pipelineOf(ctx, ctx.params.pipeline_id);
      ctx.update(cancelPipeline(p, ctx.now()));
      return json(pipelineEntity(ctx.state, pipelineOf(ctx, p.id), ctx, ctx.now()));
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/pipelines/:pipeline_id',
    auth: 'user',
    scope: READ,
    params: { pipeline_id: int().required() },
    handler: (ctx): Reply => {
      const p = pipelineOf(ctx, ctx.params.pipeline_id);
      if (!canDestroyPipelines(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      checkUnmodifiedSince(ctx, p.updatedAt);
      ctx.update(destroyPipeline(p, ctx.now()));
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipelines/:pipeline_id/jobs',
    jobToken: true,
    scope: READ,
    paginated: true,
    params: { pipeline_id: int().required(), include_retried: bool().default(false), ...SCOPE },
    handler: async (ctx): Promise<Reply> => {
      const p = pipelineOf(ctx, ctx.params.pipeline_id);
      const jobs = byScope(pipelineJobs(ctx.state, p.id).filter((j) => (ctx.params.include_retried || !j.retried) && !j.plan?.trigger), ctx.params.scope);
      return json(await renderJobs(ctx, ctx.paginate(jobs)));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs',
    auth: 'user',
    jobToken: true,
    // check_rate_limit!(:jobs_index, scope: current_user), when the instance sets it.
    rateLimit: 'jobs_index',
    scope: READ,
    paginated: true,
    params: SCOPE,
    handler: async (ctx): Promise<Reply> => json(await renderJobs(ctx, pageWithoutCount(ctx, whereStatus(projectJobs(ctx.state, ctx.project.id), ctx.params.scope)))),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id',
    auth: 'user',
    scope: READ,
    params: { job_id: int().required() },
    handler: async (ctx): Promise<Reply> => json(await renderJob(ctx, jobOf(ctx, ctx.params.job_id))),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id/trace',
    auth: 'user',
    scope: READ,
    params: { job_id: int().required() },
    handler: (ctx): Reply => {
      const job = jobOf(ctx, ctx.params.job_id);
      return { status: 200, raw: job.trace, contentType: 'text/plain', headers: { 'Content-Disposition': `infile; filename="${job.id}.log"` } };
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/retry',
    auth: 'user',
    scope: project(canUpdateBuilds),
    params: { job_id: int().required() },
    handler: async (ctx): Promise<Reply> => {
      const job = jobOf(ctx, ctx.params.job_id);
      if (!isRetryable(job)) throw jobNotRetryable();
      const fresh = ctx.update(retryJob(job, ctx.user!.id, ctx.now()));
      return json(await renderJob(ctx, fresh), 201);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/cancel',
    auth: 'user',
    scope: project(canUpdateBuilds),
    params: { job_id: int().required(), force: bool() },
    handler: async (ctx): Promise<Reply> => {
      const job = ctx.update(cancelJob(jobOf(ctx, ctx.params.job_id), ctx.now()));
      return json(await renderJob(ctx, job), 201);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/play',
    auth: 'user',
    scope: READ,
    params: { job_id: int().required(), job_variables_attributes: arr(hash({ key: str().required(), value: str().required() })) },
    handler: async (ctx): Promise<Reply> => {
      const job = jobOf(ctx, ctx.params.job_id);
      if (!canUpdateBuilds(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      if (!isPlayable(job)) throw badRequest('Unplayable Job');
      return json(await renderJob(ctx, ctx.update(playJob(job, ctx.user!.id, ctx.now(), ctx.params.job_variables_attributes))));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/erase',
    auth: 'user',
    scope: READ,
    params: { job_id: int().required() },
    handler: async (ctx): Promise<Reply> => {
      const job = jobOf(ctx, ctx.params.job_id);
      if (!canEraseJob(ctx.state, ctx.user, ctx.project, job, ctx.now())) throw forbidden();
      if (!isErasable(job, ctx.state)) throw forbidden('Job is not erasable!');
      return json(await renderJob(ctx, ctx.update(eraseJob(job, ctx.now()))), 201);
    },
  }),
  route({
    method: 'GET',
    path: '/job',
    auth: 'user',
    jobToken: true,
    params: {},
    handler: async (ctx): Promise<Reply> => {
      const id = ctx.caller.method === 'job' ? ctx.caller.token?.jobId : undefined;
      const job = id === undefined ? undefined : tget(ctx.state.jobs, id);
      if (!job) throw notFound('Job');
      const p = tget(ctx.state.projects, job.projectId)!;
      ctx.project = p;
      return json(await renderJob(ctx, job));
    },
  }),
];
