// The projects family's part of the fixture format: each project's own keys.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';
import { memberSchema, projectTokenSchema } from '../users/index.js';

const JOB_STATUS = oneOf('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled');

export const projectSchema = object({
  path: str,
  name: opt(str),
  namespace: str,
  visibility: opt(oneOf('private', 'internal', 'public')),
  description: opt(str),
  default_branch: opt(str),
  topics: opt(arrayOf(str)),
  creator: opt(str),
  members: opt(arrayOf(memberSchema)),
  tokens: opt(arrayOf(projectTokenSchema)),
  jobs: opt(arrayOf(object({ name: str, status: opt(JOB_STATUS), user: str, ref: opt(str), token: opt(str) }))),
  job_token_allowlist: opt(arrayOf(str)),
});
