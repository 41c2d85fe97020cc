// Badges of projects and groups, with their URLs' placeholders rendered for a project.
import { emptyTable, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import type { Badge } from './records.js';
import { badgeRoutes } from './routes.js';
import { forgetOwner } from './rules.js';

export interface BadgesSlice {
  /** Project and group badges by id. */
  badges: Table<Badge>;
}

declare module '../world.js' {
  interface Slices extends BadgesSlice {}
}

export const badges: Family<BadgesSlice> = defineFamily({
  name: 'badges',
  state: () => ({ badges: emptyTable() }),
  routes: badgeRoutes,
  forget: {
    project: (draft, id) => forgetOwner(draft as State, 'project', id),
    group: (draft, id) => forgetOwner(draft as State, 'group', id),
  },
});

export type { Badge } from './records.js';
