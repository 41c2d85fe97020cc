// Jobs and pipelines as GitLab renders them (lib/api/entities/ci/job_basic.rb, job.rb,
// job_artifact.rb, job_artifact_file.rb, pipeline_basic.rb, pipeline.rb, runner.rb,
// job_artifact_entry.rb).
import { tget } from '../../store/table.js';
import { iso } from '../../render/time.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { commitEntity } from '../commits/index.js';
import { projectWebUrl } from '../projects/index.js';
import { userBasic, userDetails, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { ArtifactEntry, Job, JobArtifacts, JobRunner, Pipeline } from './records.js';
import { artifactsOf, findPipeline } from './pipelines.js';

const seconds = (from: number | null, to: number | null): number | null => (from === null || to === null ? null : (to - from) / 1000);

function webBaseOf(state: State, projectId: number, u: UrlBase): string {
  const project = tget(state.projects, projectId);
  return project ? projectWebUrl(state, project, u) : u.webBase;
}

/** Entities::Ci::PipelineBasic. */
export function pipelineBasic(state: State, p: Pipeline, u: UrlBase) {
  return {
    id: p.id,
    iid: p.iid,
    project_id: p.projectId,
    sha: p.sha,
    ref: p.ref,
    status: p.status,
    source: p.source,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    web_url: `${webBaseOf(state, p.projectId, u)}/-/pipelines/${p.id}`,
  };
}

const STATUS_TEXT: Record<string, [string, string]> = {
  created: ['Created', 'created'], waiting_for_resource: ['Waiting', 'waiting for resource'], preparing: ['Preparing', 'preparing'],
  pending: ['Pending', 'pending'], running: ['Running', 'running'], success: ['Passed', 'passed'], failed: ['Failed', 'failed'],
  canceling: ['Canceling', 'canceling'], canceled: ['Canceled', 'canceled'], skipped: ['Skipped', 'skipped'], manual: ['Blocked', 'waiting for manual action'],
  scheduled: ['Scheduled', 'waiting for delayed job'],
};

/** Entities::Ci::Pipeline: the basic fields, the user, times and the detailed status. */
export function pipelineEntity(state: State, p: Pipeline, u: UrlBase, now: number) {
  const user = tget(state.users, p.userId);
  const [text, label] = STATUS_TEXT[p.status] ?? [p.status, p.status];
  const web = `${webBaseOf(state, p.projectId, u)}/-/pipelines/${p.id}`;
  const icon = `status_${p.status === 'manual' ? 'manual' : p.status}`;
  return {
    ...pipelineBasic(state, p, u),
    before_sha: p.beforeSha,
    tag: p.tag,
    yaml_errors: p.yamlErrors,
    user: user ? userBasic(user, u) : null,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    started_at: iso(p.startedAt),
    finished_at: iso(p.finishedAt),
    committed_at: null,
    duration: p.startedAt === null ? null : Math.round(((p.finishedAt ?? now) - p.startedAt) / 1000),
    queued_duration: p.startedAt === null ? null : Math.round((p.startedAt - p.createdAt) / 1000),
    coverage: null,
    detailed_status: {
      icon,
      text,
      label,
      group: p.status,
      tooltip: label,
      has_details: true,
      details_path: web.replace(/^https?:\/\/[^/]+/, ''),
      illustration: null,
      favicon: `/assets/ci_favicons/favicon_${icon}.png`,
    },
  };
}

/** Entities::Ci::Runner. */
function runnerEntity(r: JobRunner | null) {
  if (!r) return null;
  return {
    id: r.id, description: r.description, ip_address: null, active: true, paused: false, is_shared: r.runnerType === 'instance_type',
    runner_type: r.runnerType, name: 'gitlab-runner', online: true, status: 'online',
  };
}

/** The artifacts a job lists: its archive and metadata, and its log once the job is over. */
function artifactList(job: Job, a: JobArtifacts | undefined) {
  const out: { file_type: string; size: number; filename: string; file_format: string | null }[] = [];
  if (a) {
    out.push({ file_type: 'archive', size: a.archive.length, filename: 'artifacts.zip', file_format: 'zip' });
    out.push({ file_type: 'metadata', size: a.metadata.length, filename: 'metadata.gz', file_format: 'gzip' });
  }
  if (job.finishedAt !== null && job.trace !== '') out.push({ file_type: 'trace', size: new TextEncoder().encode(job.trace).length, filename: 'job.log', file_format: 'raw' });
  return out;
}

/** Entities::Ci::Job; reads the job's commit from the repository. */
export async function jobEntity(state: State, job: Job, u: UrlBase, now: number, repo: RepositoryObjects | null) {
  const user = tget(state.users, job.userId);
  const pipeline = job.pipelineId === null ? undefined : findPipeline(state, job.projectId, job.pipelineId);
  const web = webBaseOf(state, job.projectId, u);
  let commit = null;
  if (job.sha && repo) {
    try {
      commit = commitEntity(web, { sha: job.sha, commit: await repo.readCommit(job.sha) });
    } catch {
      commit = null;
    }
  }
  const a = artifactsOf(state, job);
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    name: job.name,
    ref: job.ref,
    tag: job.tag,
    coverage: job.coverage,
    allow_failure: job.allowFailure,
    created_at: iso(job.createdAt),
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
    erased_at: iso(job.erasedAt),
    duration: job.startedAt === null ? null : seconds(job.startedAt, job.finishedAt ?? now),
    queued_duration: job.queuedAt === null ? null : seconds(job.queuedAt, job.startedAt ?? now),
    user: user ? userDetails(user, { webBase: u.webBase, state, viewer: null, now }) : null,
    commit,
    pipeline: pipeline ? pipelineBasic(state, pipeline, u) : null,
    ...(job.status === 'failed' ? { failure_reason: job.failureReason } : {}),
    web_url: `${web}/-/jobs/${job.id}`,
    project: { ci_job_token_scope_enabled: false },
    ...(a ? { artifacts_file: { filename: 'artifacts.zip', size: a.archive.length } } : {}),
    artifacts: artifactList(job, a),
    runner: runnerEntity(job.runner),
    runner_manager: null,
    artifacts_expire_at: a ? iso(a.expireAt) : null,
    archived: false,
    tag_list: job.tagList,
  };
}

/** Entities::Ci::JobArtifactEntry. */
export function artifactEntryEntity(e: ArtifactEntry) {
  const dir = e.path.endsWith('/');
  const name = dir ? e.path.slice(0, -1).split('/').pop()! : e.path.split('/').pop()!;
  return {
    name,
    path: e.path,
    type: dir ? 'directory' : 'file',
    ...(dir ? {} : { size: e.size }),
    mode: e.mode.toString(8).padStart(6, '0'),
  };
}
