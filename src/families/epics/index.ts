// Epics and iterations of groups, at the higher tiers: group data that issues point at, with
// their label events and the quick actions of an epic's notes.
import { defineFamily, type Family } from '../define.js';
import { registerIssuable, registerTodoKind } from '../issuables/index.js';
import { epicKind, epicTodos } from './kind.js';
import { epicEventRoutes, epicRoutes } from './routes.js';
import { epicUpdateRoutes } from './update.js';
import { epicsGroupSchema } from './schema.js';
import { seedEpics, type FixtureEpicsPart } from './seed.js';
import { emptyEpicsSlice, forgetGroupEpics, type EpicsSlice } from './store.js';

declare module '../world.js' {
  interface Slices extends EpicsSlice {}
  interface FixtureGroupParts extends FixtureEpicsPart {}
  interface Noteables { Epic: true }
}

export const epics: Family<EpicsSlice> = defineFamily({
  name: 'epics',
  noteables: ['Epic'],
  schema: { group: epicsGroupSchema },
  state: emptyEpicsSlice,
  seed: { after: ['groups', 'users', 'labels'], run: seedEpics },
  routes: [...epicRoutes, ...epicUpdateRoutes, ...epicEventRoutes],
  forget: { group: forgetGroupEpics },
});
registerIssuable(epicKind);
registerTodoKind('Epic', epicTodos);

export type { EpicsSlice } from './store.js';
export type { Epic, Iteration } from './records.js';
export type { EpicTarget } from './kind.js';
export type { FixtureEpic, FixtureEpicsPart, FixtureIteration } from './seed.js';
export { createEpic, epicById, epicByIid, epicForProject, epicVisible, iterationById, iterationState, readableEpic } from './rules.js';
export { issueEpic, iterationEntity } from './entity.js';
export { eventIteration } from './routes.js';
export { epicEntity } from './entity.js';
