// The merge trains family's slice of the world: the cars of each project, and the merge requests
// waiting for their head pipeline to join a train.
import { sequences } from '../../store/state.js';
import type { Partitioned } from '../../store/table.js';
import type { MergeTrainCar } from './car.js';

/** A merge request to add to its train once its head pipeline succeeds (add_to_merge_train_when_checks_pass). */
export interface WaitingAdd {
  projectId: number;
  iid: number;
  userId: number;
  /** The head it was asked for; another head (a push) drops it. */
  sha: string;
  squash: boolean;
}

export interface MergeTrainsSlice {
  /** Project id -> its merge train cars, by id. */
  mergeTrainCars: Partitioned<MergeTrainCar>;
  /** Project id -> the merge requests waiting for their head pipeline to join a train, by iid. */
  mergeTrainWaiting: Partitioned<WaitingAdd>;
}

declare module '../world.js' {
  interface Slices extends MergeTrainsSlice {}
}

export const ids = sequences(['merge_train_car']);
