// Projects: list, get, create (with a first README), update, delete (scheduled), star counts.
import { projectSchema } from './schema.js';
import { defineFamily, type Family } from '../define.js';
import { projectRoutes } from './routes.js';
import { DESTROY_PROJECT } from './rules.js';
import { seedProjects, type FixtureProjectPart } from './seed.js';
import { createProjectOnPush } from './push-to-create.js';

declare module '../world.js' {
  interface FixtureProjectParts extends FixtureProjectPart {}
}

export const projects: Family = defineFamily({
  name: 'projects',
  schema: { project: projectSchema },
  routes: projectRoutes,
  seed: { after: ['users', 'groups'], run: seedProjects },
  tasks: [DESTROY_PROJECT],
  git: { createOnPush: createProjectOnPush },
});

export * from './rules.js';
export * from './entity.js';
export { findProjects, type ProjectFilters } from './finder.js';
export { PROJECT_LIST_PARAMS, type ProjectListParams } from './params.js';
export { addFirstReadme, newProject, scheduleProjectDeletion, updateProject, type ProjectChanges } from './service.js';
export { projectListReply } from './routes.js';
export type { FixtureJob, FixtureProjectPart } from './seed.js';
