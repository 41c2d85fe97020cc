// Runner registration tokens, the legacy way a runner registers (lib/api/ci/runner.rb `POST
// /runners`, Ci::Runners::RegisterRunnerService, lib/api/ci/runners.rb `reset_registration_token`):
// the instance's token makes an instance runner, a project's or group's `runners_token` a runner
// of it. Since GitLab 17.0 the instance allows them only when `allow_runner_registration_token`
// is on (here the fixture's `runner_registration: { allowed: true }`); otherwise a registration
// answers 410 and a reset 403. The runner made carries a `glrt-` authentication token, as one
// made with `POST /user/runners`.
import { ApiError, forbidden, messageError, validationFailed } from '../../core/errors.js';
import { arr, any, bool, int, str } from '../../http/params.js';
import { created, type Reply } from '../../http/route.js';
import { groupAccess, projectAccess } from '../../policy/access.js';
import { ACCESS, randomHex, type Namespace, type Project } from '../../store/state.js';
import { emptyTable, tdel, tget, tset, type Table } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { addRunner } from '../users/index.js';
import { group, project, route, type Context } from '../define.js';
import type { State } from '../world.js';


/** RunnersTokenPrefixable::RUNNERS_TOKEN_PREFIX. */
const PREFIX = 'GR1348941';

export interface RunnerRegistrationSlice {
  runnerRegistration: {
    /** ApplicationSetting#allow_runner_registration_token (off by default since GitLab 17.0). */
    allowed: boolean;
    /** ApplicationSetting#runners_registration_token; none until set or reset. */
    instanceToken: string | null;
    /** `project:<id>` or `group:<id>` -> its token, once reset (before, the default one below). */
    tokens: Table<string>;
    /** A reset token -> its owner (`project:<id>`, `group:<id>`). */
    owners: Table<string>;
  };
}

export const emptyRunnerRegistration = (): RunnerRegistrationSlice['runnerRegistration'] => ({ allowed: false, instanceToken: null, tokens: emptyTable(), owners: emptyTable() });

/** A project's `runners_token` before any reset: what the project entity shows. */
const defaultProjectToken = (id: number) => `${PREFIX}${String(id).padStart(20, '0')}`;
const defaultGroupToken = (id: number) => `${PREFIX}g${String(id).padStart(19, '0')}`;

/** The registration token of a project or group. */
export function registrationToken(state: State, kind: 'project' | 'group', id: number): string {
  return tget(state.runnerRegistration.tokens, `${kind}:${id}`) ?? (kind === 'project' ? defaultProjectToken(id) : defaultGroupToken(id));
}

/** What a registration token registers: the instance, a project or a group; undefined for none. */
function ownerOf(state: State, token: string): { kind: 'instance' } | { kind: 'project'; project: Project } | { kind: 'group'; group: Namespace } | undefined {
  const reg = state.runnerRegistration;
  if (reg.instanceToken !== null && token === reg.instanceToken) return { kind: 'instance' };
  const owner = tget(reg.owners, token);
  const [kind, raw] = owner ? owner.split(':') : [];
  let m: RegExpExecArray | null;
  const projectId = kind === 'project' ? Number(raw) : (m = /^GR1348941(\d{20})$/.exec(token)) ? Number(m[1]) : undefined;
  const groupId = kind === 'group' ? Number(raw) : (m = /^GR1348941g(\d{19})$/.exec(token)) ? Number(m[1]) : undefined;
  if (projectId !== undefined) {
    const p = tget(state.projects, projectId);
    if (p && !p.pendingDelete && registrationToken(state, 'project', p.id) === token) return { kind: 'project', project: p };
  }
  if (groupId !== undefined) {
    const g = tget(state.namespaces, groupId);
    if (g && g.kind === 'group' && registrationToken(state, 'group', g.id) === token) return { kind: 'group', group: g };
  }
  return undefined;
}

const ACCESS_LEVELS = ['not_protected', 'ref_protected'] as const;

function resetResult(token: string): Reply {
  return created({ token, token_expires_at: null });
}

function reset(ctx: Context<unknown>, key: string | null): string {
  return ctx.update((draft) => {
    const reg = draft.runnerRegistration;
    const token = `${PREFIX}${randomHex(draft, 20)}`;
    if (key === null) reg.instanceToken = token;
    else {
      const old = tget(reg.tokens, key);
      if (old !== undefined) tdel(reg.owners, old);
      tset(reg.tokens, key, token);
      tset(reg.owners, token, key);
    }
    return token;
  });
}

export const runnerRegistrationRoutes = [
  route({
    method: 'POST',
    path: '/runners',
    auth: 'none',
    params: {
      token: str().required(), description: str(), maintainer_note: str(), maintenance_note: str(), info: any(), active: bool(), paused: bool(),
      locked: bool(), access_level: str().values(ACCESS_LEVELS), run_untagged: bool(), tag_list: arr(str(), { commaSeparated: true }), maximum_timeout: int(),
    },
    handler: (ctx): Reply => {
      const p = ctx.params;
      if (p.active !== undefined && p.paused !== undefined) throw messageError(400, 'active, paused are mutually exclusive');
      const owner = ownerOf(ctx.state, p.token);
      const allowed = ctx.state.runnerRegistration.allowed;
      // RegisterRunnerService: an unknown token is refused as invalid, unless tokens are off altogether.
      if (!owner && (allowed || p.token === '')) throw forbidden('invalid token supplied');
      if (!owner || !allowed) throw messageErrorWithReason(410, '410 Gone', 'runner registration disallowed');
      if (p.maximum_timeout !== undefined && p.maximum_timeout < 600) throw validationFailed({ maximum_timeout: ['needs to be at least 10 minutes'] });
      const now = ctx.now();
      // Registered with a token: no user made it (Ci::Runner#creator is nil).
      const runner = ctx.update((draft) =>
        addRunner(draft, {
          runnerType: owner.kind === 'instance' ? 'instance_type' : owner.kind === 'group' ? 'group_type' : 'project_type',
          groupId: owner.kind === 'group' ? owner.group.id : null, projectIds: owner.kind === 'project' ? [owner.project.id] : [],
          description: p.description ?? '', maintenanceNote: p.maintenance_note ?? p.maintainer_note ?? '', paused: p.paused ?? (p.active !== undefined ? !p.active : false),
          locked: p.locked ?? false, runUntagged: p.run_untagged ?? true, tagList: p.tag_list ?? [], accessLevel: p.access_level ?? 'not_protected',
          maximumTimeout: p.maximum_timeout ?? null, creatorId: 0,
        }, now),
      );
      // Entities::Ci::RunnerRegistrationDetails.
      return created({ id: runner.id, token: runner.token, token_expires_at: iso(runner.tokenExpiresAt) });
    },
  }),
  route({
    method: 'POST',
    path: '/runners/reset_registration_token',
    auth: 'user',
    params: {},
    handler: (ctx): Reply => {
      if (!ctx.user!.admin || !ctx.state.runnerRegistration.allowed) throw forbidden();
      return resetResult(reset(ctx, null));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/runners/reset_registration_token',
    auth: 'user',
    scope: project(),
    params: {},
    handler: (ctx): Reply => {
      // update_runners_registration_token: maintainers (admin_project), while registration tokens are allowed.
      if (projectAccess(ctx.state, ctx.user, ctx.project, ctx.now()) < ACCESS.maintainer || !ctx.state.runnerRegistration.allowed) throw forbidden();
      return resetResult(reset(ctx, `project:${ctx.project.id}`));
    },
  }),
  route({
    method: 'POST',
    path: '/groups/:id/runners/reset_registration_token',
    auth: 'user',
    scope: group(),
    params: {},
    handler: (ctx): Reply => {
      if (groupAccess(ctx.state, ctx.user, ctx.group, ctx.now()) < ACCESS.owner || !ctx.state.runnerRegistration.allowed) throw forbidden();
      return resetResult(reset(ctx, `group:${ctx.group.id}`));
    },
  }),
];

/** render_api_error_with_reason!: `{ message, reason }`. */
const messageErrorWithReason = (status: number, message: string, reason: string) => new ApiError(status, { message, reason });
