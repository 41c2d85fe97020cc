// Stars: users starring projects, and a project's starrers.
import { emptyTable, type Partitioned } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import { forgetProject, type Star } from './rules.js';
import { starRoutes } from './routes.js';

export interface StarsSlice {
  /** Project id -> its stars, by user id. */
  stars: Partitioned<Star>;
}

declare module '../world.js' {
  interface Slices extends StarsSlice {}
}

export const stars: Family<StarsSlice> = defineFamily({
  name: 'stars',
  state: () => ({ stars: emptyTable() }),
  routes: starRoutes,
  forget: { project: (draft, id) => forgetProject(draft as State, id) },
});
