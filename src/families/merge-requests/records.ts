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
  /** Each reviewer's state and when they were asked, first asked first (reviewers.ts); absent in older worlds. */
  reviewerStates?: { userId: number; state: ReviewerState; createdAt: number }[];
  /** The authors of its submitted reviews, each once, first review first (`reviewed_by_users`); absent before any. */
  reviewAuthorIds?: number[];
  labelIds: number[];
  milestoneId: number | null;
  sourceBranch: string;
  targetBranch: string;
  /** The source branch's tip and the merge base when the MR was made or last refreshed. */
  sha: string;
  baseSha: string;
  startSha: string;
  /** Its latest diff version (merge_request_diffs) after a push: the diff's id and how many versions it has (its first, when made, is 1). */
  diffVersion?: { id: number; count: number };
  /**
   * MergeabilityCheckService's result at the last head and target it saw: `unchecked` after the
   * target branch or the target moved (a read checks again), else whether it merges cleanly.
   */
  mergeStatus: 'unchecked' | 'checking' | 'can_be_merged' | 'cannot_be_merged';
  /** While `checking`: the verdict the check worker records when it runs. */
  pendingMergeStatus?: 'can_be_merged' | 'cannot_be_merged' | null;
  mergeCommitSha: string | null;
  /** The commit a squashing merge merged (the squash commit, or a lone head); absent or null otherwise. */
  squashCommitSha?: string | null;
  draft: boolean;
  squash: boolean;
  removeSourceBranch: boolean;
  /** Seconds. */
  timeEstimate: number;
  totalTimeSpent: number;
  /** `discussion_locked`: absent or null until locked or unlocked. */
  discussionLocked?: boolean | null;
  /** Auto-merge (AutoMergeService): set by whom, for which head, with the merge's own parameters; absent or null when not set. */
  autoMerge?: AutoMerge | null;
  /** `merge_error`: why the last merge, automatic merge or rebase failed; absent or null when none did. */
  mergeError?: string | null;
  /** Where `refs/merge-requests/:iid/merge` points (MergeToRefService), once a merge ref was made. */
  mergeRefSha?: string | null;
  /** A rebase under way (RebaseService, a worker in GitLab): what it will leave when it finishes. */
  rebase?: PendingRebase | null;
  /** The ids of the issues it closes as last worked out while open (MergeRequestsClosingIssues; closing.ts); absent on a record kept without them. */
  closesIssueIds?: number[];
  /** The issues `Closes #n` names in its commits' messages, as of its latest diff. */
  commitClosingRefs?: { projectId: number; iid: number }[];
}

/** MergeRequestReviewerState's states. */
export type ReviewerState = 'unreviewed' | 'reviewed' | 'requested_changes' | 'approved' | 'unapproved' | 'review_started';

/** The merge_when_pipeline_succeeds strategy as set on a merge request. */
export interface AutoMerge {
  /** AutoMergeService's strategies: this family's, and a merge train's (its car, or its wait for the head pipeline). */
  strategy: 'merge_when_pipeline_succeeds' | 'merge_train' | 'add_to_merge_train_when_checks_pass';
  userId: number;
  /** The head it was set for: a push of another head aborts it. */
  sha: string;
  commitMessage?: string;
  squashCommitMessage?: string;
  removeSourceBranch?: boolean;
}

/** A rebase written but not yet applied: the new head, or the error it ends with. */
export interface PendingRebase {
  from: string;
  to: string | null;
  /** The target's tip it was rebased onto. */
  onto: string;
  error: string | null;
  userId: number;
  /** `skip_ci`: the rebased head's push carries `ci.skip`. */
  skipCi?: boolean;
}

/** An approval rule (ApprovalProjectRule, ApprovalMergeRequestRule): of the project, or of one of its merge requests. */
export interface ApprovalRule {
  id: number;
  projectId: number;
  /** The merge request it belongs to; null for a rule of the project. */
  mergeRequestId: number | null;
  name: string;
  ruleType: 'regular' | 'any_approver';
  approvalsRequired: number;
  userIds: number[];
  groupIds: number[];
  /** A project rule: whether it applies to every protected branch (it applies to all branches here). */
  appliesToAllProtectedBranches: boolean;
  /** A merge request rule made from a project rule (`approval_project_rule_id`). */
  sourceRuleId: number | null;
}

/** A project's approval settings (ee/lib/api/project_approvals.rb). */
export interface ApprovalSettings {
  approvalsBeforeMerge: number;
  resetApprovalsOnPush: boolean;
  disableOverridingApproversPerMergeRequest: boolean;
  mergeRequestsAuthorApproval: boolean;
  mergeRequestsDisableCommittersApproval: boolean;
  requirePasswordToApprove: boolean;
  selectiveCodeOwnerRemovals: boolean;
}
