// Commits: list, get, create with actions, diff, refs, compare, merge base, cherry-pick, revert, and the commit entities other families render.
import { defineFamily, type Family } from '../define.js';
import { commitRoutes } from './routes.js';
import { historyRoutes } from './compare.js';
import { changeRoutes } from './change.js';
import { commitMergeRequestRoutes } from './merge-requests-route.js';

declare module '../world.js' {
  interface Noteables { Commit: true }
}

export const commits: Family = defineFamily({ name: 'commits', routes: [...commitRoutes, ...historyRoutes, ...changeRoutes, ...commitMergeRequestRoutes], noteables: ['Commit'] });

export * from './entity.js';
export { commitDiffs, withHeaders } from './compare.js';
