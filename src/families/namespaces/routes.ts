// Namespaces: GET /namespaces, GET /namespaces/:id (lib/api/namespaces.rb).
import { groupAccess } from '../../policy/access.js';
import { namespaceByIdOrPath } from '../../policy/paths.js';
import { namespaceEntity } from './entity.js';
import type { Context } from '../define.js';
import { notFound } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { json } from '../../http/route.js';
import { route } from '../define.js';
import { ACCESS, type Namespace } from '../../store/state.js';
import { tvalues } from '../../store/table.js';

function visible(ctx: Context<unknown>, ns: Namespace, ownedOnly = false): boolean {
  const user = ctx.user!;
  if (ns.pendingDelete) return false;
  if (user.admin && !ownedOnly) return true;
  if (ns.kind === 'user') return ns.ownerId === user.id;
  return groupAccess(ctx.state, user, ns, ctx.now()) >= (ownedOnly ? ACCESS.owner : ACCESS.guest);
}

function render(ctx: Context<unknown>, ns: Namespace) {
  const owner = ns.kind === 'group' && (ctx.user!.admin || groupAccess(ctx.state, ctx.user, ns, ctx.now()) >= ACCESS.owner);
  if (!owner) return namespaceEntity(ctx.state, ns, ctx);
  let projects = 0;
  for (const p of tvalues(ctx.state.projects)) if (p.namespaceId === ns.id && !p.pendingDelete) projects++;
  return namespaceEntity(ctx.state, ns, ctx, { members: Object.keys(ns.members).length, projects });
}

export const namespaceRoutes = [
  route({
    method: 'GET',
    path: '/namespaces',
    cacheable: true,
    auth: 'user',
    params: { search: str(), owned_only: bool().default(false), top_level_only: bool().default(false), page: int(), per_page: int() },
    handler: (ctx) => {
      const p = ctx.params;
      const search = p.search?.toLowerCase();
      const list = [...tvalues(ctx.state.namespaces)].filter(
        (ns) =>
          visible(ctx, ns, p.owned_only) &&
          (!p.top_level_only || ns.parentId === null) &&
          (!search || ns.path.toLowerCase().includes(search) || ns.name.toLowerCase().includes(search)),
      );
      return json(ctx.paginate(list).map((ns) => render(ctx, ns)));
    },
  }),
  route({
    method: 'GET',
    path: '/namespaces/:id',
    cacheable: true,
    auth: 'user',
    params: { id: str().required() },
    handler: (ctx) => {
      const ns = namespaceByIdOrPath(ctx.state, ctx.params.id);
      if (!ns || !visible(ctx, ns)) throw notFound('Namespace');
      return json(render(ctx, ns));
    },
  }),
];
