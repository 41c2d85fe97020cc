// Commit statuses: the statuses external systems post for commits, kept per project and indexed
// by commit; the CI/CD families build on them (each status belongs to an external pipeline).
import { emptyTable, tdel, type Partitioned } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { CommitStatus, ExternalPipeline } from './records.js';
import { statusRoutes } from './routes.js';

export interface StatusesSlice {
  /** Project id -> its commit statuses by id. */
  commitStatuses: Partitioned<CommitStatus>;
  /** Project id -> commit sha -> the ids of its statuses, oldest first. */
  commitStatusesBySha: Partitioned<number[]>;
  /** Project id -> the external pipelines statuses made, by id. */
  externalPipelines: Partitioned<ExternalPipeline>;
}

declare module '../world.js' {
  interface Slices extends StatusesSlice {}
}

export const statuses: Family<StatusesSlice> = defineFamily({
  name: 'statuses',
  state: () => ({ commitStatuses: emptyTable(), commitStatusesBySha: emptyTable(), externalPipelines: emptyTable() }),
  routes: statusRoutes,
  forget: {
    project: (draft, id) => void (tdel(draft.commitStatuses, id), tdel(draft.commitStatusesBySha, id), tdel(draft.externalPipelines, id)),
  },
});

export type { CommitStatus, ExternalPipeline, StatusState } from './records.js';
export { statusesOf, matchingPipeline, transition } from './rules.js';
export { commitStatusEntity } from './entity.js';
