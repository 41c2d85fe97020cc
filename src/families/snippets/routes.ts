// Project snippets (lib/api/project_snippets.rb) and personal snippets (lib/api/snippets.rb):
// list, get, raw (the first file at the head), a file at a ref (a branch or a commit of the
// snippet's repository), create, update with file actions, delete, and the user agent detail.
import { isBinary } from '../../git/diff.js';
import { missingAttribute } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { validFilePath } from '../../http/file-path.js';
import type { Incoming } from '../../http/incoming.js';
import { offsetHeaders, pageRequest, type PageInput } from '../../http/pagination.js';
import { arr, datetime, hash, int, str, type Constraint } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { VISIBILITIES } from '../../policy/visibility.js';
import type { Project } from '../../store/state.js';
import { tget, tvaluesDesc } from '../../store/table.js';
import { repositoryStorageOf } from '../repositories/index.js';
import { gitWork, project, route, subject, type Ability, type Context } from '../define.js';
import { snippetEntity } from './entity.js';
import {
  contentBlank, fileNotFound, forbiddenSnippet, invalidActions, multipleFilesNeedFiles, referenceNotFound, snippetNotFound, snippetRecordNotFound,
  userAgentDetailNotFound,
} from './errors.js';
import type { Snippet } from './records.js';
import { filesAt, resolveSnippetRef, snippetHead, snippetRepoKey, toCommitAction, validAction, type InputAction } from './repository.js';
import {
  allSnippets, authoredSnippets, canAdminSnippet, canCreateProjectSnippet, canReadSnippet, inRange, projectSnippets, publicSnippets, snippetsEnabled,
  type CreatedRange,
} from './rules.js';
import { checkedForSpam, createSnippet, deleteSnippet, updateSnippet, type SnippetChanges } from './service.js';

const CREATE_FILES = arr(hash({ file_path: str().required().notBlank(), content: str().required().notBlank() }));
const UPDATE_FILES = arr(
  hash({ action: str().values(['create', 'update', 'delete', 'move'] as const).required(), content: str(), file_path: str(), previous_path: str() }),
);
const CREATE_CONSTRAINTS: Constraint[] = [
  { kind: 'mutually_exclusive', names: ['files', 'content'] },
  { kind: 'exactly_one_of', names: ['files', 'content'] },
];
const UPDATE_CONSTRAINTS: Constraint[] = [
  { kind: 'mutually_exclusive', names: ['files', 'content'] },
  { kind: 'mutually_exclusive', names: ['files', 'file_name'] },
  { kind: 'at_least_one_of', names: ['content', 'description', 'files', 'file_name', 'title', 'visibility'] },
];
const VISIBILITY = str().values(VISIBILITIES);
const SNIPPET_ID = { snippet_id: int().required() };
const CREATED = { created_after: datetime(), created_before: datetime() };

/** Grape's `file_path: true` on each file's paths. */
function checkFilePaths(files: readonly InputAction[] | undefined): void {
  files?.forEach((f, i) => {
    if (f.file_path !== undefined) validFilePath(`files[${i}][file_path]`, f.file_path);
    if (f.previous_path !== undefined) validFilePath(`files[${i}][previous_path]`, f.previous_path);
  });
}

/** The user agent detail of a request: its User-Agent and address. */
const userAgentOf = (request: Incoming) => ({ userAgent: request.headers.get('user-agent') ?? '', ipAddress: requestAddress(request) });

/** The client's address as the front proxy reports it (X-Forwarded-For, X-Real-IP), else the local one. */
function requestAddress(request: Incoming): string {
  const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  return forwarded || request.headers.get('x-real-ip') || '127.0.0.1';
}

interface CreateParams {
  title: string;
  description?: string;
  visibility: (typeof VISIBILITIES)[number];
  files?: { file_path: string; content: string }[];
  content?: string;
  file_name?: string;
}

/** Snippets::CreateService's input: `files` as create actions, else `content` with its `file_name` (required with it). */
async function create(ctx: Context<CreateParams>, p: Project | null): Promise<Reply> {
  const params = ctx.params;
  checkFilePaths(params.files);
  if (params.content !== undefined && params.file_name === undefined) throw missingAttribute('file_name');
  let actions: InputAction[];
  if (params.files) {
    actions = params.files.map((f) => ({ action: 'create', file_path: f.file_path, content: f.content }));
    if (!actions.every((a) => validAction(a, 'create'))) throw invalidActions();
    if (actions.length === 0) throw contentBlank();
  } else actions = [{ file_path: params.file_name, content: params.content }];
  const snippet = ctx.update(await createSnippet(gitWork(ctx), p, {
    title: params.title,
    description: params.description,
    visibility: params.visibility,
    actions,
    ...(checkedForSpam(null, { visibility: params.visibility }, true) && ctx.request.headers.get('user-agent') ? { userAgent: userAgentOf(ctx.request) } : {}),
  }));
  return created(render(ctx, snippet));
}

interface UpdateParams {
  title?: string;
  description?: string;
  visibility?: (typeof VISIBILITIES)[number];
  files?: InputAction[];
  content?: string;
  file_name?: string;
}

/**
 * `validate_params_for_multiple_files`, SnippetInputAction's validations (422), then what
 * Snippets::UpdateService commits: the actions, or the legacy `content`/`file_name` as one action
 * on the first file.
 */
function changesOf(s: Snippet, p: UpdateParams): SnippetChanges {
  checkFilePaths(p.files);
  if ((p.content !== undefined || p.file_name !== undefined) && s.paths.length > 1) throw multipleFilesNeedFiles();
  const changes: SnippetChanges = { title: p.title, description: p.description, visibility: p.visibility };
  if (p.files) {
    if (!p.files.every((a) => validAction(a))) throw invalidActions();
    changes.actions = p.files.map(toCommitAction);
    if (p.files.length > 0) changes.fileName = p.files[0]!.file_path ?? '';
  } else if (p.content !== undefined || p.file_name !== undefined) {
    const onRepo = s.paths[0];
    changes.actions = [{ previous_path: onRepo, file_path: p.file_name ?? onRepo, content: p.content }];
    if (p.file_name !== undefined) changes.fileName = p.file_name;
  }
  return changes;
}

/** A snippet the caller may read (of the route's project, when it names one), else 404. */
function visible(ctx: Context<unknown>, id: number, p?: Project): Snippet {
  const s = tget(ctx.state.snippets, id);
  if (!s || (p && s.projectId !== p.id) || !canReadSnippet(ctx.state, ctx.user, s, ctx.now())) throw snippetNotFound();
  return s;
}

/** A snippet of the scoped project that the caller may read (`:snippet_id`), else 404 Snippet Not Found; then each ability. */
const projectSnippet = (...abilities: Ability<Snippet>[]) => subject<Snippet, { snippet_id: number }>((ctx) => visible(ctx, ctx.params.snippet_id, ctx.project), ...abilities);

/** Any snippet the caller may read (`:id`), else 404 Snippet Not Found. */
const readableSnippet = subject<Snippet, { id: number }>((ctx) => visible(ctx, ctx.params.id));

/** PUT and DELETE /snippets/:id find the snippet among the caller's own (`snippets_for_current_user`, else 404), then `admin_snippet`. */
const ownSnippet = subject<Snippet, { id: number }>((ctx) => {
  const s = tget(ctx.state.snippets, ctx.params.id);
  if (!s || s.authorId !== ctx.user?.id) throw snippetNotFound();
  return s;
}, canAdminSnippet);

/** The snippet `:id` names, seen or not (`Snippet.find`: 404 Not found), for the administrators' user agent detail. */
const snippetRecord = subject<Snippet, { id: number }>((ctx) => {
  const s = tget(ctx.state.snippets, ctx.params.id);
  if (!s) throw snippetRecordNotFound();
  return s;
});

/** As `snippetRecord`, among the scoped project's snippets (`:snippet_id`). */
const projectSnippetRecord = subject<Snippet, { snippet_id: number }>((ctx) => {
  const s = tget(ctx.state.snippets, ctx.params.snippet_id);
  if (!s || s.projectId !== ctx.project.id) throw snippetRecordNotFound();
  return s;
});

/** ActionDispatch::Http::ContentDisposition.format. */
function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&');
  const encoded = encodeURIComponent(name).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** `send_git_blob`: text inline as text/plain, anything else downloaded (Workhorse sniffs it). */
async function sendBlob(ctx: Context<unknown>, s: Snippet, oid: string, path: string): Promise<Reply> {
  const content = await ctx.env.git.repository(snippetRepoKey(s.id)).readBlob(oid);
  const binary = isBinary(content);
  return {
    status: 200,
    raw: content,
    contentType: binary ? 'application/octet-stream' : 'text/plain; charset=utf-8',
    headers: { 'Content-Disposition': contentDisposition(binary ? 'attachment' : 'inline', path.slice(path.lastIndexOf('/') + 1)) },
  };
}

/** `content_for`: the first file at the head of the snippet's branch. */
async function contentFor(ctx: Context<unknown>, s: Snippet): Promise<Reply> {
  const head = snippetHead(ctx.state, s);
  const path = s.paths[0];
  if (!head || path === undefined) throw fileNotFound();
  const entry = (await filesAt(ctx.env.git.repository(snippetRepoKey(s.id)), head)).get(path);
  if (!entry) throw fileNotFound();
  return sendBlob(ctx, s, entry.oid, path);
}

/** `file_content_for`: the file at a ref of the snippet's repository. */
async function fileContentFor(ctx: Context<unknown>, s: Snippet, ref: string, filePath: string): Promise<Reply> {
  if (!snippetHead(ctx.state, s)) throw snippetNotFound();
  const path = validFilePath('file_path', filePath);
  const repo = ctx.env.git.repository(snippetRepoKey(s.id));
  const sha = await resolveSnippetRef(repo, ctx.state, s, ref);
  if (!sha) throw referenceNotFound();
  const entry = (await filesAt(repo, sha)).get(path);
  if (!entry) throw fileNotFound();
  return sendBlob(ctx, s, entry.oid, path);
}

function userAgentDetail(s: Snippet): Reply {
  if (!s.userAgent) throw userAgentDetailNotFound();
  return json({ user_agent: s.userAgent.userAgent, ip_address: s.userAgent.ipAddress, akismet_submitted: false });
}

const render = (ctx: Context<unknown>, s: Snippet) => snippetEntity(ctx.state, s, ctx, ctx.user);
const renderAll = (ctx: Context<unknown>, list: Snippet[]) => json(ctx.paginate(list).map((s) => render(ctx, s)));

/**
 * A page of a list read newest first off a table of `total` rows, lazily: it reads only the
 * chunks up to the page, so a page costs the same at any number of snippets.
 */
function renderPage(ctx: Context<unknown>, total: number, newestFirst: Iterable<Snippet>): Reply {
  const { page, perPage } = pageRequest(ctx.params as PageInput);
  const skip = (page - 1) * perPage;
  const out: Snippet[] = [];
  let i = 0;
  for (const s of newestFirst) {
    if (i++ < skip) continue;
    if (out.length === perPage) break;
    out.push(s);
  }
  Object.assign(ctx.responseHeaders, offsetHeaders(total, ctx.params as PageInput, ctx.linkBase));
  return json(out.map((s) => render(ctx, s)));
}

function* snippetsById(state: Context<unknown>['state'], ids: Iterable<number>): IterableIterator<Snippet> {
  for (const id of ids) {
    const s = tget(state.snippets, id);
    if (s) yield s;
  }
}

const unfiltered = (p: CreatedRange) => p.created_after === undefined && p.created_before === undefined;
const SCOPE = project(snippetsEnabled);

export const projectSnippetRoutes = [
  route({
    method: 'GET', path: '/projects/:id/snippets', auth: 'user', scope: SCOPE, paginated: true,
    handler: (ctx) => renderAll(ctx, projectSnippets(ctx.state, ctx.user, ctx.project, ctx.now())),
  }),
  route({
    method: 'GET', path: '/projects/:id/snippets/:snippet_id', scope: SCOPE, params: SNIPPET_ID, subject: projectSnippet(),
    handler: (ctx) => json(render(ctx, ctx.subject)),
  }),
  route({
    method: 'GET', path: '/projects/:id/snippets/:snippet_id/raw', scope: SCOPE, params: SNIPPET_ID, subject: projectSnippet(),
    handler: (ctx) => contentFor(ctx, ctx.subject),
  }),
  route({
    method: 'GET', path: '/projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', scope: SCOPE,
    params: { ...SNIPPET_ID, ref: str().required(), file_path: str().required() }, subject: projectSnippet(),
    handler: (ctx) => fileContentFor(ctx, ctx.subject, ctx.params.ref, ctx.params.file_path),
  }),
  route({
    method: 'GET', path: '/projects/:id/snippets/:snippet_id/user_agent_detail', auth: 'admin', scope: SCOPE, params: SNIPPET_ID, subject: projectSnippetRecord,
    handler: (ctx) => userAgentDetail(ctx.subject),
  }),
  route({
    method: 'POST', path: '/projects/:id/snippets', auth: 'user', scope: project(snippetsEnabled, canCreateProjectSnippet),
    params: { title: str().required().notBlank(), description: str(), visibility: VISIBILITY.required(), files: CREATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: CREATE_CONSTRAINTS,
    handler: (ctx) => create(ctx as Context<CreateParams>, ctx.project),
  }),
  route({
    method: 'PUT', path: '/projects/:id/snippets/:snippet_id', auth: 'user', scope: SCOPE,
    params: { ...SNIPPET_ID, title: str().notBlank(), description: str(), visibility: VISIBILITY, files: UPDATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: UPDATE_CONSTRAINTS, subject: projectSnippet(canAdminSnippet),
    handler: async (ctx) => json(render(ctx, ctx.update(await updateSnippet(gitWork(ctx), ctx.subject, { ...changesOf(ctx.subject, ctx.params as UpdateParams), userAgent: userAgentOf(ctx.request) })))),
  }),
  route({
    method: 'DELETE', path: '/projects/:id/snippets/:snippet_id', auth: 'user', scope: SCOPE, params: SNIPPET_ID, subject: projectSnippet(canAdminSnippet),
    handler: (ctx) => {
      const s = ctx.subject;
      checkUnmodifiedSince(ctx, s.updatedAt);
      ctx.update(deleteSnippet(ctx.state, s));
      return noContent();
    },
  }),
];

const ID = { id: int().required() };

export const personalSnippetRoutes = [
  route({
    method: 'GET', path: '/snippets', auth: 'user', paginated: true, params: CREATED,
    handler: (ctx) => renderAll(ctx, authoredSnippets(ctx.state, ctx.user!).filter(inRange(ctx.params as CreatedRange))),
  }),
  route({
    method: 'GET', path: '/snippets/public', auth: 'user', paginated: true, params: CREATED,
    handler: (ctx) =>
      unfiltered(ctx.params)
        ? renderPage(ctx, ctx.state.publicSnippetIds.size, snippetsById(ctx.state, tvaluesDesc(ctx.state.publicSnippetIds)))
        : renderAll(ctx, publicSnippets(ctx.state).filter(inRange(ctx.params as CreatedRange))),
  }),
  route({
    method: 'GET', path: '/snippets/all', auth: 'user', paginated: true, params: { ...CREATED, repository_storage: str() },
    handler: (ctx) => {
      // An administrator reads every snippet: a page straight off the table.
      if (ctx.user?.admin && unfiltered(ctx.params) && ctx.params.repository_storage === undefined) {
        return renderPage(ctx, ctx.state.snippets.size, tvaluesDesc(ctx.state.snippets));
      }
      let list = allSnippets(ctx.state, ctx.user, ctx.now()).filter(inRange(ctx.params as CreatedRange));
      // EE's `repository_storage` filter, for those who may see the storage (administrators).
      const shard = ctx.params.repository_storage;
      if (shard !== undefined && ctx.user?.admin) list = list.filter((s) => repositoryStorageOf(ctx.state, 'snippet', s.id) === shard);
      return renderAll(ctx, list);
    },
  }),
  route({
    method: 'GET', path: '/snippets/:id', params: ID, subject: readableSnippet,
    handler: (ctx) => json(render(ctx, ctx.subject)),
  }),
  route({
    method: 'GET', path: '/snippets/:id/raw', params: ID, subject: readableSnippet,
    handler: (ctx) => contentFor(ctx, ctx.subject),
  }),
  route({
    method: 'GET', path: '/snippets/:id/files/:ref/:file_path/raw',
    params: { ...ID, ref: str().required(), file_path: str().required() }, subject: readableSnippet,
    handler: (ctx) => fileContentFor(ctx, ctx.subject, ctx.params.ref, ctx.params.file_path),
  }),
  route({
    method: 'GET', path: '/snippets/:id/user_agent_detail', auth: 'admin', params: ID, subject: snippetRecord,
    handler: (ctx) => userAgentDetail(ctx.subject),
  }),
  route({
    method: 'POST', path: '/snippets', auth: 'user',
    params: { title: str().required().notBlank(), description: str(), visibility: VISIBILITY.default('internal'), files: CREATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: CREATE_CONSTRAINTS,
    handler: (ctx) => {
      // GlobalPolicy: external users create no personal snippets.
      if (ctx.user!.external) throw forbiddenSnippet();
      return create(ctx as Context<CreateParams>, null);
    },
  }),
  route({
    method: 'PUT', path: '/snippets/:id', auth: 'user',
    params: { ...ID, title: str().notBlank(), description: str(), visibility: VISIBILITY, files: UPDATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: UPDATE_CONSTRAINTS, subject: ownSnippet,
    handler: async (ctx) => json(render(ctx, ctx.update(await updateSnippet(gitWork(ctx), ctx.subject, { ...changesOf(ctx.subject, ctx.params as UpdateParams), userAgent: userAgentOf(ctx.request) })))),
  }),
  route({
    method: 'DELETE', path: '/snippets/:id', auth: 'user', params: ID, subject: ownSnippet,
    handler: (ctx) => {
      const s = ctx.subject;
      checkUnmodifiedSince(ctx, s.updatedAt);
      ctx.update(deleteSnippet(ctx.state, s));
      return noContent();
    },
  }),
];
