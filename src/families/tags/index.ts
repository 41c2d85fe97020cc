// Tags: list, get, create, delete, signature.
import { defineFamily, type Family } from '../define.js';
import { tagRoutes } from './routes.js';

export const tags: Family = defineFamily({ name: 'tags', routes: tagRoutes });

export * from './rules.js';
export * from './entity.js';
