// Repository archives: GET /projects/:id/repository/archive[.format] (lib/api/repositories.rb,
// Gitlab::Workhorse#send_git_archive, Gitlab::Git::Repository#archive_metadata), and the web
// app's download that release assets link to, `<project>/-/archive/<ref>/<name>.<format>`
// (Projects::RepositoriesController#archive). Both answer what Workhorse streams from Gitaly.
import { canReadProject } from '../../policy/access.js';
import { canReadCode, defaultBranchName, isEmptyRepository, lfsObject, refsOf, repoView, resolveCommit, type RepoView } from '../repositories/index.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { projectWebUrl } from '../projects/index.js';
import { buildArchive, type ArchiveFormat } from '../../git/archive.js';
import { parseLfsPointer } from '../../git/bytes.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { project, route, type Context } from '../define.js';
import { ARCHIVE_THROTTLED, archiveThrottled, hotlinkingRefused } from './errors.js';
import { notFound } from '../../core/errors.js';
import type { Incoming } from '../../http/incoming.js';
import { arr, bool, str } from '../../http/params.js';
import { redirect, type Reply } from '../../http/route.js';
import type { Project } from '../../store/state.js';
import { hash53 } from '../../core/hash.js';

/** Gitlab::PathRegex.archive_formats_regex. */
const FORMATS = 'zip|tar|tar\\.gz|tgz|gz|tar\\.bz2|tbz|tbz2|tb2|bz2';
const WEB_ARCHIVE = new RegExp(`^(.+?)/-/archive/(.+?)\\.(${FORMATS})$`);

/** Gitlab::Workhorse#archive_format: the aliases of the four formats; anything else is tar.gz. */
function archiveFormat(format: string | undefined): ArchiveFormat {
  switch ((format ?? 'tar.gz').toLowerCase()) {
    case 'tar.bz2':
    case 'tbz':
    case 'tbz2':
    case 'tb2':
    case 'bz2':
      return 'tar.bz2';
    case 'tar':
      return 'tar';
    case 'zip':
      return 'zip';
    default:
      return 'tar.gz';
  }
}

/**
 * Gitlab::Git::Repository#archive_prefix: the archive's file name without its extension and the
 * directory every member lives under. The sha is added when asked, or by default when the ref is
 * not the sha itself; a `path` is added even when empty, as Ruby finds "" true.
 */
function archivePrefix(project: Project, ref: string, sha: string, appendSha: boolean | undefined, path: string | undefined): string {
  const segments = [project.path, ref.replace(/\//g, '-')];
  if (appendSha ?? ref !== sha) segments.push(sha);
  if (path !== undefined) segments.push(path.replace(/\//g, '-'));
  return segments.join('-');
}

/**
 * Gitlab::RepositoryArchiveRateLimiter, per project and user: behind the `archive_rate_limit` flag,
 * off by default, so counted only when the instance sets `rate_limits.project_repositories_archive`
 * (GitLab's default there is 5 a minute); anonymous callers get 100 in the same period.
 */
function throttled(ctx: Context<unknown>, project: Project): boolean {
  const limit = ctx.state.instance.settings.rate_limits.project_repositories_archive;
  if (!limit) return false;
  const scope = `project:${project.id}|user:${ctx.user?.id ?? 'anonymous'}`;
  if (ctx.user) return !ctx.env.throttle('project_repositories_archive', scope, limit);
  return !ctx.env.throttle('project_repositories_archive:anonymous', scope, { ...limit, limit: 100 });
}

const IMAGE_FORMATS = ['image/jpeg', 'image/apng', 'image/png', 'image/webp', 'image/svg+xml', 'image/*'];
const MEDIA_FORMATS = ['video/webm', 'video/ogg', 'video/*', 'application/ogg', 'audio/webm', 'audio/ogg', 'audio/wav', 'audio/*'];
const INVALID_FORMATS = [...IMAGE_FORMATS, ...MEDIA_FORMATS, 'text/css'];
const MIME_NAME = "[a-zA-Z0-9][a-zA-Z0-9!#$&\\-^_.+]{0,126}";
const MIME_TYPE = new RegExp(`^(?:\\*/\\*|${MIME_NAME}/(?:\\*|${MIME_NAME}))$`);

/**
 * Gitlab::HotlinkingDetector: a request a page makes to embed the archive (`Sec-Fetch-Mode` cors,
 * no-cors or websocket, as Node's and browsers' fetch send by default), or whose preferred Accept
 * type is an image, media or CSS, or that names an invalid type, is refused.
 */
function hotlinking(request: Incoming): boolean {
  if (['cors', 'no-cors', 'websocket'].includes(request.headers.get('sec-fetch-mode')?.trim() ?? '')) return true;
  const accept = request.headers.get('accept')?.trim() ?? '';
  if (accept === '') return false;
  // Mime::Type.parse: by quality, then as sent; `*/*` without a quality comes last.
  const items = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(/\s*;\s*/);
      const q = params.map((p) => /^q=([\d.]+)$/.exec(p.trim())?.[1]).find((v) => v !== undefined);
      const name = type.trim();
      return { name, index, q: q !== undefined ? Number(q) : name === '*/*' ? 0 : 1 };
    })
    .filter((i) => i.name !== '');
  if (items.some((i) => !MIME_TYPE.test(i.name))) return true;
  items.sort((a, b) => b.q - a.q || a.index - b.index);
  const first = items[0]?.name;
  if (first === undefined) return false;
  if (IMAGE_FORMATS.includes(first) && items.some((i) => i.name === 'application/x-ms-application')) return false;
  return INVALID_FORMATS.includes(first);
}

interface Archive {
  name: string;
  bytes: Uint8Array;
  format: ArchiveFormat;
  commit: string;
}

/**
 * Repository#archive_metadata and Gitaly's GetArchive: the commit a ref names (the default branch
 * when none), its tree under the prefix, LFS objects in place of their pointers when asked. Null
 * when the ref, the path or an excluded path is unknown, or the repository is empty.
 */
async function makeArchive(
  { project, refs }: RepoView,
  repo: RepositoryObjects,
  o: { ref: string | undefined; format: string | undefined; path: string | undefined; appendSha: boolean | undefined; lfs: boolean; exclude: readonly string[] },
): Promise<Archive | null> {
  if (isEmptyRepository(refs)) return null;
  const ref = o.ref ?? defaultBranchName(project);
  const sha = await resolveCommit(repo, { project, refs }, ref);
  if (!sha) return null;
  const commit = await repo.readCommit(sha);
  const format = archiveFormat(o.format);
  const prefix = archivePrefix(project, ref, sha, o.appendSha, o.path);
  const bytes = await buildArchive(repo, format, {
    commit: sha,
    tree: commit.tree,
    time: commit.committer.timestamp,
    prefix,
    path: o.path || '.',
    exclude: o.exclude,
    content: o.lfs
      ? async (_path, blob) => {
          const pointer = parseLfsPointer(blob);
          const stored = pointer ? lfsObject(refs, pointer.oid) : undefined;
          return stored ? repo.readBlob(stored) : blob;
        }
      : undefined,
  });
  return bytes && { name: `${prefix}.${format}`, bytes, format, commit: sha };
}

/** Workhorse's setArchiveHeaders; the name goes out as raw UTF-8 bytes, unescaped, as Workhorse writes it (the renderer encodes it). */
function archiveReply(a: Archive, headers: Record<string, string> = {}): Reply {
  const name = a.name;
  return {
    status: 200,
    raw: a.bytes,
    contentType: a.format === 'zip' ? 'application/zip' : 'application/octet-stream',
    headers: { 'Content-Disposition': `attachment; filename="${name}"`, 'Content-Transfer-Encoding': 'binary', ...headers },
  };
}

/** CommaSeparatedToArray: every item split at commas and stripped; Ruby's split drops trailing empty parts. */
function commaSeparated(items: readonly string[]): string[] {
  return items.flatMap((item) => {
    const parts = item.split(',').map((x) => x.trim());
    while (parts.length && parts[parts.length - 1] === '') parts.pop();
    return parts;
  });
}

const webNotFound = (): Reply => ({ status: 404, raw: '', contentType: 'text/html; charset=utf-8' });

export const archiveRoutes = [
  route({
    method: 'GET',
    path: `/projects/:id/repository/:archive{archive(?:\\.(?:${FORMATS}))?}`,
    scope: project(canReadCode),
    params: {
      archive: str().required(),
      sha: str(),
      format: str(),
      path: str(),
      include_lfs_blobs: bool().default(true),
      exclude_paths: arr(str(), { commaSeparated: true }).default([]),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      if (throttled(ctx, ctx.project)) throw archiveThrottled();
      if (hotlinking(ctx.request)) throw hotlinkingRefused();
      // The format in the path wins over the parameter, as Grape's routing arguments do.
      const suffix = p.archive.slice('archive'.length + 1);
      const archive = await makeArchive(repoView(ctx.state, ctx.project), ctx.env.git.repository(ctx.project.id), {
        ref: p.sha,
        format: suffix || p.format,
        path: p.path,
        appendSha: true,
        lfs: p.include_lfs_blobs,
        exclude: commaSeparated(p.exclude_paths),
      });
      if (!archive) throw notFound('File');
      return archiveReply(archive);
    },
  }),

  // The web download: `/<full path>/-/archive/<ref>/<name>.<format>`. Without access, an anonymous
  // caller is sent to sign in and a signed-in one gets the 404 page; an empty repository sends
  // the caller to the project's page.
  route({
    method: 'GET',
    surface: 'web',
    path: '/:web_path{.+/-/archive/.+}',
    params: { web_path: str().required(), path: str(), append_sha: str() },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const m = WEB_ARCHIVE.exec(p.web_path);
      if (!m) return webNotFound();
      const [, fullPath, id, format] = m as unknown as [string, string, string, string];
      const project = projectByIdOrPath(ctx.state, fullPath);
      const now = ctx.now();
      if (!project || project.pendingDelete || !canReadProject(ctx.state, ctx.user, project, now)) {
        return ctx.user ? webNotFound() : redirect(`${ctx.webBase}/users/sign_in`);
      }
      if (throttled(ctx, project)) return { status: 429, raw: ARCHIVE_THROTTLED, contentType: 'text/plain; charset=utf-8' };
      if (isEmptyRepository(refsOf(ctx.state, project.id))) return redirect(projectWebUrl(ctx.state, project, ctx), 303);
      if (hotlinking(ctx.request)) return { status: 406, raw: '', contentType: 'text/html; charset=utf-8' };
      if (!canReadCode(ctx.state, ctx.user, project, now)) return webNotFound();
      // extract_ref_and_filename: the last segment is the file name, the rest the ref.
      const slash = id.trim().lastIndexOf('/');
      const ref = slash < 0 ? id.trim() : id.trim().slice(0, slash);
      const filename = slash < 0 ? undefined : id.trim().slice(slash + 1);
      const appendSha = filename === `${project.path}-${ref.replace(/\//g, '-')}` ? false : p.append_sha !== undefined ? true : undefined;
      const archive = await makeArchive(repoView(ctx.state, project), ctx.env.git.repository(project.id), {
        ref,
        format,
        path: p.path,
        appendSha,
        lfs: true,
        exclude: [],
      });
      if (!archive) return webNotFound();
      // set_cache_headers: an hour for a sha, a minute for a ref; public when anyone may download.
      const maxAge = ref === archive.commit ? 3600 : 60;
      const visibility = canReadCode(ctx.state, null, project, now) ? 'public' : 'private';
      return {
        ...archiveReply(archive, {
          'Cache-Control': `max-age=${maxAge}, ${visibility}, must-revalidate, stale-while-revalidate=60, stale-if-error=300, s-maxage=60`,
        }),
        etag: `"${hash53(`${archive.commit}/${archive.name}`)}"`,
      };
    },
  }),
];
