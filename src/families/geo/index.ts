// Geo (ee/lib/api/geo_nodes.rb, geo_sites.rb): an emulator is one instance with no Geo sites, so
// administrators list none and their statuses are none; a site by id is not found.
import { notFound } from '../../core/errors.js';
import { int } from '../../http/params.js';
import { json } from '../../http/route.js';
import { defineFamily, route, type Family } from '../define.js';

const none = (resource: string) => [
  route({ method: 'GET', path: `/${resource}`, auth: 'admin', paginated: true, handler: (ctx) => json(ctx.paginate([])) }),
  route({ method: 'GET', path: `/${resource}/status`, auth: 'admin', paginated: true, handler: (ctx) => json(ctx.paginate([])) }),
  route({
    method: 'GET', path: `/${resource}/:id`, auth: 'admin', params: { id: int().required() },
    handler: () => {
      throw notFound(resource === 'geo_nodes' ? 'GeoNode' : 'GeoSite');
    },
  }),
  route({
    method: 'GET', path: `/${resource}/:id/status`, auth: 'admin', params: { id: int().required() },
    handler: () => {
      throw notFound(resource === 'geo_nodes' ? 'GeoNode' : 'GeoSite');
    },
  }),
];

export const geo: Family = defineFamily({ name: 'geo', routes: [...none('geo_nodes'), ...none('geo_sites')] });
