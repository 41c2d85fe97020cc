// Projects: GET /projects, GET/PUT/DELETE /projects/:id, POST /projects, POST /projects/user/:user_id
// (lib/api/projects.rb, app/finders/projects_finder.rb).
import { canReadProject, groupAccess, hasProjectRole, projectAccess } from '../../policy/access.js';
import { createProject, normalizeProjectInput, rename, repath, validateProject, DESTROY_PROJECT, FEATURES } from './rules.js';
import { projectFullPath } from '../../policy/paths.js';
import { VISIBILITIES, VISIBILITY_ORDER, minVisibility } from '../../policy/visibility.js';
import { initializeWithReadme } from '../repositories/index.js';
import { jsonArray } from '../../render/cache.js';
import { projectEntity, projectJson, type ProjectRendering, type ProjectView } from './entity.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import type { Context } from '../define.js';
import { badRequest, forbidden, notFound, validationFailed } from '../../core/errors.js';
import { keysetUnsupported, paginateKeysetById } from '../../http/pagination.js';
import { arr, bool, datetime, int, str, type ParamSpec, type Parsed } from '../../http/params.js';
import { findProject } from '../../http/resolve.js';
import { accepted, created, json, type Reply } from '../../http/route.js';
import { route, schedule } from '../define.js';
import { ACCESS, type FeatureAccess, type Project, type User } from '../../store/state.js';
import type { State } from '../world.js';
import { tget, tvalues } from '../../store/table.js';

const view = (ctx: Context<unknown>): ProjectView => ({ state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase });
const ACCESS_LEVELS = [ACCESS.guest, ACCESS.planner, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer, ACCESS.owner];
const FEATURE_VALUES = ['disabled', 'private', 'enabled', 'public'] as const;

/** Settings kept as they are sent and rendered back by the entity. */
const SETTING_PARAMS = {
  packages_enabled: bool(), emails_enabled: bool(), shared_runners_enabled: bool(), group_runners_enabled: bool(),
  lfs_enabled: bool(), public_jobs: bool(), request_access_enabled: bool(), only_allow_merge_if_pipeline_succeeds: bool(),
  allow_merge_on_skipped_pipeline: bool(), only_allow_merge_if_all_discussions_are_resolved: bool(),
  remove_source_branch_after_merge: bool(), printing_merge_request_link_enabled: bool(), resolve_outdated_diff_discussions: bool(),
  autoclose_referenced_issues: bool(), auto_devops_enabled: bool(),
  merge_method: str().values(['merge', 'rebase_merge', 'ff']),
  squash_option: str().values(['never', 'always', 'default_on', 'default_off']),
  build_git_strategy: str().values(['fetch', 'clone']),
  auto_devops_deploy_strategy: str().values(['continuous', 'manual', 'timed_incremental']),
  auto_cancel_pending_pipelines: str().values(['disabled', 'enabled']),
  build_timeout: int(), ci_config_path: str(), ci_default_git_depth: int(),
  suggestion_commit_message: str(), merge_commit_template: str(), squash_commit_template: str(), issue_branch_template: str(),
} satisfies ParamSpec;

const featureParams: ParamSpec = {};
for (const f of FEATURES) featureParams[`${f}_access_level`] = str().values(FEATURE_VALUES);
const LEGACY_ENABLED: Record<string, string> = {
  issues_enabled: 'issues', merge_requests_enabled: 'merge_requests', wiki_enabled: 'wiki', jobs_enabled: 'builds',
  snippets_enabled: 'snippets', container_registry_enabled: 'container_registry',
};
for (const k of Object.keys(LEGACY_ENABLED)) featureParams[k] = bool();

const EDITABLE = {
  name: str(),
  path: str(),
  description: str(),
  visibility: str().values(VISIBILITIES),
  default_branch: str(),
  topics: arr(str(), { commaSeparated: true }),
  tag_list: arr(str(), { commaSeparated: true }),
  emails_disabled: bool(),
  ...SETTING_PARAMS,
  ...featureParams,
} satisfies ParamSpec;

type Editable = Parsed<typeof EDITABLE>;

function featuresFrom(p: Record<string, unknown>): Record<string, FeatureAccess> {
  const out: Record<string, FeatureAccess> = {};
  for (const [k, f] of Object.entries(LEGACY_ENABLED)) if (p[k] !== undefined) out[f] = p[k] ? 'enabled' : 'disabled';
  for (const f of FEATURES) if (p[`${f}_access_level`] !== undefined) out[f] = p[`${f}_access_level`] as FeatureAccess;
  return out;
}

function settingsFrom(p: Editable): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(SETTING_PARAMS)) if ((p as Record<string, unknown>)[k] !== undefined) out[k] = (p as Record<string, unknown>)[k];
  if (p.emails_disabled !== undefined && p.emails_enabled === undefined) out.emails_enabled = !p.emails_disabled;
  return out;
}

function canCreateIn(state: State, user: User, nsId: number, now: number): boolean {
  const ns = tget(state.namespaces, nsId);
  if (!ns || ns.pendingDelete) return false;
  if (user.admin) return true;
  if (ns.kind === 'user') return ns.ownerId === user.id;
  const need = { noone: Infinity, owner: ACCESS.owner, maintainer: ACCESS.maintainer, developer: ACCESS.developer }[ns.projectCreationLevel];
  return groupAccess(state, user, ns, now) >= need;
}

async function createFor(ctx: Context<unknown>, owner: User, p: Editable & { namespace_id?: number; initialize_with_readme?: boolean }) {
  const now = ctx.now();
  const nsId = p.namespace_id ?? owner.namespaceId;
  if (!canCreateIn(ctx.state, owner, nsId, now)) throw validationFailed({ namespace: ['is not valid'] });
  const ns = tget(ctx.state.namespaces, nsId)!;
  let visibility = p.visibility ?? ctx.state.instance.settings.default_project_visibility;
  if (ns.kind === 'group') visibility = minVisibility(visibility, ns.visibility);
  const input = normalizeProjectInput({
    name: p.name?.trim(), path: p.path, namespaceId: nsId, creatorId: owner.id, description: p.description, visibility,
    defaultBranch: p.default_branch, topics: p.topics ?? p.tag_list, features: featuresFrom(p), settings: settingsFrom(p),
  });
  const errors = validateProject(ctx.state, input);
  if (Object.keys(errors).length) throw validationFailed(errors);
  let project!: Project;
  ctx.update((draft) => {
    project = createProject(draft, input, now);
  });
  if (p.initialize_with_readme) {
    const made = tget(ctx.state.projects, project.id)!;
    ctx.update((await initializeWithReadme(ctx.env.git.repository(made.id), made, owner, now)).recipe);
  }
  return created(projectEntity(view(ctx), tget(ctx.state.projects, project.id)!));
}

const LIST_PARAMS = {
  order_by: str().values(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count']).default('created_at'),
  sort: str().values(['asc', 'desc']).default('desc'),
  archived: bool(),
  visibility: str().values(VISIBILITIES),
  search: str(),
  search_namespaces: bool(),
  owned: bool().default(false),
  starred: bool().default(false),
  membership: bool().default(false),
  simple: bool().default(false),
  statistics: bool().default(false),
  with_issues_enabled: bool().default(false),
  with_merge_requests_enabled: bool().default(false),
  min_access_level: int().values(ACCESS_LEVELS),
  id_after: int(),
  id_before: int(),
  last_activity_after: datetime(),
  last_activity_before: datetime(),
  updated_after: datetime(),
  updated_before: datetime(),
  topic: arr(str(), { commaSeparated: true }),
  pagination: str().values(['keyset', 'offset']),
  page: int(),
  per_page: int(),
} satisfies ParamSpec;

type ListParams = Parsed<typeof LIST_PARAMS>;

function listProjects(ctx: Context<ListParams>, candidates: Iterable<Project>): Project[] {
  const p = ctx.params;
  const { state, user } = ctx;
  const now = ctx.now();
  if (p.updated_after !== undefined || p.updated_before !== undefined) {
    if (p.order_by !== 'updated_at') throw badRequest('`updated_at` filter and `updated_at` sorting must be paired');
  }
  const search = p.search?.toLowerCase();
  const byMembership = p.membership || p.min_access_level !== undefined || p.owned || p.starred;
  const out: Project[] = [];
  for (const project of candidates) {
    if (!canReadProject(state, user, project, now)) continue;
    if (byMembership) {
      if (!user || p.starred) continue; // stars are not part of the world yet: nobody has starred anything
      const access = projectAccess(state, user, project, now);
      if (p.owned && !(access >= ACCESS.owner)) continue;
      if (p.membership && access < ACCESS.guest) continue;
      if (p.min_access_level !== undefined && access < p.min_access_level) continue;
    }
    if (p.archived !== undefined && project.archived !== p.archived) continue;
    if (p.visibility && project.visibility !== p.visibility) continue;
    if (p.id_after !== undefined && !(project.id > p.id_after)) continue;
    if (p.id_before !== undefined && !(project.id < p.id_before)) continue;
    if (p.last_activity_after !== undefined && !(project.lastActivityAt > p.last_activity_after)) continue;
    if (p.last_activity_before !== undefined && !(project.lastActivityAt < p.last_activity_before)) continue;
    if (p.updated_after !== undefined && !(project.updatedAt > p.updated_after)) continue;
    if (p.updated_before !== undefined && !(project.updatedAt < p.updated_before)) continue;
    if (p.topic && !p.topic.every((t) => project.topics.some((x) => x.toLowerCase() === t.toLowerCase()))) continue;
    if (p.with_issues_enabled && project.features.issues === 'disabled') continue;
    if (p.with_merge_requests_enabled && project.features.merge_requests === 'disabled') continue;
    if (search) {
      const hay = [project.name, project.path, project.description];
      if (p.search_namespaces) hay.push(projectFullPath(state, project));
      if (!hay.some((h) => h.toLowerCase().includes(search))) continue;
    }
    out.push(project);
  }
  return sortProjects(out, p.order_by, p.sort);
}

function sortProjects(list: Project[], orderBy: string, sort: string): Project[] {
  const dir = sort === 'asc' ? 1 : -1;
  const key: (p: Project) => string | number =
    orderBy === 'name' ? (p) => p.name.toLowerCase()
    : orderBy === 'path' ? (p) => p.path.toLowerCase()
    : orderBy === 'updated_at' ? (p) => p.updatedAt
    : orderBy === 'last_activity_at' ? (p) => p.lastActivityAt
    : orderBy === 'star_count' ? (p) => p.starCount
    : (p) => p.id; // created_at is replaced by id, the tie-breaker GitLab adds
  return list.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * dir || (a.id - b.id) * dir;
  });
}

/** A list of projects as GitLab renders it: BasicProjectDetails to anonymous callers and with `simple`. */
export function projectListReply(ctx: Context<ListParams>, projects: Project[], rendering: ProjectRendering): Reply {
  const v = view(ctx);
  const r = ctx.params.simple || (!ctx.user && rendering === 'with-access') ? 'basic' : rendering;
  const { json, etag } = jsonArray(projects.map((p) => projectJson(v, p, r)));
  return { status: 200, json, etag };
}

export { LIST_PARAMS as PROJECT_LIST_PARAMS, listProjects };

export const projectRoutes = [
  route({
    method: 'GET',
    path: '/projects',
    cacheable: true,
    params: LIST_PARAMS,
    handler: (ctx) => {
      const p = ctx.params;
      const all = listProjects(ctx, tvalues(ctx.state.projects));
      if (p.pagination === 'keyset') {
        if (ctx.raw.order_by !== 'id') throw keysetUnsupported();
        const { items, headers } = paginateKeysetById(all, { ...p, sort: p.sort as 'asc' | 'desc' }, ctx.linkBase);
        Object.assign(ctx.responseHeaders, headers);
        return projectListReply(ctx, items, 'with-access');
      }
      return projectListReply(ctx, ctx.paginate(all), 'with-access');
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id',
    cacheable: true,
    params: { id: str().required(), statistics: bool().default(false), license: bool().default(false), with_custom_attributes: bool().default(false) },
    handler: (ctx) => {
      const { json: body } = projectJson(view(ctx), findProject(ctx, ctx.params.id), ctx.user ? 'with-access' : 'basic');
      return { status: 200, json: body };
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
    params: { ...EDITABLE, id: str().required() },
    constraints: [{ kind: 'at_least_one_of', names: Object.keys(EDITABLE) }],
    handler: (ctx) => {
      const p = ctx.params;
      const now = ctx.now();
      const project = findProject(ctx, p.id);
      const { state, user } = ctx;
      if (!hasProjectRole(state, user, project, ACCESS.maintainer, now)) throw forbidden();
      const ownerOnly = (p.name !== undefined && p.name !== project.name) || (p.visibility !== undefined && p.visibility !== project.visibility);
      if (ownerOnly && !hasProjectRole(state, user, project, ACCESS.owner, now)) throw forbidden();
      const next = { ...normalizeProjectInput({ name: p.name ?? project.name, path: p.path ?? project.path, namespaceId: project.namespaceId, creatorId: project.creatorId }), visibility: p.visibility ?? project.visibility };
      const errors = validateProject(state, next, project.id);
      const ns = tget(state.namespaces, project.namespaceId)!;
      if (ns.kind === 'group' && VISIBILITY_ORDER[next.visibility] > VISIBILITY_ORDER[ns.visibility] && !errors.visibility_level)
        errors.visibility_level = [`${next.visibility} is not allowed in a ${ns.visibility} group.`];
      if (Object.keys(errors).length) throw validationFailed(errors);
      ctx.update((draft) => {
        const d = tget(draft.projects, project.id)!;
        if (next.name !== d.name) rename(draft, d, next.name);
        if (next.path !== d.path) repath(draft, d, next.path);
        d.visibility = next.visibility;
        if (p.description !== undefined) d.description = p.description;
        if (p.default_branch !== undefined) d.defaultBranch = p.default_branch;
        const topics = p.topics ?? p.tag_list;
        if (topics !== undefined) d.topics = topics;
        Object.assign(d.features, featuresFrom(p));
        Object.assign(d.settings, settingsFrom(p));
        d.updatedAt = now;
      });
      return json(projectEntity(view(ctx), tget(ctx.state.projects, project.id)!));
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id',
    auth: 'user',
    params: { id: str().required() },
    handler: (ctx) => {
      const now = ctx.now();
      const project = findProject(ctx, ctx.params.id);
      if (!hasProjectRole(ctx.state, ctx.user, project, ACCESS.owner, now)) throw forbidden();
      checkUnmodifiedSince(ctx, project.updatedAt);
      // Hidden at once, removed by a background job: the project's path is free when it has run.
      ctx.update((draft) => {
        tget(draft.projects, project.id)!.pendingDelete = true;
        schedule(draft, DESTROY_PROJECT, now, { projectId: project.id });
      });
      return accepted();
    },
  }),
];

