// Repository storage moves (Projects::RepositoryStorageMove, Snippets::, Groups::, with the
// RepositoryStorageMovable state machine), kept in the world.

export type ContainerType = 'project' | 'snippet' | 'group';

/** The human state names the API shows (`cleanup failed` with a space). */
export type MoveState = 'initial' | 'scheduled' | 'started' | 'replicated' | 'finished' | 'failed' | 'cleanup failed';

/** What a test may choose ahead that a move meets: a failed copy, a checksum mismatch, storages on one filesystem, a failed cleanup. */
export type MoveFailure = 'copy' | 'checksum' | 'same_filesystem' | 'cleanup';

export const MOVE_FAILURES: readonly MoveFailure[] = ['copy', 'checksum', 'same_filesystem', 'cleanup'];

export interface StorageMove {
  id: number;
  type: ContainerType;
  containerId: number;
  state: MoveState;
  sourceStorage: string;
  destinationStorage: string;
  createdAt: number;
  updatedAt: number;
  errorMessage: string | null;
  /** Chosen ahead: how this move will fail, if it will. */
  failure: MoveFailure | null;
}

/** Every transition the machine allows (events schedule, start, finish_replication, finish_cleanup, do_fail). */
export const TRANSITIONS: Record<MoveState, readonly MoveState[]> = {
  initial: ['scheduled', 'failed'],
  scheduled: ['started', 'failed'],
  started: ['replicated', 'failed'],
  replicated: ['finished', 'cleanup failed'],
  finished: [],
  failed: [],
  'cleanup failed': [],
};

/** A move in progress keeps its container read-only (set on scheduling, lifted on replication or failure). */
export const inProgress = (state: MoveState) => state === 'initial' || state === 'scheduled' || state === 'started';
