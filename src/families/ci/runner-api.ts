// The runner protocol (lib/api/ci/runner.rb, lib/api/ci/helpers/runner.rb,
// app/services/ci/register_job_service.rb, update_build_state_service.rb,
// append_build_trace_service.rb, lib/api/entities/ci/job_request/*): a runner verifies its
// token, asks for a job (201 with GitLab's payload, 204 when none fits), reports its state,
// appends to its log by byte range, and uploads artifacts, with the job's token.
import { fflate } from '../../git/fflate.js';
import { forbidden, messageError } from '../../core/errors.js';
import { int, str, any } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { ancestry } from '../../policy/access.js';
import { tdel, tentries, tget, type Table } from '../../store/table.js';
import { route, type Context } from '../define.js';
import type { State } from '../world.js';
import { parseExpireIn } from './archive.js';
import { keyWithoutRepository } from './cache-keys.js';
import { attachArtifacts, findPipeline, pipelineJobs, artifactsOf } from './pipelines.js';
import { afterJobMoved, failJob, jobTimeout, moveJob, runJob } from './processing.js';
import { jobVariables, refProtected } from './predefined.js';
import type { Job, Pipeline } from './records.js';

type Runner = State['runners'] extends Table<infer R> ? R : never;

/** Ci::Build failure reasons a runner may report; any other is `unknown_failure`. */
const FAILURE_REASONS = [
  'unknown_failure', 'script_failure', 'api_failure', 'stuck_or_timeout_failure', 'runner_system_failure', 'missing_dependency_failure',
  'runner_unsupported', 'stale_schedule', 'job_execution_timeout', 'archived_failure', 'unmet_prerequisites', 'scheduler_failure',
  'data_integrity_failure', 'forward_deployment_failure', 'user_blocked', 'project_deleted', 'ci_quota_exceeded', 'pipeline_loop_detected',
  'no_matching_runner', 'trace_size_exceeded', 'builds_disabled', 'environment_creation_failure', 'deployment_rejected',
  'failed_outdated_deployment_job', 'protected_environment_failure', 'insufficient_bridge_permissions', 'downstream_bridge_project_not_found',
  'invalid_bridge_trigger', 'upstream_bridge_project_not_found', 'insufficient_upstream_permissions', 'bridge_pipeline_is_child_pipeline',
  'downstream_pipeline_creation_failed', 'secrets_provider_not_found', 'reached_max_descendant_pipelines_depth', 'ip_restriction_failure',
  'reached_max_pipeline_hierarchy_size',
];

/** Whether `info.features` (a hash, as the runner sends it, JSON or form-encoded) turns a feature on. */
function runnerFeature(info: unknown, name: string): boolean {
  if (info === null || typeof info !== 'object') return false;
  const features = (info as Record<string, unknown>).features;
  if (features === null || typeof features !== 'object' || !Object.hasOwn(features, name)) return false;
  const v = (features as Record<string, unknown>)[name];
  return v === true || v === 'true';
}

/** The runner of a request's `token` (authenticate_runner!: 403 without one), its contact noted. */
function authenticateRunner(ctx: Context<{ token?: string }>): Runner {
  const token = ctx.params.token;
  const id = token ? tget(ctx.state.runnerTokens, token) : undefined;
  const runner = id === undefined ? undefined : tget(ctx.state.runners, id);
  if (!runner) throw forbidden();
  const now = ctx.now();
  ctx.update((draft) => {
    const r = tget(draft.runners, runner.id);
    if (r) r.contactedAt = now;
  });
  return runner;
}

/** The job `:id` with its token (authenticate_job!): 403 for an unknown job, a wrong token, an erased job, or one not running (with Job-Status). */
function authenticateJob(ctx: Context<{ id: number; token?: string }>): Job {
  const job = tget(ctx.state.jobs, ctx.params.id);
  if (!job) throw forbidden();
  const token = ctx.params.token ?? ctx.request.headers.get('job-token') ?? '';
  if (token === '' || tget(ctx.state.ciJobTokens, job.id) !== token) throw forbidden();
  const project = tget(ctx.state.projects, job.projectId);
  if (!project || project.pendingDelete) throw forbidden('Project has been deleted!');
  if (job.erasedAt !== null) throw forbidden('Job has been erased!');
  // processing_on_runner?: running, or canceling while its runner finishes.
  if (job.status !== 'running' && job.status !== 'canceling') {
    const err = forbidden('Job is not running');
    err.headers['Job-Status'] = job.status;
    throw err;
  }
  return job;
}

/** Ci::Runner#can_pick?: its type reaches the project, its tags cover the job's, a protected-refs runner takes protected refs only. */
function canPick(state: State, runner: Runner, job: Job, pipeline: Pipeline): boolean {
  const project = tget(state.projects, job.projectId);
  if (!project || project.pendingDelete || project.archived || job.plan?.trigger) return false;
  if (project.features.builds === 'disabled') return false;
  if (runner.runnerType === 'project_type' && !runner.projectIds.includes(project.id)) return false;
  if (runner.runnerType === 'group_type') {
    if (project.settings.group_runners_enabled === false) return false;
    if (!ancestry(state, project.namespaceId).some((g) => g.id === runner.groupId)) return false;
  }
  if (runner.runnerType === 'instance_type' && project.settings.shared_runners_enabled === false) return false;
  if (job.tagList.length === 0 ? !runner.runUntagged : !job.tagList.every((t) => runner.tagList.includes(t))) return false;
  if (runner.accessLevel === 'ref_protected' && !refProtected(state, project.id, pipeline.ref, pipeline.tag)) return false;
  return true;
}

/** Ci::RegisterJobService: the oldest pending job this runner may pick. */
function nextJob(state: State, runner: Runner): Job | undefined {
  const ids = [...tentries(state.pendingJobs)].map(([id]) => Number(id)).sort((a, b) => a - b);
  for (const id of ids) {
    const job = tget(state.jobs, id);
    if (!job || job.status !== 'pending' || job.retried || job.pipelineId === null) continue;
    const pipeline = findPipeline(state, job.projectId, job.pipelineId);
    if (pipeline && canPick(state, runner, job, pipeline)) return job;
  }
  return undefined;
}

const queueValue = (state: State) => state.runnerQueueTick.toString(16).padStart(32, '0');

const noJob = (ctx: Context<unknown>, value: string): Reply => {
  ctx.responseHeaders['X-GitLab-Last-Update'] = value;
  return { status: 204 };
};

/** The jobs whose artifacts a job receives (Ci::BuildDependencies): its `needs` asking for artifacts, else every job of the earlier stages, narrowed by `dependencies`. */
function dependenciesOf(state: State, job: Job): Job[] {
  if (job.pipelineId === null) return [];
  const jobs = pipelineJobs(state, job.pipelineId).filter((j) => !j.retried && j.id !== job.id);
  const wanted = job.plan?.needs;
  const base = wanted
    ? jobs.filter((j) => wanted.some((n) => n.artifacts && n.name === j.name))
    : jobs.filter((j) => j.stageIdx < job.stageIdx);
  // `dependencies:` narrows them to the jobs it names.
  const named = job.plan?.dependencies;
  return named ? base.filter((j) => named.includes(j.name)) : base;
}

/** Entities::Ci::JobRequest::Response for a job a runner took. */
async function jobPayload(ctx: Context<unknown>, job: Job, runner: Runner, token: string) {
  const state = ctx.state;
  const pipeline = findPipeline(state, job.projectId, job.pipelineId!)!;
  const project = tget(state.projects, job.projectId)!;
  const ns = tget(state.namespaces, project.namespaceId);
  const chain = ancestry(state, project.namespaceId);
  const path = `${ns?.fullPath ?? ''}/${project.path}`;
  const url = new URL(ctx.webBase);
  let commit = null;
  if (pipeline.sha) {
    try {
      commit = await ctx.env.git.repository(project.id).readCommit(pipeline.sha);
    } catch {
      commit = null;
    }
  }
  const timeout = jobTimeout(state, job, runner.maximumTimeout);
  const plan = job.plan;
  const variables = jobVariables({
    state, pipeline, commit, webBase: ctx.webBase, job, token, timeoutSeconds: timeout,
    runner: { id: runner.id, description: runner.description, tags: runner.tagList },
  });
  const depth = Number(project.settings.ci_default_git_depth ?? 20);
  const refspecs = [`+refs/pipelines/${pipeline.id}:refs/pipelines/${pipeline.id}`];
  if (depth === 0) refspecs.push('+refs/heads/*:refs/remotes/origin/*', '+refs/tags/*:refs/tags/*');
  else refspecs.push(pipeline.tag ? `+refs/tags/${pipeline.ref}:refs/tags/${pipeline.ref}` : `+refs/heads/${pipeline.ref}:refs/remotes/origin/${pipeline.ref}`);
  const steps: { name: string; script: string[]; timeout: number; when: string; allow_failure: boolean }[] = [
    { name: 'script', script: [...(plan?.beforeScript ?? []), ...(plan?.script ?? [])], timeout, when: 'on_success', allow_failure: false },
  ];
  if (plan?.afterScript.length) steps.push({ name: 'after_script', script: plan.afterScript, timeout, when: 'always', allow_failure: true });
  const artifacts = plan?.artifacts
    ? [{
      name: plan.artifacts.name, untracked: false, paths: plan.artifacts.paths, exclude: [], when: plan.artifacts.when,
      expire_in: plan.artifacts.expireIn, artifact_type: 'archive', artifact_format: 'zip',
    }]
    : [];
  const dependencies = dependenciesOf(state, job).flatMap((d) => {
    const a = artifactsOf(state, d);
    const t = tget(state.ciJobTokens, d.id);
    return a && t ? [{ id: d.id, name: d.name, token: t, artifacts_file: { filename: 'artifacts.zip', size: a.archive.length } }] : [];
  });
  return {
    id: job.id,
    token,
    allow_git_fetch: true,
    job_info: {
      id: job.id, name: job.name, stage: job.stage, pipeline_id: pipeline.id, project_id: project.id, project_name: project.name,
      project_full_path: path, namespace_id: project.namespaceId, root_namespace_id: (chain[chain.length - 1] ?? ns)?.id ?? project.namespaceId,
      organization_id: 1, user_id: job.userId, scoped_user_id: null,
      time_in_queue_seconds: job.queuedAt === null || job.startedAt === null ? 0 : Math.round((job.startedAt - job.queuedAt) / 1000),
      project_jobs_running_on_instance_runners_count: '+Inf', queue_size: 0, queue_depth: 0,
    },
    git_info: {
      repo_url: `${url.protocol}//gitlab-ci-token:${token}@${url.host}${url.pathname.replace(/\/$/, '')}/${path}.git`,
      ref: pipeline.ref, sha: pipeline.sha, before_sha: pipeline.beforeSha, ref_type: pipeline.tag ? 'tag' : 'branch', refspecs, depth,
      repo_object_format: 'sha1', protected: refProtected(state, project.id, pipeline.ref, pipeline.tag),
    },
    runner_info: { timeout, runner_session_url: null },
    variables,
    steps,
    image: plan?.image ? { name: plan.image, entrypoint: null, ports: [], executor_opts: {}, pull_policy: null } : null,
    services: (plan?.services ?? []).map((name) => ({ name, entrypoint: null, ports: [], alias: null, command: null, variables: [], pull_policy: null })),
    artifacts,
    // Entities::Ci::JobRequest::Cache; a `files` key is worked out when the pipeline is made (cache-keys.ts); one of a plan made without a repository is `default`.
    cache: (plan?.cache ?? []).map((c, i) => ({
      key: keyWithoutRepository(c.key, i), untracked: c.untracked, paths: c.paths, policy: c.policy, when: c.when, fallback_keys: c.fallbackKeys,
    })),
    credentials: [{ type: 'registry', url: `registry.${url.hostname}`, username: 'gitlab-ci-token', password: token }],
    features: { trace_sections: true, failure_reasons: FAILURE_REASONS },
    dependencies,
  };
}

/** The byte size of a log as stored. */
const byteSize = (text: string) => new TextEncoder().encode(text).length;

export const runnerApiRoutes = [
  route({
    method: 'POST',
    path: '/runners/verify',
    auth: 'none',
    params: { token: str().required(), system_id: str() },
    handler: (ctx): Reply => {
      authenticateRunner(ctx);
      return { status: 200, raw: '200', contentType: 'text/plain' };
    },
  }),
  route({
    method: 'DELETE',
    path: '/runners',
    auth: 'none',
    params: { token: str().required() },
    handler: (ctx): Reply => {
      const runner = authenticateRunner(ctx);
      ctx.update((draft) => {
        tdel(draft.runners, runner.id);
        tdel(draft.runnerTokens, runner.token);
      });
      return { status: 204 };
    },
  }),
  route({
    method: 'POST',
    path: '/jobs/request',
    auth: 'none',
    params: { token: str().required(), last_update: str(), info: any(), session: any(), job_age: int(), system_id: str() },
    handler: async (ctx): Promise<Reply> => {
      const runner = authenticateRunner(ctx);
      const value = queueValue(ctx.state);
      if (runner.paused) return noJob(ctx, value);
      if (ctx.params.last_update !== undefined && ctx.params.last_update === value) return noJob(ctx, value);
      const now = ctx.now();
      const job = nextJob(ctx.state, runner);
      if (!job) return noJob(ctx, value);
      ctx.update((draft) => {
        const j = tget(draft.jobs, job.id)!;
        j.runner = { id: runner.id, description: runner.description, runnerType: runner.runnerType };
        // Ci::BuildMetadata#set_cancel_gracefully, from the features the runner says it has.
        if (runnerFeature(ctx.params.info, 'cancel_gracefully')) j.cancelGracefully = true;
        runJob(draft, j, runner.maximumTimeout, now);
        afterJobMoved(draft, j, now);
      });
      const token = tget(ctx.state.ciJobTokens, job.id)!;
      return json(await jobPayload(ctx, tget(ctx.state.jobs, job.id)!, runner, token), 201);
    },
  }),
  route({
    method: 'PUT',
    path: '/jobs/:id{[0-9]+}',
    auth: 'none',
    params: {
      id: int().required(), token: str(), state: str(), checksum: str(), failure_reason: str(), exit_code: int(), output: any(),
    },
    handler: (ctx): Reply => {
      const job = authenticateJob(ctx);
      const p = ctx.params;
      const now = ctx.now();
      ctx.responseHeaders['X-GitLab-Trace-Update-Interval'] = '60';
      if (p.state === undefined || p.state === 'running') return { status: 200, raw: '200', contentType: 'text/plain' };
      if (p.state !== 'success' && p.state !== 'failed') return { status: 400, raw: '400', contentType: 'text/plain' };
      ctx.update((draft) => {
        const j = tget(draft.jobs, job.id)!;
        // A canceling job's runner reports how it ended: either way it is canceled (drop/success from canceling).
        if (j.status === 'canceling') {
          if (p.exit_code !== undefined) j.exitCode = p.exit_code;
          moveJob(draft, j, 'canceled', now);
          afterJobMoved(draft, j, now);
        } else if (p.state === 'success') {
          if (p.exit_code !== undefined) j.exitCode = p.exit_code;
          moveJob(draft, j, 'success', now);
          afterJobMoved(draft, j, now);
        } else {
          const reason = p.failure_reason && FAILURE_REASONS.includes(p.failure_reason) ? p.failure_reason : 'unknown_failure';
          failJob(draft, j, reason, p.exit_code ?? null, now);
        }
      });
      return { status: 200, raw: '200', contentType: 'text/plain' };
    },
  }),
  route({
    method: 'PATCH',
    path: '/jobs/:id{[0-9]+}/trace',
    auth: 'none',
    params: { id: int().required(), token: str() },
    handler: (ctx): Reply => {
      const job = authenticateJob(ctx);
      const range = ctx.request.headers.get('content-range');
      if (range === null) throw messageError(400, '400 Missing header Content-Range');
      const start = Number.parseInt(range.split('-')[0] ?? '', 10) || 0;
      const size = byteSize(job.trace);
      const data = new TextDecoder().decode(ctx.body);
      const bodyEnd = start + ctx.body.length;
      if (start !== size) {
        return { status: 416, body: { message: '416 Range Not Satisfiable' }, headers: { Range: `0-${size}` } };
      }
      const token = tget(ctx.state.ciJobTokens, job.id) ?? '';
      // Ci::Build#hide_secrets: the job's token, as many x's as it has characters.
      const masked = token ? data.split(token).join('x'.repeat(token.length)) : data;
      ctx.update((draft) => {
        tget(draft.jobs, job.id)!.trace += masked;
      });
      const stored = size + byteSize(masked);
      if (stored !== bodyEnd) return { status: 416, body: { message: '416 Range Not Satisfiable' }, headers: { Range: `0-${stored}` } };
      return { status: 202, raw: '', headers: { 'Job-Status': job.status, Range: `0-${stored}`, 'X-GitLab-Trace-Update-Interval': '60' } };
    },
  }),
  route({
    method: 'POST',
    path: '/jobs/:id{[0-9]+}/artifacts/authorize',
    auth: 'none',
    params: { id: int().required(), token: str(), filesize: int(), artifact_type: str().default('archive') },
    handler: (ctx): Reply => {
      authenticateJob(ctx);
      const max = 100 * 1024 * 1024;
      if (ctx.params.filesize !== undefined && ctx.params.filesize > max) throw messageError(413, '413 Request Entity Too Large');
      return { status: 200, body: { TempPath: '/tmp/uploads', MaximumSize: max }, contentType: 'application/vnd.gitlab-workhorse+json' };
    },
  }),
  route({
    method: 'POST',
    path: '/jobs/:id{[0-9]+}/artifacts',
    auth: 'none',
    params: { id: int().required(), token: str(), file: any(), expire_in: str(), artifact_type: str().default('archive'), artifact_format: str().default('zip'), metadata: any() },
    handler: async (ctx): Promise<Reply> => {
      const job = authenticateJob(ctx);
      const file = ctx.params.file;
      if (!(file instanceof Blob)) throw messageError(400, '400 Bad request - file is missing');
      if (ctx.params.artifact_type !== 'archive') return { status: 201, raw: '201', contentType: 'text/plain' };
      if (ctx.params.expire_in !== undefined) {
        try {
          parseExpireIn(ctx.params.expire_in);
        } catch {
          throw messageError(400, { expire_in: ['is invalid'] });
        }
      }
      let files: Record<string, Uint8Array>;
      try {
        const entries = fflate().unzipSync(new Uint8Array(await file.arrayBuffer()));
        files = Object.create(null) as Record<string, Uint8Array>;
        for (const [name, bytes] of Object.entries(entries)) if (!name.endsWith('/')) files[name] = bytes;
      } catch {
        throw messageError(400, '400 Bad request - invalid artifacts file');
      }
      const now = ctx.now();
      const expireIn = ctx.params.expire_in ?? job.plan?.artifacts?.expireIn ?? undefined;
      try {
        ctx.update((draft) => void attachArtifacts(draft, tget(draft.jobs, job.id)! as Job, { files, expireIn, public: job.plan?.artifacts?.public ?? true }, now));
      } catch (err) {
        if (err instanceof RangeError) throw messageError(400, `400 Bad request - ${err.message}`);
        throw err;
      }
      return { status: 201, raw: '201', contentType: 'text/plain' };
    },
  }),
];
