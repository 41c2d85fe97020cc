// Merge requests between branches of a project's repository: the lists, create, edit, delete
// and merge, approvals, commits and diffs, time tracking, what a push does to them (refresh)
// and the push options git hands over (post-receive), and the quick actions of their notes.
import { tget, tvalues } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import { registerAdvertisedRefs } from '../repositories/index.js';
import { registerIssuable, registerSocial, socialRoutes } from '../issuables/index.js';
import { approvalRoutes } from './approval-routes.js';
import { mergeRequestCommitRoutes } from './commit-routes.js';
import { mergeRequestEventRoutes } from './event-routes.js';
import { mergeRequestKind, mergeRequestSocial } from './kind.js';
import { mergeRequestPostReceive } from './push-options.js';
import { refreshMergeRequests } from './refresh.js';
import { mergeRequestRoutes } from './routes.js';
import { mergeRequestsProjectSchema } from './schema.js';
import { seedMergeRequests, type FixtureMergeRequestsPart } from './seed.js';
import { emptyMergeRequestsSlice, forgetProjectMergeRequests, type MergeRequestsSlice } from './store.js';

declare module '../world.js' {
  interface Slices extends MergeRequestsSlice {}
  interface FixtureProjectParts extends FixtureMergeRequestsPart {}
  interface Noteables { MergeRequest: true }
}

export const mergeRequests: Family<MergeRequestsSlice> = defineFamily({
  name: 'merge-requests',
  noteables: ['MergeRequest'],
  schema: { project: mergeRequestsProjectSchema },
  state: emptyMergeRequestsSlice,
  seed: { after: ['users', 'projects', 'repositories', 'milestones', 'labels', 'issues'], run: seedMergeRequests },
  routes: [...mergeRequestRoutes, ...socialRoutes(mergeRequestSocial), ...mergeRequestCommitRoutes, ...approvalRoutes, ...mergeRequestEventRoutes],
  forget: { project: forgetProjectMergeRequests },
  on: { push: refreshMergeRequests },
  postReceive: mergeRequestPostReceive,
});
registerIssuable(mergeRequestKind);
registerSocial(mergeRequestSocial);
// refs/merge-requests/<iid>/head, which `glab mr checkout` fetches.
registerAdvertisedRefs(function* (state, projectId) {
  const all = tget(state.mergeRequests, projectId);
  if (all) for (const mr of tvalues(all)) yield { name: `refs/merge-requests/${mr.iid}/head`, oid: mr.sha };
});

export type { MergeRequestsSlice } from './store.js';
export type { MergeRequest } from './records.js';
export type { MergeRequestTarget } from './kind.js';
export type { FixtureMergeRequest, FixtureMergeRequestsPart } from './seed.js';
export { canReadMergeRequests, readableMergeRequest } from './rules.js';
export { mergeRequestBasic } from './entity.js';
