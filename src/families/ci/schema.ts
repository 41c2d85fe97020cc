// The CI family's part of the fixture format: plan limits and instance variables at the top,
// variables of groups and projects, and a project's pipelines.
import { arrayOf, bool, num, object, oneOf, opt, recordOf, str, type Schema } from '../../core/schema.js';

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

const pipelineProps: Record<string, Schema> = { ref: opt(str), user: opt(str), source: opt(str), status: opt(STATUS), jobs: opt(arrayOf(pipelineJobSchema)) };
/** A pipeline holds child pipelines of the same shape: four levels, more than GitLab's limit of two levels of children. */
const pipeline = [0, 1, 2].reduce<Schema>((inner) => object({ ...pipelineProps, children: opt(arrayOf(inner)) }), object(pipelineProps));

export const ciTopSchema = object({
  ci_limits: opt(object({ project_ci_variables: opt(num), group_ci_variables: opt(num), ci_instance_level_variables: opt(num) })),
  instance_variables: opt(arrayOf(object(instanceVariable))),
});
export const ciGroupSchema = object({ variables: opt(arrayOf(variableSchema)) });
export const ciProjectSchema = object({ variables: opt(arrayOf(variableSchema)), pipelines: opt(arrayOf(pipeline)) });
