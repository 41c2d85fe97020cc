// Feature flags and their user lists (lib/api/feature_flags.rb, feature_flags_user_lists.rb,
// Entities::FeatureFlag and FeatureFlag::UserList): developers list, make, change (strategies
// and their scopes by nested attributes, `_destroy` to drop one), rename and delete a project's
// flags, and the user lists their `gitlabUserList` strategies name.
import { messageError } from '../../core/errors.js';
import { any, arr, bool, hash, int, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { projectFullPath } from '../../policy/paths.js';
import { iso } from '../../render/time.js';
import { emptyTable, pdel, pset, tdel, tget, type Partitioned } from '../../store/table.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { defineFamily, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';
import { emit } from '../stream.js';
import type { FeatureFlag, Strategy, UserList } from './records.js';
import { applyStrategies, checkFlagName, checkUserList, flags, ids, userLists, type StrategyInput } from './rules.js';

export interface FeatureFlagsSlice {
  /** Project id -> its feature flags by id. */
  featureFlags: Partitioned<FeatureFlag>;
  /** Project id -> its feature flag user lists by iid. */
  featureFlagUserLists: Partitioned<UserList>;
}

declare module '../world.js' {
  interface Slices extends FeatureFlagsSlice {}
}

/** `read_feature_flag` and the others: Developers and above. */
const canUseFlags = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.developer, now);

function userListBasic(l: UserList) {
  return { id: l.id, iid: l.iid, name: l.name, user_xids: l.userXids };
}

function flagEntity(state: State, f: FeatureFlag) {
  const lists = userLists(state, f.projectId);
  return {
    name: f.name,
    description: f.description,
    active: f.active,
    version: 'new_version_flag',
    created_at: iso(f.createdAt),
    updated_at: iso(f.updatedAt),
    scopes: [],
    strategies: f.strategies.map((s: Strategy) => {
      const list = s.userListId === null ? undefined : lists.find((l) => l.id === s.userListId);
      return {
        id: s.id, name: s.name, parameters: s.parameters,
        scopes: s.scopes.map((sc) => ({ id: sc.id, environment_scope: sc.environmentScope })),
        user_list: list ? userListBasic(list) : null,
      };
    }),
  };
}

function userListEntity(state: State, l: UserList) {
  const p = tget(state.projects, l.projectId)!;
  const path = `/${projectFullPath(state, p)}/-/feature_flags_user_lists/${l.iid}`;
  return {
    id: l.id, iid: l.iid, project_id: l.projectId, created_at: iso(l.createdAt), updated_at: iso(l.updatedAt), name: l.name, user_xids: l.userXids,
    path, edit_path: `${path}/edit`,
  };
}

const SCOPES = arr(hash({ id: int(), environment_scope: str(), _destroy: bool() }));
const STRATEGIES = arr(hash({ id: int(), name: str(), parameters: any(), user_list_id: int(), _destroy: bool(), scopes: SCOPES }));

/** The strategies as sent: a JSON array (python-gitlab sends them as the body's array, or as a JSON string). */
function strategiesOf(raw: unknown): StrategyInput[] | undefined {
  return raw as StrategyInput[] | undefined;
}

function allocator(draft: State) {
  return { strategy: () => ids.next(draft, 'flag_strategy'), scope: () => ids.next(draft, 'flag_scope') };
}

function flagNamed(ctx: Context<{ feature_flag_name: string }>): FeatureFlag {
  const f = flags(ctx.state, ctx.project.id).find((x) => x.name === ctx.params.feature_flag_name);
  if (!f) throw messageError(404, '404 Not found');
  return f;
}

function listOf(ctx: Context<{ iid: number }>): UserList {
  const l = userLists(ctx.state, ctx.project.id).find((x) => x.iid === ctx.params.iid);
  if (!l) throw messageError(404, '404 Not found');
  return l;
}

const FLAGS = '/projects/:id/feature_flags';
const LISTS = '/projects/:id/feature_flags_user_lists';
const scope = project(canUseFlags);

const routes = [
  route({
    method: 'GET', path: FLAGS, auth: 'user', scope, paginated: true, params: { scope: str().values(['enabled', 'disabled'] as const) },
    handler: (ctx): Reply => {
      const all = flags(ctx.state, ctx.project.id).filter((f) => ctx.params.scope === undefined || f.active === (ctx.params.scope === 'enabled'));
      return json(ctx.paginate(all).map((f) => flagEntity(ctx.state, f)));
    },
  }),
  route({
    method: 'POST', path: FLAGS, auth: 'user', scope,
    params: { name: str().required(), description: str(), active: bool(), version: str(), strategies: STRATEGIES },
    handler: (ctx): Reply => {
      const p = ctx.params;
      if (p.version !== undefined && p.version !== 'new_version_flag') throw messageError(400, ['Version is invalid']);
      checkFlagName(flags(ctx.state, ctx.project.id), p.name);
      const projectId = ctx.project.id;
      const now = ctx.now();
      const state = ctx.state;
      const flag = ctx.update((draft) => {
        const d = draft as State;
        const f: FeatureFlag = {
          id: ids.next(d, 'feature_flag'), iid: ids.next(d, 'feature_flag_iid', projectId), projectId, name: p.name, description: p.description ?? null,
          active: p.active ?? true, strategies: applyStrategies(state, projectId, [], strategiesOf(p.strategies), allocator(d)), createdAt: now, updatedAt: now,
        };
        pset(d.featureFlags, projectId, f.id, f);
        return f;
      });
      return created(flagEntity(ctx.state, flag));
    },
  }),
  route({
    method: 'GET', path: `${FLAGS}/:feature_flag_name`, auth: 'user', scope, params: { feature_flag_name: str().required() },
    handler: (ctx): Reply => json(flagEntity(ctx.state, flagNamed(ctx))),
  }),
  route({
    method: 'PUT', path: `${FLAGS}/:feature_flag_name`, auth: 'user', scope,
    params: { feature_flag_name: str().required(), name: str(), description: str(), active: bool(), strategies: STRATEGIES },
    handler: (ctx): Reply => {
      const f = flagNamed(ctx);
      const p = ctx.params;
      if (p.name !== undefined) checkFlagName(flags(ctx.state, ctx.project.id), p.name, f);
      const state = ctx.state;
      const now = ctx.now();
      const next = ctx.update((draft) => {
        const d = draft as State;
        const updated: FeatureFlag = {
          ...f, name: p.name ?? f.name, description: p.description ?? f.description, active: p.active ?? f.active,
          strategies: applyStrategies(state, f.projectId, f.strategies, strategiesOf(p.strategies), allocator(d)), updatedAt: now,
        };
        pset(d.featureFlags, f.projectId, f.id, updated);
        if (updated.active !== f.active) emit(d, { kind: 'feature_flag.toggled', projectId: f.projectId, flagId: f.id });
        return updated;
      });
      return json(flagEntity(ctx.state, next));
    },
  }),
  route({
    method: 'DELETE', path: `${FLAGS}/:feature_flag_name`, auth: 'user', scope, params: { feature_flag_name: str().required() },
    handler: (ctx): Reply => {
      const f = flagNamed(ctx);
      const body = flagEntity(ctx.state, f);
      ctx.update((draft) => void pdel((draft as State).featureFlags, f.projectId, f.id));
      return json(body);
    },
  }),
  route({
    method: 'GET', path: LISTS, auth: 'user', scope, paginated: true, params: { search: str() },
    handler: (ctx): Reply => {
      const q = ctx.params.search?.toLowerCase();
      const all = userLists(ctx.state, ctx.project.id).filter((l) => !q || l.name.toLowerCase().includes(q));
      return json(ctx.paginate(all).map((l) => userListEntity(ctx.state, l)));
    },
  }),
  route({
    method: 'POST', path: LISTS, auth: 'user', scope, params: { name: str().required(), user_xids: str().required() },
    handler: (ctx): Reply => {
      const { name, user_xids } = ctx.params;
      checkUserList(userLists(ctx.state, ctx.project.id), name, user_xids);
      const projectId = ctx.project.id;
      const now = ctx.now();
      const list = ctx.update((draft) => {
        const d = draft as State;
        const l: UserList = { id: ids.next(d, 'flag_user_list'), iid: ids.next(d, 'flag_user_list_iid', projectId), projectId, name, userXids: user_xids, createdAt: now, updatedAt: now };
        pset(d.featureFlagUserLists, projectId, l.iid, l);
        return l;
      });
      return created(userListEntity(ctx.state, list));
    },
  }),
  route({
    method: 'GET', path: `${LISTS}/:iid`, auth: 'user', scope, params: { iid: int().required() },
    handler: (ctx): Reply => json(userListEntity(ctx.state, listOf(ctx))),
  }),
  route({
    method: 'PUT', path: `${LISTS}/:iid`, auth: 'user', scope, params: { iid: int().required(), name: str(), user_xids: str() },
    handler: (ctx): Reply => {
      const l = listOf(ctx);
      const next: UserList = { ...l, name: ctx.params.name ?? l.name, userXids: ctx.params.user_xids ?? l.userXids, updatedAt: ctx.now() };
      checkUserList(userLists(ctx.state, ctx.project.id), next.name, next.userXids, l);
      ctx.update((draft) => void pset((draft as State).featureFlagUserLists, l.projectId, l.iid, next));
      return json(userListEntity(ctx.state, next));
    },
  }),
  route({
    method: 'DELETE', path: `${LISTS}/:iid`, auth: 'user', scope, params: { iid: int().required() },
    handler: (ctx): Reply => {
      const l = listOf(ctx);
      if (flags(ctx.state, l.projectId).some((f) => f.strategies.some((s) => s.userListId === l.id))) throw messageError(409, 'User list is associated with a strategy');
      ctx.update((draft) => void pdel((draft as State).featureFlagUserLists, l.projectId, l.iid));
      return noContent();
    },
  }),
];

export const featureFlags: Family<FeatureFlagsSlice> = defineFamily({
  name: 'feature-flags',
  state: () => ({ featureFlags: emptyTable(), featureFlagUserLists: emptyTable() }),
  routes,
  forget: { project: (draft, id) => void (tdel((draft as State).featureFlags, id), tdel((draft as State).featureFlagUserLists, id)) },
});

