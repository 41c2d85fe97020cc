// POST /projects/:id/uploads, and for maintainers the list, download and delete by id or by
// secret and name (lib/api/project_uploads.rb); the web paths an upload's answer names:
// `/-/project/:id/uploads/:secret/:filename` and the older `/<full path>/uploads/:secret/:filename`.
import { projectByIdOrPath } from '../../policy/paths.js';
import { canReadProject } from '../../policy/access.js';
import { grapeError, notFound } from '../../core/errors.js';
import { iso } from '../../render/time.js';
import { any, int, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import type { Project } from '../../store/state.js';
import { pget, plist, tget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { canAdminUploads, canUploadFile, createUpload, deleteUpload, findUpload, sanitizeFilename, uploadMarkdown } from './rules.js';
import type { Upload } from './records.js';

const webNotFound = (): Reply => ({ status: 404, raw: '', contentType: 'text/html; charset=utf-8' });

const TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', ico: 'image/vnd.microsoft.icon',
  bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', mp3: 'audio/mpeg',
  wav: 'audio/x-wav', ogg: 'audio/ogg', pdf: 'application/pdf', txt: 'text/plain', md: 'text/plain', json: 'application/json', zip: 'application/zip',
};

/** UploadsController#show: the upload, for those who may read the project (else the 404 page). */
async function serve(ctx: Context<unknown>, p: Project | undefined, secret: string, filename: string): Promise<Reply> {
  if (!p || p.pendingDelete || !canReadProject(ctx.state, ctx.user, p, ctx.now())) return webNotFound();
  const upload = findUpload(ctx.state, p.id, secret, filename);
  if (!upload) return webNotFound();
  return fileReply(ctx, p, upload);
}

/** The file of an upload, inline for images, video and audio, else as an attachment. */
async function fileReply(ctx: Context<unknown>, p: Project, upload: Upload): Promise<Reply> {
  const filename = upload.filename;
  const ext = filename.includes('.') ? filename.slice(filename.lastIndexOf('.') + 1).toLowerCase() : '';
  const type = Object.hasOwn(TYPES, ext) ? TYPES[ext]! : 'application/octet-stream';
  const inline = /^(image|video|audio)\//.test(type) && type !== 'image/svg+xml';
  const encoded = encodeURIComponent(filename).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return {
    status: 200,
    raw: await ctx.env.git.repository(p.id).readBlob(upload.oid),
    contentType: type,
    headers: {
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${filename.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')}"; filename*=UTF-8''${encoded}`,
      'Cache-Control': 'max-age=0, private, must-revalidate',
      'X-Content-Type-Options': 'nosniff',
    },
  };
}

/** Entities::ProjectUpload. */
function uploadEntity(ctx: Context<unknown>, u: Upload) {
  const by = tget(ctx.state.users, u.uploadedById);
  return { id: u.id, size: u.size, filename: u.filename, created_at: iso(u.createdAt), uploaded_by: by ? { id: by.id, username: by.username, name: by.name } : null };
}

function byId(ctx: Context<{ upload_id: number }>): Upload {
  const u = pget(ctx.state.uploads, ctx.project.id, ctx.params.upload_id);
  if (!u) throw notFound('Upload');
  return u;
}

function byPath(ctx: Context<{ secret: string; filename: string }>): Upload {
  const u = findUpload(ctx.state, ctx.project.id, ctx.params.secret, ctx.params.filename);
  if (!u) throw notFound('Upload');
  return u;
}

const ADMIN = project(canAdminUploads);

export const uploadRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/uploads',
    auth: 'user',
    cacheable: true,
    scope: ADMIN,
    paginated: true,
    handler: (ctx) => {
      const list = plist(ctx.state.uploads, ctx.project.id).sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      return json(ctx.paginate(list).map((u) => uploadEntity(ctx, u)));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/uploads/:upload_id',
    auth: 'user',
    scope: ADMIN,
    params: { upload_id: int().required() },
    handler: (ctx) => fileReply(ctx, ctx.project, byId(ctx)),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/uploads/:secret/:filename',
    auth: 'user',
    scope: ADMIN,
    params: { secret: str().required(), filename: str().required() },
    handler: (ctx) => fileReply(ctx, ctx.project, byPath(ctx)),
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/uploads/:upload_id',
    auth: 'user',
    scope: ADMIN,
    params: { upload_id: int().required() },
    handler: (ctx) => {
      ctx.update(deleteUpload(byId(ctx)));
      return noContent();
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/uploads/:secret/:filename',
    auth: 'user',
    scope: ADMIN,
    params: { secret: str().required(), filename: str().required() },
    handler: (ctx) => {
      ctx.update(deleteUpload(byPath(ctx)));
      return noContent();
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/uploads',
    auth: 'user',
    scope: project(canUploadFile),
    params: { file: any().required() },
    handler: async (ctx): Promise<Reply> => {
      const file = ctx.params.file;
      if (!(file instanceof Blob)) throw grapeError(400, 'file is invalid');
      const filename = sanitizeFilename((file as File).name ?? 'file');
      const bytes = new Uint8Array(await file.arrayBuffer());
      const oid = await ctx.env.git.repository(ctx.project.id).writeBlob(bytes);
      const upload = ctx.update(createUpload(ctx.project, ctx.user!, filename, oid, bytes.length, ctx.now()));
      const url = `/uploads/${upload.secret}/${upload.filename}`;
      const { alt, markdown } = uploadMarkdown(upload.filename, url);
      return created({ id: upload.id, alt, url, full_path: `/-/project/${ctx.project.id}/uploads/${upload.secret}/${encodeURIComponent(upload.filename)}`, markdown });
    },
  }),

  route({
    method: 'GET',
    surface: 'web',
    path: '/-/project/:project_id/uploads/:secret/:filename',
    params: { project_id: str().required(), secret: str().required(), filename: str().required() },
    handler: (ctx) => {
      const id = ctx.params.project_id;
      return serve(ctx, /^\d+$/.test(id) ? tget(ctx.state.projects, Number(id)) : undefined, ctx.params.secret, ctx.params.filename);
    },
  }),

  route({
    method: 'GET',
    surface: 'web',
    path: '/:web_path{.+/uploads/[0-9a-f]+/[^/]+}',
    params: { web_path: str().required() },
    handler: (ctx) => {
      const m = /^(.+)\/uploads\/([0-9a-f]{32})\/([^/]+)$/.exec(ctx.params.web_path);
      if (!m) return webNotFound();
      return serve(ctx, projectByIdOrPath(ctx.state, m[1]!.replace(/^\/+/, '')), m[2]!, m[3]!);
    },
  }),
];
