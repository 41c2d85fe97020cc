// What a trigger job hands its downstream pipeline, child or multi-project
// (Gitlab::Ci::Variables::Downstream::Generator, Ci::Bridge#downstream_variables): the job's YAML
// variables (the global ones it inherits and its own) unless `forward:yaml_variables: false`,
// then, with `forward:pipeline_variables: true`, the upstream pipeline's own variables (the
// API's, a trigger's, a schedule's); a later one of a key wins. They become the downstream
// pipeline's own variables.
import type { JobPlan } from './config/index.js';
import type { PipelineVariable } from './records.js';

export function downstreamVariables(plan: Pick<JobPlan, 'variables' | 'trigger'>, upstream: readonly PipelineVariable[]): PipelineVariable[] {
  const forward = plan.trigger?.forward ?? { yamlVariables: true, pipelineVariables: false };
  const all: PipelineVariable[] = [
    ...(forward.yamlVariables ? Object.entries(plan.variables).map(([key, value]) => ({ key, value, variableType: 'env_var' as const })) : []),
    ...(forward.pipelineVariables ? upstream : []),
  ];
  const byKey = new Map<string, PipelineVariable>();
  for (const v of all) {
    byKey.delete(v.key);
    byKey.set(v.key, v);
  }
  return [...byKey.values()];
}
