// The CI/CD job token scope of projects: its inbound switch and its allowlists.
import { emptyTable, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import { jobTokenScopeRoutes } from './routes.js';
import { forgetGroup, forgetProject, type ScopeSettings } from './rules.js';

export interface JobTokenScopeSlice {
  /** Project id -> its job token scope, where it differs from a new project's. */
  jobTokenScopes: Table<ScopeSettings>;
}

declare module '../world.js' {
  interface Slices extends JobTokenScopeSlice {}
}

export const jobTokenScope: Family<JobTokenScopeSlice> = defineFamily({
  name: 'job-token-scope',
  state: () => ({ jobTokenScopes: emptyTable() }),
  routes: jobTokenScopeRoutes,
  forget: {
    project: (draft, id) => forgetProject(draft as State, id),
    group: (draft, id) => forgetGroup(draft as State, id),
  },
});
