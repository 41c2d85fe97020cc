// The .gitlab-ci.yml compiler: GitLab's Gitlab::Ci::Config and YamlProcessor, then the jobs a
// pipeline of one ref, source and set of variables gets. Pure: it reads the repository only
// through the input's readFile and paths.
import { readEntries, type Entries, type PolicySpec } from './entries.js';
import { ConfigError, expandVariables, loadConfig, type IncludeRecord } from './load.js';
import { logicalError, normalize, scoped, select, type Instance } from './select.js';
import type { CompiledPipeline, CompileInput } from './types.js';
import { dumpYaml } from './yaml.js';

export type { CompileInput, CompiledPipeline, JobPlan, PipelineSource, When } from './types.js';
export { parseExpression, holds } from './expression.js';
export { RULES_FAILURE, WORKFLOW_FAILURE } from './select.js';
export { repositorySnapshot, type RepositorySnapshot } from './snapshot.js';

interface Processed {
  errors: string[];
  warnings: string[];
  loaded: boolean;
  mergedYaml: string;
  includes: IncludeRecord[];
  entries: Entries | null;
  instances: Instance[];
}

/** YamlProcessor#execute: the merged file, its entries' errors, then the logical checks. */
function process(input: CompileInput): Processed {
  const empty = { warnings: [], mergedYaml: '', includes: [], entries: null, instances: [] };
  let loaded;
  try {
    loaded = loadConfig(input);
  } catch (e) {
    if (e instanceof ConfigError) return { ...empty, errors: [e.message], loaded: false };
    throw e;
  }
  const mergedYaml = dumpYaml(loaded.config);
  const entries = readEntries(loaded.config);
  const base = { warnings: entries.warnings, loaded: true, mergedYaml, includes: loaded.includes, entries };
  if (entries.errors.length) return { ...base, errors: entries.errors, instances: [] };
  const instances = normalize(entries.jobs);
  const logical = logicalError(entries.stages, instances);
  if (logical) return { ...base, errors: [logical], instances: [] };
  return { ...base, errors: [], instances };
}

/** The jobs a pipeline gets from the file, or GitLab's errors. */
export function compilePipeline(input: CompileInput): CompiledPipeline {
  const p = process(input);
  const stages = p.entries?.stages ?? [];
  const common = { warnings: p.warnings, stages, mergedYaml: p.mergedYaml, includes: p.includes, loaded: p.loaded };
  if (p.errors.length || !p.entries) return { ...common, errors: p.errors, created: true, jobs: [], name: null };
  const s = select(stages, p.entries.globalVariables, p.entries.workflowRules, p.instances, input);
  const nameVars = scoped(input, { ...p.entries.globalVariables, ...s.workflowVariables });
  const name = p.entries.workflowName === null ? null : expandVariables(p.entries.workflowName, nameVars);
  return { ...common, errors: s.errors, created: s.created, jobs: s.jobs, name };
}

/** A job as lint's `include_jobs` lists it (Gitlab::Ci::Lint#yaml_processor_result_to_jobs). */
export interface LintJob {
  name: string;
  stage: string;
  before_script: string[];
  script: string[];
  after_script: string[];
  tag_list: string[];
  only?: unknown;
  except?: unknown;
  environment: string | null;
  when: string;
  allow_failure: boolean;
  needs?: { name: string; artifacts: boolean; optional: boolean }[] | null;
}

export interface LintResult {
  valid: boolean;
  errors: string[];
  warnings: string[];
  merged_yaml: string | null;
  includes: IncludeRecord[] | null;
  jobs: LintJob[];
}

const policyValue = (p: PolicySpec | null): unknown => (p ? p.raw : null);

/** Gitlab::Ci::Warnings::MAX_LIMIT: lint shows at most this many warnings. */
const MAX_WARNINGS = 25;

/** Lint's static check: every job of the file, whatever the ref. */
export function lintConfig(input: CompileInput): LintResult {
  const p = process(input);
  const jobs: LintJob[] = [];
  if (!p.errors.length && p.entries) {
    for (const stage of p.entries.stages) {
      for (const inst of p.instances) {
        const j = inst.job;
        if (j.stage !== stage) continue;
        jobs.push({
          name: inst.name, stage, before_script: j.beforeScript, script: j.script, after_script: j.afterScript, tag_list: j.tags,
          only: policyValue(j.only), except: policyValue(j.except), environment: j.environment?.name ?? null,
          when: j.when, allow_failure: j.allowFailure, needs: inst.needs && inst.needs.map((n) => ({ name: n.name, artifacts: n.artifacts, optional: n.optional })),
        });
      }
    }
  }
  return {
    valid: p.errors.length === 0, errors: p.errors, warnings: p.warnings.slice(0, MAX_WARNINGS),
    merged_yaml: p.loaded ? p.mergedYaml : null, includes: p.loaded ? p.includes : null, jobs,
  };
}

/** Lint's dry run: the pipeline a push to the ref would create (Gitlab::Ci::Lint#simulate_pipeline_creation). */
export function lintDryRun(input: CompileInput): LintResult {
  const c = compilePipeline(input);
  const jobs: LintJob[] = c.jobs.map((j) => ({
    name: j.name, stage: j.stage, before_script: j.beforeScript, script: j.script, after_script: j.afterScript, tag_list: j.tags,
    environment: j.environment?.name ?? null, when: j.when, allow_failure: j.allowFailure,
  }));
  return {
    valid: c.errors.length === 0, errors: c.errors, warnings: c.warnings.slice(0, MAX_WARNINGS),
    merged_yaml: c.loaded ? c.mergedYaml : null, includes: c.loaded ? c.includes : null, jobs,
  };
}
