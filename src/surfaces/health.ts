// GitLab's health endpoints (doc/administration/monitoring/health_check.md), for what waits on a
// GitLab before it starts (compose `healthcheck:`, Testcontainers' wait strategies, CI services):
// `/-/health` answers `GitLab OK` as text; `/-/readiness` GitLab's probe collection
// (`{"status":"ok","master_check":[{"status":"ok"}]}`, and with `all` every service check);
// `/-/liveness` `{"status":"ok"}`. The emulator has no database, Redis or Gitaly to lose: once it
// answers, every check is ok. GitLab restricts them to its monitoring allowlist, whose default
// is this machine; the emulator answers them to anyone, and neither journals nor faults them.
import { routeNotFound } from '../core/errors.js';
import { paginateOffset } from '../http/pagination.js';
import { route, type Reply, type RouteDef } from '../http/route.js';
import { renderApiError, type Surface } from '../http/surface.js';

/** The paths this surface claims (the web surface takes every other path under `/-/`). */
const PATHS = new Set(['/-/health', '/-/readiness', '/-/liveness']);

const OK = { status: 'ok' } as const;

/** The service checks `?all=1` adds to the master check (HealthController's ALL_CHECKS), in GitLab's order. */
const SERVICE_CHECKS: readonly [string, Record<string, unknown>][] = [
  ['db_check', OK],
  ['db_load_balancing_check', OK],
  ['redis_check', OK],
  ['cache_check', OK],
  ['queues_check', OK],
  ['rate_limiting_check', OK],
  ['sessions_check', OK],
  ['shared_state_check', OK],
  ['trace_chunks_check', OK],
  ['gitaly_check', { status: 'ok', labels: { shard: 'default' } }],
];

/** Rails' `params[:all]`: present and not empty. */
const asksAll = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

const probe = (body: Record<string, unknown>): Reply => ({ status: 200, raw: JSON.stringify(body), contentType: 'application/json; charset=utf-8', headers: { 'Cache-Control': 'no-store' } });

const ROUTES: RouteDef[] = [
  route({
    method: 'GET',
    path: '/-/health',
    auth: 'none',
    params: {},
    handler: () => ({ status: 200, raw: 'GitLab OK', contentType: 'text/plain; charset=utf-8', headers: { 'Cache-Control': 'no-store' } }),
  }),
  route({
    method: 'GET',
    path: '/-/readiness',
    auth: 'none',
    params: {},
    handler: (ctx) => {
      const body: Record<string, unknown> = { status: 'ok', master_check: [OK] };
      if (asksAll(ctx.raw.all)) for (const [name, result] of SERVICE_CHECKS) body[name] = [result];
      return probe(body);
    },
  }),
  route({ method: 'GET', path: '/-/liveness', auth: 'none', params: {}, handler: () => probe(OK) }),
];

export function healthSurface(): Surface {
  return {
    name: 'health',
    prefix: '',
    claims: (pathname) => PATHS.has(pathname),
    routes: ROUTES,
    paginate: paginateOffset,
    faults: false,
    runsTimedWork: false,
    journaled: false,
    notFound: () => routeNotFound(),
    renderError: renderApiError,
  };
}
