// What `emulator.ci(project)` gives a test (and the control API its `/ci/...` endpoints): CI as
// a runner and the pipeline machinery would drive it. Create a pipeline for a ref, add jobs
// (a running job gets its CI_JOB_TOKEN), write their logs, finish them with a status, attach
// artifacts from a file map, lock pipelines, and plan how the next artifact cleanups behave.
import type { Draft } from 'immer';
import { EmulatorError } from '../../core/errors.js';
import { parseDuration } from '../../core/clock.js';
import { randomHex, type Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { branchCount, branchTip, findTag, refsOf, tagCount } from '../repositories/index.js';
import { findUserByUsername } from '../users/index.js';
import type { State } from '../world.js';
import { namedProject, type Host } from '../define.js';
import { parseExpireIn } from './archive.js';
import {
  addJob, appendTrace, artifactsOf, attachArtifacts, cleanupUnlocked, createPipeline, findPipeline, finishJob, startJob, type ArtifactsInput, type FinishInput,
} from './pipelines.js';
import type { CiLimits, Job, JobArtifacts, JobStatus, Pipeline, PipelineStatus } from './records.js';
import type { JobPlan } from './config/types.js';
import { createFromPlan, planWithDefaults } from './creation.js';
import { pipelineJobs } from './pipelines.js';
import type { JobOutcome, OutcomePlan } from './outcomes.js';

export interface CiPipelineInput {
  /** A branch or tag of the repository; the default branch when absent. */
  ref?: string;
  /** Who triggered it (a username); the project's creator when absent. */
  user?: string;
  source?: string;
  /** The parent pipeline's id, for a child pipeline (same ref and commit). */
  parent?: number;
  /** A pipeline without jobs keeps this status (default `created`); one with jobs follows them. */
  status?: PipelineStatus;
}

export interface CiJobInput {
  name: string;
  stage?: string;
  /** `running` (default) gets a live job token; `pending`, `created`, `manual`... wait. */
  status?: JobStatus;
  user?: string;
  allowFailure?: boolean;
  tags?: string[];
  /** The CI_JOB_TOKEN to hand out; generated when absent. */
  token?: string;
}

export interface CiArtifactsInput {
  /** Path in the archive -> content. */
  files: Readonly<Record<string, string | Uint8Array>>;
  /** GitLab's `expire_in` words (`1 week`, `3 days 4 hrs`, `never`); 30 days when absent. */
  expireIn?: string;
  /** `artifacts:public: false` makes them Developer-only. */
  public?: boolean;
}

export interface CiFinishInput {
  status: FinishInput['status'];
  failureReason?: string;
  exitCode?: number;
  coverage?: number;
  log?: string;
  artifacts?: CiArtifactsInput;
}

export interface CiCleanupPlan {
  /** How many of the next cleanup runs fail (leaving every file). */
  fail?: number;
  /** How long after their due time cleanups run: `10m`, `2h`, or milliseconds. */
  lag?: string | number;
  /** When a failed run tries again: `7m` by default. */
  retry?: string | number;
}

/** A job of a planned pipeline: GitLab's defaults for what it leaves out; `needs` may name jobs. */
export type CiPlannedJob = Partial<Omit<JobPlan, 'needs'>> & { name: string; needs?: (string | { name: string; artifacts?: boolean; optional?: boolean })[] | null };

export interface CiPlannedPipeline {
  ref?: string;
  user?: string;
  /** `push` by default. */
  source?: string;
  /** The stages in order; by default those the jobs name, in the order they name them. */
  stages?: string[];
  jobs: CiPlannedJob[];
  variables?: Record<string, string>;
}

/** How one job ends when the emulator runs it: `{ status: 'failed', exitCode: 1, after: '3m' }`. */
export interface CiOutcome {
  status: 'success' | 'failed' | 'canceled';
  /** How long it runs: `3m`, `90s`, or milliseconds; at once by default. */
  after?: string | number;
  exitCode?: number;
  failureReason?: string;
  log?: string;
}

export interface CiOutcomes {
  /** The outcome of each job by name. */
  jobs?: Record<string, CiOutcome>;
  /** Every other job's; without it, they wait for a runner. */
  otherwise?: CiOutcome;
}

export interface CiHandle {
  pipeline(input?: CiPipelineInput): Pipeline;
  /** A pipeline made as its configuration would plan it: its jobs created, then processed (queued, manual, skipped...). */
  plan(input: CiPlannedPipeline): Pipeline;
  /** The emulator runs this project's jobs itself as they are queued, ending each as planned on the clock; null stops it. */
  outcomes(plan: CiOutcomes | null): void;
  /** The jobs of a pipeline (retried ones too), in id order. */
  jobs(pipelineId: number): Job[];
  job(pipelineId: number, input: CiJobInput): { id: number; token: string; status: JobStatus };
  start(jobId: number): Job;
  log(jobId: number, text: string): void;
  finish(jobId: number, input: CiFinishInput): Job;
  artifacts(jobId: number, input: CiArtifactsInput): JobArtifacts;
  lock(pipelineId: number, locked: boolean): void;
  getJob(jobId: number): Job;
  getPipeline(pipelineId: number): Pipeline;
  /** The job's artifacts as the world holds them now, or undefined once removed. */
  getArtifacts(jobId: number): JobArtifacts | undefined;
  /** How the next artifact cleanups behave (instance-wide): fail some, or run them late. */
  planCleanup(plan: CiCleanupPlan): void;
  /** Plan limits (instance-wide): `{ project_ci_variables: 1 }`. */
  setLimits(limits: Partial<CiLimits>): void;
}

export interface CiHost {
  state(): State;
  update(recipe: (draft: Draft<State>) => void): void;
  now(): number;
}

/** What the CI family adds to the emulator for tests (its test handle). */
export interface CiMembers {
  /**
   * CI of a project, for tests: create pipelines for a ref, add and start jobs (a running job's
   * token authenticates as its user), write logs, finish jobs with artifacts, lock pipelines,
   * and plan how artifact cleanups behave (see docs/pipelines.md).
   */
  ci(project: number | string): CiHandle;
  /** How the next artifact cleanups behave: `{ fail: 1 }` fails the next run, `{ lag: '10m' }` runs each late. */
  ciPlanCleanup(plan: CiCleanupPlan): void;
  /** Plan limits on CI records: `{ project_ci_variables: 1 }`. */
  ciSetLimits(limits: Partial<CiLimits>): void;
  /** Artifact downloads answer 302 to a signed URL that expires after `ttl` (5 minutes by default), served by the emulator. */
  ciConfigureCdn(config: CiCdnConfig): void;
}

export function ciMembers(host: Host): CiMembers {
  return {
    ci: (project) => ciHandle(host, namedProject(host, project)),
    ciPlanCleanup: (plan) => planCleanup(host, plan),
    ciSetLimits: (limits) => setCiLimits(host, limits),
    ciConfigureCdn: (config) => configureCdn(host, config),
  };
}

/** How the next artifact cleanups behave, for the whole instance. */
export function planCleanup(host: CiHost, plan: CiCleanupPlan): void {
  const lag = plan.lag === undefined ? undefined : parseDuration(plan.lag);
  const retry = plan.retry === undefined ? undefined : parseDuration(plan.retry);
  if (plan.fail !== undefined && (!Number.isInteger(plan.fail) || plan.fail < 0)) throw new EmulatorError('cleanup.fail must be an integer from 0');
  host.update((draft) => {
    if (plan.fail !== undefined) draft.artifactCleanup.failNext = plan.fail;
    if (lag !== undefined) draft.artifactCleanup.lagMs = lag;
    if (retry !== undefined) draft.artifactCleanup.retryMs = Math.max(1, retry);
  });
}

export interface CiCdnConfig {
  enabled: boolean;
  /** How long a signed URL works: `5m`, `1h`, or milliseconds; 5 minutes by default. */
  ttl?: string | number;
}

/** Downloads of artifacts answer 302 to a signed URL that expires (and that the emulator serves). */
export function configureCdn(host: CiHost, config: CiCdnConfig): void {
  if (typeof config?.enabled !== 'boolean') throw new EmulatorError('cdn.enabled must be true or false');
  const ttl = config.ttl === undefined ? undefined : parseDuration(config.ttl);
  if (ttl !== undefined && ttl < 1000) throw new EmulatorError('cdn.ttl must be a second or more');
  host.update((draft) => {
    draft.artifactCdn.enabled = config.enabled;
    if (ttl !== undefined) draft.artifactCdn.ttlSeconds = Math.floor(ttl / 1000);
    if (draft.artifactCdn.secret === '') draft.artifactCdn.secret = randomHex(draft as State, 32);
  });
}

/** Plan limits (`project_ci_variables`...). */
export function setCiLimits(host: CiHost, limits: Partial<CiLimits>): void {
  for (const [k, v] of Object.entries(limits)) {
    if (!(k in host.state().ciLimits) || !Number.isInteger(v) || (v as number) < 0) throw new EmulatorError(`ci limit '${k}' is not a known limit of 0 or more`);
  }
  host.update((draft) => void Object.assign(draft.ciLimits, limits));
}

const STATUSES: readonly JobStatus[] = ['created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled'];

export function ciHandle(host: CiHost, project: () => Project): CiHandle {
  const userId = (username: string | undefined): number => {
    if (username === undefined) return project().creatorId;
    const u = findUserByUsername(host.state(), username);
    if (!u) throw new EmulatorError(`no user '${username}'`);
    return u.id;
  };
  const jobOf = (id: number): Job => {
    const j = tget(host.state().jobs, id);
    if (!j || j.projectId !== project().id) throw new EmulatorError(`no job ${id} in project ${project().id}`);
    return j;
  };
  const pipelineOf = (id: number): Pipeline => {
    const p = findPipeline(host.state(), project().id, id);
    if (!p) throw new EmulatorError(`no pipeline ${id} in project ${project().id}`);
    return p;
  };
  const change = <T>(recipe: (draft: State) => T): T => {
    let out!: T;
    host.update((draft) => {
      out = recipe(draft as State);
    });
    return out;
  };
  const checkArtifacts = (a: CiArtifactsInput) => {
    if (typeof a !== 'object' || a === null || typeof a.files !== 'object' || a.files === null) throw new EmulatorError('artifacts.files must be a map of paths to contents');
    if (a.expireIn !== undefined) parseExpireIn(a.expireIn);
  };
  const toArtifacts = (a: CiArtifactsInput): ArtifactsInput => ({ files: a.files, expireIn: a.expireIn, public: a.public });

  const refOf = (ref: string | undefined) => {
    const p = project();
    const name = ref ?? p.defaultBranch ?? 'main';
    const refs = refsOf(host.state(), p.id);
    const branch = branchTip(refs, name);
    const tag = findTag(refs, name);
    if (branch === undefined && tag === undefined) throw new EmulatorError(`project ${p.id} has no branch or tag '${name}'`);
    return { ref: name, sha: branch ?? tag!.commit, tag: branch === undefined };
  };
  return {
    plan(input) {
      if (!Array.isArray(input?.jobs) || input.jobs.length === 0) throw new EmulatorError('a planned pipeline needs jobs');
      const at = refOf(input.ref);
      const stages = input.stages ?? [...new Set(input.jobs.map((j) => j.stage ?? 'test'))];
      const jobs = input.jobs.map((j) => {
        if (typeof j?.name !== 'string' || j.name === '') throw new EmulatorError('a planned job needs a name');
        const stage = j.stage ?? 'test';
        if (!stages.includes(stage)) throw new EmulatorError(`job '${j.name}': stage '${stage}' is not one of ${stages.join(', ')}`);
        const needs = j.needs === undefined || j.needs === null ? null : j.needs.map((n) => (typeof n === 'string' ? { name: n, artifacts: true, optional: false } : { artifacts: true, optional: false, ...n }));
        return planWithDefaults({ ...j, stage, stageIdx: stages.indexOf(stage), needs });
      });
      const variables = Object.entries(input.variables ?? {}).map(([key, value]) => ({ key, value: String(value), variableType: 'env_var' as const }));
      const uid = userId(input.user);
      const now = host.now();
      return change((draft) => createFromPlan(draft, tget(draft.projects, project().id)!, {
        errors: [], warnings: [], created: true, stages, jobs, mergedYaml: '', includes: [], name: null,
      }, { ...at, userId: uid, source: input.source ?? 'push', variables }, now));
    },
    outcomes(plan) {
      const id = String(project().id);
      if (plan === null) {
        change((draft) => void delete draft.ciOutcomes[id]);
        return;
      }
      const stored = outcomePlan(plan);
      change((draft) => void (draft.ciOutcomes[id] = stored));
    },
    jobs: (pipelineId) => pipelineJobs(host.state(), pipelineOf(pipelineId).id),
    pipeline(input = {}) {
      const p = project();
      const state = host.state();
      const parent = input.parent === undefined ? undefined : pipelineOf(input.parent);
      const ref = parent?.ref ?? input.ref ?? p.defaultBranch ?? 'main';
      const refs = refsOf(state, p.id);
      const branch = branchTip(refs, ref);
      const tag = findTag(refs, ref);
      const hasRepo = branchCount(refs) > 0 || tagCount(refs) > 0;
      if (!parent && hasRepo && branch === undefined && tag === undefined) throw new EmulatorError(`project ${p.id} has no branch or tag '${ref}'`);
      const sha = parent ? parent.sha : (branch ?? tag?.commit ?? null);
      const uid = userId(input.user);
      const now = host.now();
      return change((draft) => createPipeline(draft, tget(draft.projects, p.id)!, {
        ref, sha, tag: parent ? parent.tag : branch === undefined && tag !== undefined, userId: uid, source: input.source, parentId: parent?.id ?? null, status: input.status,
      }, now));
    },
    job(pipelineId, input) {
      const pipeline = pipelineOf(pipelineId);
      if (typeof input?.name !== 'string' || input.name === '') throw new EmulatorError('a job needs a name');
      if (input.status !== undefined && !STATUSES.includes(input.status)) throw new EmulatorError(`job status must be one of ${STATUSES.join(', ')}`);
      if (input.token !== undefined && tget(host.state().tokens, input.token)) throw new EmulatorError(`token '${input.token}' is used already`);
      const uid = input.user === undefined ? undefined : userId(input.user);
      const now = host.now();
      return change((draft) => {
        const { job, token } = addJob(draft, findPipeline(draft, pipeline.projectId, pipeline.id)!, {
          name: input.name, stage: input.stage, status: input.status, userId: uid, allowFailure: input.allowFailure ?? (input.status === 'manual' ? true : undefined), tagList: input.tags, token: input.token,
        }, now);
        return { id: job.id, token, status: job.status };
      });
    },
    start(jobId) {
      const job = jobOf(jobId);
      if (!['created', 'pending', 'waiting_for_resource', 'preparing', 'manual', 'scheduled'].includes(job.status)) throw new EmulatorError(`job ${jobId} is ${job.status}: it cannot start`);
      const now = host.now();
      change((draft) => startJob(draft, tget(draft.jobs, jobId)!, now));
      return jobOf(jobId);
    },
    log(jobId, text) {
      jobOf(jobId);
      if (typeof text !== 'string') throw new EmulatorError('a log line must be text');
      change((draft) => appendTrace(draft, tget(draft.jobs, jobId)!, text));
    },
    finish(jobId, input) {
      const job = jobOf(jobId);
      if (!['success', 'failed', 'canceled', 'skipped'].includes(input?.status)) throw new EmulatorError('finish.status must be one of success, failed, canceled, skipped');
      if (['success', 'failed', 'canceled', 'skipped'].includes(job.status)) throw new EmulatorError(`job ${jobId} has finished already (${job.status})`);
      if (input.artifacts) checkArtifacts(input.artifacts);
      const now = host.now();
      change((draft) => {
        const j = tget(draft.jobs, jobId)!;
        if (input.log !== undefined) appendTrace(draft, j, input.log);
        if (input.artifacts) attachArtifacts(draft, j as Job, toArtifacts(input.artifacts), now);
        finishJob(draft, j, { status: input.status, failureReason: input.failureReason, coverage: input.coverage, exitCode: input.exitCode }, now);
      });
      return jobOf(jobId);
    },
    artifacts(jobId, input) {
      jobOf(jobId);
      checkArtifacts(input);
      const now = host.now();
      return change((draft) => attachArtifacts(draft, tget(draft.jobs, jobId)! as Job, toArtifacts(input), now));
    },
    lock(pipelineId, locked) {
      pipelineOf(pipelineId);
      const now = host.now();
      change((draft) => {
        const p = findPipeline(draft, project().id, pipelineId)!;
        p.locked = locked;
        if (!locked) cleanupUnlocked(draft, p, now);
      });
    },
    getJob: (id) => jobOf(id),
    getPipeline: (id) => pipelineOf(id),
    getArtifacts: (id) => artifactsOf(host.state(), jobOf(id)),
    planCleanup: (plan) => planCleanup(host, plan),
    setLimits: (limits) => setCiLimits(host, limits),
  };
}

/** A plan of outcomes checked: each status known, each duration read. */
export function outcomePlan(plan: CiOutcomes): OutcomePlan {
  const one = (o: CiOutcome, where: string): JobOutcome => {
    if (!['success', 'failed', 'canceled'].includes(o?.status)) throw new EmulatorError(`${where}.status must be success, failed or canceled`);
    if (o.exitCode !== undefined && !Number.isInteger(o.exitCode)) throw new EmulatorError(`${where}.exitCode must be an integer`);
    return {
      status: o.status, afterMs: o.after === undefined ? 0 : parseDuration(o.after), exitCode: o.exitCode ?? (o.status === 'failed' ? 1 : null),
      failureReason: o.failureReason ?? null, log: o.log ?? null,
    };
  };
  const jobs: Record<string, JobOutcome> = Object.create(null) as Record<string, JobOutcome>;
  for (const [name, o] of Object.entries(plan.jobs ?? {})) jobs[name] = one(o, `outcomes.jobs.${name}`);
  return { jobs: { ...jobs }, otherwise: plan.otherwise ? one(plan.otherwise, 'outcomes.otherwise') : null };
}
