// Commits: list, get, and the commit entities other families render.
import { defineFamily, type Family } from '../define.js';
import { commitRoutes } from './routes.js';
import { historyRoutes } from './compare.js';

export const commits: Family = defineFamily({ name: 'commits', routes: [...commitRoutes, ...historyRoutes] });

export * from './entity.js';
