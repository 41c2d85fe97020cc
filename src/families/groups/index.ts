// Groups and subgroups: list, get, create, update, delete (scheduled), and their projects.
import { groupSchema } from './schema.js';
import { defineFamily, type Family } from '../define.js';
import { groupRoutes } from './routes.js';
import { DESTROY_GROUP } from './rules.js';
import { seedGroups, type FixtureGroupPart } from './seed.js';

declare module '../world.js' {
  interface FixtureGroupParts extends FixtureGroupPart {}
}

export const groups: Family = defineFamily({
  name: 'groups',
  schema: { group: groupSchema },
  routes: groupRoutes,
  seed: { after: ['users'], run: seedGroups },
  tasks: [DESTROY_GROUP],
});

export * from './rules.js';
export * from './entity.js';
export type { FixtureGroupPart } from './seed.js';
export { findGroups, groupProjects, type GroupFilters } from './finder.js';
export { newGroup, scheduleGroupDeletion, updateGroup, type GroupChanges } from './service.js';
