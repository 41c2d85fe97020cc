// Tags: list, get, create, delete, signature, and the protected tags API.
import { defineFamily, type Family } from '../define.js';
import { tagRoutes } from './routes.js';
import { protectedTagRoutes } from './protected.js';

export const tags: Family = defineFamily({ name: 'tags', routes: [...tagRoutes, ...protectedTagRoutes] });

export * from './rules.js';
export * from './entity.js';
