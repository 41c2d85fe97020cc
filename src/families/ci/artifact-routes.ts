// Job artifacts (lib/api/ci/job_artifacts.rb, lib/api/helpers.rb present_artifacts_file!):
// downloads by job and by ref, one file by path, the archive's tree, keep, and deletes. GETs
// take job tokens; any other method needs a signed-in caller (`authenticate_non_get!`).
import { badRequest, notFound, recordNotFound } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { accepted, json, noContent, type Reply } from '../../http/route.js';
import { forbidden } from '../../core/errors.js';
import { project, route, type Context } from '../define.js';
import { validArtifactPath } from './archive.js';
import { archiveReply, entryReply } from './downloads.js';
import { viaCdn } from './cdn.js';
import { artifactsMetadataNotFound, artifactsNotFound, pathNotFound } from './errors.js';
import { artifactEntryEntity } from './job-entity.js';
import { renderJob } from './job-routes.js';
import {
  artifactsOf, canDestroyArtifacts, canReadBuilds, canReadJobArtifacts, canUpdateBuilds, deleteJobArtifacts, expireProjectArtifacts, findJob, keepArtifacts,
  latestSuccessfulJobForRef,
} from './pipelines.js';
import type { Job, JobArtifacts } from './records.js';

const READ = project(canReadBuilds);

function jobOf(ctx: Context<unknown>, id: number): Job {
  const job = findJob(ctx.state, ctx.project.id, id);
  if (!job) throw recordNotFound();
  return job;
}

/** authorize_read_job_artifacts!: non-public artifacts are for developers. */
function readable(ctx: Context<unknown>, job: Job): JobArtifacts | undefined {
  const a = artifactsOf(ctx.state, job);
  if (a && !canReadJobArtifacts(ctx.state, ctx.user, ctx.project, a, ctx.now())) throw forbidden();
  return a;
}

/** The archive, or with the CDN on a 302 to its signed URL. */
function archiveDownload(ctx: Context<unknown>, job: Job): Reply {
  const a = readable(ctx, job);
  const reply = archiveReply(a);
  return viaCdn(ctx, job, a!, null, false, () => reply);
}

/** One file, or with the CDN on (once the path is known good) a 302 to its signed URL. */
function entryDownload(ctx: Context<unknown>, job: Job, path: string, detect: boolean): Reply {
  const a = readable(ctx, job);
  const reply = entryReply(a, path, detect);
  return viaCdn(ctx, job, a!, path, detect, () => reply);
}

function byRef(ctx: Context<unknown>, ref: string, name: string, searchRecent: boolean): Job {
  const job = latestSuccessfulJobForRef(ctx.state, ctx.project.id, name, ref, searchRecent);
  if (!job) throw searchRecent ? notFound('Job') : recordNotFound();
  return job;
}

export const artifactRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/jobs/artifacts/:ref_name{.+}/download',
    jobToken: true,
    scope: READ,
    params: { ref_name: str().required(), job: str().required(), search_recent_successful_pipelines: bool().default(false) },
    handler: (ctx): Reply => {
      const job = byRef(ctx, ctx.params.ref_name, ctx.params.job, ctx.params.search_recent_successful_pipelines);
      return archiveDownload(ctx, job);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/artifacts/:ref_name{.+}/raw/:artifact_path{.+}',
    jobToken: true,
    scope: READ,
    params: { ref_name: str().required(), artifact_path: str().required(), job: str().required(), search_recent_successful_pipelines: bool().default(false) },
    handler: (ctx): Reply => {
      const job = byRef(ctx, ctx.params.ref_name, ctx.params.job, ctx.params.search_recent_successful_pipelines);
      return entryDownload(ctx, job, ctx.params.artifact_path, true);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id/artifacts',
    jobToken: true,
    scope: READ,
    params: { job_id: int().required() },
    handler: (ctx): Reply => archiveDownload(ctx, jobOf(ctx, ctx.params.job_id)),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id/artifacts/tree',
    jobToken: true,
    scope: READ,
    paginated: true,
    params: { job_id: int().required(), path: str(), recursive: bool().default(false) },
    handler: (ctx): Reply => {
      const a = readable(ctx, jobOf(ctx, ctx.params.job_id));
      if (!a) throw artifactsNotFound();
      if (a.metadata.length === 0) throw artifactsMetadataNotFound();
      const raw = (ctx.params.path ?? '').replace(/^\/+/, '');
      if (!validArtifactPath(raw)) throw badRequest();
      const dir = raw === '' || raw.endsWith('/') ? raw : `${raw}/`;
      if (dir !== '' && !a.entries.some((e) => e.path === dir)) throw pathNotFound();
      const under = a.entries.filter((e) => e.path.startsWith(dir) && e.path !== dir);
      const list = ctx.params.recursive ? under : under.filter((e) => !e.path.slice(dir.length).replace(/\/$/, '').includes('/'));
      return json(ctx.paginate(list).map(artifactEntryEntity));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/jobs/:job_id/artifacts/:artifact_path{.+}',
    jobToken: true,
    scope: READ,
    params: { job_id: int().required(), artifact_path: str().required() },
    handler: (ctx): Reply => entryDownload(ctx, jobOf(ctx, ctx.params.job_id), ctx.params.artifact_path, false),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/jobs/:job_id/artifacts/keep',
    auth: 'user',
    scope: project(canUpdateBuilds),
    params: { job_id: int().required() },
    handler: async (ctx): Promise<Reply> => {
      const job = jobOf(ctx, ctx.params.job_id);
      if (!artifactsOf(ctx.state, job)) throw notFound('Build');
      ctx.update(keepArtifacts(job));
      // The spec's Job for keep-artifacts carries download_url; GitLab's documented answer has it null.
      return json({ ...(await renderJob(ctx, job)), download_url: null }, 200);
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/jobs/:job_id/artifacts',
    auth: 'user',
    scope: project(canDestroyArtifacts),
    params: { job_id: int().required() },
    handler: (ctx): Reply => {
      ctx.update(deleteJobArtifacts(jobOf(ctx, ctx.params.job_id)));
      return noContent();
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/artifacts',
    auth: 'user',
    scope: project(canDestroyArtifacts),
    params: {},
    handler: (ctx): Reply => {
      ctx.update(expireProjectArtifacts(ctx.project.id, ctx.now()));
      return accepted();
    },
  }),
];
