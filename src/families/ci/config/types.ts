// What the .gitlab-ci.yml compiler gives pipeline creation: the jobs a pipeline of one ref,
// source and set of variables gets, as GitLab's YamlProcessor and the creation chain
// (Ci::CreatePipelineService's Config, Seed and Populate steps) select them.

/** Where a pipeline comes from (`CI_PIPELINE_SOURCE`). */
export type PipelineSource =
  | 'push' | 'web' | 'api' | 'trigger' | 'schedule' | 'merge_request_event' | 'pipeline' | 'parent_pipeline'
  | 'external' | 'chat' | 'webide' | 'ondemand_dast_scan' | 'security_orchestration_policy';

/** What the compiler reads besides the file: the repository at the pipeline's commit, and the variables. */
export interface CompileInput {
  /** The text of `.gitlab-ci.yml` (or of the project's configured CI file). */
  yaml: string;
  /** A file of the repository at the pipeline's commit, for `include: local` and `rules: exists`; undefined when absent. */
  readFile(path: string): string | undefined;
  /** Every path of the repository at the commit (for `exists` globs). */
  paths(): readonly string[];
  /** Paths changed by the push or merge request (`rules: changes`); undefined when GitLab treats changes as true (new branch, tag, web, schedule...). */
  changedPaths?: readonly string[];
  /**
   * `rules:changes:compare_to`: the paths changed between the merge base of a ref (variables
   * expanded) and the pipeline's commit; null when the ref names no commit; undefined when not
   * known (then the clause holds, as with no changed paths at all).
   */
  changedSince?(ref: string): readonly string[] | null | undefined;
  /** Predefined, instance, group, project and pipeline variables, already resolved for this ref (protected ones only on protected refs). */
  variables: Readonly<Record<string, string>>;
  source: PipelineSource;
  /** The pipeline's `inputs` (for a file with a `spec:inputs` header). */
  inputs?: Readonly<Record<string, unknown>>;
  /** The project and commit the file is read at, for lint's `includes` links (`blob`, `raw`, `context_*`); absent leaves them null. */
  project?: { fullPath: string; webUrl: string; sha: string };
}

export type When = 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed' | 'never';

/** One job of the compiled pipeline (a `parallel` job is already expanded into its `name 1/3`... jobs). */
export interface JobPlan {
  name: string;
  stage: string;
  /** Index of the stage in `stages` (for ordering). */
  stageIdx: number;
  when: Exclude<When, 'never'>;
  /** `start_in` of a delayed job, in seconds. */
  startInSeconds: number | null;
  allowFailure: boolean;
  /** `allow_failure: exit_codes`. */
  allowFailureExitCodes: number[];
  /** `needs`: the names of the jobs it waits for (null: no `needs`, it waits for earlier stages). */
  needs: { name: string; artifacts: boolean; optional: boolean }[] | null;
  /** The job's own variables (global ones merged in, `rules:variables` applied). */
  variables: Record<string, string>;
  script: string[];
  beforeScript: string[];
  afterScript: string[];
  image: string | null;
  services: string[];
  tags: string[];
  timeoutSeconds: number | null;
  retry: { max: number; when: string[]; exitCodes: number[] };
  interruptible: boolean;
  resourceGroup: string | null;
  environment: { name: string; action: 'start' | 'prepare' | 'stop' | 'verify' | 'access'; url: string | null; onStop: string | null; autoStopIn: string | null } | null;
  artifacts: { paths: string[]; expireIn: string | null; reports: string[]; name: string | null; when: 'on_success' | 'on_failure' | 'always'; public: boolean } | null;
  /** A trigger job (child or multi-project pipeline) instead of a script. */
  trigger: {
    include: string[] | null; project: string | null; branch: string | null; strategy: 'depend' | null;
    /** `forward:` what the downstream pipeline is handed (Ci::Bridge::FORWARD_DEFAULTS: the job's YAML variables, not the pipeline's); absent: the defaults. */
    forward?: { yamlVariables: boolean; pipelineVariables: boolean };
  } | null;
  coverage: string | null;
  /** Names of `variables` declared with `expand: false` (their `$` references are not expanded). */
  rawVariables?: string[];
  /** `dependencies`: the jobs whose artifacts it downloads (null: all of earlier stages). */
  dependencies?: string[] | null;
  /** `cache` (default's when the job has none): each cache with its key, paths and policy. */
  cache?: { key: string | { files?: string[]; filesCommits?: string[]; prefix: string | null }; paths: string[]; untracked: boolean; policy: string; when: string; fallbackKeys: string[] }[];
  /** Position in the file, for a stable order within a stage. */
  index?: number;
}

export interface CompiledPipeline {
  /** Lint errors, GitLab's messages (`jobs:test config contains unknown keys: foo`...); no jobs when there are any. */
  errors: string[];
  warnings: string[];
  /**
   * Whether a pipeline is made at all. False with `errors` naming why: `Pipeline filtered out by
   * workflow rules.`, or no job kept by the rules (`Pipeline will not run for the selected
   * trigger...`). True with `errors`: the file is wrong, and GitLab keeps a failed pipeline.
   */
  created: boolean;
  stages: string[];
  jobs: JobPlan[];
  /** The configuration after `include`, `extends` and `!reference` are resolved, as YAML (lint's `merged_yaml`). */
  mergedYaml: string;
  /** The files included, as lint's `includes` lists them. */
  includes: { type: string; location: string; blob: string | null; raw: string | null; extra: Record<string, unknown>; context_project: string | null; context_sha: string | null }[];
  /** `workflow:name`, expanded. */
  name: string | null;
  /** Whether the file and its includes loaded (false: YAML or include errors; lint then answers `merged_yaml` and `includes` null). */
  loaded?: boolean;
}
