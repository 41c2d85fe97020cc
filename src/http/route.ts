// A route declares: method, path, parameters with GitLab's types and defaults, who may call it,
// and a handler. The pipeline does the rest (auth, params, transaction, errors, journal).
import type { CoreState, Offering, Tier } from '../store/state.js';
import type { Context } from './context.js';
import type { Keyset } from './pagination.js';
import type { Constraint, Param, ParamSpec, Parsed } from './params.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Reply {
  status: number;
  /** Rendered as JSON unless `raw` is given. */
  body?: unknown;
  raw?: Uint8Array | string;
  /** JSON already serialised (cached entity fragments), with its ETag when known. */
  json?: string;
  etag?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /**
   * Work that waits on the world outside (a webhook's test delivery, sent while the caller
   * waits, as GitLab does): once the request's change has committed and the write lock is
   * released, it runs, and its reply is the answer; its `change`, if any, is then committed in a
   * transaction of its own. So a receiver that calls back into the emulator is not kept waiting.
   */
  continueWith?: () => Promise<{ reply: Reply; change?: (draft: never) => void }>;
}

/**
 * The project or group a route acts on, named by a path parameter: the pipeline finds it,
 * authorizes the caller and puts it on the context (`ctx.project`, `ctx.group`) before the
 * handler runs.
 */
export interface Scope {
  readonly param: string;
  resolve(ctx: Context<unknown, CoreState>, id: string): void;
}

/**
 * What a route acts on besides its project or group (a user, a merge request, a snippet),
 * named by its path parameters: the pipeline finds it (GitLab's 404) and authorizes the caller
 * (403, or the refusal's own error) after the scope and the page parameters, and the handler
 * reads it as `ctx.subject`, typed `T`. `P` is what it reads of the parameters: a route that
 * does not declare them does not type-check.
 */
export interface Resolver<T, P = unknown, W extends CoreState = CoreState> {
  readonly resolve: (ctx: Context<P, W>) => T;
}

/** The page parameters a `paginated` route is given (absent elsewhere). */
export interface PageParams {
  page?: number;
  per_page?: number;
}

export interface RouteDef<S extends ParamSpec = ParamSpec, W extends CoreState = CoreState, T = unknown, K = unknown> {
  method: Method;
  /** Relative to its surface's prefix (/api/v4 by default), in hono's syntax: `/projects/:id/repository/files/:file_path`. */
  path: string;
  /** The surface it belongs to: the REST API (default), the web paths that API answers link to, or SCIM (/api/scim/v2). */
  surface?: 'api' | 'web' | 'scim';
  /** The project or group it acts on; its parameter need not be declared. */
  scope?: Scope;
  /** What it acts on within its scope (`ctx.subject`); the parameters it reads are declared in `params`. */
  subject?: Resolver<T, Parsed<S> & PageParams, W>;
  /**
   * Takes `page` and `per_page` (checked before the handler) for `ctx.paginate`: offset pages,
   * and keyset pages too when it declares them (`{ keyset }`), for a request that asks.
   */
  paginated?: boolean | { keyset: Keyset<K, W> };
  params?: S;
  constraints?: readonly Constraint[];
  /** `public` (default): anonymous allowed; `user`: authenticate!; `admin`; `none`: never reads credentials. */
  auth?: 'none' | 'public' | 'user' | 'admin';
  /** Scopes accepted besides `api` on GET and HEAD (GitLab's `allow_access_with_scope ..., if: request.get?`). */
  scopes?: readonly string[];
  /** Scopes accepted on every method of the route (`create_runner` on POST /user/runners). */
  anyMethodScopes?: readonly string[];
  jobToken?: boolean;
  /** Lowest tier that has the route; below it the route answers 404. */
  tier?: Tier;
  offering?: Offering;
  /** Name of a rate limit in the instance settings (`rate_limits`). */
  rateLimit?: string;
  /**
   * The answer depends only on the world, the URL, the credentials and the day (not the time
   * of day), so a GET may be answered again from cache while the world is unchanged. An answer
   * that read nothing of its request as sent (`ctx.raw`, `ctx.url`, `ctx.request`,
   * `ctx.linkBase`), only its declared parameters, is given too to a request that differs in
   * undeclared query parameters alone (a client's cache-busting `_=`), unless it pages.
   */
  cacheable?: boolean;
  handler(ctx: Context<Parsed<S> & PageParams, W, T, K>): Reply | Promise<Reply>;
}

/** Declares a route; the identity function that gives the handler its parameter, subject and row types. */
export function route<S extends ParamSpec, W extends CoreState = CoreState, T = unknown, K = unknown>(def: RouteDef<S, W, T, K>): RouteDef {
  return def as unknown as RouteDef;
}

export const json = (body: unknown, status = 200, headers?: Record<string, string>): Reply => ({ status, body, headers });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
export const accepted = (): Reply => ({ status: 202, body: { message: '202 Accepted' } });
export const redirect = (location: string, status = 302): Reply => ({ status, headers: { Location: location }, raw: '' });

export type AnyParam = Param<unknown, boolean>;
