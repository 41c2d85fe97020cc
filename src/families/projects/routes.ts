// Projects: GET /projects, GET/PUT/DELETE /projects/:id, POST /projects, POST /projects/user/:user_id
// (lib/api/projects.rb).
import { notFound } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { KEYSET_BY_ID } from '../../http/pagination.js';
import { any, bool, int, str } from '../../http/params.js';
import { accepted, created, json, type Reply } from '../../http/route.js';
import { fragmentBytes, jsonArray } from '../../render/cache.js';
import type { Project, User } from '../../store/state.js';
import { tarray, tget } from '../../store/table.js';
import { project, route, type Context } from '../define.js';
import { avatarChange } from '../avatars/index.js';
import { projectEntity, projectJson, type ProjectRendering, type ProjectView } from './entity.js';
import { findProjects } from './finder.js';
import { EDITABLE, PROJECT_LIST_PARAMS, changesFrom, type Editable } from './params.js';
import { canAdminProject, canOwnProject, publicProjects } from './rules.js';
import { addFirstReadme, newProject, scheduleProjectDeletion, setProjectArchived, updateProject } from './service.js';

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });

/** POST /projects and /projects/user/:user_id: the project, then its first README when asked. */
async function createFor(ctx: Context<unknown>, owner: User, p: Editable & { namespace_id?: number; initialize_with_readme?: boolean }): Promise<Reply> {
  const now = ctx.now();
  let made = ctx.update(newProject(ctx.state, owner, { ...changesFrom(p), namespaceId: p.namespace_id }, now));
  if (p.initialize_with_readme) made = ctx.update(await addFirstReadme(ctx.env.git.repository(made.id), made, owner, now));
  return created(projectEntity(view(ctx), made));
}

/** A list of projects as GitLab renders it: BasicProjectDetails to anonymous callers and with `simple`. */
export function projectListReply(ctx: Context<{ simple: boolean }>, projects: Project[], rendering: ProjectRendering): Reply {
  const v = view(ctx);
  const r = ctx.params.simple || (!ctx.user && rendering === 'with-access') ? 'basic' : rendering;
  const { json, etag } = jsonArray(projects.map((p) => projectJson(v, p, r)));
  return { status: 200, json, etag };
}

export const projectRoutes = [
  route({
    method: 'GET',
    path: '/projects',
    cacheable: true,
    // Keyset pages by id: only `order_by=id` as sent can be `id`, its default is `created_at`.
    paginated: { keyset: KEYSET_BY_ID },
    params: PROJECT_LIST_PARAMS,
    handler: (ctx) => {
      const p = ctx.params;
      // Anonymous callers read exactly the public projects: their index is the candidates.
      const all = ctx.user ? findProjects(ctx.state, ctx.user, p, tarray(ctx.state.projects), ctx.now()) : findProjects(ctx.state, null, p, publicProjects(ctx.state), ctx.now(), true);
      return projectListReply(ctx, ctx.paginate(all), 'with-access');
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id',
    cacheable: true,
    scope: project(),
    params: { statistics: bool().default(false), license: bool().default(false), with_custom_attributes: bool().default(false) },
    handler: (ctx) => {
      const f = projectJson(view(ctx), ctx.project, ctx.user ? 'with-access' : 'basic');
      // The kept fragment's bytes: the same JSON, not encoded again for each answer.
      return { status: 200, raw: fragmentBytes(f), contentType: 'application/json', etag: `W/"${f.hash}"` };
    },
  }),

  route({
    method: 'POST',
    path: '/projects',
    auth: 'user',
    params: { ...EDITABLE, namespace_id: int(), initialize_with_readme: bool().default(false) },
    constraints: [{ kind: 'at_least_one_of', names: ['name', 'path'] }],
    handler: (ctx) => createFor(ctx, ctx.user!, ctx.params),
  }),

  route({
    method: 'POST',
    path: '/projects/user/:user_id',
    auth: 'admin',
    params: { ...EDITABLE, user_id: int().required(), name: str().required(), namespace_id: int() },
    handler: (ctx) => {
      const owner = tget(ctx.state.users, ctx.params.user_id);
      if (!owner) throw notFound('User');
      return createFor(ctx, owner, ctx.params);
    },
  }),

  route({
    method: 'PUT',
    path: '/projects/:id',
    auth: 'user',
    scope: project(canAdminProject),
    params: { ...EDITABLE, avatar: any().nullable() },
    constraints: [{ kind: 'at_least_one_of', names: [...Object.keys(EDITABLE), 'avatar'] }],
    handler: async (ctx) => {
      // `avatar`: an image file, or '' to remove it (the avatars family keeps it).
      const avatar = await avatarChange(ctx, 'project', ctx.project.id, ctx.params.avatar);
      const made = ctx.update(updateProject(ctx.state, ctx.user, ctx.project, changesFrom(ctx.params), ctx.now()));
      if (avatar) ctx.update(avatar);
      return json(projectEntity(view(ctx), made));
    },
  }),

  // `archive_project`: owners and administrators; 201 with the project, archived or not.
  ...(['archive', 'unarchive'] as const).map((action) =>
    route({
      method: 'POST',
      path: `/projects/:id/${action}`,
      auth: 'user',
      scope: project(canOwnProject),
      handler: (ctx) => created(projectEntity(view(ctx), ctx.update(setProjectArchived(ctx.project, action === 'archive', ctx.now())))),
    }),
  ),

  route({
    method: 'DELETE',
    path: '/projects/:id',
    auth: 'user',
    scope: project(canOwnProject),
    handler: (ctx) => {
      checkUnmodifiedSince(ctx, ctx.project.updatedAt);
      ctx.update(scheduleProjectDeletion(ctx.project, ctx.now()));
      return accepted();
    },
  }),
];
