// Namespaces: list, get, exists (users' and groups' namespaces alike).
import { defineFamily, type Family } from '../define.js';
import { namespaceRoutes } from './routes.js';

export const namespaces: Family = defineFamily({ name: 'namespaces', routes: namespaceRoutes });

export * from './entity.js';
export { canSeeNamespace, namespaceCounts } from './rules.js';
