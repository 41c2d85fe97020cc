// Protected branches (lib/api/protected_branches.rb, Entities::ProtectedBranch and
// ProtectedRefAccess; EE's fields from the premium tier): list, get, protect, update, unprotect.
import {
  canReadCode, findProtectedBranch, protectBranch, protectedBranchEntries, refsOf, repositoryEnabled, unprotectBranch, updateBranchProtection, type ProtectedBranch,
} from '../repositories/index.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { hasProjectRole } from '../../policy/access.js';
import { conflict, messageError, recordNotFound } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { project, route, type Context } from '../define.js';
import type { State } from '../world.js';

/** ProtectedRefAccess::ALLOWED_ACCESS_LEVELS: no one, developers, maintainers, admins. */
export const ALLOWED_ACCESS_LEVELS = [0, 30, 40, 60] as const;

const HUMAN: Record<number, string> = { 60: 'Admins', 40: 'Maintainers', 30: 'Developers + Maintainers', 0: 'No one' };

/** Entities::ProtectedRefAccess; EE adds the user and group a level may name. */
export function refAccess(id: number | undefined, level: number, ee: boolean, extra: Record<string, unknown> = {}) {
  return { id: id ?? null, access_level: level, access_level_description: HUMAN[level] ?? String(level), ...extra, ...(ee ? { user_id: null, group_id: null } : {}) };
}

/** authorize_admin_project: maintainers and owners (ProtectedBranchPolicy). */
export function canAdminProtections(state: State, user: User | null, p: Project, now: number): boolean {
  return hasProjectRole(state, user, p, ACCESS.maintainer, now);
}

const ADMIN = project(repositoryEnabled, canReadCode, canAdminProtections);

const isEE = (ctx: Context<unknown>) => ctx.state.instance.tier !== 'free';

function protectedBranchEntity(ctx: Context<unknown>, name: string, p: ProtectedBranch) {
  const ee = isEE(ctx);
  return {
    id: p.id ?? null,
    name,
    push_access_levels: [refAccess(p.accessIds?.[0], p.pushAccessLevel, ee, { deploy_key_id: null })],
    merge_access_levels: [refAccess(p.accessIds?.[1], p.mergeAccessLevel, ee)],
    allow_force_push: p.allowForcePush ?? false,
    ...(ee ? { unprotect_access_levels: [], code_owner_approval_required: p.codeOwnerApprovalRequired ?? false, inherited: false } : {}),
  };
}

function find(ctx: Context<{ name: string }>): ProtectedBranch {
  const p = findProtectedBranch(refsOf(ctx.state, ctx.project.id), ctx.params.name);
  if (!p) throw recordNotFound();
  return p;
}

const LEVEL = () => int().values([...ALLOWED_ACCESS_LEVELS]);

export const protectedBranchRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/protected_branches',
    scope: ADMIN,
    cacheable: true,
    paginated: true,
    params: { search: str() },
    handler: (ctx): Reply => {
      const refs = refsOf(ctx.state, ctx.project.id);
      let list = [...protectedBranchEntries(refs)].sort(([, a], [, b]) => (a.id ?? 0) - (b.id ?? 0));
      const search = ctx.params.search?.toLowerCase();
      if (search) list = list.filter(([name]) => name.toLowerCase().includes(search));
      return json(ctx.paginate(list).map(([name, p]) => protectedBranchEntity(ctx, name, p)));
    },
  }),

  route({
    method: 'GET',
    path: '/projects/:id/protected_branches/:name',
    scope: ADMIN,
    cacheable: true,
    params: { name: str().required() },
    handler: (ctx): Reply => json(protectedBranchEntity(ctx, ctx.params.name, find(ctx))),
  }),

  route({
    method: 'POST',
    path: '/projects/:id/protected_branches',
    auth: 'user',
    scope: ADMIN,
    params: {
      name: str().required(),
      push_access_level: LEVEL(),
      merge_access_level: LEVEL(),
      unprotect_access_level: LEVEL(),
      allow_force_push: bool().default(false),
      code_owner_approval_required: bool().default(false),
    },
    handler: (ctx): Reply => {
      const p = ctx.params;
      if (findProtectedBranch(refsOf(ctx.state, ctx.project.id), p.name)) throw conflict(`Protected branch '${p.name}' already exists`);
      if (p.name.trim() === '') throw messageError(422, ["Name can't be blank"]);
      const made = ctx.update(
        protectBranch(ctx.project.id, p.name, {
          pushAccessLevel: p.push_access_level ?? ACCESS.maintainer,
          mergeAccessLevel: p.merge_access_level ?? ACCESS.maintainer,
          allowForcePush: p.allow_force_push,
          codeOwnerApprovalRequired: isEE(ctx) && p.code_owner_approval_required,
        }),
      );
      return created(protectedBranchEntity(ctx, p.name, made));
    },
  }),

  route({
    method: 'PATCH',
    path: '/projects/:id/protected_branches/:name',
    auth: 'user',
    scope: ADMIN,
    params: { name: str().required(), allow_force_push: bool(), code_owner_approval_required: bool() },
    handler: (ctx): Reply => {
      const p = ctx.params;
      find(ctx);
      const changes: { allowForcePush?: boolean; codeOwnerApprovalRequired?: boolean } = {};
      if (p.allow_force_push !== undefined) changes.allowForcePush = p.allow_force_push;
      if (p.code_owner_approval_required !== undefined && isEE(ctx)) changes.codeOwnerApprovalRequired = p.code_owner_approval_required;
      return json(protectedBranchEntity(ctx, p.name, ctx.update(updateBranchProtection(ctx.project.id, p.name, changes))));
    },
  }),

  route({
    method: 'DELETE',
    path: '/projects/:id/protected_branches/:name',
    auth: 'user',
    scope: ADMIN,
    params: { name: str().required() },
    handler: (ctx): Reply => {
      find(ctx);
      ctx.update(unprotectBranch(ctx.project.id, ctx.params.name));
      return noContent();
    },
  }),
];
