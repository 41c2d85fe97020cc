// The CI/CD job token scope of projects: its inbound switch and its allowlists, kept on the
// project records, where authentication reads them (policy/job-token.ts).
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import { jobTokenScopeRoutes } from './routes.js';
import { adoptScopes, forgetGroup } from './rules.js';

export const jobTokenScope: Family = defineFamily({
  name: 'job-token-scope',
  routes: jobTokenScopeRoutes,
  // Kept as a slice of its own until the scope moved onto the project records.
  retired: { jobTokenScopes: (draft, value) => adoptScopes(draft as State, value) },
  forget: {
    group: (draft, id) => forgetGroup(draft as State, id),
  },
});
