// Templates: the .gitignore, Dockerfile, .gitlab-ci.yml and license templates, listed and fetched.
import { defineFamily, type Family } from '../define.js';
import { catalogRoutes } from './catalog-routes.js';
import { templateRoutes } from './routes.js';

export const templates: Family = defineFamily({ name: 'templates', routes: [...templateRoutes, ...catalogRoutes] });
