// Milestones of projects and groups: list, get, create, update and delete; the titles releases name.
import { milestonesSchema } from './schema.js';
import type { Partitioned } from '../../store/table.js';
import { emptyTable, tdel } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { Milestone } from './records.js';
import { milestoneRoutes } from './routes.js';
import { milestoneWriteRoutes } from './update.js';
import { seedMilestones, type FixtureMilestonesPart } from './seed.js';

export interface MilestonesSlice {
  /** Project id -> its milestones by id. */
  projectMilestones: Partitioned<Milestone>;
  /** Group id -> its milestones by id. */
  groupMilestones: Partitioned<Milestone>;
  /** Project id -> its milestones' titles -> id: titles are unique, and checked in one look-up. */
  projectMilestoneTitles: Partitioned<number>;
  /** Group id -> its milestones' titles -> id. */
  groupMilestoneTitles: Partitioned<number>;
}

declare module '../world.js' {
  interface Slices extends MilestonesSlice {}
  interface FixtureGroupParts extends FixtureMilestonesPart {}
  interface FixtureProjectParts extends FixtureMilestonesPart {}
}

export const milestones: Family<MilestonesSlice> = defineFamily({
  name: 'milestones',
  schema: { group: milestonesSchema, project: milestonesSchema },
  state: () => ({ projectMilestones: emptyTable(), groupMilestones: emptyTable(), projectMilestoneTitles: emptyTable(), groupMilestoneTitles: emptyTable() }),
  seed: { after: ['groups', 'projects'], run: seedMilestones },
  routes: [...milestoneRoutes, ...milestoneWriteRoutes],
  forget: {
    project: (draft, id) => void (tdel(draft.projectMilestones, id), tdel(draft.projectMilestoneTitles, id)),
    group: (draft, id) => void (tdel(draft.groupMilestones, id), tdel(draft.groupMilestoneTitles, id)),
  },
});

export type { Milestone } from './records.js';
export type { FixtureMilestone } from './seed.js';
export { canReadProjectMilestones, castDate, findMilestone, orderByDatesAndTitle, ownMilestones, projectGroup, projectMilestoneScope } from './rules.js';
export { milestoneEntity } from './entity.js';
export { registerMilestoneUse, type MilestoneUse } from './uses.js';
