// Groups: GET /groups, GET/PUT/DELETE /groups/:id, POST /groups, subgroups, descendant groups and group projects
// (lib/api/groups.rb).
import { forbidden } from '../../core/errors.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { checkMaxOffset } from '../../http/pagination.js';
import { any, arr, bool, hash, int, str, type ParamSpec } from '../../http/params.js';
import { findGroup } from '../../http/resolve.js';
import { accepted, created, json } from '../../http/route.js';
import { canReadProject } from '../../policy/access.js';
import { VISIBILITIES } from '../../policy/visibility.js';
import { ACCESS } from '../../store/state.js';
import { tvalues } from '../../store/table.js';
import { group, route, type Context } from '../define.js';
import { avatarChange } from '../avatars/index.js';
import { PROJECT_LIST_PARAMS, findProjects, projectEntity, projectListReply, type ProjectView } from '../projects/index.js';
import { groupDetail, groupEntity } from './entity.js';
import { findGroups, groupProjects } from './finder.js';
import { canCreateGroupIn, canOwnGroup, descendantGroups, subgroups } from './rules.js';
import { newGroup, scheduleGroupDeletion, updateGroup } from './service.js';

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
  /** Administrators: `custom_attributes[key]=value` (the custom attributes family's). */
  custom_attributes: hash(),
} satisfies ParamSpec;

const EDITABLE = {
  name: str(),
  path: str(),
  description: str(),
  visibility: str().values(VISIBILITIES),
  request_access_enabled: bool(),
  project_creation_level: str().values(['noone', 'owner', 'maintainer', 'developer']),
  subgroup_creation_level: str().values(['owner', 'maintainer']),
} satisfies ParamSpec;

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });

export const groupRoutes = [
  route({
    method: 'GET',
    path: '/groups',
    cacheable: true,
    paginated: true,
    params: LIST_PARAMS,
    handler: (ctx) => {
      // Anonymous lists go through paginate_with_strategies, which caps offsets for Group; `paginated` declared page and per_page.
      if (!ctx.user) checkMaxOffset(ctx.params, ctx.state.instance.settings.offset_pagination_limit, 'Group');
      const list = findGroups(ctx.state, ctx.user, ctx.params, tvalues(ctx.state.namespaces), ctx.now());
      return json(ctx.paginate(list).map((g) => groupEntity(ctx.state, g, ctx)));
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id',
    cacheable: true,
    scope: group(),
    params: { with_projects: bool().default(true), with_custom_attributes: bool().default(false) },
    handler: (ctx) => {
      const v = view(ctx);
      const projects = ctx.params.with_projects
        ? groupProjects(ctx.state, ctx.group, false)
            .filter((p) => canReadProject(ctx.state, ctx.user, p, ctx.now()))
            .slice(0, 100)
            .map((p) => projectEntity(v, p))
        : undefined;
      return json(groupDetail(ctx.state, ctx.group, ctx, projects));
    },
  }),

  route({
    method: 'POST',
    path: '/groups',
    auth: 'user',
    params: { ...EDITABLE, name: str().required(), path: str().required(), parent_id: int() },
    handler: (ctx) => {
      const p = ctx.params;
      const user = ctx.user!;
      const now = ctx.now();
      // The parent is found as `:id` would be (404 unseen) before the policy is asked (403).
      const parent = p.parent_id !== undefined ? findGroup(ctx, String(p.parent_id)) : undefined;
      if (!canCreateGroupIn(ctx.state, user, parent, now)) throw forbidden();
      const input = {
        name: p.name, path: p.path, parentId: parent?.id ?? null, visibility: p.visibility, description: p.description,
        creatorId: user.id, requestAccessEnabled: p.request_access_enabled,
        projectCreationLevel: p.project_creation_level, subgroupCreationLevel: p.subgroup_creation_level,
      };
      const made = ctx.update(newGroup(ctx.state, input, now));
      return created(groupDetail(ctx.state, made, ctx));
    },
  }),

  route({
    method: 'PUT',
    path: '/groups/:id',
    auth: 'user',
    scope: group(canOwnGroup),
    params: { ...EDITABLE, avatar: any().nullable() },
    handler: async (ctx) => {
      const p = ctx.params;
      // `avatar`: an image file, or '' to remove it (the avatars family keeps it).
      const avatar = await avatarChange(ctx, 'group', ctx.group.id, p.avatar);
      const changes = {
        name: p.name, path: p.path, description: p.description, visibility: p.visibility, requestAccessEnabled: p.request_access_enabled,
        projectCreationLevel: p.project_creation_level, subgroupCreationLevel: p.subgroup_creation_level,
      };
      const made = ctx.update(updateGroup(ctx.state, ctx.group, changes, ctx.now()));
      if (avatar) ctx.update(avatar);
      const v = view(ctx);
      const projects = groupProjects(ctx.state, made, false).map((pr) => projectEntity(v, pr));
      return json(groupDetail(ctx.state, made, ctx, projects));
    },
  }),

  route({
    method: 'DELETE',
    path: '/groups/:id',
    auth: 'user',
    scope: group(canOwnGroup),
    handler: (ctx) => {
      checkUnmodifiedSince(ctx, ctx.group.updatedAt);
      ctx.update(scheduleGroupDeletion(ctx.group, ctx.now()));
      return accepted();
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/subgroups',
    cacheable: true,
    scope: group(),
    paginated: true,
    params: LIST_PARAMS,
    handler: (ctx) => {
      const list = findGroups(ctx.state, ctx.user, { ...ctx.params, all_available: true }, subgroups(ctx.state, ctx.group.id), ctx.now());
      return json(ctx.paginate(list).map((g) => groupEntity(ctx.state, g, ctx)));
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/descendant_groups',
    cacheable: true,
    scope: group(),
    paginated: true,
    params: LIST_PARAMS,
    handler: (ctx) => {
      const list = findGroups(ctx.state, ctx.user, { ...ctx.params, all_available: true }, descendantGroups(ctx.state, ctx.group.id), ctx.now());
      return json(ctx.paginate(list).map((g) => groupEntity(ctx.state, g, ctx)));
    },
  }),

  route({
    method: 'GET',
    path: '/groups/:id/projects',
    cacheable: true,
    scope: group(),
    paginated: true,
    params: { ...PROJECT_LIST_PARAMS, include_subgroups: bool().default(false), with_shared: bool().default(true) },
    handler: (ctx) => {
      const candidates = groupProjects(ctx.state, ctx.group, ctx.params.include_subgroups);
      return projectListReply(ctx, ctx.paginate(findProjects(ctx.state, ctx.user, ctx.params, candidates, ctx.now())), 'project');
    },
  }),
];
