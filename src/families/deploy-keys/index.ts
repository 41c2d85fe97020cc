// Deploy keys: SSH keys that open projects' repositories (the instance's, for administrators;
// a project's, for its maintainers), and the keys API's lookup of any key by id or fingerprint.
import { emptyTable, type Partitioned, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import type { DeployKey, DeployKeysProject } from './records.js';
import { deployKeyRoutes } from './routes.js';
import { forgetProject } from './rules.js';

export interface DeployKeysSlice {
  /** Deploy keys by id (ids shared with the users' SSH keys: one `keys` table). */
  deployKeys: Table<DeployKey>;
  /** Project id -> the deploy keys enabled in it, by key id. */
  deployKeysProjects: Partitioned<DeployKeysProject>;
}

declare module '../world.js' {
  interface Slices extends DeployKeysSlice {}
}

export const deployKeys: Family<DeployKeysSlice> = defineFamily({
  name: 'deploy-keys',
  state: () => ({ deployKeys: emptyTable(), deployKeysProjects: emptyTable() }),
  routes: deployKeyRoutes,
  forget: { project: (draft, id) => forgetProject(draft as State, id) },
});

export type { DeployKey, DeployKeysProject } from './records.js';
