// A pipeline made from a compiled configuration (app/services/ci/create_pipeline_service.rb's
// Populate and Create steps): the pipeline with its stages and variables, one created job per
// planned job, then processed so the first jobs are queued. Interruptible pipelines of the same
// ref are canceled when a newer one starts (Ci::Pipeline auto_cancel_running_pipelines).
import type { Project } from '../../store/state.js';
import { pget, tget } from '../../store/table.js';
import type { State } from '../world.js';
import { plain } from '../define.js';
import { draftRefs, setOtherRef } from '../repositories/index.js';
import type { CompiledPipeline, JobPlan } from './config/types.js';
import type { Pipeline, PipelineVariable } from './records.js';
import { addJob, createPipeline, pipelineJobs, projectPipelines } from './pipelines.js';
import { moveJob, processPipeline } from './processing.js';
import { CANCELABLE_STATUSES } from './status.js';
import { deploymentForJob } from './environments.js';
import { ensureResourceGroup } from './resource-groups.js';

export interface CreateInput {
  ref: string;
  sha: string;
  beforeSha?: string;
  tag: boolean;
  userId: number;
  source: string;
  variables?: PipelineVariable[];
  mergeRequestIid?: number | null;
  triggerId?: number | null;
  scheduleId?: number | null;
  parentId?: number | null;
  /** Trigger jobs' child pipelines, compiled with this one, by job name. */
  children?: Record<string, CompiledPipeline>;
}

/** A planned job with GitLab's defaults for what a plan leaves out. */
export function planWithDefaults(given: Partial<JobPlan> & { name: string }): JobPlan {
  const p = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<JobPlan> & { name: string };
  return {
    stage: 'test', stageIdx: 0, when: 'on_success', startInSeconds: null, allowFailure: p.when === 'manual', allowFailureExitCodes: [], needs: null,
    variables: {}, script: [], beforeScript: [], afterScript: [], image: null, services: [], tags: [], timeoutSeconds: null,
    retry: { max: 0, when: [], exitCodes: [] }, interruptible: false, resourceGroup: null, environment: null, artifacts: null, trigger: null, coverage: null,
    ...p,
  };
}

/** Stores the pipeline and its jobs (created), then processes it; returns the pipeline as it stands. */
export function createFromPlan(draft: State, project: Project, compiled: CompiledPipeline, input: CreateInput, now: number): Pipeline {
  const stages = compiled.stages.length ? compiled.stages : [...new Set(compiled.jobs.map((j) => j.stage))];
  const pipeline = createPipeline(draft, project, {
    ref: input.ref, sha: input.sha, tag: input.tag, userId: input.userId, source: input.source, beforeSha: input.beforeSha, stages,
    variables: input.variables ?? [], mergeRequestIid: input.mergeRequestIid ?? null, name: compiled.name, triggerId: input.triggerId ?? null,
    scheduleId: input.scheduleId ?? null, parentId: input.parentId ?? null,
  }, now);
  const stored = pget(draft.pipelines, project.id, pipeline.id)!;
  // Ci::PersistentRef: what a runner fetches the pipeline's commit by.
  setOtherRef(draftRefs(draft, project.id), `refs/pipelines/${pipeline.id}`, input.sha);
  for (const plan of compiled.jobs) {
    if (plan.resourceGroup) ensureResourceGroup(draft, project.id, plan.resourceGroup, now);
    const { job } = addJob(draft, stored, {
      name: plan.name, stage: plan.stage, status: 'created', allowFailure: plan.allowFailure, tagList: plan.tags, runner: null,
      when: plan.when, stageIdx: plan.stageIdx, needs: plan.needs === null ? null : plan.needs.map((n) => n.name), plan,
      child: input.children && Object.hasOwn(input.children, plan.name) ? input.children[plan.name] : null,
    }, now, { refresh: false });
    deploymentForJob(draft, stored, job, now);
  }
  if (project.settings.auto_cancel_pending_pipelines !== 'disabled') autoCancelOlder(draft, project.id, stored, now);
  processPipeline(draft, project.id, pipeline.id, now);
  return plain(pget(draft.pipelines, project.id, pipeline.id)!);
}

/**
 * Auto-cancel redundant pipelines (Ci::PipelineCreation::CancelRedundantPipelinesService, unless
 * the project's `auto_cancel_pending_pipelines` is `disabled`): an
 * older, still alive pipeline of the same ref (a branch's, not a merge request's) with no
 * started job that is not interruptible is canceled.
 */
function autoCancelOlder(draft: State, projectId: number, fresh: Pipeline, now: number): void {
  const mr = (p: Pipeline) => p.source === 'merge_request_event';
  if (fresh.tag || fresh.parentId !== null || mr(fresh)) return;
  let seen = 0;
  for (const old of projectPipelines(draft, projectId)) {
    if (++seen > 100) break; // GitLab looks at recent pipelines only
    if (old.id >= fresh.id || old.ref !== fresh.ref || old.tag || old.parentId !== null || mr(old)) continue;
    if (!CANCELABLE_STATUSES.includes(old.status)) continue;
    const jobs = pipelineJobs(draft, old.id).filter((j) => !j.retried && j.when !== null);
    if (jobs.length === 0 || jobs.some((j) => j.startedAt !== null && !j.plan?.interruptible)) continue;
    for (const j of jobs) if (CANCELABLE_STATUSES.includes(j.status)) moveJob(draft, tget(draft.jobs, j.id)!, 'canceled', now);
    processPipeline(draft, projectId, old.id, now);
  }
}
