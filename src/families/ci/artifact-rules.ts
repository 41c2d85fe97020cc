// Job artifacts as data (app/models/ci/job_artifact.rb, app/services/ci/job_artifacts/*): an
// upload zipped with its metadata and its expiry indexed, kept or deleted on request, expired
// project-wide, and the cleanup that runs on the clock for what expired and is not locked (the
// latest successful pipeline of a ref keeps its artifacts), once per time it was scheduled for.
import { emptyTable, pdel, pget, pset, pvalues, tget, tset, tvalues } from '../../store/table.js';
import { defineTask, schedule, type Change } from '../define.js';
import type { State } from '../world.js';
import { buildArchive, parseExpireIn } from './archive.js';
import { artifactsLocked, findPipeline, selfAndDescendants } from './pipelines.js';
import type { CleanupPlan, Job, JobArtifacts, Pipeline } from './records.js';
import { ids } from './variables.js';

export const DEFAULT_EXPIRE_IN = '30 days';
const CLEANUP_INTERVAL_MS = 7 * 60 * 1000;

export interface ArtifactsInput {
  files: Readonly<Record<string, string | Uint8Array>>;
  /** GitLab's duration words; `never` for none. Default: the instance's 30 days. */
  expireIn?: string;
  public?: boolean;
}

/** Artifacts uploaded for a job: zipped with their metadata; their expiry scheduled for cleanup. */
export function attachArtifacts(draft: State, job: Job, input: ArtifactsInput, now: number): JobArtifacts {
  const ttl = parseExpireIn(input.expireIn ?? DEFAULT_EXPIRE_IN);
  const built = buildArchive(input.files, now);
  const artifacts: JobArtifacts = {
    id: ids.next(draft, 'ci_artifact'),
    jobId: job.id, ...built, createdAt: now, expireAt: ttl === null ? null : now + ttl, kept: false, public: input.public ?? true,
  };
  pset(draft.jobArtifacts, job.projectId, job.id, artifacts);
  if (artifacts.expireAt !== null) indexExpiry(draft, job.projectId, job.id, artifacts.expireAt);
  return artifacts;
}

/** Build#keep_artifacts!: no expiry, and spared by a project-wide delete. */
export function keepArtifacts(job: Job): Change<void> {
  return (draft) => {
    const a = pget((draft as State).jobArtifacts, job.projectId, job.id);
    if (a) (a.expireAt = null), (a.kept = true);
  };
}

/** Ci::JobArtifacts::DeleteService: the archive and its metadata go at once; the log stays. */
export function deleteJobArtifacts(job: Job): Change<void> {
  return (draft) => void pdel((draft as State).jobArtifacts, job.projectId, job.id);
}

/**
 * Ci::JobArtifacts::DeleteProjectArtifactsService: every artifact not locked (the latest
 * successful pipeline of each ref) and not kept expires now; the cleanup removes them later.
 */
export function expireProjectArtifacts(projectId: number, now: number): Change<void> {
  return (draft) => {
    const state = draft as State;
    let any = false;
    for (const a of pvalues(state.jobArtifacts, projectId)) {
      const job = tget(state.jobs, a.jobId);
      if (a.kept || (job && artifactsLocked(state, job))) continue;
      a.expireAt = now;
      any = true;
    }
    if (any) scheduleCleanup(state, { projectId }, now);
  };
}

/**
 * What one run of the cleanup looks at: the artifacts that expire at one time (`at`, from the
 * index of expiry times), the jobs of a pipeline that lost its lock, or the whole project
 * (after a project-wide delete). A run never walks more than it was scheduled for.
 */
export type CleanupScope = { projectId: number; at?: number; pipelineId?: number };

/** Schedules a run of the project's artifact cleanup for `at` (plus the planned lag). */
export function scheduleCleanup(draft: State, scope: CleanupScope, at: number): void {
  schedule(draft, CLEANUP_ARTIFACTS, at + draft.artifactCleanup.lagMs, scope);
}

/**
 * A pipeline lost its lock: its artifacts that have expired already go at the next cleanup run.
 * Those that have not are left to the run of their expiry time, which checks the lock then.
 */
export function cleanupUnlocked(draft: State, pipeline: Pipeline, now: number): void {
  const expired = selfAndDescendants(draft, pipeline).some((pl) => {
    for (const id of pvalues(draft.pipelineJobs, pl.id)) {
      const a = pget(draft.jobArtifacts, pl.projectId, id);
      if (a && a.expireAt !== null && a.expireAt <= now) return true;
    }
    return false;
  });
  if (expired) scheduleCleanup(draft, { projectId: pipeline.projectId, pipelineId: pipeline.id }, now);
}

/** Notes that a job's artifacts expire at `at`: the first artifact of that time schedules its run. */
function indexExpiry(draft: State, projectId: number, jobId: number, at: number): void {
  const first = pget(draft.artifactExpiries, projectId, at) === undefined;
  if (first) pset(draft.artifactExpiries, projectId, at, emptyTable<number>());
  tset(pget(draft.artifactExpiries, projectId, at)!, jobId, jobId);
  if (first) scheduleCleanup(draft, { projectId, at }, at);
}

function cleanupCandidates(state: State, scope: CleanupScope): JobArtifacts[] {
  const { projectId } = scope;
  const of = (ids: Iterable<number>) => [...ids].map((id) => pget(state.jobArtifacts, projectId, id)).filter((a): a is JobArtifacts => a !== undefined);
  if (scope.at !== undefined) {
    const held = pget(state.artifactExpiries, projectId, scope.at);
    return held ? of(tvalues(held)) : [];
  }
  if (scope.pipelineId !== undefined) {
    const p = findPipeline(state, projectId, scope.pipelineId);
    return p ? of(selfAndDescendants(state, p).flatMap((pl) => [...pvalues(state.pipelineJobs, pl.id)])) : [];
  }
  return [...pvalues(state.jobArtifacts, projectId)];
}

/**
 * Ci::JobArtifacts::DestroyAllExpiredService: expired artifacts that are not locked go; a run
 * planned to fail leaves everything and runs again later.
 */
export const CLEANUP_ARTIFACTS = defineTask<CleanupScope>('ci.artifacts.cleanup', (draft, p, ctx) => {
  const state = draft as unknown as State;
  if (state.artifactCleanup.failNext > 0) {
    state.artifactCleanup.failNext--;
    schedule(draft, CLEANUP_ARTIFACTS, ctx.now + state.artifactCleanup.retryMs, p);
    return;
  }
  const gone: number[] = [];
  for (const a of cleanupCandidates(state, p)) {
    if (a.expireAt === null || a.expireAt > ctx.now) continue;
    const job = tget(state.jobs, a.jobId);
    if (job && artifactsLocked(state, job)) continue;
    gone.push(a.jobId);
  }
  for (const id of gone) pdel(state.jobArtifacts, p.projectId, id);
  if (p.at !== undefined) pdel(state.artifactExpiries, p.projectId, p.at);
});

export const DEFAULT_CLEANUP: CleanupPlan = { failNext: 0, lagMs: 0, retryMs: CLEANUP_INTERVAL_MS };

