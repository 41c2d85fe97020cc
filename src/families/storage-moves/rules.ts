// Storage moves on the emulator's clock: scheduling (RepositoryStorageMovable's validations and
// its `schedule` event), one step of the machine per `storageMoveStep` (the update worker's
// start, replication, cleanup), the failures a test chooses ahead, and the bulk scheduler.
import type { Draft } from 'immer';
import { EmulatorError } from '../../core/errors.js';
import { randomHex, sequences } from '../../store/state.js';
import { pset, pvalues, tdel, tget, tset, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { defineTask, schedule, type Change } from '../define.js';
import { isRepositoryReadOnly, placeRepository, repositoryStorageOf, setRepositoryReadOnly } from '../repositories/index.js';
import type { State } from '../world.js';
import { containerReadOnly, storageNotInList } from './errors.js';
import { inProgress, type ContainerType, type MoveFailure, type StorageMove } from './records.js';
import { snippetById } from '../snippets/index.js';

export interface StorageMovesSlice {
  /** Moves by id, one table per container type (each type numbers its own). */
  storageMoves: Record<ContainerType, Table<StorageMove>>;
  /** Container id -> its moves' ids, per container type. */
  storageMovesOf: Record<ContainerType, Partitioned<number>>;
  /** How long each step of a move takes on the emulator's clock, in milliseconds. */
  storageMoveStep: number;
  /** `<type>:<container id>` -> the failure its next move meets (chosen ahead by a test). */
  plannedMoveFailures: Table<MoveFailure>;
}

export const DEFAULT_STEP_MS = 10_000;

export const moveIds = sequences(['project_repository_storage_move', 'snippet_repository_storage_move', 'group_repository_storage_move']);
const SEQUENCE = {
  project: 'project_repository_storage_move',
  snippet: 'snippet_repository_storage_move',
  group: 'group_repository_storage_move',
} as const;

/** The container of a move, if it exists: a project, a group (its wiki); this world keeps no snippets yet. */
export function containerExists(state: State, type: ContainerType, id: number): boolean {
  if (type === 'project') return tget(state.projects, id) !== undefined;
  if (type === 'group') return tget(state.namespaces, id)?.kind === 'group';
  return snippetById(state, id) !== undefined;
}

export const shardNames = (state: State) => state.storageShards.map((s) => s.name);

/** Repository.pick_storage_shard: a shard by weight, from the world's seed (the same world picks the same). */
function pickShard(draft: Draft<State>): string {
  const shards = draft.storageShards;
  const total = shards.reduce((n, s) => n + s.weight, 0);
  if (total <= 0) return shards[0]!.name;
  let r = parseInt(randomHex(draft as State, 8), 16) % total;
  for (const s of shards) {
    if (r < s.weight) return s.name;
    r -= s.weight;
  }
  return shards[0]!.name;
}

/** The moves of a container, newest first (`order_created_at_desc`, then the newest id). */
export function movesOf(state: State, type: ContainerType, containerId: number): StorageMove[] {
  const out: StorageMove[] = [];
  for (const id of pvalues(state.storageMovesOf[type], containerId)) {
    const m = tget(state.storageMoves[type], id);
    if (m) out.push(m);
  }
  return newestFirst(out);
}

/** Every move of a type, newest first. */
export function allMoves(state: State, type: ContainerType): StorageMove[] {
  return newestFirst(Array.from(tvalues(state.storageMoves[type])));
}

const newestFirst = (list: StorageMove[]) => list.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);

export function findMove(state: State, type: ContainerType, id: number): StorageMove | undefined {
  return tget(state.storageMoves[type], id);
}

/** The move in progress of a container, if any. */
export function moveInProgress(state: State, type: ContainerType, containerId: number): StorageMove | undefined {
  return movesOf(state, type, containerId).find((m) => inProgress(m.state));
}

export interface StepPayload {
  type: ContainerType;
  id: number;
  /** When the step is due: the next one is due a step later, however late the clock ran this one. */
  at: number;
}

/** Creates a move and takes the `schedule` event: the container goes read-only, the first step is due a step later. */
function createMove(draft: Draft<State>, type: ContainerType, containerId: number, destination: string | undefined, now: number): StorageMove {
  const state = draft as State;
  const id = moveIds.next(state, SEQUENCE[type]);
  const key = `${type}:${containerId}`;
  const failure = tget(state.plannedMoveFailures, key) ?? null;
  if (failure) tdel(state.plannedMoveFailures, key);
  const move: StorageMove = {
    id, type, containerId,
    state: 'scheduled',
    sourceStorage: repositoryStorageOf(state, type, containerId),
    destinationStorage: destination ?? pickShard(draft),
    createdAt: now, updatedAt: now, errorMessage: null, failure,
  };
  tset(state.storageMoves[type], id, move);
  pset(state.storageMovesOf[type], containerId, id, id);
  setRepositoryReadOnly(draft, type, containerId, `storage move ${id}`);
  const at = now + state.storageMoveStep;
  schedule(draft, STEP_MOVE, at, { type, id, at });
  return move;
}

/**
 * POST /<type>s/:id/repository_storage_moves: the destination must be a configured shard, and the
 * container writable (a second move while one runs is "is read-only"). Returns the move, `scheduled`.
 */
export function scheduleMove(state: State, type: ContainerType, containerId: number, destination: string | undefined, now: number): Change<StorageMove> {
  if (destination !== undefined && !shardNames(state).includes(destination)) throw storageNotInList('destination_storage_name');
  if (isRepositoryReadOnly(state, type, containerId)) throw containerReadOnly(type);
  return (draft) => createMove(draft, type, containerId, destination, now);
}

/** Chooses ahead how the container's next move fails (a test's choice). */
export function planFailure(draft: Draft<State>, type: ContainerType, containerId: number, failure: MoveFailure | null): void {
  const key = `${type}:${containerId}`;
  if (failure === null) tdel(draft.plannedMoveFailures, key);
  else tset(draft.plannedMoveFailures as Table<MoveFailure>, key, failure);
}

/** Chooses how an existing move fails, while it has not passed the step where it would. */
export function failMove(draft: Draft<State>, type: ContainerType, id: number, failure: MoveFailure): void {
  const move = tget(draft.storageMoves[type], id);
  if (!move) throw new EmulatorError(`no ${type} repository storage move ${id}`);
  const late = failure === 'cleanup' ? !['initial', 'scheduled', 'started', 'replicated'].includes(move.state) : !['initial', 'scheduled', 'started'].includes(move.state);
  if (late) throw new EmulatorError(`${type} repository storage move ${id} is ${move.state}: too late to choose a ${failure} failure`);
  move.failure = failure;
}

const repoName = (type: ContainerType) => (type === 'group' ? 'wiki' : type);

/** A fake checksum, as Gitaly gives one: 40 hex digits. */
const checksum = (seed: string) => {
  let h = 2166136261;
  for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 16777619);
  let out = '';
  for (let i = 0; out.length < 40; i++) out += ((h = Math.imul(h ^ i, 2654435761) >>> 0).toString(16).padStart(8, '0'));
  return out.slice(0, 40);
};

/** The message of a failure, as the update service's exception gives it. */
export function failureMessage(move: StorageMove, failure: MoveFailure): string {
  const name = repoName(move.type);
  switch (failure) {
    case 'copy':
      return `Failed to replicate ${name} repository from ${move.sourceStorage} to ${move.destinationStorage}`;
    case 'checksum':
      return `Failed to verify ${name} repository checksum from ${checksum(`${move.type}${move.id}a`)} to ${checksum(`${move.type}${move.id}b`)}`;
    case 'same_filesystem':
      return 'SameFilesystemError';
    case 'cleanup':
      return `Failed to remove the ${name} repository from ${move.sourceStorage}`;
  }
}

/** Touches the container (`storage_move.container.touch` after replication). */
function touch(draft: Draft<State>, type: ContainerType, id: number, at: number): void {
  if (type === 'project') {
    const p = tget(draft.projects, id);
    if (p) p.updatedAt = at;
  } else if (type === 'group') {
    const g = tget(draft.namespaces, id);
    if (g) g.updatedAt = at;
  }
}

/** One step of a move: scheduled -> started -> replicated (or failed) -> finished (or cleanup failed). */
export function stepMove(draft: Draft<State>, p: StepPayload): void {
  const move = tget(draft.storageMoves[p.type], p.id);
  if (!move) return;
  const next = () => schedule(draft, STEP_MOVE, p.at + draft.storageMoveStep, { type: p.type, id: p.id, at: p.at + draft.storageMoveStep });
  const gone = !containerExists(draft as State, move.type, move.containerId);
  move.updatedAt = p.at;
  switch (move.state) {
    case 'initial':
    case 'scheduled':
      move.state = 'started';
      next();
      return;
    case 'started': {
      const copyFails = move.failure === 'copy' || move.failure === 'checksum' || move.failure === 'same_filesystem';
      if (copyFails || gone) {
        move.state = 'failed';
        move.errorMessage = gone ? `${move.type === 'project' ? 'Project' : move.type === 'group' ? 'Group' : 'Snippet'} not found` : failureMessage(move, move.failure!);
        setRepositoryReadOnly(draft, move.type, move.containerId, null);
        return;
      }
      // before_transition started: :replicated: writable again, on the destination; then touched.
      setRepositoryReadOnly(draft, move.type, move.containerId, null);
      placeRepository(draft, move.type, move.containerId, move.destinationStorage);
      touch(draft, move.type, move.containerId, p.at);
      move.state = 'replicated';
      next();
      return;
    }
    case 'replicated':
      if (move.failure === 'cleanup') {
        move.state = 'cleanup failed';
        move.errorMessage = failureMessage(move, 'cleanup');
      } else move.state = 'finished';
      return;
    default:
      return;
  }
}

export const STEP_MOVE = defineTask<StepPayload>('storage_move.step', (draft, p) => stepMove(draft, p));

export interface ScheduleAllPayload {
  type: ContainerType;
  source: string;
  destination: string | null;
  at: number;
}

/** The containers of a type whose repositories are on a shard, in id order. */
function containersOn(state: State, type: ContainerType, shard: string): number[] {
  const out: number[] = [];
  if (type === 'project') {
    for (const p of tvalues(state.projects)) if (repositoryStorageOf(state, 'project', p.id) === shard) out.push(p.id);
  } else if (type === 'group') {
    for (const g of tvalues(state.namespaces)) if (g.kind === 'group' && repositoryStorageOf(state, 'group', g.id) === shard) out.push(g.id);
  } else {
    for (const s of tvalues(state.snippets)) if (repositoryStorageOf(state, 'snippet', s.id) === shard) out.push(s.id);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The bulk worker of `POST /<type>_repository_storage_moves`: a move for each container on the
 * source shard; a container that cannot be moved now (read-only) is left where it is.
 */
export const SCHEDULE_ALL_MOVES = defineTask<ScheduleAllPayload>('storage_move.schedule_all', (draft, p) => {
  for (const id of containersOn(draft as State, p.type, p.source)) {
    if (isRepositoryReadOnly(draft as State, p.type, id)) continue;
    createMove(draft, p.type, id, p.destination ?? undefined, p.at);
  }
});

/** Schedules the bulk worker: it runs on the clock, so nothing is created by the request itself. */
export function scheduleAllMoves(state: State, type: ContainerType, source: string, destination: string | undefined, now: number): Change<void> {
  if (!shardNames(state).includes(source)) throw storageNotInList('source_storage_name');
  if (destination !== undefined && !shardNames(state).includes(destination)) throw storageNotInList('destination_storage_name');
  return (draft) => schedule(draft, SCHEDULE_ALL_MOVES, now, { type, source, destination: destination ?? null, at: now });
}

/** A deleted container's moves go with it (`dependent: :destroy`), and any failure chosen for it. */
export function forgetMoves(draft: Draft<State>, type: ContainerType, containerId: number): void {
  const d = draft as State;
  for (const id of Array.from(pvalues(d.storageMovesOf[type], containerId))) tdel(d.storageMoves[type], id);
  tdel(draft.storageMovesOf[type], containerId);
  tdel(draft.plannedMoveFailures, `${type}:${containerId}`);
}
