// Where the epics family keeps its records: each group's epics by iid and iterations by id,
// and where an epic or an iteration lives by its id.
import type { Draft } from 'immer';
import { sequences } from '../../store/state.js';
import { emptyTable, tdel, tget, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { dropEvents } from '../issuables/index.js';
import type { State } from '../world.js';
import type { Epic, Iteration } from './records.js';

export const ids = sequences(['epic', 'epic_iid', 'iteration', 'iteration_iid']);

export interface EpicsSlice {
  /** Group id -> its epics by iid (premium). */
  epics: Partitioned<Epic>;
  /** Epic id -> its group and iid. */
  epicLocations: Table<{ groupId: number; iid: number }>;
  /** Group id -> its iterations by id (premium). */
  iterations: Partitioned<Iteration>;
  /** Iteration id -> its group. */
  iterationGroups: Table<number>;
}

export function emptyEpicsSlice(): EpicsSlice {
  return { epics: emptyTable(), epicLocations: emptyTable(), iterations: emptyTable(), iterationGroups: emptyTable() };
}

/** Forgets a deleted group's epics (with their events) and iterations. */
export function forgetGroupEpics(draft: Draft<State>, groupId: number): void {
  const epics = tget(draft.epics, groupId);
  if (epics) for (const e of tvalues(epics)) {
    tdel(draft.epicLocations, e.id);
    dropEvents(draft, 'Epic', e.id);
  }
  tdel(draft.epics, groupId);
  const iterations = tget(draft.iterations, groupId);
  if (iterations) for (const it of tvalues(iterations)) tdel(draft.iterationGroups, it.id);
  tdel(draft.iterations, groupId);
}
