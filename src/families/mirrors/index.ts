// Repository mirrors of projects: push mirrors (lib/api/remote_mirrors.rb) at every tier, and
// the pull mirror (ee/lib/api/project_mirror.rb) from Premium. A project's maintainers
// configure them; the emulator reaches no other server, so a mirror never updates: its status
// stays `none` until a sync is asked, which records the attempt's start.
import { recordNotFound, validationFailed } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { iso } from '../../render/time.js';
import { sequences } from '../../store/state.js';
import { emptyTable, pdel, pget, plist, pset, tdel, tget, tset, type Partitioned, type Table } from '../../store/table.js';
import { canAdminProject } from '../projects/index.js';
import { defineFamily, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

export interface RemoteMirror {
  id: number;
  projectId: number;
  url: string;
  enabled: boolean;
  onlyProtectedBranches: boolean;
  keepDivergentRefs: boolean;
  authMethod: 'password' | 'ssh_public_key';
  mirrorBranchRegex: string | null;
  lastUpdateStartedAt: number | null;
}

export interface PullMirror {
  id: number;
  url: string;
  enabled: boolean;
  mirrorTriggerBuilds: boolean;
  onlyMirrorProtectedBranches: boolean;
  mirrorOverwritesDivergedBranches: boolean;
  mirrorBranchRegex: string | null;
}

export interface MirrorsSlice {
  /** Project id -> its push mirrors, by id. */
  remoteMirrors: Partitioned<RemoteMirror>;
  /** Project id -> its pull mirror. */
  pullMirrors: Table<PullMirror>;
}

declare module '../world.js' {
  interface Slices extends MirrorsSlice {}
}

const ids = sequences(['remote_mirror', 'import_state']);

/** RemoteMirror's URL validation (public_url with ssh, git, http and https). */
function checkUrl(url: string, field = 'url'): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw validationFailed({ [field]: ['is blocked: URI is invalid'] });
  }
  if (!['ssh:', 'git:', 'http:', 'https:'].includes(parsed.protocol)) throw validationFailed({ [field]: ['is blocked: Only allowed schemes are ssh, git, http, https'] });
}

/** Gitlab::UrlSanitizer#masked_url: a password shown as `*****`. */
function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '*****';
    return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return url;
  }
}

const remoteEntity = (m: RemoteMirror, ee: boolean) => ({
  id: m.id,
  enabled: m.enabled,
  url: safeUrl(m.url),
  update_status: m.lastUpdateStartedAt === null ? 'none' : 'started',
  last_update_at: null,
  last_update_started_at: iso(m.lastUpdateStartedAt),
  last_successful_update_at: null,
  last_error: null,
  only_protected_branches: m.onlyProtectedBranches,
  keep_divergent_refs: m.keepDivergentRefs,
  auth_method: m.authMethod,
  ...(ee ? { mirror_branch_regex: m.mirrorBranchRegex } : {}),
});

const pullEntity = (m: PullMirror) => ({
  id: m.id,
  last_error: null,
  last_successful_update_at: null,
  last_update_at: null,
  last_update_started_at: null,
  update_status: 'none',
  url: safeUrl(m.url),
  enabled: m.enabled,
  mirror_trigger_builds: m.mirrorTriggerBuilds,
  only_mirror_protected_branches: m.onlyMirrorProtectedBranches,
  mirror_overwrites_diverged_branches: m.mirrorOverwritesDivergedBranches,
  mirror_branch_regex: m.mirrorBranchRegex,
});

const ADMIN = project(canAdminProject);
const MIRROR_ID = { mirror_id: int().required() };
const ee = (ctx: Context<unknown>) => ctx.state.instance.tier !== 'free';

function found(ctx: Context<unknown>, id: number): RemoteMirror {
  const m = pget(ctx.state.remoteMirrors, ctx.project.id, id);
  if (!m) throw recordNotFound();
  return m;
}

function saveRemote(ctx: Context<unknown>, m: RemoteMirror): RemoteMirror {
  return ctx.update((draft) => {
    pset((draft as State).remoteMirrors, m.projectId, m.id, m);
    return m;
  });
}

const REMOTE_FIELDS = {
  enabled: bool(),
  only_protected_branches: bool(),
  keep_divergent_refs: bool(),
  auth_method: str().values(['ssh_public_key', 'password'] as const),
  mirror_branch_regex: str(),
};

const PULL_FIELDS = {
  url: str(),
  auth_user: str(),
  auth_password: str(),
  enabled: bool(),
  mirror_trigger_builds: bool(),
  only_mirror_protected_branches: bool(),
  mirror_overwrites_diverged_branches: bool(),
  mirror_branch_regex: str(),
};

export const mirrors: Family<MirrorsSlice> = defineFamily({
  name: 'mirrors',
  state: () => ({ remoteMirrors: emptyTable(), pullMirrors: emptyTable() }),
  routes: [
    route({
      method: 'GET', path: '/projects/:id/remote_mirrors', auth: 'user', scope: ADMIN, paginated: true,
      handler: (ctx) => json(ctx.paginate(plist(ctx.state.remoteMirrors, ctx.project.id).sort((a, b) => a.id - b.id)).map((m) => remoteEntity(m, ee(ctx)))),
    }),
    route({
      method: 'GET', path: '/projects/:id/remote_mirrors/:mirror_id', auth: 'user', scope: ADMIN, params: MIRROR_ID,
      handler: (ctx) => json(remoteEntity(found(ctx, ctx.params.mirror_id), ee(ctx))),
    }),
    route({
      method: 'POST', path: '/projects/:id/remote_mirrors', auth: 'user', scope: ADMIN, params: { url: str().required(), ...REMOTE_FIELDS },
      handler: (ctx) => {
        const p = ctx.params;
        checkUrl(p.url);
        const made = ctx.update((draft) => {
          const m: RemoteMirror = {
            id: ids.next(draft, 'remote_mirror'), projectId: ctx.project.id, url: p.url, enabled: p.enabled ?? false, onlyProtectedBranches: p.only_protected_branches ?? false,
            keepDivergentRefs: p.keep_divergent_refs ?? false, authMethod: p.auth_method ?? 'password', mirrorBranchRegex: (ee(ctx) && p.mirror_branch_regex) || null, lastUpdateStartedAt: null,
          };
          pset((draft as State).remoteMirrors, m.projectId, m.id, m);
          return m;
        });
        return created(remoteEntity(made, ee(ctx)));
      },
    }),
    route({
      method: 'PUT', path: '/projects/:id/remote_mirrors/:mirror_id', auth: 'user', scope: ADMIN, params: { ...MIRROR_ID, ...REMOTE_FIELDS },
      handler: (ctx) => {
        const m = found(ctx, ctx.params.mirror_id);
        const p = ctx.params;
        return json(remoteEntity(saveRemote(ctx, {
          ...m, enabled: p.enabled ?? m.enabled, onlyProtectedBranches: p.only_protected_branches ?? m.onlyProtectedBranches, keepDivergentRefs: p.keep_divergent_refs ?? m.keepDivergentRefs,
          authMethod: p.auth_method ?? m.authMethod, mirrorBranchRegex: ee(ctx) && p.mirror_branch_regex !== undefined ? p.mirror_branch_regex || null : m.mirrorBranchRegex,
        }), ee(ctx)));
      },
    }),
    route({
      method: 'POST', path: '/projects/:id/remote_mirrors/:mirror_id/sync', auth: 'user', scope: ADMIN, params: MIRROR_ID,
      handler: (ctx) => {
        const m = found(ctx, ctx.params.mirror_id);
        if (m.enabled) saveRemote(ctx, { ...m, lastUpdateStartedAt: ctx.now() });
        return noContent();
      },
    }),
    route({
      method: 'DELETE', path: '/projects/:id/remote_mirrors/:mirror_id', auth: 'user', scope: ADMIN, params: MIRROR_ID,
      handler: (ctx) => {
        const m = found(ctx, ctx.params.mirror_id);
        ctx.update((draft) => void pdel((draft as State).remoteMirrors, m.projectId, m.id));
        return noContent();
      },
    }),
    route({
      method: 'GET', path: '/projects/:id/mirror/pull', auth: 'user', scope: ADMIN, tier: 'premium',
      handler: (ctx) => {
        const m = tget(ctx.state.pullMirrors, ctx.project.id);
        if (!m) throw recordNotFound();
        return json(pullEntity(m));
      },
    }),
    route({
      method: 'PUT', path: '/projects/:id/mirror/pull', auth: 'user', scope: ADMIN, tier: 'premium', params: PULL_FIELDS,
      handler: (ctx) => {
        const p = ctx.params;
        const old = tget(ctx.state.pullMirrors, ctx.project.id);
        const url = p.url ?? old?.url;
        if (url === undefined || url === '') throw validationFailed({ import_url: ["can't be blank"] });
        checkUrl(url, 'import_url');
        let withAuth = url;
        if (p.auth_user !== undefined || p.auth_password !== undefined) {
          const u = new URL(url);
          if (p.auth_user !== undefined) u.username = p.auth_user;
          if (p.auth_password !== undefined) u.password = p.auth_password;
          withAuth = u.toString();
        }
        const saved = ctx.update((draft) => {
          const m: PullMirror = {
            id: old?.id ?? ids.next(draft, 'import_state'), url: withAuth, enabled: p.enabled ?? old?.enabled ?? false,
            mirrorTriggerBuilds: p.mirror_trigger_builds ?? old?.mirrorTriggerBuilds ?? false,
            onlyMirrorProtectedBranches: p.only_mirror_protected_branches ?? old?.onlyMirrorProtectedBranches ?? false,
            mirrorOverwritesDivergedBranches: p.mirror_overwrites_diverged_branches ?? old?.mirrorOverwritesDivergedBranches ?? false,
            mirrorBranchRegex: p.mirror_branch_regex !== undefined ? p.mirror_branch_regex || null : old?.mirrorBranchRegex ?? null,
          };
          tset((draft as State).pullMirrors, ctx.project.id, m);
          return m;
        });
        return json(pullEntity(saved));
      },
    }),
  ],
  forget: {
    project: (draft, id) => {
      tdel((draft as State).remoteMirrors, id);
      tdel((draft as State).pullMirrors, id);
    },
  },
});
