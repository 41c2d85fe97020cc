// The CI/CD job token scope of projects: its inbound switch and its allowlists, kept on the
// project records, where authentication reads them (policy/job-token.ts).
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import { jobTokenScopeRoutes } from './routes.js';
import { forgetGroup } from './rules.js';

export const jobTokenScope: Family = defineFamily({
  name: 'job-token-scope',
  routes: jobTokenScopeRoutes,
  forget: {
    group: (draft, id) => forgetGroup(draft as State, id),
  },
});
