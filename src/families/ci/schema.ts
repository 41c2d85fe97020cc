// The CI family's part of the fixture format: plan limits and instance variables at the top,
// variables of groups and projects, and a project's pipelines.
import { arrayOf, bool, merge, num, object, oneOf, opt, recordOf, str, type Schema } from '../../core/schema.js';

const STATUS = oneOf('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled');

const instanceVariable = {
  key: str,
  value: str,
  variable_type: opt(oneOf('env_var', 'file')),
  protected: opt(bool),
  masked: opt(bool),
  raw: opt(bool),
  description: opt(str),
};
export const variableSchema = object({ ...instanceVariable, masked_and_hidden: opt(bool), environment_scope: opt(str) });

export const pipelineJobSchema = object({
  name: str,
  stage: opt(str),
  status: opt(STATUS),
  user: opt(str),
  allow_failure: opt(bool),
  failure_reason: opt(str),
  coverage: opt(num),
  tags: opt(arrayOf(str)),
  log: opt(str),
  token: opt(str),
  artifacts: opt(object({ files: recordOf(str), expire_in: opt(str), public: opt(bool), keep: opt(bool) })),
});

const pipelineProps = { ref: opt(str), user: opt(str), source: opt(str), status: opt(STATUS), jobs: opt(arrayOf(pipelineJobSchema)) };
const withChildren = <S extends Schema>(inner: S) => object({ ...pipelineProps, children: opt(arrayOf(inner)) });
/** A pipeline holds child pipelines of the same shape: four levels, more than GitLab's limit of two levels of children. */
export const pipelineSchema = withChildren(withChildren(withChildren(object(pipelineProps))));

export const ciTopSchema = object({
  /** Plan limits: `{ project_ci_variables: 1 }`. */
  ci_limits: opt(object({ project_ci_variables: opt(num), group_ci_variables: opt(num), ci_instance_level_variables: opt(num) })),
  /** Instance-level variables (`/admin/ci/variables`). */
  instance_variables: opt(arrayOf(object(instanceVariable))),
  /** Runner registration tokens: `allowed` (ApplicationSetting#allow_runner_registration_token, off by default) and the instance's `token`. */
  runner_registration: opt(object({ allowed: opt(bool), token: opt(str) })),
});
export const ciGroupSchema = object({ variables: opt(arrayOf(variableSchema)) });
/** How a job ends when the emulator runs it: `{ status: 'failed', exit_code: 1, after: '3m' }`. */
const outcomeSchema = object({
  status: oneOf('success', 'failed', 'canceled'),
  /** How long it runs (`3m`, `90s`); at once by default. */
  after: opt(str),
  exit_code: opt(num),
  failure_reason: opt(str),
  log: opt(str),
});
export const pipelinesSchema = object({
  pipelines: opt(arrayOf(pipelineSchema)),
  /** Outcomes chosen ahead: the emulator takes this project's jobs as they are queued and ends them as planned, on the clock. */
  ci_outcomes: opt(object({ jobs: opt(recordOf(outcomeSchema)), otherwise: opt(outcomeSchema) })),
});
export const ciProjectSchema = merge(ciGroupSchema, pipelinesSchema);
