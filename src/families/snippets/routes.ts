// Project snippets (lib/api/project_snippets.rb) and personal snippets (lib/api/snippets.rb):
// list, get, raw, the raw file at a ref, create, update and delete.
import { missingAttribute } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { arr, hash, int, str, type Constraint } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { VISIBILITIES } from '../../policy/visibility.js';
import type { Project } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { SNIPPET_REF, snippetEntity } from './entity.js';
import { fileNotFound, forbiddenSnippet, multipleFilesNeedFiles, referenceNotFound, snippetNotFound } from './errors.js';
import type { Snippet, SnippetFile } from './records.js';
import {
  allSnippets, applyFileActions, authoredSnippets, canAdminSnippet, canCreateProjectSnippet, canReadSnippet, projectSnippets, publicSnippets, snippetsEnabled,
  type FileAction,
} from './rules.js';
import { createSnippet, deleteSnippet, updateSnippet, type SnippetChanges } from './service.js';

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

interface CreateParams {
  title: string;
  description?: string;
  visibility: (typeof VISIBILITIES)[number];
  files?: { file_path: string; content: string }[];
  content?: string;
  file_name?: string;
}

/** The files of a create: `files`, or `content` with its `file_name` (required given content). */
function createFiles(p: CreateParams): SnippetFile[] {
  if (p.files) return p.files.map((f) => ({ path: f.file_path, content: f.content }));
  if (p.file_name === undefined) throw missingAttribute('file_name');
  return [{ path: p.file_name, content: p.content! }];
}

interface UpdateParams {
  title?: string;
  description?: string;
  visibility?: (typeof VISIBILITIES)[number];
  files?: FileAction[];
  content?: string;
  file_name?: string;
}

function changesOf(s: Snippet, p: UpdateParams): SnippetChanges {
  const changes: SnippetChanges = { title: p.title, description: p.description, visibility: p.visibility };
  if (p.files) changes.files = applyFileActions(s.files, p.files);
  else if (p.content !== undefined || p.file_name !== undefined) {
    if (s.files.length > 1) throw multipleFilesNeedFiles();
    const only = s.files[0];
    changes.files = [{ path: p.file_name ?? only?.path ?? 'snippetfile1.txt', content: p.content ?? only?.content ?? '' }];
  }
  return changes;
}

/** A snippet the caller may read (of the route's project, when it names one), else 404. */
function visible(ctx: Context<unknown>, id: number, p?: Project): Snippet {
  const s = tget(ctx.state.snippets, id);
  if (!s || (p && s.projectId !== p.id) || !canReadSnippet(ctx.state, ctx.user, s, ctx.now())) throw snippetNotFound();
  return s;
}

function admin(ctx: Context<unknown>, s: Snippet): Snippet {
  if (!canAdminSnippet(ctx.state, ctx.user, s, ctx.now())) throw forbiddenSnippet();
  return s;
}

const text = (content: string): Reply => ({ status: 200, raw: content, contentType: 'text/plain; charset=utf-8' });

function rawFile(s: Snippet, ref: string, path: string): Reply {
  if (ref !== SNIPPET_REF && ref !== 'HEAD') throw referenceNotFound();
  const f = s.files.find((x) => x.path === path);
  if (!f) throw fileNotFound();
  return text(f.content);
}

const render = (ctx: Context<unknown>, s: Snippet) => snippetEntity(ctx.state, s, ctx);
const SCOPE = project(snippetsEnabled);

export const projectSnippetRoutes = [
  route({
    method: 'GET', path: '/projects/:id/snippets', auth: 'user', scope: SCOPE, paginated: true,
    handler: (ctx) => json(ctx.paginate(projectSnippets(ctx.state, ctx.user, ctx.project, ctx.now())).map((s) => render(ctx, s))),
  }),
  route({
    method: 'GET', path: '/projects/:id/snippets/:snippet_id', scope: SCOPE, params: SNIPPET_ID,
    handler: (ctx) => json(render(ctx, visible(ctx, ctx.params.snippet_id, ctx.project))),
  }),
  route({
    method: 'GET', path: '/projects/:id/snippets/:snippet_id/raw', scope: SCOPE, params: SNIPPET_ID,
    handler: (ctx) => text(visible(ctx, ctx.params.snippet_id, ctx.project).files[0]?.content ?? ''),
  }),
  route({
    method: 'GET', path: '/projects/:id/snippets/:snippet_id/files/:ref/:file_path/raw', scope: SCOPE,
    params: { ...SNIPPET_ID, ref: str().required(), file_path: str().required() },
    handler: (ctx) => rawFile(visible(ctx, ctx.params.snippet_id, ctx.project), ctx.params.ref, ctx.params.file_path),
  }),
  route({
    method: 'POST', path: '/projects/:id/snippets', auth: 'user', scope: project(snippetsEnabled, canCreateProjectSnippet),
    params: { title: str().required().notBlank(), description: str(), visibility: VISIBILITY.required(), files: CREATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: CREATE_CONSTRAINTS,
    handler: (ctx) => {
      const s = ctx.update(createSnippet(ctx.project, ctx.user!, { ...ctx.params, files: createFiles(ctx.params) }, ctx.now()));
      return created(render(ctx, s));
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/snippets/:snippet_id', auth: 'user', scope: SCOPE,
    params: { ...SNIPPET_ID, title: str().notBlank(), description: str(), visibility: VISIBILITY, files: UPDATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: UPDATE_CONSTRAINTS,
    handler: (ctx) => {
      const s = admin(ctx, visible(ctx, ctx.params.snippet_id, ctx.project));
      return json(render(ctx, ctx.update(updateSnippet(ctx.state, s, changesOf(s, ctx.params as UpdateParams), ctx.now()))));
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/snippets/:snippet_id', auth: 'user', scope: SCOPE, params: SNIPPET_ID,
    handler: (ctx) => {
      const s = admin(ctx, visible(ctx, ctx.params.snippet_id, ctx.project));
      checkUnmodifiedSince(ctx, s.updatedAt);
      ctx.update(deleteSnippet(ctx.state, s));
      return noContent();
    },
  }),
];

const ID = { id: int().required() };

export const personalSnippetRoutes = [
  route({
    method: 'GET', path: '/snippets', auth: 'user', paginated: true,
    handler: (ctx) => json(ctx.paginate(authoredSnippets(ctx.state, ctx.user!)).map((s) => render(ctx, s))),
  }),
  route({
    method: 'GET', path: '/snippets/public', auth: 'user', paginated: true,
    handler: (ctx) => json(ctx.paginate(publicSnippets(ctx.state)).map((s) => render(ctx, s))),
  }),
  route({
    method: 'GET', path: '/snippets/all', auth: 'user', paginated: true,
    handler: (ctx) => json(ctx.paginate(allSnippets(ctx.state, ctx.user, ctx.now())).map((s) => render(ctx, s))),
  }),
  route({
    method: 'GET', path: '/snippets/:id', params: ID,
    handler: (ctx) => json(render(ctx, visible(ctx, ctx.params.id))),
  }),
  route({
    method: 'GET', path: '/snippets/:id/raw', params: ID,
    handler: (ctx) => text(visible(ctx, ctx.params.id).files[0]?.content ?? ''),
  }),
  route({
    method: 'GET', path: '/snippets/:id/files/:ref/:file_path/raw',
    params: { ...ID, ref: str().required(), file_path: str().required() },
    handler: (ctx) => rawFile(visible(ctx, ctx.params.id), ctx.params.ref, ctx.params.file_path),
  }),
  route({
    method: 'POST', path: '/snippets', auth: 'user',
    params: { title: str().required().notBlank(), description: str(), visibility: VISIBILITY.default('internal'), files: CREATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: CREATE_CONSTRAINTS,
    handler: (ctx) => created(render(ctx, ctx.update(createSnippet(null, ctx.user!, { ...ctx.params, files: createFiles(ctx.params) }, ctx.now())))),
  }),
  route({
    method: 'PUT', path: '/snippets/:id', auth: 'user',
    params: { ...ID, title: str().notBlank(), description: str(), visibility: VISIBILITY, files: UPDATE_FILES, content: str().notBlank(), file_name: str() },
    constraints: UPDATE_CONSTRAINTS,
    handler: (ctx) => {
      const s = admin(ctx, visible(ctx, ctx.params.id));
      return json(render(ctx, ctx.update(updateSnippet(ctx.state, s, changesOf(s, ctx.params as UpdateParams), ctx.now()))));
    },
  }),
  route({
    method: 'DELETE', path: '/snippets/:id', auth: 'user', params: ID,
    handler: (ctx) => {
      const s = admin(ctx, visible(ctx, ctx.params.id));
      checkUnmodifiedSince(ctx, s.updatedAt);
      ctx.update(deleteSnippet(ctx.state, s));
      return noContent();
    },
  }),
];
