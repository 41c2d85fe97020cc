// The CI records a project keeps: variables (of projects, groups and the instance), pipelines,
// and what a job carries beyond the core's record (src/store/state.ts `Job`): its artifacts.

export type VariableType = 'env_var' | 'file';

/** Ci::Variable, Ci::GroupVariable or Ci::InstanceVariable. */
export interface CiVariable {
  id: number;
  variableType: VariableType;
  key: string;
  value: string;
  hidden: boolean;
  protected: boolean;
  masked: boolean;
  raw: boolean;
  /** `*` for instance variables, which have no scope. */
  environmentScope: string;
  description: string | null;
}

/** Plan limits (PlanLimits): how many variables an owner may hold. */
export interface CiLimits {
  project_ci_variables: number;
  group_ci_variables: number;
  ci_instance_level_variables: number;
}

export const DEFAULT_CI_LIMITS: CiLimits = { project_ci_variables: 8000, group_ci_variables: 30000, ci_instance_level_variables: 25 };
