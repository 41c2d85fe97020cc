// One request through GitLab's conventions, in the order GitLab applies them:
// faults -> route -> limits -> params -> auth -> sudo -> handler (one transaction) -> response.
import type { Clock } from '../clock.js';
import type { Faults } from '../faults.js';
import type { Journal } from '../journal.js';
import type { State, Tier } from '../store/state.js';
import type { Store } from '../store/store.js';
import { applySudo, authenticate, requireAuth, type Caller, ANONYMOUS } from './auth.js';
import { Context, type Env } from './context.js';
import { ApiError, apiV3Gone, rateLimited, routeNotFound, serverError, uriTooLong } from './errors.js';
import { parseParams } from './params.js';
import { MAX_QUERY_LENGTH, parseBody, parseQuery } from './request-params.js';
import type { Reply, RouteDef } from './route.js';
import type { Router } from './router.js';

export const API_PREFIX = '/api/v4';
const TIERS: Tier[] = ['free', 'premium', 'ultimate'];

const BASE_HEADERS: Record<string, string> = {
  'Cache-Control': 'max-age=0, private, must-revalidate',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
};

export interface PipelineDeps {
  store: Store;
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

interface RateWindow {
  start: number;
  count: number;
}

export class Pipeline {
  #rate = new Map<string, RateWindow>();
  #lock: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: PipelineDeps) {}

  resetRateLimits(): void {
    this.#rate.clear();
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
        if (fault?.status) throw new ApiError(fault.status, (fault.body ?? { message: `${fault.status} Injected fault` }) as never);
        if (path === null) throw url.pathname.startsWith('/api/v3') ? apiV3Gone() : routeNotFound();
        if (url.search.length - 1 > MAX_QUERY_LENGTH) throw uriTooLong();
        const match = this.deps.router.match(method, path === '' ? '/' : path);
        if (match === 'bad-encoding' || match === undefined || !this.#available(match.route)) throw routeNotFound();
        const { route } = match;
        routeKey = `${route.method} ${route.path}`;
        const query = parseQuery(url.search);
        const body = await parseBody(request);
        const raw = { ...query, ...body.params, ...match.params };
        const state = this.deps.store.state;
        const now = this.deps.clock.now();
        const req = { auth: route.auth ?? 'public', scopes: route.scopes ?? [], jobToken: route.jobToken ?? false } as const;
        caller = authenticate(state, request, raw, req, now);
        const sudo = typeof raw.sudo === 'string' ? raw.sudo : request.headers.get('sudo') ?? undefined;
        caller = applySudo(state, caller, sudo);
        requireAuth(caller, req);
        this.#checkRateLimit(state, route, routeKey, caller, now);
        const parsed = parseParams(route.params ?? {}, raw, route.constraints);
        if (!parsed.ok) throw parsed.error;
        const origin = this.deps.externalUrl ?? url.origin;
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
        if (ctx.state !== state) this.deps.store.state = ctx.state;
      } catch (e) {
        if (e instanceof ApiError) reply = { status: e.status, body: e.body, headers: e.headers };
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

  #checkRateLimit(state: State, route: RouteDef, key: string, caller: Caller, now: number): void {
    const limits = state.instance.settings.rate_limits;
    for (const name of [route.rateLimit, key]) {
      const limit = name ? limits[name] : undefined;
      if (!limit) continue;
      const id = `${name}|${caller.user?.id ?? 'anonymous'}`;
      const period = limit.period_seconds * 1000;
      let w = this.#rate.get(id);
      if (!w || now >= w.start + period || now < w.start) {
        w = { start: now, count: 0 };
        this.#rate.set(id, w);
      }
      if (w.count >= limit.limit) throw rateLimited((w.start + period - now) / 1000);
      w.count++;
    }
  }

  #render(request: Request, method: string, reply: Reply, extra: Record<string, string>): Response {
    const headers = new Headers(BASE_HEADERS);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    for (const [k, v] of Object.entries(reply.headers ?? {})) headers.set(k, v);
    let body: Uint8Array | string | null = null;
    if (reply.raw !== undefined) {
      body = reply.raw;
      headers.set('Content-Type', reply.contentType ?? 'application/octet-stream');
    } else if (reply.body !== undefined) {
      body = typeof reply.body === 'string' && reply.contentType ? reply.body : JSON.stringify(reply.body);
      headers.set('Content-Type', reply.contentType ?? 'application/json');
    }
    if (body !== null && reply.status === 200 && (method === 'GET' || method === 'HEAD') && !headers.has('ETag')) {
      const etag = `W/"${hash(body)}"`;
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

/** A fast 53-bit hash (cyrb53), enough to tell versions of a response apart. */
function hash(input: Uint8Array | string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  if (typeof input === 'string') {
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  } else {
    for (let i = 0; i < input.length; i++) {
      const c = input[i]!;
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}
