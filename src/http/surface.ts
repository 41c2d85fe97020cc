// A surface is one URL space of the emulator (the REST API under /api/v4, the web paths that
// API answers link to, the control API; later SCIM, git's smart HTTP, GraphQL): its prefix, its
// routes, whether it reads credentials and takes faults, and how it renders a failure.
import type { ApiError } from '../core/errors.js';
import type { CoreState } from '../store/state.js';
import type { AuthRequirements, Caller } from './auth.js';
import type { Context } from './context.js';
import type { Incoming } from './incoming.js';
import type { LinkBase, PageInput, PageResult } from './pagination.js';
import type { Reply, RouteDef } from './route.js';

/** Who is calling, from the request's credentials; a surface without one sees every caller as anonymous. */
export type Authenticator = (state: CoreState, request: Incoming, params: Record<string, unknown>, req: AuthRequirements, now: number, origin: string) => Caller;

/** One page of a list, with the surface's paging headers. */
export type Pager = <T>(all: readonly T[], input: PageInput, base: LinkBase) => PageResult<T>;

export interface Surface {
  readonly name: string;
  /** The paths that start so are this surface's; the longest prefix wins, '' takes the rest. */
  readonly prefix: string;
  /** Takes only the paths under its prefix that this says are its own (git's paths share the web's prefix). */
  claims?(pathname: string): boolean;
  readonly routes: readonly RouteDef[];
  /** Its auth: GitLab's tokens, sessions and sudo on the API; none on the control API. */
  readonly authenticate?: Authenticator;
  /**
   * The query parameters its authenticator reads (besides the headers the answer cache keys
   * on), when it reads no others: then a cacheable answer that read only its route's declared
   * parameters is kept for any request that sends the same of those and of these, whatever
   * else its query holds (a client's cache-busting `_=`).
   */
  readonly credentialParams?: readonly string[];
  /** Its paging (`ctx.paginate`): GitLab's offset pages and headers on the API. */
  readonly paginate: Pager;
  /** A request that only reads though its method is not GET (a git fetch): it runs beside writes, without the write lock. */
  readsOnly?(method: string, pathname: string): boolean;
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
  /** Runs after a successful answer, inside its transaction, before the pipeline settles it (the caller's activity on the API). */
  afterAnswer?(ctx: Context<unknown, CoreState>): void | Promise<void>;
}

/** GitLab's own envelope: the error's body as JSON (or as text, when it says so). */
export function renderApiError(e: ApiError): Reply {
  return { status: e.status, body: e.body, headers: e.headers, contentType: e.contentType };
}
