// The members family's part of the fixture format: the groups a group or project is shared with.
import { arrayOf, object, opt, str } from '../../core/schema.js';
import { accessLevelSchema } from '../users/index.js';

export const shareSchema = object({
  /** The invited group's full path. */
  group: str,
  group_access: opt(accessLevelSchema),
  /** `YYYY-MM-DD`. */
  expires_at: opt(str),
});

export const sharesSchema = object({ shared_with_groups: opt(arrayOf(shareSchema)) });
