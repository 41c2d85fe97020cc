// The projects family's part of the fixture format: each project's own keys.
import { arrayOf, object, oneOf, opt, str } from '../../core/schema.js';
import { memberSchema, projectTokenSchema } from '../users/index.js';

const JOB_STATUS = oneOf('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled');

export const jobSchema = object({
  name: str,
  status: opt(JOB_STATUS),
  user: str,
  ref: opt(str),
  /** The job's CI_JOB_TOKEN; generated when absent. */
  token: opt(str),
});

export const projectSchema = object({
  path: str,
  name: opt(str),
  /** Full path of the owning group, or a username. */
  namespace: str,
  visibility: opt(oneOf('private', 'internal', 'public')),
  description: opt(str),
  default_branch: opt(str),
  topics: opt(arrayOf(str)),
  /** Username of the creator; the namespace's owner (or the first admin) when absent. */
  creator: opt(str),
  members: opt(arrayOf(memberSchema)),
  /** Project access tokens: each gets a bot user who is a member with `access_level`. */
  tokens: opt(arrayOf(projectTokenSchema)),
  jobs: opt(arrayOf(jobSchema)),
  /** Full paths of projects whose CI job tokens may reach this project. */
  job_token_allowlist: opt(arrayOf(str)),
});
