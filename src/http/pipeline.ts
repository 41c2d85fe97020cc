// One request through GitLab's conventions, as a list of small stages in the order GitLab
// applies them: surface -> faults -> body -> lock -> timed work -> route -> cache -> auth ->
// rate limit -> params -> scope -> transaction -> render -> journal. Each surface (the REST
// API, the web paths, the control API) chooses its prefix, routes, auth and error bodies.
import type { Clock } from '../core/clock.js';
import { ApiError, conflict, malformedRequest, rateLimited, serverError, uriTooLong } from '../core/errors.js';
import type { Fault, Faults } from '../core/faults.js';
import type { Journal, JournalEntry } from '../core/journal.js';
import type { CoreState } from '../store/state.js';
import type { Snapshot } from '../store/store.js';
import { today } from '../policy/access.js';
import { AnswerCache, answerKey, declaredAnswerKey, type Answer } from './answer-cache.js';
import { ANONYMOUS, requireAuth, type Caller } from './auth.js';
import { Context, type Env } from './context.js';
import { pageRequest } from './pagination.js';
import { parseParams } from './params.js';
import type { RateLimiter } from './rate-limit.js';
import { fromRequest, toResponse, type Incoming, type Rendered } from './incoming.js';
import { render, settle } from './render.js';
import { MAX_QUERY_LENGTH, merged, NO_BODY, parseBody, parseQuery, readBody, type RawBody } from './request-params.js';
import { filteredQuery, isoTime } from './request-log.js';
import { Links } from './links.js';
import { namesRead, requirementsOf, routeAvailable, routeName } from './route-facts.js';
import type { Reply, RouteDef } from './route.js';
import { Router, type Match } from './router.js';
import type { Surface } from './surface.js';
import { identifyCaller, refusalOf, unknownCredential } from './auth.js';
import { EmulatorError } from '../core/errors.js';

/** One request as it ended, for a request log: what was asked, what it got, who asked, how long it took. */
export interface RequestEvent {
  method: string;
  /** The path with its query string, as sent. */
  path: string;
  status: number;
  /** The acting user (after sudo), or null. */
  user: string | null;
  /** The administrator who used sudo, when the request ran as another user. */
  sudoFrom?: string;
  durationMs: number;
  /** The surface that answered: `api-v4`, `web` or `control`. */
  surface: string;
  /** No route of the emulator matches the path: GitLab has it, or it does not exist. */
  noRoute?: true;
  /** The request carried a token that matches no token of the world (it was answered 401). */
  unknownToken?: true;
  /** Why authentication refused the request's credentials (an expired token, a wrong git password). */
  refused?: string;
  /** The client went away before its request was read. */
  aborted?: true;
  /** An injected fault dropped the connection. */
  dropped?: true;
}

/** What a request to a path no route matches does besides GitLab's 404: nothing more, a warning, or a thrown error. */
export type UnknownRoutePolicy = 'ignore' | 'warn' | 'error';

/** The header that marks an answer to a path the emulator has no route for. */
export const NO_ROUTE_HEADER = 'X-Gitlab-Emulator';

/** How often a request whose world changed while it awaited runs again before it gives up. */
const MAX_ATTEMPTS = 3;

const NOTHING = () => {};

/** The cell that holds the current world. */
export interface WorldCell {
  state: CoreState;
  snapshot(): Snapshot;
}

export interface PipelineDeps {
  store: WorldCell;
  clock: Clock;
  surfaces: readonly Surface[];
  journal: Journal<Snapshot>;
  faults: Faults;
  limits: RateLimiter;
  env: Env;
  /** The configured external URL, when the emulator was told one; else the request's origin. */
  externalUrl: string | undefined;
  /**
   * The path the emulator is served under (GitLab's relative URL root, e.g. `/-/worlds/a`),
   * added to the request's origin when no external URL is configured; '' by default. The door
   * hands the pipeline requests with it already taken off their paths.
   */
  root?: string;
  /**
   * Settles a successful answer inside its transaction, whatever its surface: what its change
   * said happened reaches the world's subscribers (the families' event stream).
   */
  settle(ctx: Context<unknown, CoreState>): void | Promise<void>;
  /** Runs timed work that is due; called before each request. */
  runDue(): void;
  /** The largest request body accepted, in bytes (413 above it). */
  maxBodySize: number;
  /** Told of every request once it is answered (a request log). */
  observe?: (event: RequestEvent) => void;
  /** What a request to a path no route matches does besides GitLab's 404. */
  onUnknownRoute?: UnknownRoutePolicy;
}

/** nginx's status for a client that closed the connection before its request was read. */
const CLIENT_CLOSED = 499;

/** An injected dropped connection: the door closes it without an answer. */
const DROPPED: Rendered = Object.freeze({ status: 0, headers: {}, body: null }) as Rendered;

/** What a request came to, before it is rendered and journaled. */
interface Outcome {
  reply: Reply;
  caller: Caller;
  route: string | null;
  headers: Record<string, string>;
  defect?: string;
  /** No route matched the path. */
  noRoute?: true;
  /** Why authentication refused the request's credentials. */
  refused?: string;
  /** The answer came from the answer cache. */
  hit?: Answer;
}

/** A request on its way through the stages. */
interface Exchange {
  request: Incoming;
  url: URL;
  method: string;
  surface: Surface;
  /** The path after the surface's prefix. */
  path: string;
  /** The body as read, or why it could not be (too large). */
  body: RawBody | ApiError;
  fault: Fault | undefined;
}

/** Routers by surface, built once: every emulator shares the API's. */
const ROUTERS = new WeakMap<Surface, Router>();

function routerOf(surface: Surface): Router {
  let router = ROUTERS.get(surface);
  if (!router) ROUTERS.set(surface, (router = new Router(surface.routes)));
  return router;
}

export class Pipeline {
  #answers = new AnswerCache();
  #lock: Promise<unknown> = Promise.resolve();
  #surfaces: readonly Surface[];
  /** Work started outside any request (see `detach`) and not done yet; every request waits for it first. */
  #detached: Promise<void> | null = null;

  constructor(private readonly deps: PipelineDeps) {
    this.#surfaces = [...deps.surfaces].sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** One request as a fetch `Request` and `Response` (the MSW door, `emulator.handle`). */
  async handle(request: Request): Promise<Response> {
    return toResponse(await this.answer(fromRequest(request)));
  }

  /** One request as the doors read and write it: no fetch objects unless the door has them. */
  async answer(request: Incoming): Promise<Rendered> {
    if (this.#detached) await this.#detached;
    const started = performance.now();
    const url = request.parsedUrl ?? new URL(request.url);
    const method = request.method.toUpperCase();
    const pathname = url.pathname; // a getter that makes a new string on each read
    const surface = this.#surfaceOf(pathname);
    const path = pathname.slice(surface.prefix.length);
    const fault = surface.faults ? this.deps.faults.take(method, path) : undefined;
    if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
    if (fault?.drop) {
      this.deps.observe?.({ method, path: pathname + url.search, status: 0, user: null, durationMs: performance.now() - started, surface: surface.name, dropped: true });
      return DROPPED;
    }
    // The body is read before the lock, so a client that is slow to send it holds up no one.
    let body: RawBody | ApiError = NO_BODY;
    if (request.body !== null && method !== 'GET' && method !== 'HEAD') {
      try {
        body = await readBody(request, this.deps.maxBodySize);
      } catch (e) {
        if (!(e instanceof ApiError)) return this.#aborted(url, method, started);
        body = e;
      }
    }
    const reads = method === 'GET' || method === 'HEAD' || surface.readsOnly?.(method, pathname) === true;
    const lock = reads ? NOTHING : await this.#takeLock();
    let held = true;
    const release = () => {
      if (held) (held = false), lock();
    };
    try {
      if (surface.runsTimedWork) this.deps.runDue();
      const before = this.#snapshot();
      const x: Exchange = { request, url, method, surface, path, body, fault };
      const answered = this.#answer(x);
      const outcome = answered instanceof Promise ? await answered : answered; // an answer from the cache does not wait
      const next = outcome.reply.continueWith;
      if (next && outcome.reply.status < 400) {
        release(); // the change has committed: what waits on the world outside holds no lock
        outcome.reply = await this.#continue(x, outcome, next);
      }
      if (outcome.noRoute) outcome.headers[NO_ROUTE_HEADER] = 'no-route';
      let response: Rendered;
      try {
        // A cached answer is rendered once; a conditional request is rendered each time (it may be 304).
        const hit = outcome.hit;
        response =
          hit && !outcome.noRoute && !request.headers.has('if-none-match')
            ? (hit.rendered ??= shared(render(request, method, outcome.reply, outcome.headers), method))
            : render(request, method, outcome.reply, outcome.headers);
      } catch (e) {
        outcome.defect ??= describe(e);
        response = render(request, method, surface.renderError(serverError()), {});
      }
      this.#record(surface, method, pathname, url.search, url, outcome.route, outcome.caller, response.status, before, started, outcome.defect, outcome.noRoute, request, outcome.refused);
      if (outcome.noRoute) this.#unknownRoute(method, url);
      return response;
    } finally {
      release();
    }
  }

  /**
   * A request the answer cache holds, answered at once by the key its door made of it as sent
   * (its method, Host, target and credentials): no URL parse, no routing, no await, and
   * journaled and logged as `answer()` would. Undefined (the door then sends it through
   * `answer()`, which remembers the key at its next hit) when anything could make its answer
   * differ: work outside a request pending, a fault rule set, a rate limit on its route, timed
   * work that changed the world, a path under `guarded` (the door checks those itself), or an
   * answer not rendered yet. The door sends a conditional request the whole way.
   */
  answerAtOnce(method: string, doorKey: string, guarded?: string): Rendered | undefined {
    if (this.#detached !== null || (method !== 'GET' && method !== 'HEAD')) return undefined;
    const started = performance.now();
    const state = this.deps.store.state;
    const entry = this.#answers.door(state, doorKey);
    if (entry === undefined) return undefined;
    const { surface, route, answer } = entry;
    const rendered = answer.rendered;
    if (rendered === undefined || entry.day !== today(this.deps.clock.now())) return undefined;
    if (guarded !== undefined && entry.pathname.startsWith(guarded)) return undefined;
    if (surface.faults && this.deps.faults.list().length > 0) return undefined;
    if (surface.runsTimedWork) {
      this.deps.runDue();
      if (this.deps.store.state !== state) return undefined;
    }
    const limits = state.instance.settings.rate_limits;
    if (Object.hasOwn(limits, entry.routeName) || (route.rateLimit !== undefined && Object.hasOwn(limits, route.rateLimit))) return undefined;
    this.#record(surface, method, entry.pathname, entry.search, entry.query, entry.routeName, answer.caller, rendered.status, this.#snapshot(), started);
    return rendered;
  }

  /** A request as it ended, in the journal (for a journaled surface) and told to the observer. */
  #record(
    surface: Surface,
    method: string,
    pathname: string,
    search: string,
    query: string | URL,
    route: string | null,
    caller: Caller,
    status: number,
    before: Snapshot,
    started: number,
    defect?: string,
    noRoute?: true,
    request?: Incoming,
    refused?: Outcome['refused'],
  ): void {
    const user = caller.user?.username ?? caller.deployToken?.username ?? null;
    const durationMs = performance.now() - started;
    if (surface.journaled) {
      const entry: Omit<JournalEntry<Snapshot>, 'seq'> = {
        at: isoTime(this.deps.clock.now()),
        method,
        path: pathname,
        query: typeof query === 'string' ? query : search ? filteredQuery(query) : '',
        status,
        user,
        durationMs,
        route,
        before,
        after: this.#snapshot(),
      };
      if (defect) entry.error = defect;
      if (noRoute) entry.noRoute = true;
      if (refused) entry.refused = refused;
      this.deps.journal.add(entry);
    }
    if (this.deps.observe) {
      const event: RequestEvent = { method, path: pathname + search, status, user, durationMs, surface: surface.name };
      if (caller.sudoFrom) event.sudoFrom = caller.sudoFrom.username;
      if (noRoute) event.noRoute = true;
      if (refused) event.refused = refused;
      else if (status === 401 && request && typeof query !== 'string' && unknownCredential(this.deps.store.state, request, query)) event.unknownToken = true;
      this.deps.observe(event);
    }
  }

  /**
   * Runs `work` as a transaction of its own, outside any request: under the write lock, over a
   * context with no caller, committed if the world did not move meanwhile (else run again on the
   * new world, three times at most). Every request that arrives afterwards waits for it, so what
   * it does is seen by the next request whatever its method. A failure is reported on the
   * console; what the work did not commit stays for the next request to do.
   */
  detach(work: (ctx: Context<unknown, CoreState>) => void | Promise<void>): Promise<void> {
    const done: Promise<void> = (this.#detached ?? Promise.resolve())
      .then(() => this.#runDetached(work))
      .catch((e) => console.error(`[gitlab-emulator] work outside a request failed: ${describe(e)}`))
      .finally(() => {
        if (this.#detached === done) this.#detached = null;
      });
    return (this.#detached = done);
  }

  async #runDetached(work: (ctx: Context<unknown, CoreState>) => void | Promise<void>): Promise<void> {
    const release = await this.#takeLock();
    try {
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const state = this.deps.store.state;
        const origin = this.deps.externalUrl ?? `http://localhost${this.deps.root ?? ''}`;
        const url = new URL(`${origin}/-/emulator`);
        const request: Incoming = { method: 'POST', url: url.href, headers: new Headers(), body: null };
        const ctx = new Context(state, this.deps.env, request, url, {}, {}, ANONYMOUS, origin, { base: url.href, params: {} });
        await work(ctx as Context<unknown, CoreState>);
        if (ctx.state === state) return;
        if (this.deps.store.state === state) {
          this.deps.store.state = ctx.state;
          ctx.committed();
          return;
        }
      }
    } finally {
      release();
    }
  }

  /** A request no route matched, as `onUnknownRoute` asks: a warning, or an error thrown at the caller. */
  #unknownRoute(method: string, url: URL): void {
    const policy = this.deps.onUnknownRoute ?? 'ignore';
    if (policy === 'ignore') return;
    const message = `${method} ${url.pathname} is not emulated: no route of gitlab-emulator matches it (answered GitLab's 404; GET /-/emulator lists the routes)`;
    if (policy === 'warn') console.warn(`[gitlab-emulator] ${message}`);
    else throw new EmulatorError(message);
  }

  /** A client that went away while sending its body: journaled as such, not as a defect of ours. */
  #aborted(url: URL, method: string, started: number): Rendered {
    const now = this.deps.store.snapshot();
    this.deps.journal.add({
      at: new Date(this.deps.clock.now()).toISOString(),
      method,
      path: url.pathname,
      query: filteredQuery(url),
      status: CLIENT_CLOSED,
      user: null,
      durationMs: performance.now() - started,
      route: null,
      before: now,
      after: now,
      aborted: true,
    });
    this.deps.observe?.({ method, path: url.pathname + url.search, status: CLIENT_CLOSED, user: null, durationMs: performance.now() - started, surface: 'none', aborted: true });
    return { status: CLIENT_CLOSED, headers: {}, body: null };
  }

  /** The surface whose prefix the path starts with (the longest first) and that claims it. */
  /**
   * Whether a path is the emulator's to answer: every path under the API's, the git and the
   * control prefixes (an unknown one there is GitLab's 404), and the web app's few routes; not
   * any other path of the host, such as a page's own files where the emulator shares its origin.
   */
  serves(method: string, pathname: string): boolean {
    const surface = this.#surfaceOf(pathname);
    return surface.name !== 'web' || routerOf(surface).match(method.toUpperCase(), pathname === '' ? '/' : pathname) !== undefined;
  }

  #surfaceOf(pathname: string): Surface {
    for (const s of this.#surfaces) if (pathname.startsWith(s.prefix) && (s.claims === undefined || s.claims(pathname))) return s;
    throw new Error(`no surface takes ${pathname}`); // the web surface takes every path
  }

  #lastSnapshot: Snapshot | undefined;

  /** The world as a snapshot: the same object while the world stays the same (a snapshot is frozen). */
  #snapshot(): Snapshot {
    const last = this.#lastSnapshot;
    if (last && last.state === this.deps.store.state) return last;
    return (this.#lastSnapshot = this.deps.store.snapshot());
  }

  /** Writes are serialised: each commits its working copy of the world before the next reads it. */
  async #takeLock(): Promise<() => void> {
    let release!: () => void;
    const previous = this.#lock;
    this.#lock = new Promise<void>((r) => (release = r));
    await previous;
    return release;
  }

  /** Every stage from routing to the transaction; any failure becomes the surface's error reply. */
  #answer(x: Exchange): Outcome | Promise<Outcome> {
    const outcome: Outcome = { reply: { status: 200 }, caller: ANONYMOUS, route: null, headers: {} };
    let match: Match;
    let cacheKey: string | undefined;
    let query: Record<string, unknown> | undefined;
    let declaredKey: string | undefined;
    try {
      if (x.fault?.status) throw new ApiError(x.fault.status, x.fault.body ?? { message: `${x.fault.status} Injected fault` });
      if (x.body instanceof ApiError) throw x.body;
      if (x.url.search.length - 1 > MAX_QUERY_LENGTH) throw uriTooLong();
      match = this.#route(x, outcome);
      outcome.route = routeName(match.route);
      const now = this.deps.clock.now();
      cacheKey = match.route.cacheable && x.body.empty ? answerKey(x.request, x.url, now) : undefined;
      const state = this.deps.store.state;
      let hit = cacheKey !== undefined ? this.#answers.get(state, cacheKey) : undefined;
      // Else an answer to a request that sent the same declared and credential parameters, if
      // what made it read nothing else of its request (a page repeats the query in its links).
      const credentials = x.surface.credentialParams;
      if (hit === undefined && cacheKey !== undefined && credentials !== undefined && !match.route.paginated) {
        query = parseQuery(x.url.search); // a query that cannot be read is refused, as the whole way
        declaredKey = declaredAnswerKey(x.request, this.#origin(x.url) + x.url.pathname, query, namesRead(match.route, credentials), now);
        hit = this.#answers.declared(state, declaredKey);
      }
      if (hit) {
        outcome.caller = hit.caller;
        this.#checkRateLimit(match.route, outcome.route, hit.caller, now);
        outcome.hit = hit; // only once it may be answered: a refused request is answered its error
        const doorKey = x.request.doorKey;
        if (doorKey !== undefined) this.#rememberDoorKey(doorKey, x, match.route, outcome.route, hit, now);
        outcome.headers = hit.headers; // shared: nothing writes to a hit's headers
        outcome.reply = hit.reply;
        return outcome;
      }
    } catch (e) {
      return this.#failed(x, outcome, e);
    }
    return this.#run(x, match, outcome, cacheKey, query, declaredKey).then(
      (reply) => {
        outcome.reply = reply;
        return outcome;
      },
      (e: unknown) => this.#failed(x, outcome, e),
    );
  }

  /** A reply's `continueWith`: its reply, its change committed on its own; a failure is the surface's error. */
  async #continue(x: Exchange, outcome: Outcome, next: NonNullable<Reply['continueWith']>): Promise<Reply> {
    try {
      const { reply, change } = await next();
      if (change) await this.detach(async (ctx) => void ctx.update(change as (draft: unknown) => void));
      return reply;
    } catch (e) {
      return this.#failed(x, outcome, e).reply;
    }
  }

  /** What a door's key reached, for `answerAtOnce` to answer the next such request (once per key and world). */
  #rememberDoorKey(doorKey: string, x: Exchange, route: RouteDef, routeName: string, answer: Answer, now: number): void {
    const state = this.deps.store.state;
    if (this.#answers.door(state, doorKey) !== undefined) return;
    const { pathname, search } = x.url;
    const query = search ? filteredQuery(x.url) : '';
    this.#answers.remember(state, doorKey, { answer, surface: x.surface, route, routeName, pathname, search, query, day: today(now) });
  }

  /** A failure as the surface answers it: GitLab's error, or a 500 and the defect kept for the journal. */
  #failed(x: Exchange, outcome: Outcome, e: unknown): Outcome {
    const refusal = refusalOf(e);
    if (refusal !== undefined) outcome.refused = refusal;
    if (e instanceof ApiError) outcome.reply = x.surface.renderError(e);
    else {
      outcome.defect = describe(e);
      outcome.reply = x.surface.renderError(serverError());
    }
    return outcome;
  }

  #route(x: Exchange, outcome: Outcome): Match {
    const match = routerOf(x.surface).match(x.method, x.path === '' ? '/' : x.path);
    // HandleMalformedStrings: a path that is not UTF-8, or holds a NUL.
    if (match === 'bad-encoding' || (match && holdsNul(match.params))) throw malformedRequest();
    if (match === undefined) {
      outcome.noRoute = true;
      // Who asked, for the journal and the log, though no route reads credentials.
      outcome.caller = identifyCaller(x.surface.authenticate, this.deps.store.state, x.request, parseQuery(x.url.search), this.deps.clock.now(), this.#origin(x.url));
    }
    if (match === undefined || !routeAvailable(match.route, this.deps.store.state.instance)) throw x.surface.notFound(x.path);
    return match;
  }

  /** Where entities' URLs start: the external URL, or the request's origin and the root. */
  #origin(url: URL): string {
    return this.deps.externalUrl ?? (this.deps.root ? url.origin + this.deps.root : url.origin);
  }

  /** Cache, auth, rate limit, params, scope and the handler in one transaction. */
  async #run(x: Exchange, match: Match, outcome: Outcome, cacheKey: string | undefined, parsedQuery?: Record<string, unknown>, declaredKey?: string): Promise<Reply> {
    const { route } = match;
    const now = this.deps.clock.now();
    const body = x.body as RawBody;
    const { query, params: bodyParams } = body.empty ? { query: parsedQuery ?? parseQuery(x.url.search), params: {} } : await parseBody(x.request, x.url, body);
    const raw = merged(query, bodyParams, match.params);
    const origin = this.#origin(x.url);
    // A handler that awaited (git writes) may find the world changed meanwhile (a restore, a
    // seed, timed work). Objects a run writes stay pending until it commits, so a run that is
    // not committed leaves nothing a later read can reach.
    for (let attempt = 1; ; attempt++) {
      const state = this.deps.store.state;
      const req = requirementsOf(route);
      const caller = x.surface.authenticate?.(state, x.request, raw, req, now, origin) ?? ANONYMOUS;
      outcome.caller = caller;
      requireAuth(caller, req);
      if (attempt === 1) this.#checkRateLimit(route, outcome.route!, caller, now);
      const parsed = parseParams(route.params ?? {}, raw, route.constraints);
      if (!parsed.ok) throw parsed.error;
      const links = new Links(origin + x.url.pathname, route, query, bodyParams, match.params);
      const keyset = typeof route.paginated === 'object' ? route.paginated.keyset : undefined;
      const ctx = new Context(state, this.deps.env, x.request, x.url, parsed.value, raw, caller, origin, links, x.surface.paginate, keyset);
      ctx.body = body.bytes;
      if (route.scope) route.scope.resolve(ctx, parsed.value[route.scope.param] as string);
      if (route.paginated) pageRequest(parsed.value); // as GitLab's paginate checks them: after the project is found
      if (route.subject) ctx.subject = route.subject.resolve(ctx); // then what the handler found itself
      const handled = route.handler(ctx);
      let reply = isPromise(handled) ? await handled : handled; // most handlers answer at once: no await for them
      const readAsSent = ctx.readAsSent; // what reacts to the answer below may read the request: not the answer's
      // A change made on a world that moved meanwhile is checked (or run again) before anything
      // reacts to it: the surface's after-answer work reads the world the change was made on.
      if (reply.status < 400 && ctx.state !== state && this.deps.store.state !== state) {
        ctx.checkOnto(this.deps.store.state);
        if (attempt === MAX_ATTEMPTS) throw conflict('409 Conflict - the world changed during the request; try again');
        continue;
      }
      if (reply.status >= 200 && reply.status < 300) {
        const after = x.surface.afterAnswer?.(ctx as Context<unknown, CoreState>);
        if (after) await after;
        const settled = this.deps.settle(ctx as Context<unknown, CoreState>);
        if (settled) await settled;
      }
      outcome.headers = { ...ctx.responseHeaders };
      if (cacheKey !== undefined && reply.status === 200 && ctx.state === state) {
        reply = settle(reply);
        // The copy is the cache's from now on: a route's answer gains no header after this.
        const answer: Answer = { caller, reply, headers: outcome.headers };
        this.#answers.set(state, cacheKey, answer);
        if (declaredKey !== undefined && !readAsSent) this.#answers.setDeclared(state, declaredKey, answer);
      }
      // Only a successful answer commits: a failed request changes nothing, however it failed.
      if (reply.status >= 400) return reply;
      if (ctx.state === state || this.deps.store.state === state) {
        if (ctx.state !== state) this.deps.store.state = ctx.state;
        ctx.committed();
        return reply;
      }
      // A change that checked what it read (a branch's tip, as Gitaly does) fails as it would
      // have; any other request runs again, whole, on the new world.
      ctx.checkOnto(this.deps.store.state);
      if (attempt === MAX_ATTEMPTS) throw conflict('409 Conflict - the world changed during the request; try again');
    }
  }

  #checkRateLimit(route: RouteDef, key: string, caller: Caller, now: number): void {
    const limits = this.deps.store.state.instance.settings.rate_limits;
    if (route.rateLimit) this.#limit(limits, route.rateLimit, caller, now);
    this.#limit(limits, key, caller, now);
  }

  #limit(limits: CoreState['instance']['settings']['rate_limits'], name: string, caller: Caller, now: number): void {
    const limit = Object.hasOwn(limits, name) ? limits[name] : undefined;
    if (!limit) return;
    const used = this.deps.limits.take(`${name}|${caller.user?.id ?? 'anonymous'}`, limit, now);
    if (!used.ok) throw rateLimited(used.retryAfter);
  }
}

function isPromise<T>(v: T | Promise<T>): v is Promise<T> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

function holdsNul(params: Record<string, string>): boolean {
  for (const k in params) if (params[k]!.includes('\0')) return true;
  return false;
}

/** A rendered answer as the answer cache keeps it: its length set once, its headers shared. */
function shared(r: Rendered, method: string): Rendered {
  const body = typeof r.body === 'string' ? UTF8.encode(r.body) : r.body;
  const wireHeaders = { ...r.headers };
  if (body !== null) wireHeaders['Content-Length'] = String(body.byteLength);
  else if (r.status !== 204 && r.status !== 304 && method !== 'HEAD') wireHeaders['Content-Length'] = '0';
  return { status: r.status, headers: r.headers, body, wireHeaders };
}

const UTF8 = new TextEncoder();

function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}

