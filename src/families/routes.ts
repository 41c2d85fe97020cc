// Every family's routes, in one list for the router.
import type { RouteDef } from '../http/route.js';
import { archiveRoutes } from './archives/routes.js';
import { branchRoutes } from './branches/routes.js';
import { commitRoutes } from './commits/routes.js';
import { fileRoutes } from './files/routes.js';
import { groupRoutes } from './groups/routes.js';
import { namespaceRoutes } from './namespaces/routes.js';
import { milestoneRoutes } from './milestones/routes.js';
import { projectRoutes } from './projects/routes.js';
import { releaseLinkRoutes } from './releases/link-routes.js';
import { releaseRoutes } from './releases/routes.js';
import { tagRoutes } from './tags/routes.js';
import { templateRoutes } from './templates/routes.js';
import { userRoutes } from './users/routes.js';

export const ROUTES: RouteDef[] = [...userRoutes, ...projectRoutes, ...groupRoutes, ...namespaceRoutes, ...templateRoutes, ...branchRoutes, ...commitRoutes, ...fileRoutes, ...tagRoutes, ...archiveRoutes, ...releaseRoutes, ...releaseLinkRoutes, ...milestoneRoutes];
