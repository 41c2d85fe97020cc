// Pipelines and jobs as data (app/models/ci/pipeline.rb, build.rb, concerns/ci/has_status.rb,
// app/services/ci/retry_job_service.rb, unlock_artifacts_service.rb): the pipelines, the indexes
// that list a project's jobs and a pipeline's jobs, and the job tokens; their artifacts are
// artifact-rules.ts's.
import type { Draft } from 'immer';
import { ancestry, hasProjectRole, canUseFeature } from '../../policy/access.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { pget, pdel, pset, pvalues, tdel, tget, tset, tvaluesDesc, type Partitioned, type Table } from '../../store/table.js';
import { plain, type Change } from '../define.js';
import { emit } from '../stream.js';
import type { State } from '../world.js';
import { createToken } from '../users/index.js';
import { deleteOtherRef, draftRefs, otherRefTip, refsOf } from '../repositories/index.js';
import { newJob, type ArtifactCdn, type CleanupPlan, type Job, type JobArtifacts, type JobRunner, type JobStatus, type Pipeline, type PipelineStatus, type PipelineVariable } from './records.js';
import { cleanupUnlocked } from './artifact-rules.js';
import { CANCELABLE_STATUSES, composite } from './status.js';
import { afterJobMoved, bridgeFollowsChild, bridgeFollowsDownstream, cloneJob, failJob, jobMoved, moveJob, processPipeline, resetSkippedAfter, runJob } from './processing.js';
import { ids } from './variables.js';
import { listVariables } from './variables.js';

export interface PipelinesSlice {
  /** CI jobs by id: a job token is valid while its job runs. */
  jobs: Table<Job>;
  /** Project id -> its pipelines by id. */
  pipelines: Partitioned<Pipeline>;
  /** Project id -> its jobs' ids (the job records are `jobs`). */
  projectJobs: Partitioned<number>;
  /** Pipeline id -> its jobs' ids. */
  pipelineJobs: Partitioned<number>;
  /** Project id -> ref -> the id of its latest successful (root) pipeline. */
  latestSuccessful: Partitioned<number>;
  /** Project id -> `<ref>\n<sha>` -> the newest root pipeline of that commit on that ref (a merge request's head pipeline). */
  headPipelines: Partitioned<number>;
  /** Project id -> job id -> the job's artifacts archive. */
  jobArtifacts: Partitioned<JobArtifacts>;
  /** Project id -> expiry time -> the jobs whose artifacts expire then (one cleanup run per time). */
  artifactExpiries: Partitioned<Table<number>>;
  /** Job id -> its CI_JOB_TOKEN, to mask it in the job's log. */
  ciJobTokens: Table<string>;
  /** How the next artifact cleanups behave. */
  artifactCleanup: CleanupPlan;
  /** Whether downloads redirect through a signed, expiring URL. */
  artifactCdn: ArtifactCdn;
  /** Pending jobs (job id -> project id): what runners are offered, oldest first. */
  pendingJobs: Table<number>;
  /** A multi-project pipeline's id -> the id of the trigger job that made it (its upstream). */
  upstreamBridges: Table<number>;
  /** Moves whenever a job is queued: runners that saw the last value have nothing new (`X-GitLab-Last-Update`). */
  runnerQueueTick: number;
}

/** Keeps the pending index in step with a job's status. */
export function indexPending(draft: State, job: Pick<Job, 'id' | 'projectId' | 'status' | 'retried'>): void {
  if (job.status === 'pending' && !job.retried) {
    if (tget(draft.pendingJobs, job.id) === undefined) {
      tset(draft.pendingJobs, job.id, job.projectId);
      draft.runnerQueueTick++;
    }
  } else if (tget(draft.pendingJobs, job.id) !== undefined) {
    tdel(draft.pendingJobs, job.id);
  }
}

/** GitLab's `default_artifacts_expire_in`. */

export const ACTIVE: readonly JobStatus[] = ['waiting_for_resource', 'preparing', 'pending', 'running', 'canceling'];
const COMPLETED: readonly JobStatus[] = ['success', 'failed', 'canceled', 'skipped'];
/** What a job's own cancel stops: the cancelable ones, and a manual job. */
const CANCELABLE: readonly JobStatus[] = [...CANCELABLE_STATUSES, 'manual'];
export const AVAILABLE_STATUSES = [
  'created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled',
  'skipped', 'manual', 'scheduled',
] as const;

export {
  attachArtifacts, CLEANUP_ARTIFACTS, DEFAULT_CLEANUP, deleteJobArtifacts, expireProjectArtifacts, keepArtifacts, cleanupUnlocked, type ArtifactsInput,
} from './artifact-rules.js';

// ---- Reading ----

export const findPipeline = (state: State, projectId: number, id: number): Pipeline | undefined => pget(state.pipelines, projectId, id);

/** A job of the project (find_build!), or undefined. */
export function findJob(state: State, projectId: number, id: number): Job | undefined {
  const job = tget(state.jobs, id);
  return job && job.projectId === projectId ? job : undefined;
}

/** The project's jobs, newest first, lazily (a page reads only what it shows). */
export function* projectJobs(state: State, projectId: number): IterableIterator<Job> {
  const ids = tget(state.projectJobs, projectId);
  if (!ids) return;
  for (const id of tvaluesDesc(ids)) {
    const j = tget(state.jobs, id);
    if (j) yield j;
  }
}

/** A pipeline's jobs, in id order. */
export function pipelineJobs(state: State, pipelineId: number): Job[] {
  const out: Job[] = [];
  for (const id of pvalues(state.pipelineJobs, pipelineId)) {
    const j = tget(state.jobs, id);
    if (j) out.push(j);
  }
  return out;
}

/** The project's pipelines, newest first, lazily. */
export function* projectPipelines(state: State, projectId: number): IterableIterator<Pipeline> {
  const t = tget(state.pipelines, projectId);
  if (t) yield* tvaluesDesc(t);
}

/** The newest root pipeline of a commit on a ref (MergeRequest#head_pipeline), if it is still there. */
export function headPipeline(state: State, projectId: number, ref: string, sha: string): Pipeline | undefined {
  const id = pget(state.headPipelines, projectId, `${ref}\n${sha}`);
  return id === undefined ? undefined : pget(state.pipelines, projectId, id);
}

export const pipelineCount = (state: State, projectId: number): number => tget(state.pipelines, projectId)?.size ?? 0;

export const artifactsOf = (state: State, job: Job): JobArtifacts | undefined => pget(state.jobArtifacts, job.projectId, job.id);

function rootOf(state: State, p: Pipeline): Pipeline {
  let at = p;
  for (let guard = 0; at.parentId !== null && guard < 100; guard++) {
    const parent = findPipeline(state, at.projectId, at.parentId);
    if (!parent) break;
    at = parent;
  }
  return at;
}

/** Whether a job's artifacts are locked: its root pipeline is the latest successful one of its ref (or locked by hand). */
export function artifactsLocked(state: State, job: Job): boolean {
  const p = job.pipelineId === null ? undefined : findPipeline(state, job.projectId, job.pipelineId);
  return p ? rootOf(state, p).locked : false;
}

/** The pipeline and its descendants, parent before child. */
export function selfAndDescendants(state: State, p: Pipeline): Pipeline[] {
  const out: Pipeline[] = [];
  const queue = [p];
  while (queue.length) {
    const at = queue.shift()!;
    out.push(at);
    for (const id of at.childIds) {
      const c = findPipeline(state, at.projectId, id);
      if (c) queue.push(c);
    }
  }
  return out;
}

/** The named job with artifacts in a pipeline and its children, parent first. */
function jobWithArtifactsIn(state: State, p: Pipeline, name: string): Job | undefined {
  for (const pl of selfAndDescendants(state, p)) {
    const found = pipelineJobs(state, pl.id).filter((j) => j.name === name && !j.retried && artifactsOf(state, j));
    if (found.length) return found[found.length - 1];
  }
  return undefined;
}

/**
 * Project#latest_successful_build_for_ref: the named job with artifacts in the latest
 * successful pipeline of the ref; with `searchRecent`, in the recent successful pipelines.
 */
export function latestSuccessfulJobForRef(state: State, projectId: number, name: string, ref: string, searchRecent = false): Job | undefined {
  if (searchRecent) {
    for (const p of projectPipelines(state, projectId)) {
      if (p.ref !== ref || p.parentId !== null || p.status !== 'success') continue;
      const j = jobWithArtifactsIn(state, p, name);
      if (j) return j;
    }
    return undefined;
  }
  const id = pget(state.latestSuccessful, projectId, ref);
  const p = id === undefined ? undefined : findPipeline(state, projectId, id);
  return p ? jobWithArtifactsIn(state, p, name) : undefined;
}

// ---- Policies ----

/**
 * ProjectPolicy `read_build`: reporters; with public jobs (`public_builds`, the default) also
 * guests, and everyone who sees a project that is not private.
 */
export function canReadBuilds(state: State, user: User | null, project: Project, now: number): boolean {
  if (!canUseFeature(state, user, project, 'builds', now)) return false;
  if (hasProjectRole(state, user, project, ACCESS.reporter, now)) return true;
  if (project.settings.public_jobs === false) return false;
  return project.visibility !== 'private' || hasProjectRole(state, user, project, ACCESS.guest, now);
}

/** `read_job_artifacts`: non-public artifacts are for developers. */
export function canReadJobArtifacts(state: State, user: User | null, project: Project, artifacts: JobArtifacts, now: number): boolean {
  return artifacts.public || hasProjectRole(state, user, project, ACCESS.developer, now);
}

/** `update_build` (retry, cancel, keep): developers. */
export function canUpdateBuilds(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.developer, now) && canUseFeature(state, user, project, 'builds', now);
}

/** `destroy_artifacts`: maintainers. */
export function canDestroyArtifacts(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.maintainer, now);
}

// ---- Changing ----

export interface PipelineInput {
  ref: string;
  sha: string | null;
  tag: boolean;
  userId: number;
  source?: string;
  parentId?: number | null;
  status?: PipelineStatus;
  beforeSha?: string;
  stages?: string[];
  variables?: PipelineVariable[];
  mergeRequestIid?: number | null;
  name?: string | null;
  yamlErrors?: string | null;
  triggerId?: number | null;
  scheduleId?: number | null;
}

export function createPipeline(draft: State, project: Project, input: PipelineInput, now: number): Pipeline {
  const pipeline: Pipeline = {
    id: ids.next(draft, 'ci_pipeline'),
    iid: ids.next(draft, 'ci_pipeline_iid', project.id),
    projectId: project.id,
    sha: input.sha,
    beforeSha: input.beforeSha ?? '0000000000000000000000000000000000000000',
    ref: input.ref,
    tag: input.tag,
    status: input.status ?? 'created',
    source: input.source ?? (input.parentId ? 'parent_pipeline' : 'push'),
    userId: input.userId,
    parentId: input.parentId ?? null,
    childIds: [],
    createdAt: now,
    updatedAt: now,
    startedAt: null,
    finishedAt: null,
    locked: false,
    stages: input.stages ?? [],
    variables: input.variables ?? [],
    mergeRequestIid: input.mergeRequestIid ?? null,
    name: input.name ?? null,
    yamlErrors: input.yamlErrors ?? null,
    triggerId: input.triggerId ?? null,
    scheduleId: input.scheduleId ?? null,
  };
  pset(draft.pipelines, project.id, pipeline.id, pipeline);
  emit(draft, { kind: 'pipeline.status', projectId: project.id, pipelineId: pipeline.id, status: pipeline.status, previous: null });
  if (pipeline.parentId === null && pipeline.sha !== null) pset(draft.headPipelines, project.id, `${pipeline.ref}\n${pipeline.sha}`, pipeline.id);
  // Under an empty ref (no ref is empty): the commit's newest pipeline on any ref (Commit#latest_pipeline).
  if (pipeline.parentId === null && pipeline.sha !== null) pset(draft.headPipelines, project.id, `\n${pipeline.sha}`, pipeline.id);
  // A merge request pipeline is its source branch's newest at that commit: the merge request's head pipeline.
  const mr = pipeline.mergeRequestIid === null ? undefined : pget(draft.mergeRequests, project.id, pipeline.mergeRequestIid);
  if (mr && pipeline.parentId === null && pipeline.sha !== null) pset(draft.headPipelines, project.id, `${mr.sourceBranch}\n${pipeline.sha}`, pipeline.id);
  if (pipeline.parentId !== null) {
    const parent = pget(draft.pipelines, project.id, pipeline.parentId);
    if (parent) parent.childIds.push(pipeline.id);
  }
  if (pipeline.status === 'success') settlePipeline(draft, pipeline, now);
  return pipeline;
}

export interface JobInput {
  name: string;
  stage?: string;
  status?: JobStatus;
  userId?: number;
  allowFailure?: boolean;
  tagList?: string[];
  runner?: JobRunner | null;
  /** The job token to hand out (generated when absent). */
  token?: string;
  /** What processing needs of a job made from a configuration (`when`, its stage's position, `needs`, the plan). */
  when?: Job['when'];
  stageIdx?: number;
  needs?: string[] | null;
  plan?: Job['plan'];
  child?: Job['child'];
}

/** Stores a new job record (its id the next of the instance's), with the defaults of the fields not given. */
export function createJob(draft: State, fields: Omit<Parameters<typeof newJob>[0], 'id'>, now: number): Job {
  const job = newJob({ ...fields, id: ids.next(draft, 'job') }, now);
  tset(draft.jobs, job.id, job);
  return job;
}

/** A new job in a pipeline; a running one gets its CI_JOB_TOKEN. Returns the job and its token. */
export function addJob(draft: State, pipeline: Pipeline, input: JobInput, now: number, opts: { refresh?: boolean } = {}): { job: Job; token: string } {
  const status = input.status ?? 'running';
  const running = status === 'running';
  const job = createJob(draft, {
    projectId: pipeline.projectId,
    name: input.name,
    status,
    userId: input.userId ?? pipeline.userId,
    ref: pipeline.ref,
    pipelineId: pipeline.id,
    stage: input.stage ?? 'test',
    tag: pipeline.tag,
    sha: pipeline.sha,
    queuedAt: status === 'created' || status === 'manual' || status === 'skipped' ? null : now,
    startedAt: running ? now : null,
    finishedAt: COMPLETED.includes(status) ? now : null,
    allowFailure: input.allowFailure ?? false,
    tagList: [...(input.tagList ?? [])].sort(),
    runner: input.runner ?? (running ? { id: 1, description: 'emulator-runner', runnerType: 'instance_type' } : null),
    when: input.when ?? null,
    stageIdx: input.stageIdx ?? 0,
    needs: input.needs ?? null,
    plan: input.plan ?? null,
    child: input.child ?? null,
  }, now);
  pset(draft.projectJobs, job.projectId, job.id, job.id);
  pset(draft.pipelineJobs, pipeline.id, job.id, job.id);
  indexPending(draft, job);
  jobMoved(draft, job, null);
  const token = createToken(draft, job.userId, { kind: 'job', token: input.token, projectId: job.projectId, jobId: job.id, name: job.name }, now).token;
  tset(draft.ciJobTokens, job.id, token);
  // A pipeline made from its file refreshes once, after all its jobs (else each job would read them all).
  if (opts.refresh !== false) refreshPipeline(draft, pipeline.projectId, pipeline.id, now);
  return { job, token };
}

/** A copy of a job in the same place with a fresh token (what a retry runs). */
export function copyJob(draft: State, job: Job, userId: number, status: JobStatus, now: number): Job {
  const pipeline = pget(draft.pipelines, job.projectId, job.pipelineId!)!;
  return addJob(draft, pipeline, {
    name: job.name, stage: job.stage, status, userId, allowFailure: job.plan ? job.plan.allowFailure : job.allowFailure, tagList: job.tagList, runner: null,
    when: job.when, stageIdx: job.stageIdx, needs: job.needs, plan: job.plan, child: job.child,
  }, now).job;
}

/** Ci::HasStatus#composite_status over the jobs that were not retried. */
export function compositeStatus(statuses: readonly { status: JobStatus; allowFailure: boolean }[]): PipelineStatus | undefined {
  return composite(statuses);
}

/** The pipeline's status from its jobs; the latest-successful index and locks follow. */
export function refreshPipeline(draft: State, projectId: number, pipelineId: number, now: number): void {
  const p = pget(draft.pipelines, projectId, pipelineId);
  if (!p) return;
  const jobs = pipelineJobs(draft, pipelineId).filter((j) => !j.retried);
  const status = compositeStatus(jobs);
  if (status === undefined || status === p.status) return;
  const was = p.status;
  p.status = status;
  p.updatedAt = now;
  emit(draft, { kind: 'pipeline.status', projectId, pipelineId, status, previous: was });
  if (p.startedAt === null && status !== 'created' && status !== 'pending') p.startedAt = now;
  p.finishedAt = ['success', 'failed', 'canceled', 'skipped'].includes(status) ? now : null;
  if (status === 'success' || was === 'success') settlePipeline(draft, p, now);
  if (p.parentId !== null) bridgeFollowsChild(draft, p, now);
  else bridgeFollowsDownstream(draft, p, now);
}
/**
 * A root pipeline that succeeds becomes the latest successful one of its ref and locks its
 * artifacts, unlocking the one before it (Ci::UnlockArtifactsService); one that stops being
 * successful hands the place back to the newest successful one left.
 */
function settlePipeline(draft: State, p: Pipeline, now: number): void {
  if (p.parentId !== null) return;
  const current = pget(draft.latestSuccessful, p.projectId, p.ref);
  let latest: Pipeline | undefined;
  if (p.status === 'success') {
    // One look-up: the newer of this one and the ref's latest.
    const held = current === undefined ? undefined : pget(draft.pipelines, p.projectId, current);
    latest = held && held.status === 'success' && held.id > p.id ? held : p;
  } else if (current === p.id) {
    // The latest left success: the newest successful one left takes its place (a walk, rarely).
    for (const other of pvalues(draft.pipelines, p.projectId)) {
      if (other.parentId === null && other.ref === p.ref && other.status === 'success' && (!latest || other.id > latest.id)) latest = other;
    }
  } else {
    return;
  }
  if (latest?.id === current) return;
  if (current !== undefined) {
    const old = pget(draft.pipelines, p.projectId, current);
    if (old && old.locked) {
      old.locked = false;
      cleanupUnlocked(draft, old, now);
    }
  }
  if (latest) {
    pset(draft.latestSuccessful, p.projectId, p.ref, latest.id);
    latest.locked = true;
  } else {
    pdel(draft.latestSuccessful, p.projectId, p.ref);
  }
}

export interface FinishInput {
  status: 'success' | 'failed' | 'canceled' | 'skipped';
  failureReason?: string | null;
  coverage?: number | null;
  exitCode?: number | null;
}

/** A job reaches a final status: its token stops working, its pipeline is processed and its status follows. */
export function finishJob(draft: State, job: Draft<Job>, input: FinishInput, now: number): void {
  if (job.startedAt === null && input.status !== 'skipped' && input.status !== 'canceled') job.startedAt = now;
  if (input.coverage !== undefined) job.coverage = input.coverage;
  if (input.status === 'failed') {
    failJob(draft, job, input.failureReason ?? 'script_failure', input.exitCode ?? null, now);
    return;
  }
  if (input.exitCode !== undefined) job.exitCode = input.exitCode;
  moveJob(draft, job, input.status, now);
  afterJobMoved(draft, job, now);
}

/** Moves a job to running (a runner picked it up): its token starts working. */
export function startJob(draft: State, job: Draft<Job>, now: number): void {
  job.runner ??= { id: 1, description: 'emulator-runner', runnerType: 'instance_type' };
  runJob(draft, job, null, now);
  afterJobMoved(draft, job, now);
}

/** Values masked in a job's log: its token, and the masked variables of its project, groups and the instance. */
function secretsOf(state: State, job: Job): string[] {
  const out: string[] = [];
  const token = tget(state.ciJobTokens, job.id);
  if (token) out.push(token);
  const project = tget(state.projects, job.projectId);
  const owners = [
    ...listVariables(state, { kind: 'instance', id: 0 }),
    ...(project ? ancestry(state, project.namespaceId).flatMap((g) => (g.kind === 'group' ? listVariables(state, { kind: 'group', id: g.id }) : [])) : []),
    ...(project ? listVariables(state, { kind: 'project', id: project.id }) : []),
  ];
  for (const v of owners) if (v.masked && v.value.length > 0) out.push(v.value);
  return out.sort((a, b) => b.length - a.length);
}

/** Appends to a job's log, masking secrets as the runner does (`[MASKED]`). */
export function appendTrace(draft: State, job: Draft<Job>, text: string): void {
  let masked = text;
  for (const secret of secretsOf(draft, job as Job)) masked = masked.split(secret).join('[MASKED]');
  job.trace += masked;
}

/**
 * Ci::RetryJobService: a new job in the same place, pending; the old one is marked retried;
 * the skipped jobs after it are created again and the pipeline is processed.
 */
export function retryJob(job: Job, userId: number, now: number): Change<Job> {
  return (draft) => {
    const state = draft as State;
    const fresh = cloneJob(state, tget(state.jobs, job.id)!, userId, 'pending', now);
    resetSkippedAfter(state, job, now);
    afterJobMoved(state, job, now);
    return plain(tget(state.jobs, fresh.id)!) as Job;
  };
}

export const isRetryable = (job: Job) => job.pipelineId !== null && !job.retried && ['success', 'failed', 'canceled'].includes(job.status);

/**
 * Ci::Build#cancel: an active job is canceled; a running one whose runner cancels gracefully
 * goes to canceling until its runner reports (supports_canceling?); any other is left as it is.
 */
export function cancelJob(job: Job, now: number): Change<Job> {
  return (draft) => {
    const state = draft as State;
    const j = tget(state.jobs, job.id)!;
    if (j.status === 'running' && j.cancelGracefully) {
      moveJob(state, j, 'canceling', now);
      afterJobMoved(state, j, now);
    } else if (CANCELABLE.includes(j.status)) finishJob(state, j, { status: 'canceled' }, now);
    return plain(j) as Job;
  };
}

/** A job made before its pipeline (a fixture's project `jobs`): it joins the pipeline. */
export function adoptJob(draft: State, jobId: number, pipelineId: number, token: string, now: number): void {
  const job = tget(draft.jobs, jobId);
  const pipeline = job && pget(draft.pipelines, job.projectId, pipelineId);
  if (!job || !pipeline) return;
  job.pipelineId = pipeline.id;
  job.sha = pipeline.sha;
  job.tag = pipeline.tag;
  if (job.status === 'running' || COMPLETED.includes(job.status)) job.runner ??= { id: 1, description: 'emulator-runner', runnerType: 'instance_type' };
  if (COMPLETED.includes(job.status)) {
    job.startedAt ??= now;
    job.finishedAt ??= now;
    if (job.status === 'failed') job.failureReason ??= 'script_failure';
  }
  pset(draft.projectJobs, job.projectId, job.id, job.id);
  pset(draft.pipelineJobs, pipeline.id, job.id, job.id);
  indexPending(draft, job);
  tset(draft.ciJobTokens, job.id, token);
  refreshPipeline(draft, job.projectId, pipeline.id, now);
}

/**
 * Ci::RetryPipelineService: each failed or canceled job that was not retried is copied (created,
 * for processing to queue; pending for a job made as data), the skipped ones are created again,
 * and the pipeline is processed.
 */
export function retryPipeline(pipeline: Pipeline, userId: number, now: number): Change<void> {
  return (draft) => {
    const state = draft as State;
    for (const j of pipelineJobs(state, pipeline.id)) {
      if (j.retried) continue;
      const d = tget(state.jobs, j.id)!;
      if (j.status === 'failed' || j.status === 'canceled') cloneJob(state, d, userId, j.when === null ? 'pending' : 'created', now);
      else if (j.status === 'skipped' && j.when !== null) moveJob(state, d, 'created', now);
    }
    processPipeline(state, pipeline.projectId, pipeline.id, now);
  };
}

/** Ci::Pipeline#cancel_running: every cancelable job of the pipeline and its children is canceled. */
export function cancelPipeline(pipeline: Pipeline, now: number): Change<void> {
  return (draft) => {
    const state = draft as State;
    for (const p of selfAndDescendants(state, pipeline)) {
      for (const j of pipelineJobs(state, p.id)) {
        // CommitStatus#cancel: a running job whose runner cancels gracefully waits in canceling for it.
        if (!j.retried && CANCELABLE_STATUSES.includes(j.status)) moveJob(state, tget(state.jobs, j.id)!, j.status === 'running' && j.cancelGracefully ? 'canceling' : 'canceled', now);
      }
      processPipeline(state, p.projectId, p.id, now);
    }
  };
}

/**
 * Ci::DestroyPipelineService: the pipeline, its child pipelines, their jobs (whose tokens stop
 * working), logs and artifacts; the ref's latest successful pipeline is found again.
 */
export function destroyPipeline(pipeline: Pipeline, now: number): Change<void> {
  return (draft) => {
    const state = draft as State;
    const doomed = selfAndDescendants(state, pipeline);
    for (const p of doomed) {
      if (otherRefTip(refsOf(state, p.projectId), `refs/pipelines/${p.id}`) !== undefined) deleteOtherRef(draftRefs(draft, p.projectId), `refs/pipelines/${p.id}`);
      for (const id of [...pvalues(state.pipelineJobs, p.id)]) {
        tdel(state.jobs, id);
        tdel(state.pendingJobs, id);
        pdel(state.projectJobs, p.projectId, id);
        pdel(state.jobArtifacts, p.projectId, id);
        tdel(state.ciJobTokens, id);
      }
      tdel(state.pipelineJobs, p.id);
      pdel(state.pipelines, p.projectId, p.id);
    }
    if (pipeline.parentId !== null) {
      const parent = pget(state.pipelines, pipeline.projectId, pipeline.parentId);
      if (parent) parent.childIds = parent.childIds.filter((id) => id !== pipeline.id);
    }
    if (pipeline.parentId === null && pget(state.latestSuccessful, pipeline.projectId, pipeline.ref) === pipeline.id) {
      pdel(state.latestSuccessful, pipeline.projectId, pipeline.ref);
      let latest: Pipeline | undefined;
      for (const other of pvalues(state.pipelines, pipeline.projectId)) {
        if (other.parentId === null && other.ref === pipeline.ref && other.status === 'success' && (!latest || other.id > latest.id)) latest = other;
      }
      if (latest) {
        pset(state.latestSuccessful, pipeline.projectId, pipeline.ref, latest.id);
        latest.locked = true;
      }
    }
    void now;
  };
}

export const isPlayable = (job: Job) => job.status === 'manual' || (job.status === 'scheduled' && job.when === 'delayed');

/** Ci::Build#play: a manual (or delayed) job is queued (pending) for the user who played it; the jobs waiting on it follow. */
export function playJob(job: Job, userId: number, now: number, variables?: { key: string; value: string }[]): Change<Job> {
  return (draft) => {
    const state = draft as State;
    const j = tget(state.jobs, job.id)!;
    j.userId = userId;
    if (variables?.length) j.jobVariables = variables.map((v) => ({ key: v.key, value: v.value }));
    moveJob(state, j, 'pending', now);
    if (job.when !== null) resetSkippedAfter(state, job, now);
    afterJobMoved(state, j, now);
    return plain(j) as Job;
  };
}

/** Ci::Build#erasable?: finished, and not erased already. */
export const isErasable = (job: Job, state: State) => COMPLETED.includes(job.status) && job.erasedAt === null && (job.trace !== '' || artifactsOf(state, job) !== undefined);

/** Ci::BuildEraseService: the artifacts and the log go; `erased_at` is set. */
export function eraseJob(job: Job, now: number): Change<Job> {
  return (draft) => {
    const state = draft as State;
    const j = tget(state.jobs, job.id)!;
    pdel(state.jobArtifacts, j.projectId, j.id);
    j.trace = '';
    j.erasedAt = now;
    return plain(j) as Job;
  };
}

/** `destroy_pipeline`: owners. */
export function canDestroyPipelines(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.owner, now);
}

/** `erase_build`: maintainers, or the developer whose job it is. */
export function canEraseJob(state: State, user: User | null, project: Project, job: Job, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.maintainer, now) || (user?.id === job.userId && hasProjectRole(state, user, project, ACCESS.developer, now));
}
