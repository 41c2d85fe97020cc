// The milestones family's part of the fixture format: milestones of a group or project.
import { arrayOf, nullable, object, oneOf, opt, str } from '../../core/schema.js';

export const milestoneSchema = object({
  title: str,
  description: opt(str),
  state: opt(oneOf('active', 'closed')),
  /** `YYYY-MM-DD`. */
  due_date: opt(nullable(str)),
  start_date: opt(nullable(str)),
});

export const milestonesSchema = object({ milestones: opt(arrayOf(milestoneSchema)) });
