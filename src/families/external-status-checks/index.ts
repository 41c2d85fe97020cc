// External status checks of projects (ee/lib/api/status_checks.rb; Ultimate): a project's
// maintainers name external services a merge request's changes are sent to, optionally for some
// protected branches only, with a shared secret for HMAC-signed requests.
import { validationFailed, recordNotFound } from '../../core/errors.js';
import { arr, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { sequences, type Project } from '../../store/state.js';
import { emptyTable, pdel, pget, plist, pset, tdel, type Partitioned } from '../../store/table.js';
import { refAccess } from '../branches/index.js';
import { canAdminProject } from '../projects/index.js';
import { protectedBranchEntries, refsOf } from '../repositories/index.js';
import { defineFamily, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

export interface StatusCheck {
  id: number;
  projectId: number;
  name: string;
  externalUrl: string;
  sharedSecret: string | null;
  /** Ids of the project's protected branches it applies to; none is every branch. */
  protectedBranchIds: number[];
}

export interface ExternalStatusChecksSlice {
  /** Project id -> its external status checks, by id. */
  statusChecks: Partitioned<StatusCheck>;
}

declare module '../world.js' {
  interface Slices extends ExternalStatusChecksSlice {}
}

const ids = sequences(['external_status_check']);

/** The project's protected branches by id, as the protected branches API names them. */
function protectedBranchesById(state: State, project: Project) {
  const out = new Map<number, { name: string; p: ReturnType<typeof protectedBranchEntries> extends IterableIterator<[string, infer P]> ? P : never }>();
  for (const [name, p] of protectedBranchEntries(refsOf(state, project.id))) if (p.id !== undefined) out.set(p.id, { name, p });
  return out;
}

function entity(ctx: Context<unknown>, c: StatusCheck) {
  const branches = protectedBranchesById(ctx.state, ctx.project);
  return {
    id: c.id,
    name: c.name,
    project_id: c.projectId,
    external_url: c.externalUrl,
    hmac: c.sharedSecret !== null,
    protected_branches: c.protectedBranchIds.flatMap((id) => {
      const b = branches.get(id);
      if (!b) return [];
      return [{
        id, name: b.name,
        push_access_levels: [refAccess(b.p.accessIds?.[0], b.p.pushAccessLevel, true, { deploy_key_id: null })],
        merge_access_levels: [refAccess(b.p.accessIds?.[1], b.p.mergeAccessLevel, true)],
        allow_force_push: b.p.allowForcePush ?? false, unprotect_access_levels: [], code_owner_approval_required: b.p.codeOwnerApprovalRequired ?? false, inherited: false,
      }];
    }),
  };
}

/** MergeRequests::ExternalStatusCheck's validations: a name and an http(s) URL, each unique in the project; branches of the project. */
function validate(ctx: Context<unknown>, c: StatusCheck): void {
  const errors: Record<string, string[]> = {};
  const others = plist(ctx.state.statusChecks, c.projectId).filter((o) => o.id !== c.id);
  if (c.name.trim() === '') errors.name = ["can't be blank"];
  else if (others.some((o) => o.name === c.name)) errors.name = ['has already been taken'];
  let ok = false;
  try {
    ok = ['http:', 'https:'].includes(new URL(c.externalUrl).protocol);
  } catch {
    ok = false;
  }
  if (!ok) errors.external_url = ['is blocked: Only allowed schemes are http, https'];
  else if (others.some((o) => o.externalUrl === c.externalUrl)) errors.external_url = ['has already been taken'];
  const branches = protectedBranchesById(ctx.state, ctx.project);
  if (c.protectedBranchIds.some((id) => !branches.has(id))) errors.protected_branches = ['must belong to project'];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

const FIELDS = { name: str(), external_url: str(), shared_secret: str(), protected_branch_ids: arr(int()) };
const CHECK_ID = { check_id: int().required() };
const ADMIN = project(canAdminProject);
const common = { auth: 'user' as const, scope: ADMIN, tier: 'ultimate' as const };

function found(ctx: Context<unknown>, id: number): StatusCheck {
  const c = pget(ctx.state.statusChecks, ctx.project.id, id);
  if (!c) throw recordNotFound();
  return c;
}

function save(ctx: Context<unknown>, c: StatusCheck): StatusCheck {
  validate(ctx, c);
  return ctx.update((draft) => {
    const made = c.id ? c : { ...c, id: ids.next(draft, 'external_status_check') };
    pset((draft as State).statusChecks, made.projectId, made.id, made);
    return made;
  });
}

export const externalStatusChecks: Family<ExternalStatusChecksSlice> = defineFamily({
  name: 'external-status-checks',
  state: () => ({ statusChecks: emptyTable() }),
  routes: [
    route({
      method: 'GET', path: '/projects/:id/external_status_checks', ...common, paginated: true,
      handler: (ctx) => json(ctx.paginate(plist(ctx.state.statusChecks, ctx.project.id).sort((a, b) => a.id - b.id)).map((c) => entity(ctx, c))),
    }),
    route({
      method: 'POST', path: '/projects/:id/external_status_checks', ...common,
      params: { ...FIELDS, name: str().required(), external_url: str().required() },
      handler: (ctx) => {
        const p = ctx.params;
        const c = save(ctx, { id: 0, projectId: ctx.project.id, name: p.name, externalUrl: p.external_url, sharedSecret: p.shared_secret || null, protectedBranchIds: p.protected_branch_ids ?? [] });
        return created(entity(ctx, c));
      },
    }),
    route({
      method: 'PUT', path: '/projects/:id/external_status_checks/:check_id', ...common, params: { ...CHECK_ID, ...FIELDS },
      handler: (ctx) => {
        const old = found(ctx, ctx.params.check_id);
        const p = ctx.params;
        const c = save(ctx, {
          ...old, name: p.name ?? old.name, externalUrl: p.external_url ?? old.externalUrl,
          sharedSecret: p.shared_secret !== undefined ? p.shared_secret || null : old.sharedSecret, protectedBranchIds: p.protected_branch_ids ?? old.protectedBranchIds,
        });
        return json(entity(ctx, c));
      },
    }),
    route({
      method: 'DELETE', path: '/projects/:id/external_status_checks/:check_id', ...common, params: CHECK_ID,
      handler: (ctx) => {
        const c = found(ctx, ctx.params.check_id);
        ctx.update((draft) => void pdel((draft as State).statusChecks, c.projectId, c.id));
        return noContent();
      },
    }),
  ],
  forget: { project: (draft, id) => void tdel((draft as State).statusChecks, id) },
});
