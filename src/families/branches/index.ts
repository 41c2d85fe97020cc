// Branches: list, get, create, delete, and the protections fixtures seed.
import { defineFamily, type Family } from '../define.js';
import { branchRoutes } from './routes.js';

export const branches: Family = defineFamily({ name: 'branches', routes: branchRoutes });
