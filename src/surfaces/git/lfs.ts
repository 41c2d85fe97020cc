// The Git LFS batch API as GitLab serves it (Repositories::LfsApiController, LfsStorageController,
// LfsRequest): `POST <repo>.git/info/lfs/objects/batch` says where each object is downloaded from
// or uploaded to; `GET <repo>.git/gitlab-lfs/objects/<oid>` serves one; `PUT .../<oid>/<size>`
// stores one. Objects are the project's LFS objects (fixtures seed them); their content is a blob
// of the repository's object store.
import { ApiError } from '../../core/errors.js';
import { sha256Hex } from '../../git/bytes.js';
import type { Caller } from '../../http/auth.js';
import type { Reply } from '../../http/route.js';
import { canPushCode, draftRefs, lfsObject, refsOf, setLfsObject } from '../../families/repositories/index.js';
import type { State } from '../../families/world.js';
import { canReadProject } from '../../policy/access.js';
import type { Project } from '../../store/state.js';
import type { Draft } from 'immer';
import { canDownloadCode, type GitTarget } from './access.js';
import { abilitiesOf } from '../../http/git-access.js';
import { lfsAuthorization } from './lfs-token.js';

export const LFS_CONTENT_TYPE = 'application/vnd.git-lfs+json';

const lfsError = (status: number, message: string, origin: string) =>
  new ApiError(status, JSON.stringify({ message, documentation_url: `${origin}/help` }), {}, LFS_CONTENT_TYPE);

/** LfsRequest#lfs_check_access!: 403 to whoever may see the project, 404 to anyone else. */
export function checkLfsAccess(state: State, caller: Caller, target: GitTarget, operation: unknown, now: number, origin: string): Project {
  const upload = operation === 'upload';
  // A wiki's repository keeps no LFS objects here.
  const project = target.wiki ? undefined : target.project;
  if (!project) throw lfsError(404, 'Not found.', origin);
  const abilities = abilitiesOf(caller);
  const job = caller.method === 'job' && (caller.token?.projectId === project.id || project.jobTokenAllowlist.includes(caller.token?.projectId ?? -1));
  const allowed = upload
    ? abilities.has('push_code') && canPushCode(state, caller.user, project, now)
    : (abilities.has('download_code') && canDownloadCode(state, caller.user, project, now)) || (job && canDownloadCode(state, caller.user, project, now));
  if (allowed && (operation === 'upload' || operation === 'download')) return project;
  if (project.visibility === 'public' || canReadProject(state, caller.user, project, now)) throw lfsError(403, 'Access forbidden. Check your access level.', origin);
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
export function lfsBatch(state: State, caller: Caller, project: Project, operation: string, objects: LfsRequestObject[], repoUrl: string, authorization: string | null, origin: string, now: number): Reply {
  if (objects.length === 0) throw lfsError(404, 'Not found.', origin);
  const refs = refsOf(state, project.id);
  const handed = caller.user ? lfsAuthorization(caller.user, project, now) : authorization;
  const header = handed ? { Authorization: handed } : {};
  const anyoneMayDownload = canDownloadCode(state, null, project, now);
  const out = objects.map((o) => {
    const has = lfsObject(refs, o.oid) !== undefined;
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

/** The blob holding an LFS object the project owns, or null. */
export function lfsBlob(state: State, project: Project, oid: string): string | null {
  return lfsObject(refsOf(state, project.id), oid) ?? null;
}

/** Checks an upload against its oid and size; GitLab (Workhorse) refuses a mismatch. */
export async function checkUpload(content: Uint8Array, oid: string, size: number): Promise<void> {
  if (content.length !== size || (await sha256Hex(content)) !== oid) throw new ApiError(422, 'Unprocessable Entity', {}, 'text/plain; charset=utf-8');
}

/** The change that records an uploaded object as the project's. */
export const linkLfsObject = (projectId: number, oid: string, blob: string) => (draft: Draft<State>) => {
  setLfsObject(draftRefs(draft, projectId), oid, blob);
};
