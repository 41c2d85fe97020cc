// POST /projects/:id/housekeeping (lib/api/projects.rb, Repositories::HousekeepingService): a
// maintainer asks for the repository's housekeeping, `eager` or `prune`; a second request
// while the lease of the first is held is 409. The repository's objects need no repacking here.
import { conflict } from '../../core/errors.js';
import { str } from '../../http/params.js';
import { emptyTable, tdel, tget, tset, type Table } from '../../store/table.js';
import { canAdminProject } from '../projects/index.js';
import { defineFamily, project, route, type Family } from '../define.js';
import type { State } from '../world.js';

/** Repositories::HousekeepingService::LEASE_TIMEOUT. */
const LEASE_MS = 24 * 3_600_000;

export interface HousekeepingSlice {
  /** Project id -> when its housekeeping lease was last taken. */
  housekeepingLeases: Table<number>;
}

declare module '../world.js' {
  interface Slices extends HousekeepingSlice {}
}

const routes = [
  route({
    method: 'POST', path: '/projects/:id/housekeeping', auth: 'user', scope: project(canAdminProject),
    params: { task: str().values(['eager', 'prune'] as const).default('eager') },
    handler: (ctx) => {
      const taken = tget(ctx.state.housekeepingLeases, ctx.project.id);
      const now = ctx.now();
      if (taken !== undefined && now - taken < LEASE_MS)
        throw conflict(`Somebody already triggered housekeeping for this resource within the past ${LEASE_MS / 60_000} minutes`);
      ctx.update((draft) => tset((draft as State).housekeepingLeases, ctx.project.id, now));
      return { status: 201 };
    },
  }),
];

export const housekeeping: Family<HousekeepingSlice> = defineFamily({
  name: 'housekeeping',
  state: () => ({ housekeepingLeases: emptyTable() }),
  routes,
  forget: { project: (draft, id) => void tdel((draft as State).housekeepingLeases, id) },
});

