// The merge requests family's part of the fixture format: the merge requests of a project.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';

export const mergeRequestSchema = object({
  title: str,
  source_branch: str,
  /** The default branch when absent. */
  target_branch: opt(str),
  /** `Closes #n` here (or in a message of its commits) closes issue n when the merge request targets the default branch. */
  description: opt(str),
  author: opt(str),
  assignees: opt(arrayOf(str)),
  reviewers: opt(arrayOf(str)),
  labels: opt(arrayOf(str)),
  milestone: opt(str),
  state: opt(oneOf('opened', 'closed', 'merged')),
  created_at: opt(str),
});

export const mergeRequestsProjectSchema = object({ merge_requests: opt(arrayOf(mergeRequestSchema)) });
