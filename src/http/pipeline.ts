// One request through GitLab's conventions, in the order GitLab applies them:
// faults -> route -> limits -> params -> auth -> sudo -> handler (one transaction) -> response.
import type { Clock } from '../core/clock.js';
import type { Faults } from '../core/faults.js';
import type { Journal } from '../core/journal.js';
import type { RateLimit, CoreState, Tier } from '../store/state.js';
import type { Snapshot } from '../store/store.js';
import { applySudo, authenticate, requireAuth, sudoValue, type Caller, ANONYMOUS } from './auth.js';
import { Context, type Env } from './context.js';
import { ApiError, apiV3Gone, conflict, malformedRequest, rateLimited, routeNotFound, serverError, uriTooLong } from '../core/errors.js';
import { parseParams } from './params.js';
import { MAX_QUERY_LENGTH, parseBody, parseQuery } from './request-params.js';
import type { Reply, RouteDef } from './route.js';
import { RateLimiter } from './rate-limit.js';
import type { Router } from './router.js';
import { hash53 } from '../core/hash.js';
import { today } from '../policy/access.js';

export const API_PREFIX = '/api/v4';
/**
 * The few pages of GitLab's web app the emulator serves (downloads that API answers link to) are
 * routed as `WEB_PREFIX + pathname`: a route declares `${WEB_PREFIX}/...`; no API path starts so.
 */
export const WEB_PREFIX = '/-/web';
const TIERS: Tier[] = ['free', 'premium', 'ultimate'];
const MAX_ATTEMPTS = 3;

const BASE_HEADERS: Record<string, string> = {
  'Cache-Control': 'max-age=0, private, must-revalidate',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
};

/** The cell that holds the current world. */
export interface WorldCell {
  state: CoreState;
  snapshot(): Snapshot;
}

export interface PipelineDeps {
  store: WorldCell;
  clock: Clock;
  router: Router;
  journal: Journal;
  faults: Faults;
  env: Env;
  /** The configured external URL, when the emulator was told one; else the request's origin. */
  externalUrl: string | undefined;
  /** Runs timed work that is due; called before each request. */
  runDue(): void;
}

interface Answer {
  caller: Caller;
  reply: Reply;
  headers: Record<string, string>;
}

/**
 * Answers of cacheable GET routes for the current world. The world is immutable, so an answer
 * is a function of (world, URL, credentials, day) for routes whose output does not read the
 * time of day; a new world starts an empty cache. Bounded, and only the current world is kept.
 */
class AnswerCache {
  #state: CoreState | undefined;
  #map = new Map<string, Answer>();

  get(state: CoreState, key: string): Answer | undefined {
    return state === this.#state ? this.#map.get(key) : undefined;
  }

  set(state: CoreState, key: string, answer: Answer): void {
    if (state !== this.#state || this.#map.size >= 256) {
      this.#state = state;
      this.#map = new Map();
    }
    this.#map.set(key, answer);
  }
}

const CREDENTIAL_HEADERS = ['authorization', 'private-token', 'job-token', 'cookie', 'sudo'];

function answerKey(request: Request, url: URL, now: number): string {
  let key = `${request.method} ${url.href}\n${today(now)}`; // a route may answer HEAD unlike GET
  for (const h of CREDENTIAL_HEADERS) key += `\n${request.headers.get(h) ?? ''}`;
  return key;
}

export class Pipeline {
  #rate = new RateLimiter();
  #answers = new AnswerCache();
  #lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: PipelineDeps) {}

  resetRateLimits(): void {
    this.#rate.clear();
  }

  /** A rate limit counted by the handler itself (`Env.throttle`); the settings may override it. */
  throttle(name: string, scope: string, fallback: RateLimit): boolean {
    const limit = this.deps.store.state.instance.settings.rate_limits[name] ?? fallback;
    return this.#rate.take(`${name}|${scope}`, limit, this.deps.clock.now()).ok;
  }

  async handle(request: Request): Promise<Response> {
    const started = performance.now();
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) : null;
    const fault = path !== null ? this.deps.faults.take(method, path) : undefined;
    if (fault?.latencyMs) await new Promise((r) => setTimeout(r, fault.latencyMs));
    if (fault?.drop) return Response.error();

    // Writes are serialised: each commits its working copy of the world before the next reads it.
    const mutating = method !== 'GET' && method !== 'HEAD';
    let release: () => void = () => {};
    if (mutating) {
      const previous = this.#lock;
      this.#lock = new Promise<void>((r) => (release = r));
      await previous;
    }
    try {
      this.deps.runDue();
      const before = this.deps.store.snapshot();
      let reply: Reply;
      let caller: Caller = ANONYMOUS;
      let routeKey: string | null = null;
      let defect: string | undefined;
      const ctxHeaders: Record<string, string> = {};
      try {
        if (fault?.status) throw new ApiError(fault.status, fault.body ?? { message: `${fault.status} Injected fault` });
        if (path === null && url.pathname.startsWith('/api/')) throw url.pathname.startsWith('/api/v3') ? apiV3Gone() : routeNotFound();
        if (url.search.length - 1 > MAX_QUERY_LENGTH) throw uriTooLong();
        const match = this.deps.router.match(method, path === null ? WEB_PREFIX + url.pathname : path === '' ? '/' : path);
        // HandleMalformedStrings: a path that is not UTF-8, or holds a NUL.
        if (match === 'bad-encoding' || (match && Object.values(match.params).some((v) => v.includes('\0')))) throw malformedRequest();
        if (match === undefined || !this.#available(match.route)) throw routeNotFound();
        const { route } = match;
        routeKey = `${route.method} ${route.path}`;
        const state = this.deps.store.state;
        const now = this.deps.clock.now();
        const cacheKey = route.cacheable && request.body === null ? answerKey(request, url, now) : undefined;
        const hit = cacheKey !== undefined ? this.#answers.get(state, cacheKey) : undefined;
        if (hit) {
          caller = hit.caller;
          this.#checkRateLimit(state, route, routeKey, caller, now);
          reply = hit.reply;
          Object.assign(ctxHeaders, hit.headers);
        } else {
          const query = parseQuery(url.search);
          const body = await parseBody(request);
          const raw = { ...query, ...body.params, ...match.params };
          // A handler that awaited (git writes) may find the world changed meanwhile (a restore, a
          // seed, timed work). Objects it wrote are append-only, so a run that is not committed
          // leaves nothing a later read can reach.
          for (let attempt = 1; ; attempt++) {
          const state = this.deps.store.state;
          const req = { auth: route.auth ?? 'public', scopes: route.scopes ?? [], jobToken: route.jobToken ?? false } as const;
          const origin = this.deps.externalUrl ?? url.origin;
          caller = authenticate(state, request, raw, req, now, origin);
          if (req.auth !== 'none') caller = applySudo(state, caller, sudoValue(request, raw)); // routes that never read credentials ignore sudo
          requireAuth(caller, req);
          this.#checkRateLimit(state, route, routeKey, caller, now);
          const parsed = parseParams(route.params ?? {}, raw, route.constraints);
          if (!parsed.ok) throw parsed.error;
          const linkParams: Record<string, unknown> = { ...query, ...body.params, ...match.params };
          for (const [k, p] of Object.entries(route.params ?? {})) {
            if (linkParams[k] === undefined && p.options.default !== undefined) linkParams[k] = p.options.default;
          }
          const ctx = new Context(state, this.deps.env, request, url, parsed.value, raw, caller, origin, {
            base: origin + url.pathname,
            params: linkParams,
          });
          reply = await route.handler(ctx);
          Object.assign(ctxHeaders, ctx.responseHeaders);
          // Only a successful answer commits: a failed request changes nothing, however it failed.
          if (cacheKey !== undefined && reply.status === 200 && ctx.state === state) {
            this.#answers.set(state, cacheKey, { caller, reply, headers: { ...ctx.responseHeaders } });
          }
          if (ctx.state === state || reply.status >= 400) break;
          if (this.deps.store.state === state) {
            this.deps.store.state = ctx.state;
            break;
          }
          // A change that checked what it read (a branch's tip, as Gitaly does) fails as it would
          // have; any other request runs again, whole, on the new world.
          ctx.checkOnto(this.deps.store.state);
          if (attempt === MAX_ATTEMPTS) throw conflict('409 Conflict - the world changed during the request; try again');
          for (const k of Object.keys(ctxHeaders)) delete ctxHeaders[k];
          }
        }
      } catch (e) {
        if (e instanceof ApiError) reply = { status: e.status, body: e.body, headers: e.headers, contentType: e.contentType };
        else {
          defect = e instanceof Error ? e.stack ?? e.message : String(e);
          const err = serverError();
          reply = { status: err.status, body: err.body };
        }
      }
      const response = this.#render(request, method, reply, ctxHeaders);
      this.deps.journal.add({
        at: new Date(this.deps.clock.now()).toISOString(),
        method,
        path: url.pathname,
        query: url.search,
        status: response.status,
        user: caller.user?.username ?? null,
        durationMs: performance.now() - started,
        route: routeKey,
        before,
        after: this.deps.store.snapshot(),
        ...(defect ? { error: defect } : {}),
      });
      return response;
    } finally {
      release();
    }
  }

  #available(route: RouteDef): boolean {
    const { tier, offering } = this.deps.store.state.instance;
    if (route.tier && TIERS.indexOf(tier) < TIERS.indexOf(route.tier)) return false;
    return !route.offering || route.offering === offering;
  }

  #checkRateLimit(state: CoreState, route: RouteDef, key: string, caller: Caller, now: number): void {
    const limits = state.instance.settings.rate_limits;
    for (const name of [route.rateLimit, key]) {
      const limit = name ? limits[name] : undefined;
      if (!limit) continue;
      const used = this.#rate.take(`${name}|${caller.user?.id ?? 'anonymous'}`, limit, now);
      if (!used.ok) throw rateLimited(used.retryAfter);
    }
  }


  #render(request: Request, method: string, reply: Reply, extra: Record<string, string>): Response {
    const headers = new Headers(BASE_HEADERS);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    for (const [k, v] of Object.entries(reply.headers ?? {})) headers.set(k, v);
    let body: Uint8Array | string | null = null;
    if (reply.json !== undefined) {
      body = reply.json;
      headers.set('Content-Type', 'application/json');
    } else if (reply.raw !== undefined) {
      body = reply.raw;
      headers.set('Content-Type', reply.contentType ?? 'application/octet-stream');
    } else if (reply.body !== undefined) {
      body = typeof reply.body === 'string' && reply.contentType ? reply.body : JSON.stringify(reply.body);
      headers.set('Content-Type', reply.contentType ?? 'application/json');
    }
    if (body !== null && reply.status === 200 && (method === 'GET' || method === 'HEAD') && !headers.has('ETag')) {
      const etag = reply.etag ?? `W/"${hash53(body)}"`;
      headers.set('ETag', etag);
      const inm = request.headers.get('if-none-match');
      if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
        return new Response(null, { status: 304, headers });
      }
    }
    if (reply.status === 204 || reply.status === 304) body = null;
    return new Response(method === 'HEAD' ? null : (body as BodyInit | null), { status: reply.status, headers });
  }
}
