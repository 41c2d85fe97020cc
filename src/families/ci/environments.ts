// Environments and deployments (lib/api/environments.rb, lib/api/deployments.rb,
// app/models/environment.rb, deployment.rb, lib/api/entities/environment*.rb, deployment.rb):
// a job with `environment:` makes its environment and a deployment that follows the job's
// status; a stop job stops it; `auto_stop_in` stops it on the clock; the APIs list, create,
// change, stop and delete them.
import type { Draft } from 'immer';
import { forbidden, notFound, validationFailed } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { json, noContent, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { pget, pset, pdel, pvalues, tget, type Partitioned } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { userBasic } from '../users/index.js';
import { defineTask, plain, project, route, schedule, type Context } from '../define.js';
import type { State } from '../world.js';
import { emit } from '../stream.js';
import { parseExpireIn } from './archive.js';
import { environmentTier, slugify } from './predefined.js';
import { canReadBuilds, playJob } from './pipelines.js';
import type { Job, JobStatus, Pipeline } from './records.js';
import { ids } from './variables.js';

export interface Environment {
  id: number;
  projectId: number;
  name: string;
  slug: string;
  externalUrl: string | null;
  tier: string;
  description: string | null;
  state: 'available' | 'stopping' | 'stopped';
  createdAt: number;
  updatedAt: number;
  autoStopAt: number | null;
  autoStopSetting: 'always' | 'with_action';
  lastDeploymentId: number | null;
}

export type DeploymentStatus = 'created' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped' | 'blocked';

export interface Deployment {
  id: number;
  iid: number;
  projectId: number;
  environmentId: number;
  ref: string;
  sha: string;
  tag: boolean;
  userId: number;
  jobId: number | null;
  status: DeploymentStatus;
  createdAt: number;
  updatedAt: number;
  finishedAt: number | null;
}

export interface EnvironmentsSlice {
  /** Project id -> its environments by id. */
  environments: Partitioned<Environment>;
  /** Project id -> its deployments by id. */
  deployments: Partitioned<Deployment>;
}

/** `auto_stop_in`: an environment whose time came is stopped (if it is still due then). */
export const AUTO_STOP = defineTask<{ projectId: number; environmentId: number; at: number }>('ci.environment_auto_stop', (draft, p, ctx) => {
  const env = pget((draft as State).environments, p.projectId, p.environmentId);
  if (!env || env.state !== 'available' || env.autoStopAt !== p.at) return;
  stopEnvironment(draft as State, env, ctx.now);
});

function findByName(state: State, projectId: number, name: string): Environment | undefined {
  for (const e of pvalues(state.environments, projectId)) if (e.name === name) return e;
  return undefined;
}

/** Environment.create: its slug and tier from its name. */
function newEnvironment(draft: State, projectId: number, name: string, externalUrl: string | null, now: number, extra: Partial<Environment> = {}): Environment {
  const env: Environment = {
    id: ids.next(draft, 'environment'), projectId, name, slug: environmentSlug(name), externalUrl, tier: environmentTier(name), description: null,
    state: 'available', createdAt: now, updatedAt: now, autoStopAt: null, autoStopSetting: 'always', lastDeploymentId: null, ...extra,
  };
  pset(draft.environments, projectId, env.id, env);
  return env;
}

/** Gitlab::Slug::Environment: the slug with a suffix when it had to be cut or changed. */
function environmentSlug(name: string): string {
  const slug = slugify(name).replace(/^[^a-z]+/, '').slice(0, 24).replace(/-+$/, '');
  return slug === '' ? 'env' : slug;
}

/** Gitlab::Ci::Pipeline::Seed::Environment and Seed::Deployment: a `start` job's environment (made if new) and its deployment. */
export function deploymentForJob(draft: State, pipeline: Pipeline, job: Job, now: number): void {
  const spec = job.plan?.environment;
  if (!spec || pipeline.sha === null) return;
  const env = findByName(draft, job.projectId, spec.name) ?? newEnvironment(draft, job.projectId, spec.name, spec.url, now);
  if (spec.action !== 'start') return;
  const d: Deployment = {
    id: ids.next(draft, 'deployment'), iid: ids.next(draft, 'deployment_iid', job.projectId), projectId: job.projectId, environmentId: env.id,
    ref: pipeline.ref, sha: pipeline.sha, tag: pipeline.tag, userId: job.userId, jobId: job.id, status: 'created', createdAt: now, updatedAt: now, finishedAt: null,
  };
  pset(draft.deployments, job.projectId, d.id, d);
}

const DEPLOYMENT_STATUS: Partial<Record<JobStatus, DeploymentStatus>> = { running: 'running', success: 'success', failed: 'failed', canceled: 'canceled', skipped: 'skipped' };

/** A job with an environment moved: its deployment follows; a successful start makes the environment available, a successful stop stops it. */
export function environmentFollowsJob(draft: State, job: Draft<Job>, now: number): void {
  const spec = job.plan?.environment;
  if (!spec) return;
  const env = findByName(draft, job.projectId, spec.name);
  if (!env) return;
  if (spec.action === 'stop') {
    if (job.status === 'success') stopEnvironment(draft, env, now, true);
    return;
  }
  if (spec.action !== 'start') return;
  let deployment: Draft<Deployment> | undefined;
  for (const d of pvalues(draft.deployments, job.projectId)) if (d.jobId === job.id) deployment = d as Draft<Deployment>;
  const status = DEPLOYMENT_STATUS[job.status];
  if (!deployment || !status || deployment.status === status) return;
  deployment.status = status;
  deployment.updatedAt = now;
  // Deployments::HooksWorker: a deployment that starts or finishes is an event.
  if (status !== 'skipped') emit(draft, { kind: 'deployment.status', projectId: job.projectId, deploymentId: deployment.id, status });
  if (status !== 'running') deployment.finishedAt = now;
  if (status === 'success') {
    env.lastDeploymentId = deployment.id;
    env.state = 'available';
    if (spec.url) env.externalUrl = spec.url;
    env.updatedAt = now;
    const ttl = spec.autoStopIn ? safeDuration(spec.autoStopIn) : null;
    env.autoStopAt = ttl === null ? null : now + ttl;
    if (env.autoStopAt !== null) schedule(draft, AUTO_STOP, env.autoStopAt, { projectId: env.projectId, environmentId: env.id, at: env.autoStopAt });
  }
}

function safeDuration(text: string): number | null {
  try {
    return parseExpireIn(text);
  } catch {
    return null;
  }
}

/** Environment#stop_with_actions!: its last deployment's `on_stop` job is played (stopping), else it stops at once. */
function stopEnvironment(draft: State, env: Draft<Environment>, now: number, stopped = false, userId?: number): void {
  env.updatedAt = now;
  env.autoStopAt = null;
  if (!stopped) {
    const last = env.lastDeploymentId === null ? undefined : pget(draft.deployments, env.projectId, env.lastDeploymentId);
    const job = last?.jobId == null ? undefined : tget(draft.jobs, last.jobId);
    const onStop = job?.plan?.environment?.onStop;
    if (job && onStop && job.pipelineId !== null) {
      for (const id of pvalues(draft.pipelineJobs, job.pipelineId)) {
        const stop = tget(draft.jobs, id);
        if (stop && stop.name === onStop && !stop.retried && stop.status === 'manual') {
          playJob(stop, userId ?? stop.userId, now)(draft);
          env.state = 'stopping';
          return;
        }
      }
    }
  }
  env.state = 'stopped';
}

// ---- Policies ----

const canRead = (state: State, user: User | null, p: Project, now: number) => canReadBuilds(state, user, p, now) || hasProjectRole(state, user, p, ACCESS.reporter, now);
const canWrite = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.developer, now);

// ---- Entities ----

function environmentBasic(e: Environment) {
  return { id: e.id, name: e.name, slug: e.slug, external_url: e.externalUrl, created_at: iso(e.createdAt), updated_at: iso(e.updatedAt) };
}

function environmentEntity(ctx: Context<unknown>, e: Environment, withLast: boolean) {
  const last = withLast && e.lastDeploymentId !== null ? pget(ctx.state.deployments, e.projectId, e.lastDeploymentId) : undefined;
  return {
    ...environmentBasic(e),
    tier: e.tier,
    ...(withLast ? { last_deployment: last ? deploymentEntity(ctx, last) : null } : {}),
    state: e.state,
    auto_stop_at: iso(e.autoStopAt),
    auto_stop_setting: e.autoStopSetting,
    description: e.description,
    cluster_agent: null,
    kubernetes_namespace: null,
    flux_resource_path: null,
  };
}

function deploymentEntity(ctx: Context<unknown>, d: Deployment) {
  const user = tget(ctx.state.users, d.userId);
  const env = pget(ctx.state.environments, d.projectId, d.environmentId);
  const job = d.jobId === null ? undefined : tget(ctx.state.jobs, d.jobId);
  return {
    id: d.id, iid: d.iid, ref: d.ref, sha: d.sha, created_at: iso(d.createdAt), updated_at: iso(d.updatedAt), finished_at: iso(d.finishedAt), status: d.status,
    user: user ? userBasic(user, ctx) : null,
    environment: env ? environmentBasic(env) : null,
    deployable: job ? { id: job.id, status: job.status, stage: job.stage, name: job.name, ref: job.ref, tag: job.tag, created_at: iso(job.createdAt), started_at: iso(job.startedAt), finished_at: iso(job.finishedAt) } : null,
  };
}

function environmentOf(ctx: Context<unknown>, id: number): Environment {
  const e = pget(ctx.state.environments, ctx.project.id, id);
  if (!e) throw notFound('Environment');
  return e;
}

const TIERS = ['production', 'staging', 'testing', 'development', 'other'] as const;
const URL_OK = (u: string) => /^https?:\/\/\S+$/.test(u);

function checkUrl(url: string | undefined): void {
  if (url !== undefined && url !== '' && !URL_OK(url)) throw validationFailed({ external_url: ['is blocked: Only allowed schemes are http, https'] });
}

const ENV_ID = { environment_id: int().required() };

export const environmentRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/environments',
    auth: 'public',
    scope: project(canRead),
    paginated: true,
    params: { name: str(), search: str(), states: str().values(['available', 'stopping', 'stopped'] as const) },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const list = [...pvalues(ctx.state.environments, ctx.project.id)]
        .filter((e) => (p.name === undefined || e.name === p.name) && (p.search === undefined || e.name.includes(p.search)) && (p.states === undefined || e.state === p.states))
        .sort((a, b) => a.id - b.id);
      return json(ctx.paginate(list).map((e) => environmentEntity(ctx, e, false)));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/environments/:environment_id',
    auth: 'public',
    scope: project(canRead),
    params: ENV_ID,
    handler: (ctx): Reply => json(environmentEntity(ctx, environmentOf(ctx, ctx.params.environment_id), true)),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/environments',
    auth: 'user',
    scope: project(canRead, canWrite),
    params: { name: str().required(), external_url: str(), tier: str().values(TIERS), description: str(), auto_stop_setting: str().values(['always', 'with_action'] as const) },
    handler: (ctx): Reply => {
      const p = ctx.params;
      checkUrl(p.external_url);
      if (!/^[a-zA-Z0-9 _./${}-]+$/.test(p.name) || p.name.startsWith('/') || p.name.endsWith('/')) {
        throw validationFailed({ name: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', and spaces, but it cannot start or end with '/'"] });
      }
      if (findByName(ctx.state, ctx.project.id, p.name)) throw validationFailed({ name: ['has already been taken'] });
      const now = ctx.now();
      const projectId = ctx.project.id;
      const env = ctx.update((draft) => plain(newEnvironment(draft as State, projectId, p.name, p.external_url || null, now, {
        ...(p.tier ? { tier: p.tier } : {}), description: p.description ?? null, ...(p.auto_stop_setting ? { autoStopSetting: p.auto_stop_setting } : {}),
      })));
      return json(environmentEntity(ctx, env, true), 201);
    },
  }),
  route({
    method: 'PUT',
    path: '/projects/:id/environments/:environment_id',
    auth: 'user',
    scope: project(canRead, canWrite),
    params: { ...ENV_ID, external_url: str(), tier: str().values(TIERS), description: str(), auto_stop_setting: str().values(['always', 'with_action'] as const) },
    handler: (ctx): Reply => {
      const e = environmentOf(ctx, ctx.params.environment_id);
      const p = ctx.params;
      checkUrl(p.external_url);
      const now = ctx.now();
      const env = ctx.update((draft) => {
        const d = pget((draft as State).environments, e.projectId, e.id)!;
        if (p.external_url !== undefined) d.externalUrl = p.external_url || null;
        if (p.tier !== undefined) d.tier = p.tier;
        if (p.description !== undefined) d.description = p.description;
        if (p.auto_stop_setting !== undefined) d.autoStopSetting = p.auto_stop_setting;
        d.updatedAt = now;
        return plain(d) as Environment;
      });
      return json(environmentEntity(ctx, env, true));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/environments/:environment_id/stop',
    auth: 'user',
    scope: project(canRead, canWrite),
    params: { ...ENV_ID, force: bool().default(false) },
    handler: (ctx): Reply => {
      const e = environmentOf(ctx, ctx.params.environment_id);
      const now = ctx.now();
      const userId = ctx.user!.id;
      const env = ctx.update((draft) => {
        const d = pget((draft as State).environments, e.projectId, e.id)!;
        stopEnvironment(draft as State, d, now, ctx.params.force, userId);
        return plain(d) as Environment;
      });
      return json(environmentEntity(ctx, env, true));
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/environments/:environment_id',
    auth: 'user',
    scope: project(canRead),
    params: ENV_ID,
    handler: (ctx): Reply => {
      const e = environmentOf(ctx, ctx.params.environment_id);
      // `destroy_environment`: maintainers, and only a stopped environment.
      if (!hasProjectRole(ctx.state, ctx.user, ctx.project, ACCESS.maintainer, ctx.now()) || e.state !== 'stopped') throw forbidden();
      ctx.update((draft) => {
        pdel((draft as State).environments, e.projectId, e.id);
        for (const d of [...pvalues((draft as State).deployments, e.projectId)]) if (d.environmentId === e.id) pdel((draft as State).deployments, e.projectId, d.id);
      });
      return noContent();
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/deployments',
    auth: 'public',
    scope: project(canRead),
    paginated: true,
    params: {
      order_by: str().values(['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'] as const).default('id'),
      sort: str().values(['asc', 'desc'] as const).default('asc'),
      environment: str(),
      status: str().values(['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'] as const),
    },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const envIds = p.environment === undefined ? null : new Set([...pvalues(ctx.state.environments, ctx.project.id)].filter((e) => e.name === p.environment).map((e) => e.id));
      const key = (d: Deployment): number | string => (p.order_by === 'ref' ? d.ref : p.order_by === 'created_at' ? d.createdAt : p.order_by === 'updated_at' ? d.updatedAt : p.order_by === 'finished_at' ? (d.finishedAt ?? 0) : d.id);
      const dir = p.sort === 'desc' ? -1 : 1;
      const list = [...pvalues(ctx.state.deployments, ctx.project.id)]
        .filter((d) => (envIds === null || envIds.has(d.environmentId)) && (p.status === undefined || d.status === p.status))
        .sort((a, b) => (key(a) < key(b) ? -dir : key(a) > key(b) ? dir : (a.id - b.id) * dir));
      return json(ctx.paginate(list).map((d) => deploymentEntity(ctx, d)));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/deployments/:deployment_id',
    auth: 'public',
    scope: project(canRead),
    params: { deployment_id: int().required() },
    handler: (ctx): Reply => {
      const d = pget(ctx.state.deployments, ctx.project.id, ctx.params.deployment_id);
      if (!d) throw notFound('Deployment');
      return json(deploymentEntity(ctx, d));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/deployments',
    auth: 'user',
    scope: project(canRead, canWrite),
    params: { environment: str().required(), sha: str().required(), ref: str().required(), tag: bool().required(), status: str().required().values(['running', 'success', 'failed', 'canceled'] as const) },
    handler: (ctx): Reply => {
      const p = ctx.params;
      const now = ctx.now();
      const projectId = ctx.project.id;
      const userId = ctx.user!.id;
      const made = ctx.update((draft) => {
        const state = draft as State;
        const env = findByName(state, projectId, p.environment) ?? newEnvironment(state, projectId, p.environment, null, now);
        const d: Deployment = {
          id: ids.next(draft, 'deployment'), iid: ids.next(draft, 'deployment_iid', projectId), projectId, environmentId: env.id, ref: p.ref, sha: p.sha, tag: p.tag,
          userId, jobId: null, status: p.status, createdAt: now, updatedAt: now, finishedAt: p.status === 'running' ? null : now,
        };
        pset(state.deployments, projectId, d.id, d);
        if (d.status === 'success') {
          const e = pget(state.environments, projectId, env.id)!;
          e.lastDeploymentId = d.id;
          e.state = 'available';
        }
        return d;
      });
      return json(deploymentEntity(ctx, made), 201);
    },
  }),
  route({
    method: 'PUT',
    path: '/projects/:id/deployments/:deployment_id',
    auth: 'user',
    scope: project(canRead, canWrite),
    params: { deployment_id: int().required(), status: str().required().values(['running', 'success', 'failed', 'canceled'] as const) },
    handler: (ctx): Reply => {
      const d = pget(ctx.state.deployments, ctx.project.id, ctx.params.deployment_id);
      if (!d) throw notFound('Deployment');
      if (d.jobId !== null) throw validationFailed({ base: ['Deployment status can not be changed for a deployment created by a job'] });
      const now = ctx.now();
      const updated = ctx.update((draft) => {
        const state = draft as State;
        const x = pget(state.deployments, d.projectId, d.id)!;
        x.status = ctx.params.status;
        x.updatedAt = now;
        if (x.status !== 'running') x.finishedAt = now;
        if (x.status === 'success') {
          const e = pget(state.environments, d.projectId, d.environmentId);
          if (e) (e.lastDeploymentId = x.id), (e.state = 'available');
        }
        return plain(x) as Deployment;
      });
      return json(deploymentEntity(ctx, updated));
    },
  }),
];
