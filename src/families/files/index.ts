// Repository files: get, raw, blame, create, update, delete.
import { defineFamily, type Family } from '../define.js';
import { fileRoutes } from './routes.js';

export const files: Family = defineFamily({ name: 'files', routes: fileRoutes });
