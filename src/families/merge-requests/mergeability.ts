// Whether a merge request may merge, as GitLab decides it (MergeRequest#mergeable_state?,
// #mergeable?, #mergeable_ci_state?, MergeRequests::Mergeability::DetailedMergeStatusService):
// the checks in GitLab's order, the head pipeline of the source branch's head, and what the CI
// check says while that pipeline runs.
import type { Project } from '../../store/state.js';
import { pget, pset } from '../../store/table.js';
import { defineTask, schedule, type Change } from '../define.js';
import { headPipeline, type Pipeline } from '../ci/index.js';
import { branchTip, refsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { approvalsMissing } from './approval-state.js';
import type { MergeRequest } from './records.js';
import { discussionsResolved } from './rules.js';

/**
 * MergeRequest#diff_head_pipeline: the newest pipeline of the merge request's head, a branch
 * pipeline of its source branch or a merge request pipeline (`refs/merge-requests/:iid/head`).
 */
export function diffHeadPipeline(state: State, mr: MergeRequest): Pipeline | undefined {
  const branch = headPipeline(state, mr.projectId, mr.sourceBranch, mr.sha);
  const detached = headPipeline(state, mr.projectId, `refs/merge-requests/${mr.iid}/head`, mr.sha);
  if (!branch) return detached;
  if (!detached) return branch;
  return detached.id > branch.id ? detached : branch;
}

/** Ci::HasStatus::ACTIVE_STATUSES, and `created` (auto_merge_when_incomplete_pipeline_succeeds). */
const IN_PROGRESS = new Set(['created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'canceling']);

const pipelinesMustSucceed = (project: Project) => project.settings.only_allow_merge_if_pipeline_succeeds === true;

/**
 * MergeRequest#diff_head_pipeline_considered_in_progress?: an active (or just created) head
 * pipeline; a blocked one (manual, scheduled) too where pipelines must succeed.
 */
export function pipelineInProgress(project: Project, p: Pipeline | undefined): boolean {
  if (!p) return false;
  return IN_PROGRESS.has(p.status) || (pipelinesMustSucceed(project) && (p.status === 'manual' || p.status === 'scheduled'));
}

/**
 * MergeRequest#mergeable_ci_state?: true unless the project says pipelines must succeed; then
 * the head pipeline succeeded (or was skipped, where the project allows merging on skipped ones).
 */
export function ciMergeable(state: State, project: Project, mr: MergeRequest): boolean {
  if (!pipelinesMustSucceed(project)) return true;
  const p = diffHeadPipeline(state, mr);
  if (!p) return false;
  return p.status === 'success' || (project.settings.allow_merge_on_skipped_pipeline === true && p.status === 'skipped');
}

/** Whether both branches of the merge request are there (CheckBrokenStatusService). */
function branchesExist(state: State, mr: MergeRequest): boolean {
  const refs = refsOf(state, mr.projectId);
  return branchTip(refs, mr.sourceBranch) !== undefined && branchTip(refs, mr.targetBranch) !== undefined;
}

/**
 * MergeRequest#mergeable_state?: the first check that fails (its detailed status), or null.
 * `skipCi` leaves the pipeline out, as auto-merge does while it waits for one.
 */
export function failedStateCheck(state: State, project: Project, mr: MergeRequest, skipCi: boolean): string | null {
  if (mr.state !== 'opened') return 'not_open';
  if (mr.draft) return 'draft_status';
  if (!branchesExist(state, mr)) return 'broken_status';
  if (!discussionsResolved(state, project, mr)) return 'discussions_not_resolved';
  if (!skipCi && !ciMergeable(state, project, mr)) return 'ci_must_pass';
  return null;
}

/**
 * MergeRequest#should_be_rebased?: a fast-forward or semi-linear project whose target moved past
 * the merge request's merge base.
 */
export function needsRebase(state: State, project: Project, mr: MergeRequest): boolean {
  const method = project.settings.merge_method;
  if (method !== 'ff' && method !== 'rebase_merge') return false;
  const target = branchTip(refsOf(state, mr.projectId), mr.targetBranch);
  return target !== undefined && target !== mr.baseSha;
}

/**
 * MergeRequest#mergeable?: the state checks, then approvals, a clean merge and a rebase where the
 * project merges without merge commits. The first that fails, or null.
 */
export function failedMergeCheck(state: State, project: Project, mr: MergeRequest, skipCi: boolean): string | null {
  const failed = failedStateCheck(state, project, mr, skipCi);
  if (failed) return failed;
  if (approvalsMissing(state, project, mr)) return 'not_approved';
  if (mr.mergeStatus === 'cannot_be_merged') return 'conflict';
  if (needsRebase(state, project, mr)) return 'need_rebase';
  return null;
}

/**
 * DetailedMergeStatusService: `unchecked` before the mergeability check ran (`checking` while
 * its worker has not), then the first
 * failing check in GitLab's order, the pipeline last (`ci_still_running` while it runs).
 */
export function detailedMergeStatus(state: State, project: Project, mr: MergeRequest): string {
  if (mr.state !== 'opened') return 'not_open';
  if (mr.mergeStatus === 'checking') return 'checking';
  if (mr.mergeStatus === 'unchecked') return 'unchecked';
  const failed = failedMergeCheck(state, project, mr, true);
  if (failed) return failed;
  if (!ciMergeable(state, project, mr)) return pipelineInProgress(project, diffHeadPipeline(state, mr)) ? 'ci_still_running' : 'ci_must_pass';
  return 'mergeable';
}

/**
 * MergeRequestMergeabilityCheckWorker: the verdict the read found, recorded unless the branches
 * moved since (a push leaves the merge request no longer `checking`, and a stale verdict unread).
 */
export const FINISH_MERGEABILITY_CHECK = defineTask<{ projectId: number; iid: number }>('merge_request.mergeability_check', (draft, p) => {
  const mr = pget(draft.mergeRequests, p.projectId, p.iid) as MergeRequest | undefined;
  if (!mr || mr.mergeStatus !== 'checking' || !mr.pendingMergeStatus) return;
  const next: MergeRequest = { ...mr, mergeStatus: mr.pendingMergeStatus, pendingMergeStatus: null };
  pset(draft.mergeRequests, p.projectId, p.iid, next);
});

/**
 * MergeRequest#check_mergeability(async: true), as a read by someone who may update the merge
 * request does it: an unchecked one is `checking` until its worker runs (due at once, so before
 * the next request), which records the verdict found now.
 */
export function checkAsync(mr: MergeRequest, verdict: MergeRequest['mergeStatus'], now: number): Change<MergeRequest> {
  return (draft) => {
    if (verdict !== 'can_be_merged' && verdict !== 'cannot_be_merged') return mr;
    const next: MergeRequest = { ...mr, mergeStatus: 'checking', pendingMergeStatus: verdict };
    pset(draft.mergeRequests, mr.projectId, mr.iid, next);
    schedule(draft, FINISH_MERGEABILITY_CHECK, now, { projectId: mr.projectId, iid: mr.iid });
    return next;
  };
}
