// The milestones family's part of the fixture format: milestones of a group or project.
import { arrayOf, nullable, object, oneOf, opt, str } from '../../core/schema.js';

export const milestonesSchema = object({
  milestones: opt(arrayOf(object({ title: str, description: opt(str), state: opt(oneOf('active', 'closed')), due_date: opt(nullable(str)), start_date: opt(nullable(str)) }))),
});
