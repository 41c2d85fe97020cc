// MergeTrains::Car (ee/app/models/merge_trains/car.rb): a merge request on its target branch's
// train, and the state machine of its status. `idle` until its first train pipeline, `fresh`
// with one (refresh_pipeline), `stale` once what is ahead of it moved and it awaits a refresh
// (outdate_pipeline), `merging` while its merge runs (start_merge), `merged` after it
// (finish_merge); `skip_merged` is the car GitLab records for a merge request merged at once,
// past the train. Idle, stale and fresh are the active cars; merged, merging and skip_merged the
// complete ones, as the API's `scope` filters them.

export type CarStatus = 'idle' | 'stale' | 'fresh' | 'merging' | 'merged' | 'skip_merged';
export type CarEvent = 'refresh_pipeline' | 'outdate_pipeline' | 'start_merge' | 'finish_merge';

export const ACTIVE_STATUSES: readonly CarStatus[] = ['idle', 'stale', 'fresh'];
export const COMPLETE_STATUSES: readonly CarStatus[] = ['merged', 'merging', 'skip_merged'];

/** `state_machine :status`: each event's transitions; an event with none from a status does nothing. */
const TRANSITIONS: Readonly<Record<CarEvent, Partial<Record<CarStatus, CarStatus>>>> = {
  refresh_pipeline: { idle: 'fresh', stale: 'fresh', fresh: 'fresh' },
  outdate_pipeline: { fresh: 'stale' },
  start_merge: { fresh: 'merging' },
  finish_merge: { merging: 'merged' },
};

/** The status an event moves a car to, or null when the event does not apply (state_machine's `false`). */
export function transition(status: CarStatus, event: CarEvent): CarStatus | null {
  return TRANSITIONS[event][status] ?? null;
}

export interface MergeTrainCar {
  id: number;
  projectId: number;
  mergeRequestIid: number;
  userId: number;
  targetBranch: string;
  status: CarStatus;
  pipelineId: number | null;
  /**
   * The train commit: the merge request merged onto the target and the cars ahead. For a
   * `skip_merged` car, the target's tip before its merge request was merged past the train.
   */
  trainSha: string | null;
  /** What the train commit was built on: the target's tip, or the train commit of the car ahead (absent on cars made before it was kept). */
  baseSha?: string | null;
  /** The target's tip once this car's merge request was merged. */
  landedSha: string | null;
  squash: boolean;
  createdAt: number;
  updatedAt: number;
  mergedAt: number | null;
}

export const isActive = (c: MergeTrainCar) => ACTIVE_STATUSES.includes(c.status);

/** The car after an event: its new status (and `merged_at` on reaching merged), or the car as it was. */
export function fire(car: MergeTrainCar, event: CarEvent, now: number, fields: Partial<MergeTrainCar> = {}): MergeTrainCar {
  const to = transition(car.status, event);
  if (to === null) return car;
  return { ...car, ...fields, status: to, updatedAt: now, ...(to === 'merged' ? { mergedAt: now } : {}) };
}
