// A pipeline's life (app/services/ci/pipeline_processing/atomic_processing_service.rb and its
// StatusCollection, Ci::ProcessBuildService, Ci::ResetSkippedJobsService, Ci::Build's state
// machine): each job's moves with their timestamps and `job.status` events; when jobs finish,
// the created jobs whose predecessors are complete become pending, manual, scheduled or
// skipped; the pipeline's status is the composite of its jobs'. Delayed jobs start and running
// jobs time out on the clock.
import type { Draft } from 'immer';
import { pget, tget } from '../../store/table.js';
import { defineTask, schedule } from '../define.js';
import { emit } from '../stream.js';
import type { State } from '../world.js';
import type { Job, JobStatus, Pipeline } from './records.js';
import { createFromPlan } from './creation.js';
import { COMPLETED_STATUSES, processedStatus, statusOrSuccess } from './status.js';
import { copyJob, indexPending, pipelineJobs, refreshPipeline } from './pipelines.js';
import { takeByPlan } from './outcomes.js';
import { environmentFollowsJob } from './environments.js';
import { downstreamVariables } from './forward.js';
import { mayTakeResource, nextForResource } from './resource-groups.js';

/** GitLab's default job timeout (a project's `build_timeout`), in seconds. */
export const DEFAULT_TIMEOUT = 3600;

/** Says on the stream that a job's status moved (from `was`; null for a new job). */
export function jobMoved(draft: State, job: Pick<Job, 'id' | 'projectId' | 'pipelineId' | 'status'>, was: JobStatus | null): void {
  if (was !== job.status) emit(draft, { kind: 'job.status', projectId: job.projectId, jobId: job.id, pipelineId: job.pipelineId, status: job.status, previous: was });
}

/** A delayed job's time came: it is queued, if it still waits. */
export const ENQUEUE_SCHEDULED = defineTask<{ jobId: number; at: number }>('ci.enqueue_scheduled', (draft, p, ctx) => {
  const state = draft as State;
  const job = tget(state.jobs, p.jobId);
  if (!job || job.status !== 'scheduled' || job.scheduledAt !== p.at) return;
  moveJob(state, job, 'pending', ctx.now);
  afterJobMoved(state, job, ctx.now);
});

/** A running job past its timeout fails (`job_execution_timeout`), as the runner reports it. */
export const JOB_TIMEOUT = defineTask<{ jobId: number; startedAt: number }>('ci.job_timeout', (draft, p, ctx) => {
  const state = draft as State;
  const job = tget(state.jobs, p.jobId);
  if (!job || job.status !== 'running' || job.startedAt !== p.startedAt) return;
  failJob(state, job, 'job_execution_timeout', null, ctx.now);
});

/** The job's timeout in seconds: its own (`timeout:`) or the project's, capped by its runner's maximum. */
export function jobTimeout(state: State, job: Job, runnerMaximum: number | null): number {
  const project = tget(state.projects, job.projectId);
  const projectTimeout = Number(project?.settings.build_timeout ?? DEFAULT_TIMEOUT) || DEFAULT_TIMEOUT;
  const own = job.plan?.timeoutSeconds ?? projectTimeout;
  return runnerMaximum !== null ? Math.min(own, runnerMaximum) : own;
}

/**
 * Moves a job to a status with the timestamps GitLab keeps (queued, started, finished,
 * scheduled) and says so on the stream. The caller processes the pipeline afterwards.
 */
export function moveJob(draft: State, job: Draft<Job>, to: JobStatus, now: number): void {
  const was = job.status;
  // A job of a resource group waits while another job holds the group's one resource, or comes before it in the group's process mode.
  const status = to === 'pending' && job.plan?.resourceGroup && !mayTakeResource(draft, job as Job) ? 'waiting_for_resource' : to;
  if (was === status) return;
  job.status = status;
  if (status === 'pending') job.queuedAt = now;
  if (status === 'running') {
    job.startedAt = now;
    job.queuedAt ??= now;
  }
  if (status === 'scheduled') {
    job.scheduledAt = now + (job.plan?.startInSeconds ?? 0) * 1000;
    schedule(draft, ENQUEUE_SCHEDULED, job.scheduledAt, { jobId: job.id, at: job.scheduledAt });
  }
  if (COMPLETED_STATUSES.includes(status)) {
    job.finishedAt = now;
    if (status !== 'failed') job.failureReason = null;
  } else {
    job.finishedAt = null;
  }
  indexPending(draft, job);
  environmentFollowsJob(draft, job, now);
  jobMoved(draft, job, was);
  // A job of the group ending (holding the resource, or upcoming in an ordered mode) lets the next one have it.
  if (COMPLETED_STATUSES.includes(status) && job.plan?.resourceGroup) releaseResource(draft, job as Job, now);
  if (status === 'pending' && job.plan?.trigger) {
    startBridge(draft, job, now);
    return;
  }
  // The emulator's own runner takes a queued job at once when the project planned its outcome.
  if (status === 'pending') takeByPlan(draft, job, now);
}

/**
 * A trigger job queued (Ci::CreateDownstreamPipelineService): its child pipeline is made from
 * the files it includes; with `strategy: depend` it runs until the child ends, else it succeeds
 * at once. A child that cannot be made, or another project's pipeline, fails it.
 */
function startBridge(draft: State, job: Draft<Job>, now: number): void {
  const parent = job.pipelineId === null ? undefined : pget(draft.pipelines, job.projectId, job.pipelineId);
  const project = tget(draft.projects, job.projectId);
  const child = job.child;
  // Another project's pipeline: made after this change by the downstream subscriber (it reads that project's repository).
  if (job.plan?.trigger?.project && !job.plan.trigger.include?.length) return;
  if (!parent || !project || parent.sha === null || !child || child.errors.length || !child.created || child.jobs.length === 0) {
    failJob(draft, job, 'downstream_pipeline_creation_failed', null, now);
    return;
  }
  const made = createFromPlan(draft, project, child, {
    ref: parent.ref, sha: parent.sha, tag: parent.tag, userId: job.userId, source: 'parent_pipeline', parentId: parent.id, beforeSha: parent.beforeSha,
    variables: job.plan ? downstreamVariables(job.plan, parent.variables) : [],
  }, now);
  job.downstreamId = made.id;
  if (job.plan?.trigger?.strategy === 'depend') {
    moveJob(draft, job, 'running', now);
    bridgeFollowsChild(draft, made, now);
  } else {
    job.startedAt = now;
    moveJob(draft, job, 'success', now);
  }
}

/** A child pipeline moved: a trigger job that depends on it ends as it ends. */
export function bridgeFollowsChild(draft: State, child: Pick<Pipeline, 'id' | 'projectId' | 'parentId' | 'status'>, now: number): void {
  if (child.parentId === null || !COMPLETED_STATUSES.includes(child.status)) return;
  for (const j of pipelineJobs(draft, child.parentId)) {
    if (j.downstreamId !== child.id || j.status !== 'running' || j.plan?.trigger?.strategy !== 'depend') continue;
    const bridge = tget(draft.jobs, j.id)!;
    if (child.status === 'failed') failJob(draft, bridge, 'unknown_failure', null, now);
    else {
      moveJob(draft, bridge, child.status, now);
      afterJobMoved(draft, bridge, now);
    }
  }
}

/**
 * A multi-project pipeline moved: the trigger job that made it with `strategy: depend` ends as
 * it ends (Ci::Bridge#inherit_status_from_downstream!: canceled stays canceled, failed or
 * skipped fails it).
 */
export function bridgeFollowsDownstream(draft: State, downstream: Pick<Pipeline, 'id' | 'status'>, now: number): void {
  if (!COMPLETED_STATUSES.includes(downstream.status)) return;
  const bridgeId = tget(draft.upstreamBridges, downstream.id);
  const bridge = bridgeId === undefined ? undefined : tget(draft.jobs, bridgeId);
  if (!bridge || bridge.status !== 'running' || bridge.downstreamId !== downstream.id || bridge.plan?.trigger?.strategy !== 'depend') return;
  if (downstream.status === 'failed' || downstream.status === 'skipped') return failJob(draft, bridge, 'unknown_failure', null, now);
  moveJob(draft, bridge, downstream.status, now);
  afterJobMoved(draft, bridge, now);
}

/** A job starts running (a runner took it): its timeout is set on the clock. */
export function runJob(draft: State, job: Draft<Job>, runnerMaximum: number | null, now: number): void {
  moveJob(draft, job, 'running', now);
  schedule(draft, JOB_TIMEOUT, now + jobTimeout(draft, job as Job, runnerMaximum) * 1000, { jobId: job.id, startedAt: now });
}

/**
 * A job fails: `allow_failure: exit_codes` may allow it; `retry:` may run it again (a new
 * job, this one retried). The pipeline is processed.
 */
export function failJob(draft: State, job: Draft<Job>, reason: string, exitCode: number | null, now: number): void {
  job.exitCode = exitCode;
  job.failureReason = reason;
  if (exitCode !== null && job.plan?.allowFailureExitCodes.includes(exitCode)) job.allowFailure = true;
  moveJob(draft, job, 'failed', now);
  job.failureReason = reason;
  if (autoRetryAllowed(job as Job)) {
    cloneJob(draft, job, job.userId, 'pending', now).retryCount = job.retryCount + 1;
  }
  afterJobMoved(draft, job, now);
}

/** Ci::Build#auto_retry_allowed?: tries left, and the failure is one `retry:when` (and `exit_codes`) names. */
function autoRetryAllowed(job: Job): boolean {
  const retry = job.plan?.retry;
  if (!retry || job.retryCount >= retry.max) return false;
  const when = retry.when.length ? retry.when : ['always'];
  if (!when.includes('always') && !when.includes(job.failureReason ?? '')) return false;
  return retry.exitCodes.length === 0 || (job.exitCode !== null && retry.exitCodes.includes(job.exitCode));
}

/**
 * A copy of a job in its place (Ci::RetryJobService#clone!), the old one marked retried; with
 * its status given (pending for a retry, created for a pipeline's retry to process).
 */
export function cloneJob(draft: State, job: Draft<Job>, userId: number, status: JobStatus, now: number): Draft<Job> {
  job.retried = true;
  indexPending(draft, job);
  const initial = status === 'pending' && job.plan?.resourceGroup && !mayTakeResource(draft, job as Job) ? 'waiting_for_resource' : status;
  const fresh = tget(draft.jobs, copyJob(draft, job as Job, userId, initial, now).id)!;
  if (fresh.status === 'pending') takeByPlan(draft, fresh, now);
  return fresh;
}

/** After a job moved: its pipeline is processed and its status follows. */
export function afterJobMoved(draft: State, job: Pick<Job, 'projectId' | 'pipelineId'>, now: number): void {
  if (job.pipelineId !== null) processPipeline(draft, job.projectId, job.pipelineId, now);
}

/** The jobs that count (not retried), keyed for the collection. */
function currentJobs(draft: State, pipelineId: number): Draft<Job>[] {
  return pipelineJobs(draft, pipelineId).filter((j) => !j.retried) as Draft<Job>[];
}

/**
 * AtomicProcessingService: stage by stage, each created job whose predecessors (its `needs`,
 * else the jobs of the earlier stages) are complete is processed by its `when`; until nothing
 * moves. Then the pipeline's status is its jobs' composite. Jobs made as data (no `when`) are
 * never moved.
 */
export function processPipeline(draft: State, projectId: number, pipelineId: number, now: number): void {
  for (let round = 0; round < 1000; round++) {
    const jobs = currentJobs(draft, pipelineId);
    const byName = new Map<string, Draft<Job>>();
    for (const j of jobs) byName.set(j.name, j);
    const positions = [...new Set(jobs.map((j) => j.stageIdx))].sort((a, b) => a - b);
    let moved = false;
    for (const pos of positions) {
      let prior: JobStatus | undefined;
      for (const job of dagOrder(jobs.filter((j) => j.stageIdx === pos && j.status === 'created' && j.when !== null))) {
        let predecessors: JobStatus;
        if (job.needs !== null) {
          predecessors = statusOrSuccess(job.needs.flatMap((n) => (byName.has(n) ? [byName.get(n)!] : [])), true);
        } else {
          prior ??= statusOrSuccess(jobs.filter((j) => j.stageIdx < pos));
          predecessors = prior;
        }
        const next = processedStatus(job.when!, job.needs !== null, predecessors);
        if (next === null) continue;
        moveJob(draft, job, next, now);
        moved = true;
      }
    }
    if (!moved) break;
  }
  refreshPipeline(draft, projectId, pipelineId, now);
}

/** The jobs of a stage, each after the jobs of the same stage it needs (Dag.order). */
function dagOrder(jobs: Draft<Job>[]): Draft<Job>[] {
  const named = new Map<string, Draft<Job>>();
  for (const j of jobs) if (!named.has(j.name)) named.set(j.name, j);
  const out: Draft<Job>[] = [];
  const seen = new Set<string>();
  const visit = (j: Draft<Job>, depth: number) => {
    if (seen.has(j.name) || depth > jobs.length) return;
    seen.add(j.name);
    for (const n of j.needs ?? []) {
      const dep = named.get(n);
      if (dep) visit(dep, depth + 1);
    }
    out.push(j);
  };
  for (const j of jobs) visit(j, 0);
  return out;
}

/**
 * Ci::ResetSkippedJobsService: the skipped jobs after a job that runs again (in later stages,
 * or needing it) are created again, so processing decides anew.
 */
export function resetSkippedAfter(draft: State, job: Pick<Job, 'pipelineId' | 'stageIdx' | 'name'>, now: number): void {
  if (job.pipelineId === null) return;
  const jobs = currentJobs(draft, job.pipelineId);
  const dependents = new Set<string>([job.name]);
  for (let grew = true; grew;) {
    grew = false;
    for (const j of jobs) {
      if (!dependents.has(j.name) && j.needs?.some((n) => dependents.has(n))) {
        dependents.add(j.name);
        grew = true;
      }
    }
  }
  for (const j of jobs) {
    if (j.status !== 'skipped' || j.when === null) continue;
    if ((j.needs === null && j.stageIdx > job.stageIdx) || dependents.has(j.name)) moveJob(draft, j, 'created', now);
  }
}

/** The pipeline a job belongs to, from a draft. */
export const pipelineOfJob = (draft: State, job: Job) => (job.pipelineId === null ? undefined : pget(draft.pipelines, job.projectId, job.pipelineId));

/** Ci::ResourceGroups::AssignResourceFromResourceGroupService: the freed resource goes to the group's next job in its process mode. */
function releaseResource(draft: State, job: Job, now: number): void {
  const next = nextForResource(draft, job.projectId, job.plan!.resourceGroup!);
  if (!next) return;
  const d = tget(draft.jobs, next.id)!;
  moveJob(draft, d, 'pending', now);
  if (d.pipelineId !== null) refreshPipeline(draft, d.projectId, d.pipelineId, now);
}
