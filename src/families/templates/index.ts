// Templates: the .gitignore templates, listed and fetched.
import { defineFamily, type Family } from '../define.js';
import { templateRoutes } from './routes.js';

export const templates: Family = defineFamily({ name: 'templates', routes: templateRoutes });
