// Every family's routes, in one list for the router.
import type { RouteDef } from '../http/route.js';
import { archiveRoutes } from './archives.js';
import { branchRoutes } from './branches.js';
import { commitRoutes } from './commits.js';
import { fileRoutes } from './files.js';
import { groupRoutes } from './groups.js';
import { namespaceRoutes } from './namespaces.js';
import { milestoneRoutes } from './milestones.js';
import { projectRoutes } from './projects.js';
import { releaseLinkRoutes } from './release-links.js';
import { releaseRoutes } from './releases.js';
import { tagRoutes } from './tags.js';
import { templateRoutes } from './templates.js';
import { userRoutes } from './user.js';

export const ROUTES: RouteDef[] = [...userRoutes, ...projectRoutes, ...groupRoutes, ...namespaceRoutes, ...templateRoutes, ...branchRoutes, ...commitRoutes, ...fileRoutes, ...tagRoutes, ...archiveRoutes, ...releaseRoutes, ...releaseLinkRoutes, ...milestoneRoutes];
