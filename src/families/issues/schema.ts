// The issues family's part of the fixture format: the issues of a project.
import { arrayOf, bool, nullable, num, object, oneOf, opt, str } from '../../core/schema.js';

export const issueSchema = object({
  title: str,
  description: opt(str),
  /** Username; the project's creator when absent. */
  author: opt(str),
  assignees: opt(arrayOf(str)),
  /** Label titles; those the project cannot see yet become project labels. */
  labels: opt(arrayOf(str)),
  /** A milestone title of the project or one of its groups. */
  milestone: opt(str),
  state: opt(oneOf('opened', 'closed')),
  confidential: opt(bool),
  discussion_locked: opt(bool),
  /** `YYYY-MM-DD`. */
  due_date: opt(nullable(str)),
  /** ISO 8601 times; the seed's time when absent. */
  created_at: opt(str),
  updated_at: opt(str),
  closed_at: opt(str),
  closed_by: opt(str),
  iid: opt(num),
  issue_type: opt(oneOf('issue', 'incident', 'test_case', 'task')),
  weight: opt(nullable(num)),
  /** Durations in GitLab's language (`3h 30m`). */
  time_estimate: opt(str),
  time_spent: opt(str),
  relative_position: opt(nullable(num)),
  /** Higher tiers: the title of an epic of the project's group or its ancestors, an iteration's title, the health status. */
  epic: opt(str),
  iteration: opt(str),
  health_status: opt(oneOf('on_track', 'needs_attention', 'at_risk')),
});

export const issuesProjectSchema = object({ issues: opt(arrayOf(issueSchema)) });
