// The few paths of GitLab's web app the emulator serves (downloads that API answers link to,
// such as release source archives), and everything no other surface claims: an unknown path
// is GitLab's 404, and the retired API v3 its 410.
import { apiV3Gone, routeNotFound } from '../core/errors.js';
import { gitlabCaller } from '../http/auth.js';
import { paginateOffset } from '../http/pagination.js';
import type { RouteDef } from '../http/route.js';
import { renderApiError, type Surface } from '../http/surface.js';
import { OPERATIONS } from '../families/registry.js';

export function webSurface(routes: readonly RouteDef[]): Surface {
  return {
    name: 'web',
    prefix: '',
    routes,
    authenticate: gitlabCaller(OPERATIONS),
    paginate: paginateOffset,
    faults: false,
    runsTimedWork: true,
    journaled: true,
    notFound: (path) => (path.startsWith('/api/v3') ? apiV3Gone() : routeNotFound()),
    renderError: renderApiError,
  };
}
