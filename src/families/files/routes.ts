// Repository files (content-api.md "Repository files"; lib/api/files.rb): metadata and Base64
// content, HEAD metadata, raw content (with LFS), blame, and create/update/delete as commits.
import { canPushCode, canReadCode } from '../repositories/index.js';
import { commitFiles, fileAt, personOf, type FileAction } from '../repositories/index.js';
import { lfsObject, refsOf, repoView, resolveCommit } from '../repositories/index.js';
import { blameRange, fileEntity, fileHeaders, fileMetadata, type FileFacts } from './entity.js';
import { contentInvalid, largeBlobThrottled, rangeOutsideFile, rangeStartAfterEnd } from './errors.js';
import { blame, blameRuns } from '../../git/blame.js';
import { fromBase64, parseLfsPointer, sha256Hex, utf8 } from '../../git/bytes.js';
import { isBinary } from '../../git/diff.js';
import { lastCommitForPath } from '../../git/history.js';
import type { RepositoryObjects, TreeEntry } from '../../git/objects.js';
import { MODE_EXECUTABLE } from '../../git/tree.js';
import { project, route, type Context } from '../define.js';
import { validFilePath } from '../../http/file-path.js';
import { malformedRequest, notFound } from '../../core/errors.js';
import { any, bool, hash, int, str } from '../../http/params.js';
import { LONE_SURROGATE } from '../../http/request-params.js';
import { created, json, noContent, type Reply, type Scope } from '../../http/route.js';
import type { User } from '../../store/state.js';

const SCOPES = ['read_repository', 'ai_workflows'];
const MAX_BLOB_SIZE = 10 * 1024 * 1024;

interface PathOptions {
  /** `/raw` takes an absolute path and looks it up without its leading separators. */
  allowInitialSeparator?: boolean;
}

const RAW_PATH: PathOptions = { allowInitialSeparator: true };

/** Grape's `file_path: true` validator: 400 for a path it refuses, else the path to look up. */
const filePath = (path: string, opts: PathOptions = {}) => validFilePath('file_path', path, opts);

/**
 * The scope of a file read. `file_path: true` is one of Grape's parameter validators, so a
 * path it refuses is 400 before the project is looked up; then the project and read_code.
 */
function readScope(opts: PathOptions = {}): Scope {
  const readable = project(canReadCode);
  return {
    param: readable.param,
    resolve(ctx, id) {
      filePath((ctx.params as { file_path: string }).file_path, opts);
      readable.resolve(ctx, id);
    },
  };
}

/** The caller of a write: push_code (the scope) refuses anonymous callers, so there is one. */
function pusher(ctx: Context<unknown>): User {
  if (!ctx.user) throw new Error('a push_code route reached its handler without a user');
  return ctx.user;
}

interface Located {
  repo: RepositoryObjects;
  commit: string;
  entry: TreeEntry;
  path: string;
}

/** The rest of `assign_file_vars!` once the scope has checked read_code: the commit of the ref, the blob at the path. */
async function locate(ctx: Context<unknown>, ref: string, path: string): Promise<Located> {
  const repo = ctx.env.git.repository(ctx.project.id);
  const commit = await resolveCommit(repo, repoView(ctx.state, ctx.project), ref);
  if (!commit) throw notFound('Commit');
  const entry = await fileAt(repo, commit, path);
  if (!entry) throw notFound('File');
  return { repo, commit, entry, path };
}

async function facts(l: Located, ref: string | undefined, content: Uint8Array): Promise<FileFacts> {
  return {
    path: l.path,
    size: content.length,
    contentSha256: await l.repo.memo(`sha256:${l.entry.oid}`, () => sha256Hex(content)),
    ref: ref ?? '',
    blobId: l.entry.oid,
    commitId: l.commit,
    lastCommitId: await lastCommitForPath(l.repo, l.commit, l.path),
    executable: l.entry.mode === MODE_EXECUTABLE,
  };
}

/** Headers of `set_http_headers`; a ref that was not sent is left out, as Grape drops nil headers. */
function headersOf(f: FileFacts, refSent: boolean): Record<string, string> {
  const h = fileHeaders(f);
  if (!refSent) {
    delete h['X-Gitlab-Ref'];
    delete h['X-Service-Ref'];
  }
  return h;
}

/** ActionDispatch::Http::ContentDisposition.format. */
function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  const encoded = encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

const NO_CACHE = {
  'Cache-Control': 'max-age=0, private, must-revalidate, no-store, no-cache',
  Pragma: 'no-cache',
  Expires: 'Fri, 01 Jan 1990 00:00:00 GMT',
};

/** `authorize! :push_code` of POST, PUT and DELETE; they do not check read_code. */
const WRITE = project(canPushCode);

const WRITE_PARAMS = {
  file_path: str().required(),
  branch: str().required().notBlank(),
  commit_message: str().required().notBlank(),
  start_branch: str(),
  author_email: str(),
  author_name: str(),
};

const CONTENT_PARAMS = {
  ...WRITE_PARAMS,
  content: any().required(),
  encoding: str().values(['base64', 'text']).default('text'),
  last_commit_id: str(),
  execute_filemode: bool(),
};

interface WriteParams {
  file_path: string;
  branch: string;
  commit_message: string;
  start_branch?: string;
  author_email?: string;
  author_name?: string;
  content?: unknown;
  encoding?: string;
  last_commit_id?: string;
  execute_filemode?: boolean;
}

/** Grape's String coercion of `content`; JSON null is an empty file. */
function contentBytes(p: WriteParams): Uint8Array {
  const c = p.content;
  if (c !== null && typeof c !== 'string' && typeof c !== 'number' && typeof c !== 'boolean') throw contentInvalid();
  const text = c === null || c === undefined ? '' : String(c);
  // Text that is no Unicode string (a NUL, half a surrogate pair) is what HandleMalformedStrings refuses.
  if (text.includes('\0') || LONE_SURROGATE.test(text)) throw malformedRequest();
  return p.encoding === 'base64' ? fromBase64(text) : utf8(text);
}

/** POST, PUT and DELETE, once the scope has checked push_code: one commit through the files services. */
async function write(ctx: Context<WriteParams>, action: FileAction['action']): Promise<string> {
  const p = ctx.params;
  const now = ctx.now();
  const path = filePath(p.file_path);
  const user = pusher(ctx);
  const me = personOf(user);
  const author = { name: p.author_name?.trim() || me.name, email: p.author_email?.trim() || me.email };
  const repo = ctx.env.git.repository(ctx.project.id);
  const file: FileAction = { action, path, lastCommitId: p.last_commit_id };
  if (action !== 'delete') {
    file.content = contentBytes(p);
    file.executable = p.execute_filemode;
  }
  const outcome = await commitFiles(repo, ctx.state, ctx.project, user, {
    branch: p.branch,
    startBranch: p.start_branch || undefined,
    message: p.commit_message,
    author,
    committer: me,
    actions: [file],
    now,
  });
  ctx.update(outcome.recipe);
  return p.branch;
}

export const fileRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/repository/files/:file_path/blame',
    scopes: SCOPES,
    cacheable: true,
    scope: readScope(),
    params: {
      file_path: str().required(),
      ref: str().required().notBlank(),
      range: hash({
        start: int().required().notBlank().where((n) => n > 0),
        end: int().required().notBlank().where((n) => n > 0),
      }),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const head = ctx.request.method === 'HEAD';
      const path = filePath(p.file_path);
      const range = head ? undefined : p.range;
      const l = await locate(ctx, p.ref, path);
      const f = await facts(l, p.ref, await l.repo.readBlob(l.entry.oid));
      Object.assign(ctx.responseHeaders, headersOf(f, true));
      if (range && range.start > range.end) throw rangeStartAfterEnd();
      if (head) return json(fileMetadata(f));
      const b = (await blame(l.repo, l.commit, path))!;
      const first = range ? range.start : 1;
      if (range && first > b.lines.length) throw rangeOutsideFile();
      const last = range ? Math.min(range.end, b.lines.length) : b.lines.length;
      const out = [];
      for (const g of blameRuns(b, first, last)) out.push(blameRange({ sha: g.sha, commit: await l.repo.readCommit(g.sha) }, g.lines));
      return json(out);
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/files/:file_path/raw',
    scopes: SCOPES,
    jobToken: true,
    cacheable: true,
    scope: readScope(RAW_PATH),
    params: { file_path: str().required(), ref: str().notBlank(), lfs: bool().default(false) },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const path = filePath(p.file_path, RAW_PATH);
      const l = await locate(ctx, p.ref ?? 'HEAD', path);
      const content = await l.repo.readBlob(l.entry.oid);
      const name = path.slice(path.lastIndexOf('/') + 1);
      const pointer = p.lfs ? parseLfsPointer(content) : null;
      if (pointer) {
        const stored = lfsObject(refsOf(ctx.state, ctx.project.id), pointer.oid);
        if (!stored) throw notFound();
        return {
          status: 200,
          raw: await l.repo.readBlob(stored),
          contentType: 'application/octet-stream',
          headers: { 'Content-Disposition': contentDisposition('attachment', name) },
        };
      }
      const binary = isBinary(content);
      // Workhorse sniffs the content: text is shown inline, anything else is downloaded.
      const shown = name.endsWith('.xhtml') ? name.slice(0, -'.xhtml'.length) : name;
      return {
        status: 200,
        raw: content,
        contentType: binary ? 'application/octet-stream' : 'text/plain; charset=utf-8',
        headers: {
          ...NO_CACHE,
          ...headersOf(await facts(l, p.ref, content), p.ref !== undefined),
          'Content-Disposition': contentDisposition(binary ? 'attachment' : 'inline', shown),
        },
      };
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/repository/files/:file_path',
    scopes: SCOPES,
    scope: readScope(),
    params: { file_path: str().required(), ref: str().required().notBlank() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const path = filePath(p.file_path);
      const l = await locate(ctx, p.ref, path);
      const content = await l.repo.readBlob(l.entry.oid);
      const head = ctx.request.method === 'HEAD';
      // check_rate_limit_for_blob: large blobs may be read through this route 5 times a minute.
      if (!head && content.length > MAX_BLOB_SIZE && !ctx.env.throttle('large_blob_download', `project:${ctx.project.id}`, { limit: 5, period_seconds: 60 }))
        throw largeBlobThrottled();
      const f = await facts(l, p.ref, content);
      Object.assign(ctx.responseHeaders, headersOf(f, true));
      return json(head ? fileMetadata(f) : fileEntity(f, content));
    },
  }),

  route({
    method: 'POST',
    path: '/projects/:id/repository/files/:file_path',
    scopes: SCOPES,
    scope: WRITE,
    params: CONTENT_PARAMS,
    handler: async (ctx) => {
      const branch = await write(ctx, 'create');
      return created({ file_path: ctx.params.file_path, branch });
    },
  }),

  route({
    method: 'PUT',
    path: '/projects/:id/repository/files/:file_path',
    scopes: SCOPES,
    scope: WRITE,
    params: CONTENT_PARAMS,
    handler: async (ctx) => {
      const branch = await write(ctx, 'update');
      return json({ file_path: ctx.params.file_path, branch });
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/repository/files/:file_path',
    scopes: SCOPES,
    scope: WRITE,
    params: { ...WRITE_PARAMS, last_commit_id: str() },
    handler: async (ctx) => {
      await write(ctx, 'delete');
      return noContent();
    },
  }),
];
