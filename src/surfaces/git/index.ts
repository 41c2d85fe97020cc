// Git's smart HTTP protocol as GitLab serves it (config/routes/git_http.rb, Repositories::
// GitHttpController, LfsApiController): `/<full path>.git/info/refs`, `git-upload-pack`,
// `git-receive-pack` and Git LFS, under the web's URL space. A path without `.git` is sent to the
// one with it, as GitLab does for `info/refs`; git follows and uses the new URL from then on.
import { fflate } from '../../git/fflate.js';
import { routeNotFound } from '../../core/errors.js';
import { paginateOffset } from '../../http/pagination.js';
import type { Reply, RouteDef } from '../../http/route.js';
import { route, type Context } from '../../families/define.js';
import { renderApiError, type Surface } from '../../http/surface.js';
import { str } from '../../http/params.js';
import { postReceive } from '../../families/registry.js';
import { createOnPush, gitRepository, type GitRepository } from '../../families/registry.js';
import { abilitiesOf, checkCommand, gitNotFound, plainError } from '../../http/git-access.js';
import { batchObjects, checkLfsAccess, checkUpload, lfsBatch } from './lfs.js';
import { gitAuthenticator } from './auth.js';
import { receivePack, receivePackAdvertisement } from './receive-pack.js';
import { uploadPack, uploadPackAdvertisement } from './upload-pack.js';

/** The paths this surface serves: git's endpoints and LFS's under a repository's path. */
const GIT_PATH = /\/(?:info\/refs|git-upload-pack|git-receive-pack|info\/lfs\/objects\/batch|gitlab-lfs\/objects\/[0-9a-f]{64}(?:\/\d+)?)$/;

const NO_CACHE = { Expires: 'Fri, 01 Jan 1980 00:00:00 GMT', Pragma: 'no-cache', 'Cache-Control': 'no-cache, max-age=0, must-revalidate' };

function isV2(ctx: Context<unknown>): boolean {
  return /(?:^|:)version=2(?:$|:)/.test(ctx.request.headers.get('git-protocol') ?? '');
}

/** A request body as git sent it (git gzips large fetch requests). */
function requestBody(ctx: Context<unknown>): Uint8Array {
  if ((ctx.request.headers.get('content-encoding') ?? '').toLowerCase() !== 'gzip') return ctx.body;
  try {
    return fflate().gunzipSync(ctx.body);
  } catch {
    throw plainError(400, 'Bad Request');
  }
}

const result = (raw: Uint8Array, type: string): Reply => ({ status: 200, raw, contentType: type, headers: NO_CACHE });

type GitContext = Context<{ repo: string }>;

/**
 * The repository a request reaches, once the caller may (Gitlab::GitAccess#check, its family's
 * rules). A push to a path that names none may create it (push to create); a path that names
 * none is GitLab's "not found", after the checks of the credentials and the command.
 */
function access(ctx: GitContext, command: string | null): GitRepository {
  let repo = gitRepository(ctx.state, ctx.params.repo);
  if (!repo && command === 'git-receive-pack' && createOnPush(ctx, ctx.params.repo)) repo = gitRepository(ctx.state, ctx.params.repo);
  if (!repo) {
    checkCommand(abilitiesOf(ctx.caller), command);
    throw gitNotFound();
  }
  repo.check(ctx.state, ctx.caller, command, ctx.now());
  return repo;
}

export function gitRoutes(): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/:repo{.+\\.git}/info/refs',
      params: { repo: str().required(), service: str() },
      handler: (ctx) => {
        // deny_head_requests
        if (ctx.request.method === 'HEAD') return { status: 403, raw: '', contentType: 'text/plain; charset=utf-8' };
        const service = ctx.params.service ?? null;
        const repo = access(ctx, service);
        const refs = () => repo.refs(ctx.state);
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
        return { status: 301, raw: '', headers: { Location: `${ctx.webBase}/${encodeURI(ctx.params.repo)}.git/info/refs${ctx.url.search}` } };
      },
    }),
    route({
      method: 'POST',
      path: '/:repo{.+\\.git}/git-upload-pack',
      params: { repo: str().required() },
      handler: async (ctx) => {
        const repo = access(ctx, 'git-upload-pack');
        const out = await uploadPack(ctx.env.git.repository(repo.key), () => repo.refs(ctx.state), requestBody(ctx), isV2(ctx));
        return result(out, 'application/x-git-upload-pack-result');
      },
    }),
    route({
      method: 'POST',
      path: '/:repo{.+\\.git}/git-receive-pack',
      params: { repo: str().required() },
      handler: async (ctx) => {
        const repo = access(ctx, 'git-receive-pack');
        const out = await receivePack(requestBody(ctx), (pushOptions, commands, pack, atomic) =>
          repo.push(
            {
              repo: ctx.env.git.repository(repo.key), state: ctx.state, user: ctx.user!, now: ctx.now(), webBase: ctx.webBase, update: (change) => ctx.update(change), pushOptions,
              postReceive: (options) => postReceive(ctx as unknown as Context, options),
            },
            commands, pack, atomic,
          ),
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
        const repo = checkLfsAccess(ctx.state, ctx.caller, gitRepository(ctx.state, ctx.params.repo), operation, ctx.now(), ctx.webBase);
        const url = `${ctx.webBase}/${repo.lfs.path}.git`;
        return lfsBatch(ctx.state, ctx.caller, repo, String(operation), batchObjects(ctx.raw.objects), url, ctx.request.headers.get('authorization'), ctx.webBase, ctx.now());
      },
    }),
    route({
      method: 'GET',
      path: '/:repo{.+\\.git}/gitlab-lfs/objects/:oid{[0-9a-f]{64}}',
      params: { repo: str().required(), oid: str().required() },
      handler: async (ctx) => {
        const repo = checkLfsAccess(ctx.state, ctx.caller, gitRepository(ctx.state, ctx.params.repo), 'download', ctx.now(), ctx.webBase);
        const blob = repo.lfs.object(ctx.state, ctx.params.oid);
        if (!blob) throw plainError(404, 'Not Found');
        return { status: 200, raw: await ctx.env.git.repository(repo.key).readBlob(blob), contentType: 'application/octet-stream' };
      },
    }),
    route({
      method: 'PUT',
      path: '/:repo{.+\\.git}/gitlab-lfs/objects/:oid{[0-9a-f]{64}}/:size{[0-9]+}',
      params: { repo: str().required(), oid: str().required(), size: str().required() },
      handler: async (ctx) => {
        const repo = checkLfsAccess(ctx.state, ctx.caller, gitRepository(ctx.state, ctx.params.repo), 'upload', ctx.now(), ctx.webBase);
        repo.lfs.assertWritable(ctx.state);
        const content = ctx.body;
        await checkUpload(content, ctx.params.oid, Number(ctx.params.size));
        const blob = await ctx.env.git.repository(repo.key).writeBlob(content);
        ctx.update(repo.lfs.link(ctx.params.oid, blob));
        return { status: 200, raw: '', contentType: 'text/plain; charset=utf-8' };
      },
    }),
  ];
}

/**
 * The git surface: git's smart HTTP and Git LFS over the repositories the families serve (the
 * registry's `gitRepository`), each family deciding who may read or push its repositories and
 * how a push applies (a repository a storage move is moving refuses every push with "The
 * repository is temporarily read-only. Please try again later.").
 */
export function gitSurface(): Surface {
  return {
    name: 'git',
    prefix: '',
    claims: (pathname) => GIT_PATH.test(pathname),
    // A fetch changes nothing: clones run beside API writes instead of waiting for the write lock.
    readsOnly: (method, pathname) => method === 'POST' && pathname.endsWith('/git-upload-pack'),
    routes: gitRoutes(),
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
  };
}
