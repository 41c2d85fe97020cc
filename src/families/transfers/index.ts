// Transfers: a project to another namespace (PUT /projects/:id/transfer) and a group under
// another parent (POST /groups/:id/transfer), with the places each may go.
import { notFound } from '../../core/errors.js';
import { int, str } from '../../http/params.js';
import { created, json } from '../../http/route.js';
import { canReadGroup } from '../../policy/access.js';
import { namespaceByIdOrPath } from '../../policy/paths.js';
import type { Namespace } from '../../store/state.js';
import { tget } from '../../store/table.js';
import { canOwnGroup, groupDetail } from '../groups/index.js';
import { fullName } from '../namespaces/index.js';
import { canOwnProject, projectJson, type ProjectView } from '../projects/index.js';
import { defineFamily, group, project, route, type Context, type Family } from '../define.js';
import { groupTransferLocations, projectTransferLocations, transferGroup, transferProject } from './rules.js';

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });

/** Entities::PublicGroupDetails. */
const publicGroup = (ctx: Context<unknown>, g: Namespace) => ({
  id: g.id, web_url: `${ctx.webBase}/groups/${g.fullPath}`, name: g.name, avatar_url: null, full_name: fullName(ctx.state, g), full_path: g.fullPath,
});

/** find_namespace!: a group the caller sees, or a user's namespace (theirs, or any for an administrator). */
function findNamespace(ctx: Context<unknown>, idOrPath: string): Namespace {
  const ns = namespaceByIdOrPath(ctx.state, idOrPath);
  const visible = ns && !ns.pendingDelete && (ns.kind === 'group' ? canReadGroup(ctx.state, ctx.user, ns, ctx.now()) : ctx.user!.admin || ns.ownerId === ctx.user!.id);
  if (!ns || !visible) throw notFound('Namespace');
  return ns;
}

const search = (list: Namespace[], q: string | undefined) => (q ? list.filter((g) => g.name.toLowerCase().includes(q.toLowerCase()) || g.path.toLowerCase().includes(q.toLowerCase())) : list);

export const transfers: Family = defineFamily({
  name: 'transfers',
  routes: [
    route({
      method: 'PUT', path: '/projects/:id/transfer', auth: 'user', scope: project(canOwnProject), params: { namespace: str().required() },
      handler: (ctx) => {
        const to = findNamespace(ctx, ctx.params.namespace);
        const moved = ctx.update(transferProject(ctx.state, ctx.user!, ctx.project, to, ctx.now()));
        return { status: 200, json: projectJson(view(ctx), tget(ctx.state.projects, moved.id)!, 'with-access').json };
      },
    }),
    route({
      method: 'GET', path: '/projects/:id/transfer_locations', auth: 'user', scope: project(canOwnProject), paginated: true, params: { search: str() },
      handler: (ctx) => json(ctx.paginate(search(projectTransferLocations(ctx.state, ctx.user!, ctx.project, ctx.now()), ctx.params.search)).map((g) => publicGroup(ctx, g))),
    }),
    route({
      method: 'POST', path: '/groups/:id/transfer', auth: 'user', scope: group(canOwnGroup), params: { group_id: int() },
      handler: (ctx) => {
        let parent: Namespace | undefined;
        if (ctx.params.group_id !== undefined) {
          const g = tget(ctx.state.namespaces, ctx.params.group_id);
          if (!g || g.kind !== 'group' || g.pendingDelete || !canReadGroup(ctx.state, ctx.user, g, ctx.now())) throw notFound('Group');
          parent = g;
        }
        const moved = ctx.update(transferGroup(ctx.state, ctx.user!, ctx.group, parent, ctx.now()));
        return created(groupDetail(ctx.state, tget(ctx.state.namespaces, moved.id)!, ctx));
      },
    }),
    route({
      method: 'GET', path: '/groups/:id/transfer_locations', auth: 'user', scope: group(canOwnGroup), paginated: true, params: { search: str() },
      handler: (ctx) => json(ctx.paginate(search(groupTransferLocations(ctx.state, ctx.user!, ctx.group, ctx.now()), ctx.params.search)).map((g) => publicGroup(ctx, g))),
    }),
  ],
});
