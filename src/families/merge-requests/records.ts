// The record of the merge requests family (app/models/merge_request.rb, merge_request_diff.rb as
// far as the routes show it).

/** A merge request as data: branches and SHAs of the project's repository, and what the routes show. */
export interface MergeRequest {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed' | 'merged' | 'locked';
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  closedById: number | null;
  mergedAt: number | null;
  mergedById: number | null;
  authorId: number;
  assigneeIds: number[];
  reviewerIds: number[];
  labelIds: number[];
  milestoneId: number | null;
  sourceBranch: string;
  targetBranch: string;
  /** The source branch's tip and the merge base when the MR was made or last refreshed. */
  sha: string;
  baseSha: string;
  startSha: string;
  /**
   * MergeabilityCheckService's result at the last head and target it saw: `unchecked` after the
   * target branch or the target moved (a read checks again), else whether it merges cleanly.
   */
  mergeStatus: 'unchecked' | 'can_be_merged' | 'cannot_be_merged';
  mergeCommitSha: string | null;
  draft: boolean;
  squash: boolean;
  removeSourceBranch: boolean;
  /** Seconds. */
  timeEstimate: number;
  totalTimeSpent: number;
  /** `discussion_locked`: absent or null until locked or unlocked. */
  discussionLocked?: boolean | null;
}
