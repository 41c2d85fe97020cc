// Multi-project pipelines (app/services/ci/create_downstream_pipeline_service.rb, app/models/ci/bridge.rb):
// a `trigger: project:` job, once queued, creates a pipeline in the other project at its
// `branch` (else that project's default branch) as the job's user, with the variables its
// `forward:` hands on (forward.ts) and source `pipeline`. Its preconditions fail the job with GitLab's reasons: a project the
// user cannot read, the job's own project, no right to create pipelines there or to update the
// branch, an upstream chain that loops. Without `strategy: depend` the job succeeds at once;
// with it, it runs until the downstream pipeline ends (processing.ts's bridgeFollowsDownstream).
import { canReadProject, hasProjectRole } from '../../policy/access.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { ACCESS } from '../../store/state.js';
import { pget, tget, tset } from '../../store/table.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { mayUpdateBranch, preparePipeline } from './create-service.js';
import { canCreatePipeline } from './pipeline-routes.js';
import { afterJobMoved, bridgeFollowsDownstream, failJob, moveJob } from './processing.js';
import type { Job, Pipeline } from './records.js';
import { downstreamVariables } from './forward.js';

/** Ci::CreateDownstreamPipelineService#has_cyclic_dependency?: the same project, ref and source more than twice up the chain. */
function loops(state: State, from: Pipeline): boolean {
  const seen = new Map<string, number>();
  let p: Pipeline | undefined = from;
  for (let hops = 0; p && hops < 1000; hops++) {
    if (p.parentId !== null) {
      p = pget(state.pipelines, p.projectId, p.parentId);
      continue;
    }
    const key = `${p.projectId}\n${p.ref}\n${p.source}`;
    const n = (seen.get(key) ?? 0) + 1;
    if (n > 2) return true;
    seen.set(key, n);
    const bridgeId = tget(state.upstreamBridges, p.id);
    const bridge = bridgeId === undefined ? undefined : tget(state.jobs, bridgeId);
    p = bridge?.pipelineId == null ? undefined : pget(state.pipelines, bridge.projectId, bridge.pipelineId);
  }
  return false;
}

/** `$VAR` and `${VAR}` of the job's variables in `branch:` (Ci::Bridge#target_ref). */
function expand(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\$(?:\{(\w+)\}|(\w+))/g, (all, a: string | undefined, b: string | undefined) => {
    const key = (a ?? b)!;
    return Object.hasOwn(vars, key) ? vars[key]! : '';
  });
}

/** A queued trigger job of another project: its downstream pipeline, or the job failed with GitLab's reason. */
export async function downstreamOnBridge(ctx: Context<unknown>, e: StoredEvent<'job.status'>): Promise<void> {
  if (e.status !== 'pending') return;
  const job = tget(ctx.state.jobs, e.jobId);
  const trigger = job?.plan?.trigger;
  if (!job || !trigger?.project || trigger.include?.length || job.downstreamId !== null || job.retried || job.pipelineId === null) return;
  const upstream = pget(ctx.state.pipelines, job.projectId, job.pipelineId);
  const source = tget(ctx.state.projects, job.projectId);
  if (!upstream || !source) return;
  const now = ctx.now();
  const user = tget(ctx.state.users, job.userId) ?? null;
  const fail = (reason: string) =>
    ctx.update((draft) => {
      const j = tget(draft.jobs, job.id);
      if (j && j.status === 'pending' && j.downstreamId === null) failJob(draft as State, j, reason, null, now);
    });
  const target = projectByIdOrPath(ctx.state, trigger.project);
  if (!target || target.pendingDelete || !canReadProject(ctx.state, user, target, now)) return void fail('downstream_bridge_project_not_found');
  if (target.id === source.id) return void fail('invalid_bridge_trigger');
  const vars = job.plan!.variables;
  const ref = trigger.branch !== null ? expand(trigger.branch, vars) : target.defaultBranch ?? '';
  // can?(:update_pipeline, project) && can?(:create_pipeline, downstream_project) && can_update_branch?(ref)
  const allowed = hasProjectRole(ctx.state, user, source, ACCESS.developer, now) && canCreatePipeline(ctx.state, user, target, now) && mayUpdateBranch(ctx.state, job.userId, target, ref, now);
  if (!allowed) return void fail('insufficient_bridge_permissions');
  if (loops(ctx.state, upstream)) return void fail('pipeline_loop_detected');
  const outcome = await preparePipeline(
    { state: ctx.state, now, webBase: ctx.webBase, repo: ctx.env.git.repository(target.id) },
    {
      project: target, userId: job.userId, source: 'pipeline', ref,
      variables: downstreamVariables(job.plan!, upstream.variables),
    },
  );
  ctx.update((d) => {
    const draft = d as State;
    const j = tget(draft.jobs, job.id);
    if (!j || j.status !== 'pending' || j.downstreamId !== null) return;
    if (!outcome.ok) return void failJob(draft, j, 'downstream_pipeline_creation_failed', null, now);
    const made = outcome.change(draft);
    j.downstreamId = made.id;
    j.downstreamProjectId = target.id;
    tset(draft.upstreamBridges, made.id, j.id);
    // Ci::Bridge#run, then success! unless it depends on the downstream pipeline.
    moveJob(draft, j, 'running', now);
    if (trigger.strategy === 'depend') bridgeFollowsDownstream(draft, pget(draft.pipelines, target.id, made.id)!, now);
    else moveJob(draft, j, 'success', now);
    afterJobMoved(draft, j as Job, now);
  });
}
