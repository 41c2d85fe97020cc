// POST /projects/:id/uploads (lib/api/project_uploads.rb) and the web paths its answer names:
// `/-/project/:id/uploads/:secret/:filename` and the older `/<full path>/uploads/:secret/:filename`.
import { projectByIdOrPath } from '../../policy/paths.js';
import { canReadProject } from '../../policy/access.js';
import { grapeError } from '../../core/errors.js';
import { any, str } from '../../http/params.js';
import { created, type Reply } from '../../http/route.js';
import type { Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { canUploadFile, createUpload, findUpload, sanitizeFilename, uploadMarkdown } from './rules.js';

const webNotFound = (): Reply => ({ status: 404, raw: '', contentType: 'text/html; charset=utf-8' });

const TYPES: Record<string, string> = {
  png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', ico: 'image/vnd.microsoft.icon',
  bmp: 'image/bmp', tif: 'image/tiff', tiff: 'image/tiff', mp4: 'video/mp4', webm: 'video/webm', mov: 'video/quicktime', mp3: 'audio/mpeg',
  wav: 'audio/x-wav', ogg: 'audio/ogg', pdf: 'application/pdf', txt: 'text/plain', md: 'text/plain', json: 'application/json', zip: 'application/zip',
};

/** Serves an upload, as UploadsController#show does: inline for images, video and audio, else as an attachment. */
async function serve(ctx: Context<unknown>, p: Project | undefined, secret: string, filename: string): Promise<Reply> {
  if (!p || p.pendingDelete || !canReadProject(ctx.state, ctx.user, p, ctx.now())) return webNotFound();
  const upload = findUpload(ctx.state, p.id, secret, filename);
  if (!upload) return webNotFound();
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

export const uploadRoutes = [
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
