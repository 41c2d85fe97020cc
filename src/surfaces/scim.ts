// SCIM (RFC 7644) under /api/scim/v2: the group provisioning API an identity provider drives
// (ee/lib/api/scim). Its routes read their own credential, a group's SCIM token, so the surface
// authenticates no one; failures keep their SCIM error bodies and SCIM's content type.
import { routeNotFound } from '../core/errors.js';
import { paginateOffset } from '../http/pagination.js';
import type { RouteDef } from '../http/route.js';
import { renderApiError, type Surface } from '../http/surface.js';

export const SCIM_CONTENT_TYPE = 'application/scim+json';

export function scimSurface(routes: readonly RouteDef[]): Surface {
  return {
    name: 'scim',
    prefix: '/api/scim/v2',
    routes,
    paginate: paginateOffset,
    faults: true,
    runsTimedWork: true,
    journaled: true,
    notFound: () => routeNotFound(),
    renderError: (e) => {
      const reply = renderApiError(e);
      const scim = typeof e.body === 'object' && e.body !== null && Array.isArray((e.body as { schemas?: unknown }).schemas);
      return scim ? { ...reply, contentType: SCIM_CONTENT_TYPE } : reply;
    },
  };
}
