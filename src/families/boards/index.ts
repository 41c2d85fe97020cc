// Issue boards of projects and groups, and their lists.
import { emptyTable, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import type { Board, BoardList } from './records.js';
import { boardRoutes } from './routes.js';
import { forgetParent } from './rules.js';

export interface BoardsSlice {
  /** Boards by id, of projects and groups. */
  boards: Table<Board>;
  /** Board lists by id. */
  boardLists: Table<BoardList>;
}

declare module '../world.js' {
  interface Slices extends BoardsSlice {}
}

export const boards: Family<BoardsSlice> = defineFamily({
  name: 'boards',
  state: () => ({ boards: emptyTable(), boardLists: emptyTable() }),
  routes: boardRoutes,
  forget: {
    project: (draft, id) => forgetParent(draft as State, 'project', id),
    group: (draft, id) => forgetParent(draft as State, 'group', id),
  },
});

export type { Board, BoardList } from './records.js';
