// The CI records a project keeps: variables (of projects, groups and the instance), pipelines,
// jobs and their artifacts.
import type { CompiledPipeline, JobPlan } from './config/types.js';
import type { JobWhen } from './status.js';

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

/** Ci::HasStatus: what a job (and so a pipeline) may be. */
export type JobStatus =
  | 'created' | 'waiting_for_resource' | 'preparing' | 'pending' | 'running' | 'success' | 'failed' | 'canceling' | 'canceled'
  | 'skipped' | 'manual' | 'scheduled';

/** A pipeline's status: a job's, composed from its jobs' (`compositeStatus`). */
export type PipelineStatus = JobStatus;

/** Ci::Pipeline: one run for a ref and commit; a child pipeline names its parent. */
export interface Pipeline {
  id: number;
  iid: number;
  projectId: number;
  sha: string | null;
  beforeSha: string;
  ref: string;
  tag: boolean;
  status: PipelineStatus;
  source: string;
  userId: number;
  parentId: number | null;
  childIds: number[];
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** `artifacts_locked`: set while it is the latest successful pipeline of its ref (children follow their root). */
  locked: boolean;
  /** The stages of its configuration, in order (empty for a pipeline made as data). */
  stages: string[];
  /** Variables given to this pipeline (the API's, a trigger's, a schedule's). */
  variables: PipelineVariable[];
  /** The merge request of a merge request pipeline. */
  mergeRequestIid: number | null;
  /** `workflow:name`. */
  name: string | null;
  /** Why its configuration could not make jobs (`yaml_errors`). */
  yamlErrors: string | null;
  /** The trigger or schedule that made it. */
  triggerId: number | null;
  scheduleId: number | null;
}

/** A variable given to one pipeline (Ci::PipelineVariable). */
export interface PipelineVariable {
  key: string;
  value: string;
  variableType: VariableType;
}

/** One entry of an archive's metadata (what Workhorse's metadata file lists): directories end in `/`. */
export interface ArtifactEntry {
  path: string;
  size: number;
  mode: number;
  crc: number;
}

/** A job's archive (Ci::JobArtifact `archive` and `metadata`), with its expiry. */
export interface JobArtifacts {
  /** Each upload's own id: an archive is never changed, only replaced by a new upload. */
  id: number;
  jobId: number;
  archive: Uint8Array;
  /** GitLab's metadata file: gzip of the version, the errors and each entry. */
  metadata: Uint8Array;
  entries: ArtifactEntry[];
  createdAt: number;
  expireAt: number | null;
  /** Kept (`keep_artifacts!`): never expires, and is spared by a project-wide delete. */
  kept: boolean;
  /** `artifacts:public`: false makes them Developer-only. */
  public: boolean;
}

/** How the next artifact cleanups behave: chosen ahead, by a test. */
export interface CleanupPlan {
  /** How many runs still fail (leave every file, run again after `retryMs`). */
  failNext: number;
  /** How long after its due time each cleanup runs. */
  lagMs: number;
  retryMs: number;
}

/** Downloads through a "CDN": a 302 to a signed URL that expires, which the emulator also serves. */
export interface ArtifactCdn {
  enabled: boolean;
  ttlSeconds: number;
  /** Signs the URLs; drawn from the world's seed when the CDN is switched on. */
  secret: string;
}

/** The runner a job ran on, as Entities::Ci::Runner shows it. */
export interface JobRunner {
  id: number;
  description: string;
  runnerType: 'instance_type' | 'group_type' | 'project_type';
}

/**
 * A CI job (Ci::Build), in the world's `jobs`: its job token is valid while it runs
 * (authentication asks this family who a job token acts as: the `jobUser` operation).
 */
export interface Job {
  id: number;
  projectId: number;
  name: string;
  status: JobStatus;
  userId: number;
  ref: string;
  /** The pipeline it belongs to; null only while a fixture's jobs wait for the CI seed phase. */
  pipelineId: number | null;
  stage: string;
  tag: boolean;
  /** The commit it ran on; null when the project has no repository. */
  sha: string | null;
  createdAt: number;
  queuedAt: number | null;
  startedAt: number | null;
  finishedAt: number | null;
  erasedAt: number | null;
  coverage: number | null;
  allowFailure: boolean;
  failureReason: string | null;
  tagList: string[];
  runner: JobRunner | null;
  /** Retried jobs are hidden from lists unless asked for (`include_retried`). */
  retried: boolean;
  /** The log, as stored (job tokens and masked values already masked). */
  trace: string;
  /**
   * How processing moves it once its predecessors complete (`when`); null for a job made as
   * data (a fixture's or a test handle's), which moves only when told.
   */
  when: JobWhen | null;
  /** Its stage's position among the pipeline's stages. */
  stageIdx: number;
  /** `needs`: the names of the jobs it waits for (a DAG job); null waits for the earlier stages. */
  needs: string[] | null;
  /** When a delayed job starts. */
  scheduledAt: number | null;
  exitCode: number | null;
  /** What its configuration says (script, image, variables...): what a runner is handed. */
  plan: JobPlan | null;
  /** How many times it was retried automatically before (`retry:`). */
  retryCount: number;
  /** A trigger job's child pipeline, compiled with its parent (null: none, or not a trigger job). */
  child: CompiledPipeline | null;
  /** The pipeline a trigger job started. */
  downstreamId: number | null;
  /** Whether the runner that took it cancels gracefully (its `cancel_gracefully` feature): a cancel waits for it in `canceling`. */
  cancelGracefully?: boolean;
  /** Its project, when another project's (a multi-project pipeline); null: the job's own. */
  downstreamProjectId?: number | null;
  /** Variables given when a manual job was played (`job_variables_attributes`). */
  jobVariables: { key: string; value: string }[];
}

/** A job record with its defaults: what the fields not given start as. */
export function newJob(fields: Pick<Job, 'id' | 'projectId' | 'name' | 'status' | 'userId' | 'ref'> & Partial<Job>, now: number): Job {
  return {
    pipelineId: null, stage: 'test', tag: false, sha: null, createdAt: now, queuedAt: null, startedAt: null, finishedAt: null, erasedAt: null,
    coverage: null, allowFailure: false, failureReason: null, tagList: [], runner: null, retried: false, trace: '',
    when: null, stageIdx: 0, needs: null, scheduledAt: null, exitCode: null, plan: null, retryCount: 0, child: null, downstreamId: null, jobVariables: [],
    ...fields,
  };
}
