// Git's smart HTTP protocol as GitLab serves it (config/routes/git_http.rb, Repositories::
// GitHttpController, LfsApiController): `/<full path>.git/info/refs`, `git-upload-pack`,
// `git-receive-pack` and Git LFS, under the web's URL space. A path without `.git` is sent to the
// one with it, as GitLab does for `info/refs`; git follows and uses the new URL from then on.
import { gunzipSync } from 'fflate';
import { routeNotFound } from '../../core/errors.js';
import { paginateOffset } from '../../http/pagination.js';
import type { Reply, RouteDef } from '../../http/route.js';
import { route, type Context } from '../../families/define.js';
import { renderApiError, type Surface } from '../../http/surface.js';
import { str } from '../../http/params.js';
import type { State } from '../../families/world.js';
import type { Project } from '../../store/state.js';
import { isRepositoryReadOnly } from '../../families/repositories/index.js';
import { afterPushes, postReceive } from '../../families/registry.js';
import { checkAccess, gitTarget } from './access.js';
import { gitForbidden, MESSAGES, plainError } from '../../http/git-access.js';
import { batchObjects, checkLfsAccess, checkUpload, lfsBatch, lfsBlob, linkLfsObject } from './lfs.js';
import { projectFullPath } from '../../policy/paths.js';
import { gitAuthenticator } from './auth.js';
import { ensureProjectOnPush } from './push-to-create.js';
import { applyProjectPush, receivePack, receivePackAdvertisement, type PushBase } from './receive-pack.js';
import { advertisedRefs } from './refs.js';
import { applyWikiPush, checkGroupWikiAccess, checkWikiAccess, wikiPushApplier, wikiRefs, wikiRefsOf } from './wiki.js';
import { uploadPack, uploadPackAdvertisement, type Refs } from './upload-pack.js';
import { gitRepository } from './repos.js';
import { checkSnippetAccess, snippetPushApplier, snippetAdvertised } from './snippet.js';
import { snippetRepoKey } from '../../families/snippets/index.js';
import { groupOwner, wikiObjectsKey } from '../../families/wikis/index.js';

/** The paths this surface serves: git's endpoints and LFS's under a repository's path. */
const GIT_PATH = /\/(?:info\/refs|git-upload-pack|git-receive-pack|info\/lfs\/objects\/batch|gitlab-lfs\/objects\/[0-9a-f]{64}(?:\/\d+)?)$/;

/** Whether a repository takes writes now; the storage moves of the spec make it read-only while one runs. */
export type ReadOnlyCheck = (state: State, project: Project) => boolean;

/** A project's repository is read-only while a storage move of it runs (the repositories family keeps which). */
export const MOVING_IS_READ_ONLY: ReadOnlyCheck = (state, project) => isRepositoryReadOnly(state, 'project', project.id);

const NO_CACHE = { Expires: 'Fri, 01 Jan 1980 00:00:00 GMT', Pragma: 'no-cache', 'Cache-Control': 'no-cache, max-age=0, must-revalidate' };

function isV2(ctx: Context<unknown>): boolean {
  return /(?:^|:)version=2(?:$|:)/.test(ctx.request.headers.get('git-protocol') ?? '');
}

/** A request body as git sent it (git gzips large fetch requests). */
function requestBody(ctx: Context<unknown>): Uint8Array {
  if ((ctx.request.headers.get('content-encoding') ?? '').toLowerCase() !== 'gzip') return ctx.body;
  try {
    return gunzipSync(ctx.body);
  } catch {
    throw plainError(400, 'Bad Request');
  }
}

const result = (raw: Uint8Array, type: string): Reply => ({ status: 200, raw, contentType: type, headers: NO_CACHE });

type GitContext = Context<{ repo: string }>;

/** The repository a request reaches, once the caller may: where its objects are, its refs, how a push to it applies. */
interface Served {
  key: number;
  refs: Refs;
  receive(c: PushBase, body: Uint8Array): Promise<Uint8Array>;
}

export function gitRoutes(readOnly: ReadOnlyCheck): RouteDef[] {
  const access = (ctx: GitContext, command: string | null): Served => {
    const found = gitRepository(ctx.state, ctx.params.repo);
    const now = ctx.now();
    if (found.kind === 'snippet') {
      const s = checkSnippetAccess(ctx.state, ctx.caller, found.snippet, command, now);
      return { key: snippetRepoKey(s.id), refs: () => snippetAdvertised(ctx.state, s), receive: (c, body) => receivePack(c, body, snippetPushApplier(s)) };
    }
    if (found.kind === 'groupWiki') {
      const group = checkGroupWikiAccess(ctx.state, ctx.caller, found.group, command, now, isRepositoryReadOnly(ctx.state, 'group', found.group.id));
      const o = groupOwner(group);
      return { key: wikiObjectsKey(o), refs: () => wikiRefsOf(ctx.state, o), receive: (c, body) => receivePack(c, body, wikiPushApplier(o)) };
    }
    let target = found.target;
    const writable = (p: Project) => readOnly(ctx.state, p);
    if (target.wiki) {
      const project = checkWikiAccess(ctx.state, ctx.caller, target, command, now, writable);
      return { key: project.id, refs: () => wikiRefs(ctx.state, project), receive: (c, body) => receivePack({ ...c, project }, body, applyWikiPush) };
    }
    if (command === 'git-receive-pack' && !target.project) {
      const made = ensureProjectOnPush(ctx.state, ctx.caller, target, now, ctx.webBase, (change) => ctx.update(change));
      if (made) target = { ...target, project: made };
    }
    const project = checkAccess(ctx.state, ctx.caller, target, command, now, writable);
    return { key: project.id, refs: () => advertisedRefs(ctx.state, project), receive: (c, body) => receivePack({ ...c, project }, body, applyProjectPush) };
  };
  return [
    route({
      method: 'GET',
      path: '/:repo{.+\\.git}/info/refs',
      params: { repo: str().required(), service: str() },
      handler: (ctx) => {
        // deny_head_requests
        if (ctx.request.method === 'HEAD') return { status: 403, raw: '', contentType: 'text/plain; charset=utf-8' };
        const service = ctx.params.service ?? null;
        const { refs } = access(ctx, service);
        if (service === 'git-receive-pack') return result(receivePackAdvertisement(refs), 'application/x-git-receive-pack-advertisement');
        return result(uploadPackAdvertisement(refs, isV2(ctx)), 'application/x-git-upload-pack-advertisement');
      },
    }),
    // `/group/project/info/refs` -> `/group/project.git/info/refs`, before any credentials are read.
    route({
      method: 'GET',
      path: '/:repo{.+}/info/refs',
      auth: 'none',
      params: { repo: str().required(), service: str() },
      handler: (ctx): Reply => {
        const service = ctx.params.service;
        if (service !== 'git-upload-pack' && service !== 'git-receive-pack') throw routeNotFound();
        return { status: 301, raw: '', headers: { Location: `${ctx.url.origin}/${encodeURI(ctx.params.repo)}.git/info/refs${ctx.url.search}` } };
      },
    }),
    route({
      method: 'POST',
      path: '/:repo{.+\\.git}/git-upload-pack',
      params: { repo: str().required() },
      handler: async (ctx) => {
        const { key, refs } = access(ctx, 'git-upload-pack');
        const out = await uploadPack(ctx.env.git.repository(key), refs, requestBody(ctx), isV2(ctx));
        return result(out, 'application/x-git-upload-pack-result');
      },
    }),
    route({
      method: 'POST',
      path: '/:repo{.+\\.git}/git-receive-pack',
      params: { repo: str().required() },
      handler: async (ctx) => {
        const { key, receive } = access(ctx, 'git-receive-pack');
        const out = await receive(
          {
            repo: ctx.env.git.repository(key), state: ctx.state, user: ctx.user!, now: ctx.now(), webBase: ctx.webBase, update: (change) => ctx.update(change),
            postReceive: (options) => postReceive(ctx as unknown as Context, options),
          },
          requestBody(ctx),
        );
        return result(out, 'application/x-git-receive-pack-result');
      },
    }),
    // Git LFS: the batch API, then the transfers it hands out.
    route({
      method: 'POST',
      path: '/:repo{.+\\.git}/info/lfs/objects/batch',
      params: { repo: str().required() },
      handler: (ctx) => {
        const operation = ctx.raw.operation;
        const project = checkLfsAccess(ctx.state, ctx.caller, gitTarget(ctx.state, ctx.params.repo), operation, ctx.now(), ctx.webBase);
        const url = `${ctx.webBase}/${projectFullPath(ctx.state, project)}.git`;
        return lfsBatch(ctx.state, ctx.caller, project, String(operation), batchObjects(ctx.raw.objects), url, ctx.request.headers.get('authorization'), ctx.webBase, ctx.now());
      },
    }),
    route({
      method: 'GET',
      path: '/:repo{.+\\.git}/gitlab-lfs/objects/:oid{[0-9a-f]{64}}',
      params: { repo: str().required(), oid: str().required() },
      handler: async (ctx) => {
        const project = checkLfsAccess(ctx.state, ctx.caller, gitTarget(ctx.state, ctx.params.repo), 'download', ctx.now(), ctx.webBase);
        const blob = lfsBlob(ctx.state, project, ctx.params.oid);
        if (!blob) throw plainError(404, 'Not Found');
        return { status: 200, raw: await ctx.env.git.repository(project.id).readBlob(blob), contentType: 'application/octet-stream' };
      },
    }),
    route({
      method: 'PUT',
      path: '/:repo{.+\\.git}/gitlab-lfs/objects/:oid{[0-9a-f]{64}}/:size{[0-9]+}',
      params: { repo: str().required(), oid: str().required(), size: str().required() },
      handler: async (ctx) => {
        const project = checkLfsAccess(ctx.state, ctx.caller, gitTarget(ctx.state, ctx.params.repo), 'upload', ctx.now(), ctx.webBase);
        if (readOnly(ctx.state, project)) throw gitForbidden(MESSAGES.readOnly);
        const content = ctx.body;
        await checkUpload(content, ctx.params.oid, Number(ctx.params.size));
        const blob = await ctx.env.git.repository(project.id).writeBlob(content);
        ctx.update(linkLfsObject(project.id, ctx.params.oid, blob));
        return { status: 200, raw: '', contentType: 'text/plain; charset=utf-8' };
      },
    }),
  ];
}

/**
 * The git surface. `readOnly` is the one place a push asks whether the repository takes writes
 * (GitAccess#check_push_access!): a repository it calls read-only refuses every push with
 * "The repository is temporarily read-only. Please try again later." (403, which git prints as
 * `remote: ...`): by default, a repository that a storage move is moving.
 */
export function gitSurface(readOnly: ReadOnlyCheck = MOVING_IS_READ_ONLY): Surface {
  return {
    name: 'git',
    prefix: '',
    claims: (pathname) => GIT_PATH.test(pathname),
    // A fetch changes nothing: clones run beside API writes instead of waiting for the write lock.
    readsOnly: (method, pathname) => method === 'POST' && pathname.endsWith('/git-upload-pack'),
    routes: gitRoutes(readOnly),
    authenticate: gitAuthenticator((request, params) => {
      const path = new URL(request.url).pathname;
      if (path.endsWith('/info/lfs/objects/batch')) return params.operation === 'download';
      if (/\/gitlab-lfs\/objects\/[0-9a-f]{64}$/.test(path)) return request.method === 'GET' || request.method === 'HEAD';
      return path.endsWith('/git-upload-pack') || (path.endsWith('/info/refs') && params.service === 'git-upload-pack');
    }),
    paginate: paginateOffset,
    faults: false,
    runsTimedWork: true,
    journaled: true,
    notFound: () => routeNotFound(),
    renderError: renderApiError,
    afterAnswer: (ctx) => afterPushes(ctx as unknown as Context),
  };
}
