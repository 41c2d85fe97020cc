// The members family's part of the fixture format: the groups a group or project is shared with.
import { arrayOf, object, opt, str } from '../../core/schema.js';
import { accessLevelSchema } from '../users/index.js';

export const sharesSchema = object({
  shared_with_groups: opt(arrayOf(object({ group: str, group_access: opt(accessLevelSchema), expires_at: opt(str) }))),
});
