// Artifact downloads through a "CDN", as GitLab answers with object storage (or its Google CDN):
// a 302 to a signed URL that expires, which the emulator serves itself, so a client's redirect
// handling is exercised. The URL names the upload (an archive is never changed, only replaced),
// so a replaced or deleted archive is 404 there, and a URL past its time or with a wrong
// signature is 403 as object storage answers, in XML.
import { ApiError } from '../../core/errors.js';
import { hash53 } from '../../core/hash.js';
import { int, str } from '../../http/params.js';
import { redirect, type Reply } from '../../http/route.js';
import { urlPath } from '../../render/url.js';
import { pget, tget } from '../../store/table.js';
import { route, type Context } from '../define.js';
import type { State } from '../world.js';
import type { Job, JobArtifacts } from './records.js';
import { archiveReply, entryReply } from './downloads.js';

const sign = (state: State, path: string, expires: number) => hash53(`${state.artifactCdn.secret}\n${path}\n${expires}`) + hash53(`${expires}\n${path}\n${state.artifactCdn.secret}`);

/** The answer a download gives: itself, or with the CDN on, a 302 to its signed URL. */
export function viaCdn(ctx: Context<unknown>, job: Job, a: JobArtifacts, entry: string | null, detect: boolean, direct: () => Reply): Reply {
  const cdn = ctx.state.artifactCdn;
  if (!cdn.enabled) return direct();
  const path = `/-/cdn/artifacts/${job.projectId}/${job.id}/${a.id}/${entry === null ? 'archive' : `${detect ? 'raw' : 'file'}/${urlPath(entry)}`}`;
  const expires = Math.floor(ctx.now() / 1000) + cdn.ttlSeconds;
  return redirect(`${ctx.webBase}${path}?expires=${expires}&signature=${sign(ctx.state, path, expires)}`);
}

const s3Error = (code: string, message: string) =>
  new ApiError(403, `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`, {}, 'application/xml');
const s3NotFound = () =>
  new ApiError(404, '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>', {}, 'application/xml');

/** The signed URL's artifacts, checked: signature, time, and that the upload is still there. */
function signed(ctx: Context<unknown>, p: { project_id: number; job_id: number; artifact_id: number; expires?: number; signature?: string }, rest: string): JobArtifacts {
  const path = `/-/cdn/artifacts/${p.project_id}/${p.job_id}/${p.artifact_id}/${rest}`;
  if (p.expires === undefined || p.signature !== sign(ctx.state, path, p.expires)) throw s3Error('SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  if (p.expires * 1000 < ctx.now()) throw s3Error('AccessDenied', 'Request has expired');
  const job = tget(ctx.state.jobs, p.job_id);
  const a = job && job.projectId === p.project_id ? pget(ctx.state.jobArtifacts, p.project_id, p.job_id) : undefined;
  if (!a || a.id !== p.artifact_id) throw s3NotFound();
  return a;
}

const SIGNED = { project_id: int().required(), job_id: int().required(), artifact_id: int().required(), expires: int(), signature: str() };

export const cdnRoutes = [
  route({
    method: 'GET',
    surface: 'web',
    path: '/-/cdn/artifacts/:project_id/:job_id/:artifact_id/archive',
    auth: 'none',
    params: SIGNED,
    handler: (ctx): Reply => archiveReply(signed(ctx, ctx.params, 'archive')),
  }),
  route({
    method: 'GET',
    surface: 'web',
    path: '/-/cdn/artifacts/:project_id/:job_id/:artifact_id/file/:file_path{.+}',
    auth: 'none',
    params: { ...SIGNED, file_path: str().required() },
    handler: (ctx): Reply => entryReply(signed(ctx, ctx.params, `file/${urlPath(ctx.params.file_path)}`), ctx.params.file_path, false),
  }),
  route({
    method: 'GET',
    surface: 'web',
    path: '/-/cdn/artifacts/:project_id/:job_id/:artifact_id/raw/:file_path{.+}',
    auth: 'none',
    params: { ...SIGNED, file_path: str().required() },
    handler: (ctx): Reply => entryReply(signed(ctx, ctx.params, `raw/${urlPath(ctx.params.file_path)}`), ctx.params.file_path, true),
  }),
];
