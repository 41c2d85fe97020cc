// Groups: GET /groups, GET/PUT/DELETE /groups/:id, POST /groups, subgroups and group projects
// (lib/api/groups.rb, app/finders/groups_finder.rb).
import { ancestry, canReadGroup, canReadProject, groupAccess, hasGroupRole, isWithin } from '../../policy/access.js';
import { changeGroupPath, createGroup, validateGroup, DESTROY_GROUP, type Errors } from './rules.js';
import { VISIBILITIES } from '../../policy/visibility.js';
import { groupDetail, groupEntity } from './entity.js';
import { projectEntity } from '../projects/index.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import type { Context } from '../define.js';
import { customError, forbidden, validationFailed } from '../../core/errors.js';
import { arr, bool, int, str, type ParamSpec, type Parsed } from '../../http/params.js';
import { checkMaxOffset } from '../../http/pagination.js';
import { findGroup } from '../../http/resolve.js';
import { accepted, created, json } from '../../http/route.js';
import { route, schedule } from '../define.js';
import { ACCESS, type Namespace, type Project } from '../../store/state.js';
import type { State } from '../world.js';
import { tget, tvalues } from '../../store/table.js';
import { PROJECT_LIST_PARAMS, listProjects, projectListReply } from '../projects/index.js';

const ACCESS_LEVELS = [ACCESS.guest, ACCESS.planner, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer, ACCESS.owner];

const LIST_PARAMS = {
  statistics: bool().default(false),
  skip_groups: arr(int(), { commaSeparated: true }),
  all_available: bool(),
  visibility: str().values(VISIBILITIES),
  search: str(),
  owned: bool().default(false),
  order_by: str().values(['name', 'path', 'id', 'similarity']).default('name'),
  sort: str().values(['asc', 'desc']).default('asc'),
  min_access_level: int().values(ACCESS_LEVELS),
  top_level_only: bool(),
  with_custom_attributes: bool().default(false),
  page: int(),
  per_page: int(),
} satisfies ParamSpec;

/** Groups the caller is a member of, and their ancestors (a regular user's default list). */
function memberGroupIds(state: State, userId: number, now: number): Set<number> {
  const ids = new Set<number>();
  for (const ns of tvalues(state.namespaces)) {
    if (ns.kind !== 'group' || ns.pendingDelete) continue;
    const m = ns.members[userId];
    if (m && (m.expiresAt === null || m.expiresAt > new Date(now).toISOString().slice(0, 10))) {
      for (const a of ancestry(state, ns.id)) ids.add(a.id);
    }
  }
  return ids;
}

function listGroups(ctx: Context<unknown>, p: Parsed<typeof LIST_PARAMS>, candidates: Iterable<Namespace>): Namespace[] {
  const { state, user } = ctx;
  const now = ctx.now();
  const allAvailable = p.all_available ?? !!user?.admin;
  const mine = user && !user.admin && !allAvailable ? memberGroupIds(state, user.id, now) : undefined;
  const search = p.search?.toLowerCase();
  const out: Namespace[] = [];
  for (const g of candidates) {
    if (g.kind !== 'group' || !canReadGroup(state, user, g, now)) continue;
    if (mine && !mine.has(g.id)) continue;
    if (!user && g.visibility !== 'public') continue;
    if (p.skip_groups?.includes(g.id)) continue;
    if (p.visibility && g.visibility !== p.visibility) continue;
    if (p.top_level_only && g.parentId !== null) continue;
    if (search && !g.name.toLowerCase().includes(search) && !g.path.toLowerCase().includes(search)) continue;
    const level = groupAccess(state, user, g, now);
    if (p.owned && level < ACCESS.owner) continue;
    if (p.min_access_level !== undefined && level < p.min_access_level) continue;
    out.push(g);
  }
  const dir = p.sort === 'desc' ? -1 : 1;
  const key = p.order_by === 'id' ? (g: Namespace) => g.id : p.order_by === 'path' ? (g: Namespace) => g.path.toLowerCase() : (g: Namespace) => g.name.toLowerCase();
  return out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * dir || a.id - b.id;
  });
}

function groupProjects(ctx: Context<unknown>, group: Namespace, includeSubgroups: boolean): Project[] {
  const out: Project[] = [];
  for (const p of tvalues(ctx.state.projects)) {
    if (p.namespaceId === group.id || (includeSubgroups && isWithin(ctx.state, p.namespaceId, group.id))) out.push(p);
  }
  return out;
}

/** `render_api_error!("Failed to save group #{group.errors.messages}")`: Ruby's Hash#inspect. */
function failedToSave(errors: Errors) {
  const inner = Object.entries(errors)
    .map(([k, v]) => `:${k}=>[${v.map((m) => JSON.stringify(m)).join(', ')}]`)
    .join(', ');
  return customError(400, `Failed to save group {${inner}}`);
}

const EDITABLE = {
  name: str(),
  path: str(),
  description: str(),
  visibility: str().values(VISIBILITIES),
  request_access_enabled: bool(),
  project_creation_level: str().values(['noone', 'owner', 'maintainer', 'developer']),
  subgroup_creation_level: str().values(['owner', 'maintainer']),
} satisfies ParamSpec;

export const groupRoutes = [
  route({
    method: 'GET',
    path: '/groups',
    cacheable: true,
    params: LIST_PARAMS,
    handler: (ctx) => {
      // Anonymous lists go through paginate_with_strategies, which caps offsets for Group.
      if (!ctx.user) checkMaxOffset(ctx.params, ctx.state.instance.settings.offset_pagination_limit, 'Group');
      return json(ctx.paginate(listGroups(ctx, ctx.params, tvalues(ctx.state.namespaces))).map((g) => groupEntity(ctx.state, g, ctx)));
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id',
    cacheable: true,
    params: { id: str().required(), with_projects: bool().default(true), with_custom_attributes: bool().default(false) },
    handler: (ctx) => {
      const group = findGroup(ctx, ctx.params.id);
      const v = { state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase };
      const projects = ctx.params.with_projects
        ? groupProjects(ctx, group, false)
            .filter((p) => canReadProject(ctx.state, ctx.user, p, ctx.now()))
            .slice(0, 100)
            .map((p) => projectEntity(v, p))
        : undefined;
      return json(groupDetail(ctx.state, group, ctx, projects));
    },
  }),

  route({
    method: 'POST',
    path: '/groups',
    auth: 'user',
    params: { ...EDITABLE, name: str().required(), path: str().required(), parent_id: int() },
    handler: (ctx) => {
      const p = ctx.params;
      const { user, state } = ctx;
      const now = ctx.now();
      let parent: Namespace | undefined;
      if (p.parent_id !== undefined) {
        parent = findGroup(ctx, String(p.parent_id));
        const need = parent.subgroupCreationLevel === 'maintainer' ? ACCESS.maintainer : ACCESS.owner;
        if (!hasGroupRole(state, user, parent, need, now)) throw forbidden();
      } else if (!user!.admin && !user!.canCreateGroup) throw forbidden();
      const input = {
        name: p.name, path: p.path, parentId: parent?.id ?? null, visibility: p.visibility, description: p.description,
        creatorId: user!.id, requestAccessEnabled: p.request_access_enabled,
        projectCreationLevel: p.project_creation_level, subgroupCreationLevel: p.subgroup_creation_level,
      } as const;
      const errors = validateGroup(state, input);
      if (Object.keys(errors).length) throw failedToSave(errors);
      let id = 0;
      ctx.update((draft) => {
        id = createGroup(draft, input, now).id;
      });
      return created(groupDetail(ctx.state, tget(ctx.state.namespaces, id)!, ctx));
    },
  }),

  route({
    method: 'PUT',
    path: '/groups/:id',
    auth: 'user',
    params: { ...EDITABLE, id: str().required() },
    handler: (ctx) => {
      const p = ctx.params;
      const now = ctx.now();
      const group = findGroup(ctx, p.id);
      if (!hasGroupRole(ctx.state, ctx.user, group, ACCESS.owner, now)) throw forbidden();
      const input = {
        name: p.name ?? group.name, path: p.path ?? group.path, parentId: group.parentId,
        visibility: p.visibility ?? group.visibility, description: p.description ?? group.description,
      };
      const errors = validateGroup(ctx.state, input, group);
      if (Object.keys(errors).length) throw validationFailed(errors);
      ctx.update((draft) => {
        if (input.path !== group.path) changeGroupPath(draft, group.id, input.path);
        const g = tget(draft.namespaces, group.id)!;
        if (p.name !== undefined) g.name = p.name;
        if (p.description !== undefined) g.description = p.description;
        if (p.visibility !== undefined) g.visibility = p.visibility;
        if (p.request_access_enabled !== undefined) g.requestAccessEnabled = p.request_access_enabled;
        if (p.project_creation_level !== undefined) g.projectCreationLevel = p.project_creation_level;
        if (p.subgroup_creation_level !== undefined) g.subgroupCreationLevel = p.subgroup_creation_level;
        g.updatedAt = now;
      });
      const v = { state: ctx.state, viewer: ctx.user, now, webBase: ctx.webBase };
      const updated = tget(ctx.state.namespaces, group.id)!;
      const projects = groupProjects(ctx, updated, false).map((pr) => projectEntity(v, pr));
      return json(groupDetail(ctx.state, updated, ctx, projects));
    },
  }),

  route({
    method: 'DELETE',
    path: '/groups/:id',
    auth: 'user',
    params: { id: str().required() },
    handler: (ctx) => {
      const now = ctx.now();
      const group = findGroup(ctx, ctx.params.id);
      if (!hasGroupRole(ctx.state, ctx.user, group, ACCESS.owner, now)) throw forbidden();
      checkUnmodifiedSince(ctx, group.updatedAt);
      ctx.update((draft) => {
        tget(draft.namespaces, group.id)!.pendingDelete = true;
        schedule(draft, DESTROY_GROUP, now, { groupId: group.id });
      });
      return accepted();
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/subgroups',
    cacheable: true,
    params: { ...LIST_PARAMS, id: str().required() },
    handler: (ctx) => {
      const group = findGroup(ctx, ctx.params.id);
      const children = [...tvalues(ctx.state.namespaces)].filter((ns) => ns.parentId === group.id);
      const list = listGroups(ctx, { ...ctx.params, all_available: true }, children);
      return json(ctx.paginate(list).map((g) => groupEntity(ctx.state, g, ctx)));
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/projects',
    cacheable: true,
    params: { ...PROJECT_LIST_PARAMS, id: str().required(), include_subgroups: bool().default(false), with_shared: bool().default(true) },
    handler: (ctx) => {
      const group = findGroup(ctx, ctx.params.id);
      const list = listProjects(ctx, groupProjects(ctx, group, ctx.params.include_subgroups));
      return projectListReply(ctx, ctx.paginate(list), 'project');
    },
  }),
];
