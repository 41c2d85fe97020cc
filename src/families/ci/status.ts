// Status as GitLab computes it (app/models/concerns/ci/has_status.rb,
// lib/gitlab/ci/status/composite.rb, app/services/ci/process_build_service.rb): the composite
// status of a set of jobs (a stage, a pipeline, a job's predecessors), and which predecessor
// status lets a job of each `when` run. Pure functions over plain values.
import type { JobStatus } from './records.js';

export const COMPLETED_STATUSES: readonly JobStatus[] = ['success', 'failed', 'canceled', 'skipped'];
export const ACTIVE_STATUSES: readonly JobStatus[] = ['waiting_for_resource', 'preparing', 'pending', 'running'];
export const ALIVE_STATUSES: readonly JobStatus[] = [...ACTIVE_STATUSES, 'created'];
/** `cancelable`: what a cancel of a job or pipeline stops. */
export const CANCELABLE_STATUSES: readonly JobStatus[] = [...ALIVE_STATUSES, 'scheduled'];
/** Failed or canceled with `allow_failure`: a success with warnings. */
const PASSED_WITH_WARNINGS: readonly JobStatus[] = ['failed', 'canceled'];
/** Manual with `allow_failure` (a manual job's default): ignored. */
const IGNORED: readonly JobStatus[] = ['manual'];

export interface StatusOf {
  status: JobStatus;
  allowFailure: boolean;
}

type Sym = JobStatus | 'success_with_warnings' | 'ignored';

/**
 * Gitlab::Ci::Status::Composite#status: the status of a set of jobs, counting allow_failure;
 * `dag` is the status of a job's `needs` (a need that did not run skips it; one not complete
 * blocks it). Undefined for no jobs.
 */
export function composite(jobs: Iterable<StatusOf>, dag = false): JobStatus | undefined {
  const set = new Set<Sym>();
  for (const j of jobs) {
    if (j.allowFailure && PASSED_WITH_WARNINGS.includes(j.status)) set.add('success_with_warnings');
    else if (j.allowFailure && IGNORED.includes(j.status)) set.add('ignored');
    else set.add(j.status);
  }
  if (set.size === 0) return undefined;
  const any = (...names: Sym[]) => names.some((n) => set.has(n));
  const only = (...names: Sym[]) => {
    const matching = names.filter((n) => set.has(n)).length;
    return matching > 0 && matching === set.size;
  };
  if (dag && any('skipped', 'ignored')) return 'skipped';
  if (dag && !only('success', 'failed', 'canceled', 'skipped', 'success_with_warnings')) return 'pending';
  if (only('skipped', 'ignored')) return 'skipped';
  if (only('success', 'skipped', 'success_with_warnings', 'ignored')) return 'success';
  if (only('created', 'success_with_warnings', 'ignored')) return 'created';
  if (only('preparing', 'success_with_warnings', 'ignored')) return 'preparing';
  if (only('canceled', 'success', 'skipped', 'success_with_warnings', 'ignored')) return 'canceled';
  if (only('pending', 'created', 'skipped', 'success_with_warnings', 'ignored')) return 'pending';
  if (any('running', 'pending')) return 'running';
  if (any('waiting_for_resource')) return 'waiting_for_resource';
  if (any('manual')) return 'manual';
  if (any('scheduled')) return 'scheduled';
  if (any('preparing')) return 'preparing';
  if (any('created')) return 'running';
  if (any('canceling')) return 'canceling';
  return 'failed';
}

/** StatusCollection#status_for_array: an empty set counts as success. */
export const statusOrSuccess = (jobs: Iterable<StatusOf>, dag = false): JobStatus => composite(jobs, dag) ?? 'success';

export type JobWhen = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed';

/** Ci::ProcessBuildService#valid_statuses_for_build: the predecessors' statuses that let a job run; any other skips it. */
export function validPredecessorStatuses(when: JobWhen, dag: boolean): readonly JobStatus[] {
  switch (when) {
    case 'on_success':
    case 'manual':
    case 'delayed':
      return dag ? ['success'] : ['success', 'skipped'];
    case 'on_failure':
      return ['failed'];
    case 'always':
      return ['success', 'failed', 'skipped'];
  }
}

/**
 * What processing does with a created job once its predecessors are complete: `null` while they
 * are not; else skipped, or (by its `when`) scheduled, manual or pending.
 */
export function processedStatus(when: JobWhen, dag: boolean, predecessors: JobStatus): JobStatus | null {
  if (!COMPLETED_STATUSES.includes(predecessors)) return null;
  if (!validPredecessorStatuses(when, dag).includes(predecessors)) return 'skipped';
  if (when === 'delayed') return 'scheduled';
  if (when === 'manual') return 'manual';
  return 'pending';
}
