// Commits: list, get, and the commit entities other families render.
import { defineFamily, type Family } from '../define.js';
import { commitRoutes } from './routes.js';

export const commits: Family = defineFamily({ name: 'commits', routes: commitRoutes });

export * from './entity.js';
