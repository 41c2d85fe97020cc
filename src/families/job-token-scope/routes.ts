// lib/api/ci/job_token_scope.rb: a project's maintainers read and change its job token scope,
// and the projects and groups on its inbound allowlist.
import { notFound } from '../../core/errors.js';
import { bool, int } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { canReadGroup, canReadProject } from '../../policy/access.js';
import { tget } from '../../store/table.js';
import { basicProjectDetails, canAdminProject, type ProjectView } from '../projects/index.js';
import { project, route, type Context } from '../define.js';
import { addGroup, addProject, allowedGroups, allowedProjects, inboundEnabled, removeGroup, removeProject, setInbound } from './rules.js';

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });
const ADMIN = project(canAdminProject);

/** `Project.find_by_id`, as the caller sees it: `not_found!("target_project_id not found")`. */
function targetProject(ctx: Context<unknown>, id: number) {
  const p = tget(ctx.state.projects, id);
  if (!p || p.pendingDelete || !canReadProject(ctx.state, ctx.user, p, ctx.now())) throw notFound('target_project_id not found');
  return p;
}

function targetGroup(ctx: Context<unknown>, id: number) {
  const g = tget(ctx.state.namespaces, id);
  if (!g || g.kind !== 'group' || !canReadGroup(ctx.state, ctx.user, g, ctx.now())) throw notFound('target_group_id not found');
  return g;
}

export const jobTokenScopeRoutes = [
  route({
    method: 'GET', path: '/projects/:id/job_token_scope', auth: 'user', scope: ADMIN,
    handler: (ctx) => json({ inbound_enabled: inboundEnabled(ctx.state, ctx.project), outbound_enabled: false }),
  }),
  route({
    method: 'PATCH', path: '/projects/:id/job_token_scope', auth: 'user', scope: ADMIN, params: { enabled: bool().required() },
    handler: (ctx) => {
      ctx.update(setInbound(ctx.project, ctx.params.enabled));
      return noContent();
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/job_token_scope/allowlist', auth: 'user', scope: ADMIN, paginated: true,
    handler: (ctx) => json(ctx.paginate(allowedProjects(ctx.state, ctx.project)).map((p) => basicProjectDetails(view(ctx), p))),
  }),
  route({
    method: 'POST', path: '/projects/:id/job_token_scope/allowlist', auth: 'user', scope: ADMIN, params: { target_project_id: int().required() },
    handler: (ctx) => created(ctx.update(addProject(ctx.project, targetProject(ctx, ctx.params.target_project_id)))),
  }),
  route({
    method: 'DELETE', path: '/projects/:id/job_token_scope/allowlist/:target_project_id', auth: 'user', scope: ADMIN, params: { target_project_id: int().required() },
    handler: (ctx) => {
      ctx.update(removeProject(ctx.project, targetProject(ctx, ctx.params.target_project_id)));
      return noContent();
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/job_token_scope/groups_allowlist', auth: 'user', scope: ADMIN, paginated: true,
    handler: (ctx) => json(ctx.paginate(allowedGroups(ctx.state, ctx.project)).map((g) => ({ id: g.id, web_url: `${ctx.webBase}/groups/${g.fullPath}`, name: g.name }))),
  }),
  route({
    method: 'POST', path: '/projects/:id/job_token_scope/groups_allowlist', auth: 'user', scope: ADMIN, params: { target_group_id: int().required() },
    handler: (ctx) => created(ctx.update(addGroup(ctx.project, targetGroup(ctx, ctx.params.target_group_id)))),
  }),
  route({
    method: 'DELETE', path: '/projects/:id/job_token_scope/groups_allowlist/:target_group_id', auth: 'user', scope: ADMIN, params: { target_group_id: int().required() },
    handler: (ctx) => {
      ctx.update(removeGroup(ctx.project, targetGroup(ctx, ctx.params.target_group_id)));
      return noContent();
    },
  }),
];
