// Releases: list, get, create, update, delete, the latest-release permalink, downloads, asset
// links, evidence collected on the clock, and the group list.
import { releasesSchema } from './schema.js';
import { emptyTable, tdel, type Partitioned } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { Release } from './records.js';
import { releaseLinkRoutes } from './link-routes.js';
import { releaseRoutes } from './routes.js';
import { COLLECT_EVIDENCE } from './rules.js';
import { seedReleases, type FixtureReleasesPart } from './seed.js';

export interface ReleasesSlice {
  /** Project id -> its releases by tag name. */
  releases: Partitioned<Release>;
}

declare module '../world.js' {
  interface Slices extends ReleasesSlice {}
  interface FixtureProjectParts extends FixtureReleasesPart {}
}

export const releases: Family<ReleasesSlice> = defineFamily({
  name: 'releases',
  schema: { project: releasesSchema },
  state: () => ({ releases: emptyTable() }),
  seed: { after: ['repositories', 'milestones'], run: seedReleases },
  routes: [...releaseRoutes, ...releaseLinkRoutes],
  tasks: [COLLECT_EVIDENCE],
  forget: { project: (draft, id) => void tdel(draft.releases, id) },
});

/** A deleted tag takes its release with it (Tags::DestroyService). */
export type { Release, ReleaseLink, ReleaseEvidence } from './records.js';
export type { FixtureRelease } from './seed.js';
export { findRelease } from './rules.js';
export { canReadReleases, findReleases } from './rules.js';
