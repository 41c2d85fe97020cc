// The Git LFS batch API as GitLab serves it (Repositories::LfsApiController, LfsStorageController,
// LfsRequest): `POST <repo>.git/info/lfs/objects/batch` says where each object is downloaded from
// or uploaded to; `GET <repo>.git/gitlab-lfs/objects/<oid>` serves one; `PUT .../<oid>/<size>`
// stores one. Objects are the repository's LFS objects, as its family keeps them (a project's:
// fixtures seed them); their content is a blob of the repository's object store.
import { ApiError } from '../../core/errors.js';
import { sha256Hex } from '../../git/bytes.js';
import type { Caller } from '../../http/auth.js';
import type { Reply } from '../../http/route.js';
import type { LfsObjects } from '../../families/define.js';
import type { GitRepository } from '../../families/registry.js';
import type { State } from '../../families/world.js';
import { lfsAuthorization } from './lfs-token.js';

export const LFS_CONTENT_TYPE = 'application/vnd.git-lfs+json';

const lfsError = (status: number, message: string, origin: string) =>
  new ApiError(status, JSON.stringify({ message, documentation_url: `${origin}/help` }), {}, LFS_CONTENT_TYPE);

/** A repository that keeps LFS objects. */
export type LfsRepository = GitRepository & { lfs: LfsObjects };

/** LfsRequest#lfs_check_access!: the repository, else 403 to whoever may see it and 404 to anyone else (and for a repository without LFS objects). */
export function checkLfsAccess(state: State, caller: Caller, repo: GitRepository | undefined, operation: unknown, now: number, origin: string): LfsRepository {
  const decision = repo?.lfs ? repo.lfs.access(state, caller, operation, now) : 'hidden';
  if (decision === 'allowed') return repo as LfsRepository;
  if (decision === 'forbidden') throw lfsError(403, 'Access forbidden. Check your access level.', origin);
  throw lfsError(404, 'Not found.', origin);
}

export interface LfsRequestObject {
  oid: string;
  size: number;
}

/** The objects of a batch request, as GitLab reads `params[:objects]`. */
export function batchObjects(raw: unknown): LfsRequestObject[] {
  if (!Array.isArray(raw)) return [];
  return raw
    .filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null)
    .map((o) => ({ oid: String(o.oid ?? ''), size: Number(o.size ?? 0) }));
}

/**
 * LfsApiController#batch. The transfers carry an LFS token of the signed-in user
 * (`authorization_header`: Gitlab::LfsToken#basic_encoding), else the caller's own `Authorization`
 * header (none for an anonymous download).
 */
export function lfsBatch(state: State, caller: Caller, repo: LfsRepository, operation: string, objects: LfsRequestObject[], repoUrl: string, authorization: string | null, origin: string, now: number): Reply {
  if (objects.length === 0) throw lfsError(404, 'Not found.', origin);
  const handed = caller.user ? lfsAuthorization(caller.user, repo.lfs.project, now) : authorization;
  const header = handed ? { Authorization: handed } : {};
  const anyoneMayDownload = repo.anonymousDownload(state, now);
  const out = objects.map((o) => {
    const has = repo.lfs.object(state, o.oid) !== undefined;
    if (operation === 'download') {
      if (!has) return { ...o, error: { code: 404, message: "Object does not exist on the server or you don't have permissions to access it" } };
      return { ...o, actions: { download: { href: `${repoUrl}/gitlab-lfs/objects/${o.oid}`, header } }, ...(anyoneMayDownload ? { authenticated: true } : {}) };
    }
    if (has) return o;
    return {
      ...o,
      actions: {
        upload: {
          href: `${repoUrl}/gitlab-lfs/objects/${o.oid}/${o.size}`,
          header: { ...header, 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' },
        },
      },
    };
  });
  return { status: 200, raw: JSON.stringify({ objects: out }), contentType: LFS_CONTENT_TYPE };
}

/** Checks an upload against its oid and size; GitLab (Workhorse) refuses a mismatch. */
export async function checkUpload(content: Uint8Array, oid: string, size: number): Promise<void> {
  if (content.length !== size || (await sha256Hex(content)) !== oid) throw new ApiError(422, 'Unprocessable Entity', {}, 'text/plain; charset=utf-8');
}
