// How git's smart HTTP knows the caller (GitHttpClientController#authenticate_user): HTTP Basic
// credentials when sent (wrong ones are a 401 even on a public project), anonymous for a clone
// of a repository anyone may read, and otherwise the 401 with `WWW-Authenticate` that makes git
// ask for credentials.
import { ANONYMOUS, refused, type Caller } from '../../http/auth.js';
import type { Authenticator } from '../../http/surface.js';
import type { State } from '../../families/world.js';
import { gitRepository } from '../../families/registry.js';
import { accessDenied, findForGitClient } from './access.js';
import type { Incoming } from '../../http/incoming.js';

/** The login and password of an `Authorization: Basic` header, or null. */
export function basicCredentials(request: Incoming): { login: string; password: string } | null {
  const h = request.headers.get('authorization');
  const m = h ? /^Basic\s+(\S+)\s*$/i.exec(h) : null;
  if (!m) return null;
  let decoded: string;
  try {
    decoded = new TextDecoder().decode(Uint8Array.from(atob(m[1]!), (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
  const colon = decoded.indexOf(':');
  return colon < 0 ? { login: decoded, password: '' } : { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** Whether the request only reads (a clone or fetch, or the LFS download batch). */
export type DownloadRequest = (request: Incoming, params: Record<string, unknown>) => boolean;

export function gitAuthenticator(isDownload: DownloadRequest): Authenticator {
  return (state, request, params, req, now, origin): Caller => {
    if (req.auth === 'none') return ANONYMOUS;
    const credentials = basicCredentials(request);
    const repo = gitRepository(state as State, String(params.repo ?? ''));
    if (credentials) {
      // An LFS token is a project's: it opens that project's repositories only.
      const found = findForGitClient(state, credentials.login, credentials.password, now, repo?.tokenProject);
      if (typeof found === 'string') throw refused(accessDenied(origin), found);
      return found;
    }
    // `http_download_allowed?`: whether a guest may read the repository (`guest_read_ability` of its kind).
    if (isDownload(request, params) && repo?.anonymousDownload(state as State, now)) return ANONYMOUS;
    throw accessDenied(origin);
  };
}
