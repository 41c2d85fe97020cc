// Tags: list, get, create, delete, signature, and the protected tags API.
import { defineFamily, type Family } from '../define.js';
import { tagRoutes } from './routes.js';
import { protectedTagRoutes } from './protected.js';
import { TAG_PUSH_RULE } from './push-rules.js';

export const tags: Family = defineFamily({ name: 'tags', routes: [...tagRoutes, ...protectedTagRoutes], git: { refRules: [TAG_PUSH_RULE] } });

export * from './rules.js';
export * from './entity.js';
