// Notes on issues, merge requests, project snippets and epics: comments with quick actions,
// beside the system notes other families write. The notes themselves are the core's tables
// (store/notes.ts), since several families write them.
import { defineFamily, type Family } from '../define.js';
import { noteRoutes } from './routes.js';
import { commitNoteRoutes } from './commit-routes.js';

export const notes: Family = defineFamily({
  name: 'notes',
  state: () => ({}),
  routes: [...noteRoutes, ...commitNoteRoutes],
});
