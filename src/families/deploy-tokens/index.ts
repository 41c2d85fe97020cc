// Deploy tokens: the usernames and tokens of a project's or a group's automation.
import { emptyTable, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import type { DeployToken } from './records.js';
import { deployTokenRoutes } from './routes.js';
import { deployTokenLogin, forgetOwner } from './rules.js';

export interface DeployTokensSlice {
  /** Deploy tokens by id, of projects and groups. */
  deployTokens: Table<DeployToken>;
}

declare module '../world.js' {
  interface Slices extends DeployTokensSlice {}
}

export const deployTokens: Family<DeployTokensSlice> = defineFamily({
  name: 'deploy-tokens',
  state: () => ({ deployTokens: emptyTable() }),
  routes: deployTokenRoutes,
  provides: { deployTokenLogin },
  forget: {
    project: (draft, id) => forgetOwner(draft as State, { projectId: id }),
    group: (draft, id) => forgetOwner(draft as State, { groupId: id }),
  },
});

export type { DeployToken } from './records.js';
