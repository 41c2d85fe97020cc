// How git's smart HTTP knows the caller (GitHttpClientController#authenticate_user): HTTP Basic
// credentials when sent (wrong ones are a 401 even on a public project), anonymous for a clone
// of a repository anyone may read, and otherwise the 401 with `WWW-Authenticate` that makes git
// ask for credentials.
import { ANONYMOUS, type Caller } from '../../http/auth.js';
import type { Authenticator } from '../../http/surface.js';
import type { State } from '../../families/world.js';
import { accessDenied, anonymousCanDownload, findForGitClient } from './access.js';
import { anonymousCanDownloadGroupWiki, anonymousCanDownloadWiki } from './wiki.js';
import { anonymousCanDownloadSnippet } from './snippet.js';
import { gitRepository, type GitRepository } from './repos.js';
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
    const found = gitRepository(state as State, String(params.repo ?? ''));
    if (credentials) {
      // An LFS token is a project's: it opens that project's repository only.
      const caller = findForGitClient(state, credentials.login, credentials.password, now, found.kind === 'project' ? found.target.project?.id : undefined);
      if (!caller) throw accessDenied(origin);
      return caller;
    }
    if (isDownload(request, params) && anyoneMayDownload(state as State, found, now)) return ANONYMOUS;
    throw accessDenied(origin);
  };
}

/** `http_download_allowed?`: whether a guest may read the repository (`guest_read_ability` of its kind). */
function anyoneMayDownload(state: State, found: GitRepository, now: number): boolean {
  if (found.kind === 'snippet') return anonymousCanDownloadSnippet(state, found.snippet, now);
  if (found.kind === 'groupWiki') return anonymousCanDownloadGroupWiki(state, found.group, now);
  const { project, wiki } = found.target;
  return !!project && (wiki ? anonymousCanDownloadWiki : anonymousCanDownload)(state, project, now);
}
