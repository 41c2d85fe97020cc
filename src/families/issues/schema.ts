// The issues family's part of the fixture format: the issues of a project.
import { arrayOf, bool, nullable, num, object, oneOf, opt, str } from '../../core/schema.js';

export const issueSchema = object({
  title: str,
  description: opt(str),
  author: opt(str),
  assignees: opt(arrayOf(str)),
  labels: opt(arrayOf(str)),
  milestone: opt(str),
  state: opt(oneOf('opened', 'closed')),
  confidential: opt(bool),
  discussion_locked: opt(bool),
  due_date: opt(nullable(str)),
  created_at: opt(str),
  updated_at: opt(str),
  closed_at: opt(str),
  closed_by: opt(str),
  iid: opt(num),
  issue_type: opt(oneOf('issue', 'incident', 'test_case', 'task')),
  weight: opt(nullable(num)),
  time_estimate: opt(str),
  time_spent: opt(str),
  relative_position: opt(nullable(num)),
  epic: opt(str),
  iteration: opt(str),
  health_status: opt(oneOf('on_track', 'needs_attention', 'at_risk')),
});

export const issuesProjectSchema = object({ issues: opt(arrayOf(issueSchema)) });
