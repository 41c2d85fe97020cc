// A surface is one URL space of the emulator (the REST API under /api/v4, the web paths that
// API answers link to, the control API; later SCIM, git's smart HTTP, GraphQL): its prefix, its
// routes, whether it reads credentials and takes faults, and how it renders a failure.
import type { ApiError } from '../core/errors.js';
import type { Reply, RouteDef } from './route.js';

export interface Surface {
  readonly name: string;
  /** The paths that start so are this surface's; the longest prefix wins, '' takes the rest. */
  readonly prefix: string;
  readonly routes: readonly RouteDef[];
  /** Reads tokens, sessions and sudo; without it every caller is anonymous. */
  readonly authenticates: boolean;
  /** Takes injected faults (the paths they name are relative to the prefix). */
  readonly faults: boolean;
  /** Timed work that is due runs before each request (the control API only looks at the world). */
  readonly runsTimedWork: boolean;
  /** Requests are written to the journal. */
  readonly journaled: boolean;
  /** The failure for a path no route of this surface matches (after the prefix). */
  notFound(path: string): ApiError;
  /** A failure as this surface's body. */
  renderError(error: ApiError): Reply;
}

/** GitLab's own envelope: the error's body as JSON (or as text, when it says so). */
export function renderApiError(e: ApiError): Reply {
  return { status: e.status, body: e.body, headers: e.headers, contentType: e.contentType };
}
