// Namespaces: GET /namespaces, GET /namespaces/:id, GET /namespaces/:id/exists (lib/api/namespaces.rb). Every route needs a
// signed-in caller.
import { namespaceByIdOrPath } from '../../policy/paths.js';
import { namespaceEntity } from './entity.js';
import { canSeeNamespace, namespaceCounts, namespaceExists, namespacesUnder, suggestPath } from './rules.js';
import { route, type Context } from '../define.js';
import { notFound } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { json } from '../../http/route.js';
import type { Namespace } from '../../store/state.js';
import { tvalues } from '../../store/table.js';

const render = (ctx: Context<unknown>, ns: Namespace) => namespaceEntity(ctx.state, ns, ctx, namespaceCounts(ctx.state, ctx.user!, ns, ctx.now()));

export const namespaceRoutes = [
  route({
    method: 'GET',
    path: '/namespaces',
    cacheable: true,
    auth: 'user',
    paginated: true,
    params: { search: str(), owned_only: bool().default(false), top_level_only: bool().default(false) },
    handler: (ctx) => {
      const p = ctx.params;
      const search = p.search?.toLowerCase();
      const list = [...tvalues(ctx.state.namespaces)].filter(
        (ns) =>
          canSeeNamespace(ctx.state, ctx.user!, ns, ctx.now(), p.owned_only) &&
          (!p.top_level_only || ns.parentId === null) &&
          (!search || ns.path.toLowerCase().includes(search) || ns.name.toLowerCase().includes(search)),
      );
      return json(ctx.paginate(list).map((ns) => render(ctx, ns)));
    },
  }),
  route({
    method: 'GET',
    path: '/namespaces/:id/exists',
    cacheable: true,
    auth: 'user',
    params: { id: str().required(), parent_id: int() },
    handler: (ctx) => {
      const parentId = ctx.params.parent_id ?? null;
      const exists = namespaceExists(ctx.state, parentId, ctx.params.id);
      return json({ exists, suggests: exists ? [suggestPath(ctx.params.id, namespacesUnder(ctx.state, parentId))] : [] });
    },
  }),

  route({
    method: 'GET',
    path: '/namespaces/:id',
    cacheable: true,
    auth: 'user',
    // Not a group scope: `:id` names a user's namespace as well as a group.
    params: { id: str().required() },
    handler: (ctx) => {
      const ns = namespaceByIdOrPath(ctx.state, ctx.params.id);
      if (!ns || !canSeeNamespace(ctx.state, ctx.user!, ns, ctx.now())) throw notFound('Namespace');
      return json(render(ctx, ns));
    },
  }),
];
