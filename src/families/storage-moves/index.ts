// Repository storage moves of projects, snippets and group wikis: the state machine on the
// emulator's clock, the read-only window it keeps its container in, the failures a test
// chooses ahead, and `emulator.moves` / the control API to watch and steer them.
import { storageProjectSchema, storageTopSchema } from './schema.js';
import { emptyTable } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import { DEFAULT_STEP_MS, forgetMoves, SCHEDULE_ALL_MOVES, STEP_MOVE, type StorageMovesSlice } from './rules.js';
import { storageMoveRoutes } from './routes.js';
import { movesControl, type MovesMembers } from './control.js';
import { movesControlRoutes } from './control-routes.js';
import { seedStorage, type FixtureProjectStoragePart, type FixtureStoragePart } from './seed.js';

declare module '../world.js' {
  interface Slices extends StorageMovesSlice {}
  interface FixtureTopParts extends FixtureStoragePart {}
  interface FixtureProjectParts extends FixtureProjectStoragePart {}
  interface FamilyHandles extends MovesMembers {}
}

export const storageMoves: Family<StorageMovesSlice> = defineFamily({
  name: 'storage-moves',
  schema: { top: storageTopSchema, project: storageProjectSchema },
  state: () => ({
    storageMoves: { project: emptyTable(), snippet: emptyTable(), group: emptyTable() },
    storageMovesOf: { project: emptyTable(), snippet: emptyTable(), group: emptyTable() },
    storageMoveStep: DEFAULT_STEP_MS,
    plannedMoveFailures: emptyTable(),
  }),
  seed: { after: ['projects', 'repositories'], run: seedStorage },
  routes: storageMoveRoutes,
  tasks: [STEP_MOVE, SCHEDULE_ALL_MOVES],
  handle: (host) => ({ moves: movesControl(host) }),
  control: { endpoint: 'moves', routes: movesControlRoutes },
  forget: { project: (draft, id) => forgetMoves(draft, 'project', id), group: (draft, id) => forgetMoves(draft, 'group', id) },
});

export type { MovesControl, MovesMembers } from './control.js';
export { MOVE_FAILURES, TRANSITIONS, inProgress, type ContainerType, type MoveFailure, type MoveState, type StorageMove } from './records.js';
export type { FixtureStorage } from './seed.js';
