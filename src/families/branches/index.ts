// Branches: list, get, create, delete, and the protected branches API.
import { defineFamily, type Family } from '../define.js';
import { branchRoutes } from './routes.js';
import { protectedBranchRoutes } from './protected.js';

export const branches: Family = defineFamily({ name: 'branches', routes: [...branchRoutes, ...protectedBranchRoutes] });

export { ALLOWED_ACCESS_LEVELS, canAdminProtections, refAccess } from './protected.js';
