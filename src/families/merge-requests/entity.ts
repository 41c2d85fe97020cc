// Merge requests as GitLab renders them (lib/api/entities/merge_request_basic.rb,
// merge_request.rb): the basic fields, then subscription, changes, pipelines and diff_refs.
import { canUseFeature, hasProjectRole } from '../../policy/access.js';
import { iso } from '../../render/time.js';
import { noteKey, userNotesCount } from '../../store/notes.js';
import { ACCESS, type User } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { canReadBuilds, pipelineBasic, pipelineEntity } from '../ci/index.js';
import { countAwards, isSubscribed, issueMilestone, socialTarget, taskCounts, timeStats } from '../issuables/index.js';
import { labelBasic, labelById, type Label } from '../labels/index.js';
import { milestoneEntity } from '../milestones/index.js';
import { projectPaths, projectWebUrl } from '../projects/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { MergeRequest } from './records.js';
import { discussionsResolved, mergeStatusOf, squashOnMerge } from './rules.js';
import { detailedMergeStatus, diffHeadPipeline } from './mergeability.js';

export interface MergeRequestView extends UrlBase {
  state: State;
  viewer: User | null;
  now: number;
  /** The project the request is made in, for `reference`; or the group, for `references.relative`. */
  projectId?: number;
  groupId?: number;
  withLabelsDetails?: boolean;
  /** `include_rebase_in_progress` of the single merge request's read. */
  withRebaseInProgress?: boolean;
  /** `include_diverged_commits_count`: the target's commits the source branch lacks, counted by the route. */
  divergedCommitsCount?: number;
}

function mrLabels(state: State, mr: MergeRequest, details?: boolean) {
  const labels = mr.labelIds.map((id) => labelById(state, id)).filter((l): l is Label => !!l).sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return details ? labels.map(labelBasic) : labels.map((l) => l.title);
}

/** Entities::MergeRequestBasic. */
export function mergeRequestBasic(v: MergeRequestView, mr: MergeRequest) {
  const { state } = v;
  const project = tget(state.projects, mr.projectId)!;
  const user = (id: number | null) => {
    const u = id === null ? undefined : tget(state.users, id);
    return u ? userBasic(u, v) : null;
  };
  const assignees = mr.assigneeIds.map(user).filter((x) => x !== null);
  const milestone = issueMilestone(state, project, mr.milestoneId);
  const { fullPath } = projectPaths(state, project);
  const short = `!${mr.iid}`;
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description === '' ? null : mr.description,
    state: mr.state,
    created_at: iso(mr.createdAt),
    updated_at: iso(mr.updatedAt),
    merged_by: user(mr.mergedById),
    // metrics.merged_by, else the user who set auto-merge.
    merge_user: user(mr.mergedById ?? mr.autoMerge?.userId ?? null),
    merged_at: iso(mr.mergedAt),
    closed_by: user(mr.closedById),
    closed_at: iso(mr.closedAt),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: userNotesCount(v.state, noteKey('MergeRequest', mr.id)),
    upvotes: countAwards(state, { type: 'MergeRequest', id: mr.id }, 'thumbsup'),
    downvotes: countAwards(state, { type: 'MergeRequest', id: mr.id }, 'thumbsdown'),
    author: user(mr.authorId),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: mr.reviewerIds.map(user).filter((x) => x !== null),
    source_project_id: mr.projectId,
    target_project_id: mr.projectId,
    labels: mrLabels(state, mr, v.withLabelsDetails),
    draft: mr.draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: mr.draft,
    milestone: milestone ? milestoneEntity(state, milestone, v, v.now) : null,
    merge_when_pipeline_succeeds: !!mr.autoMerge,
    merge_status: mergeStatusOf(mr),
    detailed_merge_status: detailedMergeStatus(state, project, mr),
    merge_after: null,
    sha: mr.sha,
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: mr.squashCommitSha ?? null,
    discussion_locked: mr.discussionLocked ?? null,
    // should_remove_source_branch?: the merge's own parameter, as auto-merge keeps it.
    should_remove_source_branch: mr.autoMerge?.removeSourceBranch ?? null,
    force_remove_source_branch: mr.removeSourceBranch,
    prepared_at: iso(mr.createdAt),
    // Relative to the project (or group) of the request; across groups and projects, the full path.
    reference: v.projectId === mr.projectId ? short : `${fullPath}${short}`,
    references: {
      short,
      relative: v.projectId === mr.projectId ? short : v.groupId !== undefined && project.namespaceId === v.groupId ? `${project.path}${short}` : `${fullPath}${short}`,
      full: `${fullPath}${short}`,
    },
    web_url: `${projectWebUrl(state, project, v)}/-/merge_requests/${mr.iid}`,
    time_stats: timeStats(mr),
    squash: mr.squash,
    squash_on_merge: squashOnMerge(project, mr.squash),
    task_completion_status: taskCounts(mr.description),
    has_conflicts: mr.state === 'opened' && mr.mergeStatus === 'cannot_be_merged',
    blocking_discussions_resolved: discussionsResolved(state, project, mr),
  };
}

/**
 * Entities::MergeRequest: the basic fields, then subscription, changes, pipelines and diff_refs.
 * As a to-do's target it is rendered without the caller and the project (Entities::Todo passes
 * neither): not subscribed, no build fields, no head pipeline, not mergeable by anyone.
 */
export function mergeRequestEntity(v: MergeRequestView, mr: MergeRequest, changesCount: number | null, asTodoTarget = false) {
  const project = tget(v.state.projects, mr.projectId)!;
  const builds = !asTodoTarget && canUseFeature(v.state, v.viewer, project, 'builds', v.now);
  // The newest pipeline of the merge request's head, of its branch or for it (MergeRequest#diff_head_pipeline).
  const head = builds && canReadBuilds(v.state, v.viewer, project, v.now) ? diffHeadPipeline(v.state, mr) : undefined;
  return {
    ...mergeRequestBasic(v, mr),
    subscribed: !asTodoTarget && isSubscribed(v.state, socialTarget('MergeRequest', mr), v.viewer, v.now),
    changes_count: changesCount === null ? null : String(changesCount),
    ...(builds
      ? {
          latest_build_started_at: head ? iso(head.startedAt) : null,
          latest_build_finished_at: head ? iso(head.finishedAt) : null,
          first_deployed_to_production_at: null,
          pipeline: head ? pipelineBasic(v.state, head, v) : null,
        }
      : {}),
    ...(asTodoTarget ? {} : { head_pipeline: head ? pipelineEntity(v.state, head, v, v.now) : null }),
    diff_refs: { base_sha: mr.baseSha, head_sha: mr.sha, start_sha: mr.startSha },
    merge_error: mr.mergeError ?? null,
    ...(v.withRebaseInProgress ? { rebase_in_progress: !!mr.rebase } : {}),
    ...(v.divergedCommitsCount !== undefined ? { diverged_commits_count: v.divergedCommitsCount } : {}),
    ...(asTodoTarget ? {} : { first_contribution: false }),
    user: { can_merge: !asTodoTarget && v.viewer !== null && hasProjectRole(v.state, v.viewer, project, ACCESS.developer, v.now) },
  };
}
