// Source archives of a repository, on the API and at the web path release assets link to.
import { defineFamily, type Family } from '../define.js';
import { archiveRoutes } from './routes.js';

export const archives: Family = defineFamily({ name: 'archives', routes: archiveRoutes });
