// `emulator.moves`: what a test (or the control API) sees and steers of storage moves, over the
// emulator's store. Moves themselves advance only on the clock (`clock.advance`, `runUntilIdle`).
import { EmulatorError } from '../../core/errors.js';
import { parseDuration } from '../../core/clock.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../policy/paths.js';
import { isRepositoryReadOnly, repositoryStorageOf, type StorageShard } from '../repositories/index.js';
import type { State } from '../world.js';
import type { Host } from '../define.js';
import { MOVE_FAILURES, type ContainerType, type MoveFailure, type StorageMove } from './records.js';
import { allMoves, failMove, findMove, movesOf, planFailure } from './rules.js';
import { checkShards } from './seed.js';

export interface MovesControl {
  /** Every move of a type (of every type when absent), newest first. */
  list(type?: ContainerType): StorageMove[];
  get(type: ContainerType, id: number): StorageMove | undefined;
  /** The moves of one container (a project or group by id or full path), newest first. */
  of(type: ContainerType, container: number | string): StorageMove[];
  /** Whether the container's repositories refuse writes now (a move is in progress). */
  isReadOnly(type: ContainerType, container: number | string): boolean;
  /** The shard the container's repositories are on. */
  storageOf(type: ContainerType, container: number | string): string;
  /** Chooses ahead how the container's next move fails; null: it succeeds. */
  failNext(type: ContainerType, container: number | string, failure: MoveFailure | null): void;
  /** Chooses how a scheduled move fails, while it has not passed the step where it would. */
  fail(type: ContainerType, id: number, failure: MoveFailure): void;
  /** How long each step takes on the clock, in milliseconds. */
  readonly stepTime: number;
  /** Sets each step's time: `30s`, `2m`, or milliseconds. Steps already due keep their time. */
  setStepTime(step: string | number): void;
  shards(): StorageShard[];
  /** Replaces the shards (names and weights); the first is where new repositories land. */
  setShards(shards: { name: string; weight?: number }[]): void;
}

/** What the storage moves family adds to the emulator for tests (its test handle). */
export interface MovesMembers {
  /**
   * Repository storage moves: list and inspect them, choose ahead how one fails, set how long
   * each step takes. Moves advance on the clock (`clock.advance`, `runUntilIdle`).
   */
  readonly moves: MovesControl;
}

const TYPES: readonly ContainerType[] = ['project', 'snippet', 'group'];

export function checkType(type: unknown): ContainerType {
  if (!TYPES.includes(type as ContainerType)) throw new EmulatorError(`type must be one of ${TYPES.join(', ')}`);
  return type as ContainerType;
}

export function checkFailure(failure: unknown, nullable = false): MoveFailure | null {
  if (nullable && failure === null) return null;
  if (!MOVE_FAILURES.includes(failure as MoveFailure)) throw new EmulatorError(`failure must be one of ${MOVE_FAILURES.join(', ')}${nullable ? ', or null' : ''}`);
  return failure as MoveFailure;
}

function containerIdOf(state: State, type: ContainerType, container: number | string): number {
  const found =
    type === 'project' ? projectByIdOrPath(state, container)?.id
    : type === 'group' ? (() => { const g = namespaceByIdOrPath(state, container); return g?.kind === 'group' ? g.id : undefined; })()
    : undefined;
  if (found === undefined) throw new EmulatorError(`no ${type} '${container}'`);
  return found;
}

export function movesControl(host: Pick<Host, 'state' | 'update'>): MovesControl {
  return {
    list: (type) => (type ? allMoves(host.state(), checkType(type)) : TYPES.flatMap((t) => allMoves(host.state(), t))),
    get: (type, id) => findMove(host.state(), checkType(type), id),
    of: (type, container) => movesOf(host.state(), checkType(type), containerIdOf(host.state(), checkType(type), container)),
    isReadOnly: (type, container) => isRepositoryReadOnly(host.state(), checkType(type), containerIdOf(host.state(), checkType(type), container)),
    storageOf: (type, container) => repositoryStorageOf(host.state(), checkType(type), containerIdOf(host.state(), checkType(type), container)),
    failNext(type, container, failure) {
      const t = checkType(type);
      const id = containerIdOf(host.state(), t, container);
      const f = checkFailure(failure, true);
      host.update((draft) => planFailure(draft, t, id, f));
    },
    fail(type, id, failure) {
      const t = checkType(type);
      const f = checkFailure(failure)!;
      if (!findMove(host.state(), t, id)) throw new EmulatorError(`no ${t} repository storage move ${id}`);
      host.update((draft) => failMove(draft, t, id, f));
    },
    get stepTime() {
      return host.state().storageMoveStep;
    },
    setStepTime(step) {
      const ms = parseDuration(step);
      if (ms <= 0) throw new EmulatorError('a storage move step must take some time');
      host.update((draft) => void (draft.storageMoveStep = ms));
    },
    shards: () => host.state().storageShards.map((s) => ({ ...s })),
    setShards(shards) {
      const list = checkShards(shards);
      host.update((draft) => void (draft.storageShards = list));
    },
  };
}
