// The groups family's part of the fixture format: each group's own keys.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';
import { memberSchema } from '../users/index.js';

export const groupSchema = object({
  path: str,
  name: opt(str),
  /** Full path of the parent group. */
  parent: opt(str),
  visibility: opt(oneOf('private', 'internal', 'public')),
  description: opt(str),
  members: opt(arrayOf(memberSchema)),
});
