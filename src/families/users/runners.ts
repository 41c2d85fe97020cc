// Runners as data (lib/api/user_runners.rb's POST /user/runners, lib/api/ci/runners.rb,
// app/services/ci/runners/create_runner_service.rb, lib/api/entities/ci/runner*.rb): a created
// runner can be listed, seen, changed and removed. Its status follows its contact through the
// runner protocol (the CI family's): online within two hours of it, stale after a week.
import type { Draft } from 'immer';
import { badRequest, forbidden, missingAttribute, notFound, validationFailed } from '../../core/errors.js';
import { arr, bool, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { groupAccess, projectAccess } from '../../policy/access.js';
import { namespaceByIdOrPath, projectByIdOrPath } from '../../policy/paths.js';
import { ACCESS, randomHex, type User } from '../../store/state.js';
import { tdel, tget, tset, tvalues } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { route, subject, type Ability, type Context } from '../define.js';
import type { State } from '../world.js';
import type { Runner } from './records.js';
import { requireAdmin } from './resolvers.js';
import { userIds } from './rules.js';

const RUNNER_TYPES = ['instance_type', 'group_type', 'project_type'] as const;
const ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;
const STATUSES = ['online', 'offline', 'stale', 'never_contacted'] as const;

const ONLINE_MS = 2 * 3600 * 1000;
const STALE_MS = 7 * 24 * 3600 * 1000;

/** Ci::Runner#status: never contacted (stale once a week old), online within two hours of contact, offline after, stale after a week. */
function runnerStatus(r: Runner, now: number): 'online' | 'offline' | 'stale' | 'never_contacted' {
  if (r.contactedAt === null) return now - r.createdAt > STALE_MS ? 'stale' : 'never_contacted';
  if (now - r.contactedAt > STALE_MS) return 'stale';
  return now - r.contactedAt <= ONLINE_MS ? 'online' : 'offline';
}

/** Entities::Ci::Runner. */
function runnerEntity(r: Runner, now: number) {
  const status = runnerStatus(r, now);
  return {
    id: r.id,
    description: r.description,
    active: !r.paused,
    paused: r.paused,
    is_shared: r.runnerType === 'instance_type',
    runner_type: r.runnerType,
    name: null,
    online: status === 'online',
    status,
  };
}

/** Entities::Ci::RunnerDetails. */
function runnerDetails(state: State, r: Runner, webBase: string, now: number) {
  return {
    ...runnerEntity(r, now),
    tag_list: r.tagList,
    run_untagged: r.runUntagged,
    locked: r.locked,
    maximum_timeout: r.maximumTimeout,
    access_level: r.accessLevel,
    version: null,
    revision: null,
    platform: null,
    architecture: null,
    contacted_at: iso(r.contactedAt),
    maintenance_note: r.maintenanceNote,
    projects: r.projectIds.flatMap((id) => {
      const p = tget(state.projects, id);
      const ns = p ? tget(state.namespaces, p.namespaceId) : undefined;
      return p && ns
        ? [{ id: p.id, description: p.description, name: p.name, name_with_namespace: `${ns.name} / ${p.name}`, path: p.path, path_with_namespace: `${ns.fullPath}/${p.path}`, created_at: iso(p.createdAt) }]
        : [];
    }),
    groups: r.groupId === null ? [] : (() => {
      const g = tget(state.namespaces, r.groupId);
      return g ? [{ id: g.id, web_url: `${webBase}/groups/${g.fullPath}`, name: g.name }] : [];
    })(),
  };
}

/** `admin_runner` on the runner: administrators; owners of its group; maintainers of each of its projects. */
function mayAdminRunner(state: State, user: User | null, r: Runner, now: number): boolean {
  if (!user) return false;
  if (user.admin) return true;
  if (r.runnerType === 'group_type') {
    const g = r.groupId === null ? undefined : tget(state.namespaces, r.groupId);
    return !!g && groupAccess(state, user, g, now) >= ACCESS.owner;
  }
  if (r.runnerType === 'project_type') {
    return r.projectIds.some((id) => {
      const p = tget(state.projects, id);
      return !!p && projectAccess(state, user, p, now) >= ACCESS.maintainer;
    });
  }
  return false;
}

/** `current_user.ci_owned_runners`: the runners of the projects and groups the user administers. */
function ownedRunners(ctx: Context): Runner[] {
  return [...tvalues(ctx.state.runners)].filter((r) => r.runnerType !== 'instance_type' && mayAdminRunner(ctx.state, ctx.user, r, ctx.now()));
}

const noAccess = () => forbidden('No access granted');

/** `read_runner`: an instance runner for anyone signed in, any other for who administers it. */
const canReadRunner: Ability<Runner> = (state, user, r, now) => {
  if (r.runnerType !== 'instance_type' && !mayAdminRunner(state, user, r, now)) throw noAccess();
  return true;
};

/** `update_runner`: who administers it. */
const canUpdateRunner: Ability<Runner> = (state, user, r, now) => {
  if (!mayAdminRunner(state, user, r, now)) throw noAccess();
  return true;
};

/** `delete_runner`: administrators; else who administers it, unless it serves more than one project. */
const canDeleteRunner: Ability<Runner> = (state, user, r, now) => {
  if (user?.admin) return true;
  if (r.runnerType === 'project_type' && r.projectIds.length > 1) throw forbidden('Runner associated with more than one project');
  return canUpdateRunner(state, user, r, now);
};

/** The runner `:id` names (404 Runner Not Found), then each ability. */
const runner = (...abilities: Ability<Runner>[]) =>
  subject<Runner, { id: number }>((ctx) => {
    const r = tget(ctx.state.runners, ctx.params.id);
    if (!r) throw notFound('Runner');
    return r;
  }, ...abilities);

const LIST_PARAMS = {
  scope: str().values(['active', 'paused', ...STATUSES] as const),
  type: str().values(RUNNER_TYPES),
  paused: bool(),
  status: str().values(['active', 'paused', ...STATUSES] as const),
  tag_list: arr(str(), { commaSeparated: true }),
};

function filterRunners(list: Runner[], p: { scope?: string; type?: string; paused?: boolean; status?: string; tag_list?: string[] }, now: number): Runner[] {
  const status = p.status ?? p.scope;
  return list
    .filter((r) => !p.type || r.runnerType === p.type)
    .filter((r) => p.paused === undefined || r.paused === p.paused)
    .filter((r) => !status || (status === 'active' ? !r.paused : status === 'paused' ? r.paused : runnerStatus(r, now) === status || (status === 'offline' && runnerStatus(r, now) !== 'online')))
    .filter((r) => !p.tag_list?.length || p.tag_list.every((t) => r.tagList.includes(t)))
    .sort((a, b) => a.id - b.id);
}

const UPDATE_PARAMS = {
  description: str(),
  active: bool(),
  paused: bool(),
  tag_list: arr(str(), { commaSeparated: true }),
  run_untagged: bool(),
  locked: bool(),
  access_level: str().values(ACCESS_LEVELS),
  maximum_timeout: int(),
  maintenance_note: str(),
};

function checkRunner(p: { maintenance_note?: string; maximum_timeout?: number }): void {
  const errors: Record<string, string[]> = {};
  if (p.maintenance_note !== undefined && p.maintenance_note.length > 1024) errors.maintenance_note = ['is too long (maximum is 1024 characters)'];
  if (p.maximum_timeout !== undefined && p.maximum_timeout < 600) errors.maximum_timeout = ['needs to be at least 10 minutes'];
  if (Object.keys(errors).length) throw validationFailed(errors);
}


/** A new runner with a `glrt-` authentication token (Ci::Runner, its token saved with it). */
export function addRunner(draft: Draft<State>, fields: Omit<Runner, 'id' | 'token' | 'tokenExpiresAt' | 'createdAt' | 'contactedAt'>, now: number): Runner {
  const r: Runner = { id: userIds.next(draft, 'runner'), ...fields, token: `glrt-${randomHex(draft, 20)}`, tokenExpiresAt: null, createdAt: now, contactedAt: null };
  tset(draft.runners, r.id, r);
  tset(draft.runnerTokens, r.token, r.id);
  return r;
}

export const runnerRoutes = [
  route({
    method: 'POST',
    path: '/user/runners',
    auth: 'user',
    anyMethodScopes: ['create_runner'],
    params: {
      runner_type: str().required().values(RUNNER_TYPES),
      group_id: int(),
      project_id: int(),
      description: str(),
      maintenance_note: str(),
      paused: bool(),
      locked: bool(),
      access_level: str().values(ACCESS_LEVELS),
      run_untagged: bool(),
      tag_list: arr(str(), { commaSeparated: true }),
      maximum_timeout: int(),
    },
    handler: (ctx) => {
      const p = ctx.params;
      if (p.runner_type === 'group_type' && p.group_id === undefined) throw missingAttribute('group_id');
      if (p.runner_type === 'project_type' && p.project_id === undefined) throw missingAttribute('project_id');
      const user = ctx.user!;
      const restricted = ctx.state.instance.settings.runner_registration_restricted && !user.admin;
      let groupId: number | null = null;
      const projectIds: number[] = [];
      if (p.runner_type === 'instance_type') {
        if (!user.admin) throw forbidden('Insufficient permissions');
      } else if (p.runner_type === 'group_type') {
        const g = namespaceByIdOrPath(ctx.state, p.group_id!);
        if (!g || g.kind !== 'group') throw badRequest('Missing/invalid scope');
        if (!user.admin && (restricted || groupAccess(ctx.state, user, g, ctx.now()) < ACCESS.owner)) throw forbidden('Insufficient permissions');
        groupId = g.id;
      } else {
        const project = projectByIdOrPath(ctx.state, p.project_id!);
        if (!project) throw badRequest('Missing/invalid scope');
        if (!user.admin && (restricted || projectAccess(ctx.state, user, project, ctx.now()) < ACCESS.owner)) throw forbidden('Insufficient permissions');
        projectIds.push(project.id);
      }
      checkRunner(p);
      const now = ctx.now();
      const runner = ctx.update((draft) =>
        addRunner(draft, {
          runnerType: p.runner_type, groupId, projectIds, description: p.description ?? '', maintenanceNote: p.maintenance_note ?? '', paused: p.paused ?? false,
          locked: p.locked ?? false, runUntagged: p.run_untagged ?? true, tagList: p.tag_list ?? [], accessLevel: p.access_level ?? 'not_protected',
          maximumTimeout: p.maximum_timeout ?? null, creatorId: user.id,
        }, now),
      );
      return created({ id: runner.id, token: runner.token, token_expires_at: iso(runner.tokenExpiresAt) });
    },
  }),
  route({
    method: 'GET',
    path: '/runners',
    auth: 'user',
    paginated: true,
    params: LIST_PARAMS,
    handler: (ctx) => json(ctx.paginate(filterRunners(ownedRunners(ctx), ctx.params, ctx.now())).map((r) => runnerEntity(r, ctx.now()))),
  }),
  route({
    method: 'GET',
    path: '/runners/all',
    auth: 'user',
    paginated: true,
    params: LIST_PARAMS,
    handler: (ctx) => {
      requireAdmin(ctx);
      return json(ctx.paginate(filterRunners([...tvalues(ctx.state.runners)], ctx.params, ctx.now())).map((r) => runnerEntity(r, ctx.now())));
    },
  }),
  route({
    method: 'GET',
    path: '/runners/:id{[0-9]+}',
    auth: 'user',
    params: { id: int().required() },
    subject: runner(canReadRunner),
    handler: (ctx) => json(runnerDetails(ctx.state, ctx.subject, ctx.webBase, ctx.now())),
  }),
  route({
    method: 'PUT',
    path: '/runners/:id{[0-9]+}',
    auth: 'user',
    params: { id: int().required(), ...UPDATE_PARAMS },
    subject: runner(canUpdateRunner),
    handler: (ctx) => {
      const r = ctx.subject;
      const p = ctx.params;
      checkRunner(p);
      const updated = ctx.update((draft) => {
        const d = tget(draft.runners, r.id)!;
        if (p.description !== undefined) d.description = p.description;
        if (p.active !== undefined) d.paused = !p.active;
        if (p.paused !== undefined) d.paused = p.paused;
        if (p.tag_list !== undefined) d.tagList = p.tag_list;
        if (p.run_untagged !== undefined) d.runUntagged = p.run_untagged;
        if (p.locked !== undefined) d.locked = p.locked;
        if (p.access_level !== undefined) d.accessLevel = p.access_level;
        if (p.maximum_timeout !== undefined) d.maximumTimeout = p.maximum_timeout;
        if (p.maintenance_note !== undefined) d.maintenanceNote = p.maintenance_note;
        return { ...d, tagList: [...d.tagList], projectIds: [...d.projectIds] };
      });
      return json(runnerDetails(ctx.state, updated, ctx.webBase, ctx.now()));
    },
  }),
  route({
    method: 'DELETE',
    path: '/runners/:id{[0-9]+}',
    auth: 'user',
    params: { id: int().required() },
    subject: runner(canDeleteRunner),
    handler: (ctx) => {
      const r = ctx.subject;
      ctx.update((draft) => {
        tdel(draft.runners, r.id);
        tdel(draft.runnerTokens, r.token);
      });
      return noContent();
    },
  }),
];

