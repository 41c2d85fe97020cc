// Merge requests between branches of a project's repository: the lists, create, edit, delete
// and merge, approvals, commits and diffs, time tracking, what a push does to them (refresh)
// and the push options git hands over (post-receive), and the quick actions of their notes.
import { pvalues, tget, tvalues } from '../../store/table.js';
import { registerLabelUse } from '../labels/index.js';
import { registerMilestoneUse } from '../milestones/index.js';
import { defineFamily, type Family } from '../define.js';
import { registerAdvertisedRefs } from '../repositories/index.js';
import { registerIssuable, registerSocial, socialRoutes } from '../issuables/index.js';
import { approvalRoutes } from './approval-routes.js';
import { approvalRuleRoutes } from './approval-rule-routes.js';
import { processAutoMerges, runTrainMerge } from './auto-merge.js';
import { automationRoutes } from './automation-routes.js';
import { FINISH_REBASE } from './rebase.js';
import { FINISH_MERGEABILITY_CHECK } from './mergeability.js';
import { mergeRequestCommitRoutes } from './commit-routes.js';
import { mergeRequestEventRoutes } from './event-routes.js';
import { mergeRequestKind, mergeRequestSocial } from './kind.js';
import { mergeRequestPostReceive } from './push-options.js';
import { refreshMergeRequests } from './refresh.js';
import { reviewerRoutes } from './reviewer-routes.js';
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
  routes: [...mergeRequestRoutes, ...socialRoutes(mergeRequestSocial), ...mergeRequestCommitRoutes, ...approvalRoutes, ...mergeRequestEventRoutes, ...automationRoutes, ...approvalRuleRoutes, ...reviewerRoutes],
  tasks: [FINISH_REBASE, FINISH_MERGEABILITY_CHECK],
  forget: { project: forgetProjectMergeRequests },
  on: { push: refreshMergeRequests, 'pipeline.status': processAutoMerges, 'merge_request.train_merge_requested': runTrainMerge },
  postReceive: mergeRequestPostReceive,
});
registerIssuable(mergeRequestKind);
registerSocial(mergeRequestSocial);
// refs/merge-requests/<iid>/head, which `glab mr checkout` fetches, and the merge ref once made.
registerAdvertisedRefs(function* (state, projectId) {
  const all = tget(state.mergeRequests, projectId);
  if (!all) return;
  for (const mr of tvalues(all)) {
    yield { name: `refs/merge-requests/${mr.iid}/head`, oid: mr.sha };
    if (mr.mergeRefSha) yield { name: `refs/merge-requests/${mr.iid}/merge`, oid: mr.mergeRefSha };
  }
});

export type { MergeRequestsSlice } from './store.js';
export type { MergeRequest } from './records.js';
export type { MergeRequestTarget } from './kind.js';
export type { FixtureMergeRequest, FixtureMergeRequestsPart } from './seed.js';
export { readableMergeRequest } from './rules.js';
export { openMergeRequestsOn } from './store.js';
export { canReadMergeRequests } from './rules.js';
export { mergeRequestBasic, type MergeRequestView } from './entity.js';

// A promoted label's merge moves the merge requests that carry the project label to the group's.
registerLabelUse({
  unlabel: () => {},
  relabel(draft, from, to) {
    if (from.projectId === null) return;
    for (const mr of pvalues((draft as unknown as MergeRequestsSlice).mergeRequests, from.projectId)) {
      if (mr.labelIds.includes(from.id)) mr.labelIds = [...mr.labelIds.filter((id: number) => id !== from.id && id !== to.id), to.id];
    }
  },
});

registerMilestoneUse({
  move(draft, projectId, from, to) {
    for (const mr of pvalues((draft as unknown as MergeRequestsSlice).mergeRequests, projectId)) if (mr.milestoneId !== null && from.has(mr.milestoneId)) mr.milestoneId = to;
  },
});
export { canUpdateMergeRequest, editMergeRequest } from './rules.js';
export { draftlessTitle } from './system-notes.js';
export { canCreateMergeRequest, createMergeRequest, type MergeRequestInput } from './rules.js';
export { acceptMergeRequest, canMerge, mergeWay, squashCommit } from './merge.js';
export { defaultMergeCommitMessage } from './message-generator.js';
export { rebaseCommits } from './rebase.js';
export { squashOnMerge } from './rules.js';
export { abortAutoMerge, registerTrainStrategies, save as saveMergeRequestFields, type TrainStrategies, type TrainStrategy } from './auto-merge.js';
export { checkedMergeRequest } from './rules.js';
export { recordReview } from './reviewers.js';
export { reviewerEntries } from './reviewers.js';
