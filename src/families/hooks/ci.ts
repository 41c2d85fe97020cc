// Pipeline Hook and Job Hook (Gitlab::DataBuilder::Pipeline and ::Build): each status a
// pipeline or a job moves to reaches the hooks with pipeline or job events. The status is the
// event's own: timed work and test handles may move a job twice before their events settle.
import { pget, pvalues, tget } from '../../store/table.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import type { Job, Pipeline } from '../ci/index.js';
import { projectHookAttrs, userHookAttrs, utcTime, type Json } from './payloads.js';
import { sendToProject as send, type BuildEnv } from './subscribers.js';

const seconds = (from: number | null, to: number | null) => (from !== null && to !== null ? Math.round((to - from) / 1000) : null);

/** Project#hook_attrs(backward: false): without the deprecated URLs. */
function projectAttrs(state: State, projectId: number, webBase: string): Json {
  const { homepage: _h, url: _u, ssh_url: _s, http_url: _p, ...rest } = projectHookAttrs(state, tget(state.projects, projectId)!, webBase);
  return rest;
}

async function commitAttrs(env: BuildEnv, projectId: number, sha: string | null, web: string): Promise<Json | null> {
  if (!sha) return null;
  try {
    const c = await env.repo(projectId).readCommit(sha);
    return {
      id: sha, message: c.message, title: c.message.split(/\r?\n/, 1)[0], timestamp: new Date(c.committer.timestamp * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      url: `${web}/-/commit/${sha}`, author: { name: c.author.name, email: c.author.email },
    };
  } catch {
    return null;
  }
}

function jobsOf(state: State, pipeline: Pipeline): Job[] {
  return [...pvalues(state.pipelineJobs, pipeline.id)].flatMap((id) => tget(state.jobs, id) ?? []).filter((j) => !j.retried);
}

function buildAttrs(state: State, j: Job): Json {
  const user = tget(state.users, j.userId);
  return {
    id: j.id, stage: j.stage, name: j.name, status: j.status, created_at: utcTime(j.createdAt), started_at: utcTime(j.startedAt), finished_at: utcTime(j.finishedAt),
    duration: seconds(j.startedAt, j.finishedAt), queued_duration: seconds(j.queuedAt ?? j.createdAt, j.startedAt), failure_reason: j.failureReason,
    when: 'on_success', manual: j.status === 'manual', allow_failure: j.allowFailure, user: user ? userHookAttrs(user) : null,
    runner: j.runner ? { ...j.runner } : null, artifacts_file: { filename: null, size: null }, environment: null,
  };
}

function onPipeline(ctx: Context<unknown>, e: StoredEvent<'pipeline.status'>): void {
  const pipeline = pget(ctx.state.pipelines, e.projectId, e.pipelineId);
  if (!pipeline) return;
  send(ctx, e.projectId, 'pipeline_hooks', async (env) => {
    const project = projectAttrs(env.state, e.projectId, env.webBase);
    const web = project.web_url as string;
    const jobs = jobsOf(env.state, pipeline);
    const user = tget(env.state.users, pipeline.userId);
    return {
      object_kind: 'pipeline',
      object_attributes: {
        id: pipeline.id, iid: pipeline.iid, name: null, ref: pipeline.ref, tag: pipeline.tag, sha: pipeline.sha, before_sha: pipeline.beforeSha, source: pipeline.source,
        status: e.status, detailed_status: e.status, stages: [...new Set(jobs.map((j) => j.stage))], created_at: utcTime(pipeline.createdAt),
        finished_at: utcTime(pipeline.finishedAt), duration: seconds(pipeline.startedAt, pipeline.finishedAt), queued_duration: seconds(pipeline.createdAt, pipeline.startedAt),
        variables: [], url: `${web}/-/pipelines/${pipeline.id}`,
      },
      merge_request: null,
      user: user ? userHookAttrs(user) : null,
      project,
      commit: await commitAttrs(env, e.projectId, pipeline.sha, web),
      builds: jobs.map((j) => buildAttrs(env.state, j)),
    };
  });
}

function onJob(ctx: Context<unknown>, e: StoredEvent<'job.status'>): void {
  const job = tget(ctx.state.jobs, e.jobId);
  if (!job) return;
  const pipeline = job.pipelineId === null ? undefined : pget(ctx.state.pipelines, e.projectId, job.pipelineId);
  send(ctx, e.projectId, 'job_hooks', async (env) => {
    const full = projectHookAttrs(env.state, tget(env.state.projects, e.projectId)!, env.webBase);
    const user = tget(env.state.users, job.userId);
    const commit = await commitAttrs(env, e.projectId, job.sha, full.web_url);
    return {
      object_kind: 'build',
      ref: job.ref,
      tag: job.tag,
      before_sha: pipeline?.beforeSha ?? '0000000000000000000000000000000000000000',
      sha: job.sha,
      build_id: job.id,
      build_name: job.name,
      build_stage: job.stage,
      build_status: e.status,
      build_created_at: utcTime(job.createdAt),
      build_started_at: utcTime(job.startedAt),
      build_finished_at: utcTime(job.finishedAt),
      build_duration: seconds(job.startedAt, job.finishedAt),
      build_queued_duration: seconds(job.queuedAt ?? job.createdAt, job.startedAt),
      build_allow_failure: job.allowFailure,
      build_failure_reason: job.failureReason ?? 'unknown_failure',
      retries_count: 0,
      pipeline_id: job.pipelineId,
      project_id: e.projectId,
      project_name: `${tget(env.state.namespaces, tget(env.state.projects, e.projectId)!.namespaceId)?.name ?? ''} / ${full.name}`,
      user: user ? userHookAttrs(user) : null,
      commit: {
        id: job.pipelineId, name: null, sha: job.sha, message: commit?.message ?? null, author_name: (commit?.author as { name?: string } | undefined)?.name ?? null,
        author_email: (commit?.author as { email?: string } | undefined)?.email ?? null, author_url: null, status: pipeline?.status ?? null,
        duration: pipeline ? seconds(pipeline.startedAt, pipeline.finishedAt) : null, started_at: utcTime(pipeline?.startedAt ?? null), finished_at: utcTime(pipeline?.finishedAt ?? null),
      },
      repository: { name: full.name, url: full.url, description: full.description, homepage: full.homepage, git_http_url: full.git_http_url, git_ssh_url: full.git_ssh_url, visibility_level: full.visibility_level },
      project: full,
      runner: job.runner ? { ...job.runner } : null,
      environment: null,
    };
  });
}

/** `status_changed_at` as Deployment Hook renders it (`%F %T %z`, the instance's zone: UTC). */
const zonedTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, ' +0000');

/** Deployment Hook (Gitlab::DataBuilder::Deployment): a deployment that started or finished, with the status the event names. */
function onDeployment(ctx: Context<unknown>, e: StoredEvent<'deployment.status'>): void {
  const deployment = pget(ctx.state.deployments, e.projectId, e.deploymentId);
  const environment = deployment && pget(ctx.state.environments, e.projectId, deployment.environmentId);
  const user = deployment && tget(ctx.state.users, deployment.userId);
  if (!deployment || !environment || !user) return;
  const changedAt = deployment.finishedAt ?? deployment.updatedAt;
  send(ctx, e.projectId, 'deployment_hooks', async (env) => {
    const project = projectHookAttrs(env.state, tget(env.state.projects, e.projectId)!, env.webBase);
    const commit = await commitAttrs(env, e.projectId, deployment.sha, project.web_url);
    return {
      object_kind: 'deployment', status: e.status, status_changed_at: zonedTime(changedAt), deployment_id: deployment.id, deployable_id: deployment.jobId,
      deployable_url: deployment.jobId === null ? null : `${project.web_url}/-/jobs/${deployment.jobId}`, environment: environment.name,
      environment_tier: environment.tier, environment_slug: environment.slug, environment_external_url: environment.externalUrl, project,
      short_sha: deployment.sha.slice(0, 8), user: userHookAttrs(user), user_url: `${env.webBase}/${user.username}`,
      commit_url: `${project.web_url}/-/commit/${deployment.sha}`, commit_title: (commit?.title as string | undefined) ?? null, ref: deployment.ref,
    };
  });
}

export const ciSubscribers = { 'pipeline.status': onPipeline, 'job.status': onJob, 'deployment.status': onDeployment };
