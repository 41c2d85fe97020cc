// lib/api/projects.rb's star, unstar and starrers: a signed-in user stars a project they can see
// (304 when it already is so), and anyone who sees it lists who starred it.
import { str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { iso } from '../../render/time.js';
import { tget } from '../../store/table.js';
import { projectJson, type ProjectView } from '../projects/index.js';
import { userBasic } from '../users/index.js';
import { project, route, type Context } from '../define.js';
import { star, starsOf, unstar } from './rules.js';

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });
const notModified = (): Reply => ({ status: 304 });

/** The project as Entities::Project renders it, after the change. */
function projectReply(ctx: Context<unknown>): Reply {
  const p = tget(ctx.state.projects, ctx.project.id)!;
  return { status: 201, json: projectJson(view(ctx), p, 'with-access').json };
}

export const starRoutes = [
  route({
    method: 'POST', path: '/projects/:id/star', auth: 'user', scope: project(),
    handler: (ctx) => (ctx.update(star(ctx.project, ctx.user!, ctx.now())) ? projectReply(ctx) : notModified()),
  }),
  route({
    method: 'POST', path: '/projects/:id/unstar', auth: 'user', scope: project(),
    handler: (ctx) => (ctx.update(unstar(ctx.project, ctx.user!)) ? projectReply(ctx) : notModified()),
  }),
  route({
    method: 'GET', path: '/projects/:id/starrers', scope: project(), paginated: true, params: { search: str() },
    handler: (ctx) => {
      const q = ctx.params.search?.toLowerCase();
      const rows = starsOf(ctx.state, ctx.project)
        .map((s) => ({ s, u: tget(ctx.state.users, s.userId) }))
        .filter((r) => r.u !== undefined && (!q || r.u.username.toLowerCase().includes(q) || r.u.name.toLowerCase().includes(q)))
        .sort((a, b) => b.s.createdAt - a.s.createdAt || b.s.userId - a.s.userId);
      return json(ctx.paginate(rows).map(({ s, u }) => ({ starred_since: iso(s.createdAt), user: userBasic(u!, ctx) })));
    },
  }),
];
