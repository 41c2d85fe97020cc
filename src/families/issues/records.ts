// The records of the issues family (app/models/issue.rb, timelog.rb, issue_link.rb).

export type IssueType = 'issue' | 'incident' | 'test_case' | 'task';
export const ISSUE_TYPES: readonly IssueType[] = ['issue', 'incident', 'test_case', 'task'];
export const SEVERITIES = ['unknown', 'low', 'medium', 'high', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

export interface Issue {
  id: number;
  iid: number;
  projectId: number;
  title: string;
  description: string;
  state: 'opened' | 'closed';
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  closedById: number | null;
  authorId: number;
  assigneeIds: number[];
  /** Label ids, in the order they were added. */
  labelIds: number[];
  milestoneId: number | null;
  /** `YYYY-MM-DD`. */
  dueDate: string | null;
  confidential: boolean;
  discussionLocked: boolean | null;
  issueType: IssueType;
  severity: Severity;
  movedToId: number | null;
  /** The issue this one was closed as a duplicate of (global id). */
  duplicatedToId: number | null;
  /** Seconds. */
  timeEstimate: number;
  totalTimeSpent: number;
  relativePosition: number | null;
  /** Higher tiers. */
  weight: number | null;
  epicId: number | null;
  iterationId: number | null;
  healthStatus: 'on_track' | 'needs_attention' | 'at_risk' | null;
  /** The epic this issue was promoted to (`/promote`); absent or null when never promoted. */
  promotedToEpicId?: number | null;
}

/** Where an issue lives, by its global id. */
export interface IssueLocation {
  projectId: number;
  iid: number;
}


/** A link between two issues (IssueLink): `relates_to`, or at the higher tiers `blocks`. */
export interface IssueLink {
  id: number;
  sourceId: number;
  targetId: number;
  linkType: 'relates_to' | 'blocks';
  createdAt: number;
  updatedAt: number;
}
