// The REST API under /api/v4: every family's routes, GitLab's credentials and error bodies.
import { routeNotFound } from '../core/errors.js';
import { gitlabCaller } from '../http/auth.js';
import { paginateOffset } from '../http/pagination.js';
import type { RouteDef } from '../http/route.js';
import { renderApiError, type Surface } from '../http/surface.js';
import type { Context } from '../families/define.js';
import { answered, OPERATIONS } from '../families/registry.js';

export function apiV4Surface(routes: readonly RouteDef[]): Surface {
  return {
    name: 'api-v4',
    prefix: '/api/v4',
    routes,
    authenticate: gitlabCaller(OPERATIONS),
    credentialParams: ['private_token', 'access_token', 'job_token', 'sudo'],
    paginate: paginateOffset,
    faults: true,
    runsTimedWork: true,
    journaled: true,
    notFound: () => routeNotFound(),
    renderError: renderApiError,
    afterAnswer: (ctx) => answered(ctx as unknown as Context),
  };
}
