// Notes on issues, merge requests, project snippets, epics and commits: comments with quick
// actions, threads of them (discussions), beside the system notes other families write. The notes themselves are the core's
// tables (store/notes.ts), since several families write them.
import { dropProjectNotes } from '../../store/notes.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import { commitNoteRoutes } from './commit-routes.js';
import { noteRoutes } from './routes.js';
import { discussionRoutes } from './discussion-routes.js';
import { groupNotesSchema, projectNotesSchema } from './schema.js';
import { traceDiffNotes } from './trace.js';
import { seedNotes, type FixtureGroupNotesPart, type FixtureProjectNotesPart } from './seed.js';

declare module '../world.js' {
  interface FixtureGroupParts extends FixtureGroupNotesPart {}
  interface FixtureProjectParts extends FixtureProjectNotesPart {}
}

export const notes: Family = defineFamily({
  name: 'notes',
  schema: { group: groupNotesSchema, project: projectNotesSchema },
  state: () => ({}),
  seed: { after: ['users', 'groups', 'projects', 'issues', 'merge-requests', 'epics'], run: seedNotes },
  routes: [...noteRoutes, ...discussionRoutes, ...commitNoteRoutes],
  forget: { project: (draft, id) => dropProjectNotes(draft as State, id) },
  on: { push: traceDiffNotes },
});

export type { FixtureGroupNotesPart, FixtureNote, FixtureNotesPart, FixtureProjectNotesPart } from './seed.js';
export { readableNoteOf, type Issuable, type Noteable } from './noteables.js';
export { noteEntity } from './entity.js';
export { canCreateNote, findNoteable } from './noteables.js';
export { createNote } from './rules.js';
export { canAdminNote, noteReadable } from './noteables.js';
export { destroyNote, updateNote as updateNoteBody } from './rules.js';
export { checkDiffPosition, diffPositionOf, lineCode, type PositionInput } from './diff-position.js';
export { canResolve } from './noteables.js';
export { interpret as interpretNoteBody } from './routes.js';
export { resolveNotes } from './rules.js';
