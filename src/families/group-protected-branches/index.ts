// Protected branches of groups (ee/lib/api/group_protected_branches.rb; Premium): a group's owners
// protect branch names or patterns for the whole group, as a project's maintainers do for a
// project. Their ids come from the projects' protected branches' sequence (one table in GitLab).
import { conflict, messageError, recordNotFound } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { created, json, noContent } from '../../http/route.js';
import { ACCESS } from '../../store/state.js';
import { emptyTable, pdel, pget, plist, pset, tdel, type Partitioned } from '../../store/table.js';
import { ALLOWED_ACCESS_LEVELS, refAccess } from '../branches/index.js';
import { canOwnGroup } from '../groups/index.js';
import { matchesRefPattern, protectionIds, registerBranchProtections } from '../repositories/index.js';
import { ancestry } from '../../policy/access.js';
import { defineFamily, group, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

export interface GroupProtectedBranch {
  id: number;
  name: string;
  pushAccessLevel: number;
  mergeAccessLevel: number;
  accessIds: [push: number, merge: number];
  allowForcePush: boolean;
}

export interface GroupProtectedBranchesSlice {
  /** Group id -> its protected branches, by name. */
  groupProtectedBranches: Partitioned<GroupProtectedBranch>;
}

declare module '../world.js' {
  interface Slices extends GroupProtectedBranchesSlice {}
}

const entity = (p: GroupProtectedBranch) => ({
  id: p.id,
  name: p.name,
  push_access_levels: [refAccess(p.accessIds[0], p.pushAccessLevel, true, { deploy_key_id: null })],
  merge_access_levels: [refAccess(p.accessIds[1], p.mergeAccessLevel, true)],
  allow_force_push: p.allowForcePush,
  unprotect_access_levels: [],
  code_owner_approval_required: false,
  inherited: false,
});

function found(ctx: Context<unknown>, name: string): GroupProtectedBranch {
  const p = pget(ctx.state.groupProtectedBranches, ctx.group.id, name);
  if (!p) throw recordNotFound();
  return p;
}

const LEVEL = () => int().values([...ALLOWED_ACCESS_LEVELS]);
const OWNER = group(canOwnGroup);
const common = { auth: 'user' as const, scope: OWNER, tier: 'premium' as const };

// Project#group_protected_branches: the protections of the project's top-level group bind pushes
// to every project under it (where the tier has them), with the project's own.
registerBranchProtections((state, project, branch) => {
  if (state.instance.tier === 'free') return [];
  const root = ancestry(state, project.namespaceId).at(-1);
  if (!root || root.kind !== 'group') return [];
  return plist(state.groupProtectedBranches, root.id).filter((p) => matchesRefPattern(p.name, branch));
});

export const groupProtectedBranches: Family<GroupProtectedBranchesSlice> = defineFamily({
  name: 'group-protected-branches',
  state: () => ({ groupProtectedBranches: emptyTable() }),
  routes: [
    route({
      method: 'GET', path: '/groups/:id/protected_branches', ...common, paginated: true, params: { search: str() },
      handler: (ctx) => {
        const q = ctx.params.search?.toLowerCase();
        const list = plist(ctx.state.groupProtectedBranches, ctx.group.id).filter((p) => !q || p.name.toLowerCase().includes(q)).sort((a, b) => a.id - b.id);
        return json(ctx.paginate(list).map(entity));
      },
    }),
    route({
      method: 'GET', path: '/groups/:id/protected_branches/:name', ...common, params: { name: str().required() },
      handler: (ctx) => json(entity(found(ctx, ctx.params.name))),
    }),
    route({
      method: 'POST', path: '/groups/:id/protected_branches', ...common,
      params: { name: str().required(), push_access_level: LEVEL(), merge_access_level: LEVEL(), unprotect_access_level: LEVEL(), allow_force_push: bool().default(false) },
      handler: (ctx) => {
        const p = ctx.params;
        if (pget(ctx.state.groupProtectedBranches, ctx.group.id, p.name)) throw conflict(`Protected branch '${p.name}' already exists`);
        if (p.name.trim() === '') throw messageError(422, ["Name can't be blank"]);
        const made = ctx.update((draft) => {
          const d = draft as State;
          const row: GroupProtectedBranch = {
            id: protectionIds.next(d, 'protected_branch'), name: p.name,
            pushAccessLevel: p.push_access_level ?? ACCESS.maintainer, mergeAccessLevel: p.merge_access_level ?? ACCESS.maintainer,
            accessIds: [protectionIds.next(d, 'protected_branch_access_level'), protectionIds.next(d, 'protected_branch_access_level')],
            allowForcePush: p.allow_force_push,
          };
          pset(d.groupProtectedBranches, ctx.group.id, row.name, row);
          return row;
        });
        return created(entity(made));
      },
    }),
    route({
      method: 'PATCH', path: '/groups/:id/protected_branches/:name', ...common, params: { name: str().required(), allow_force_push: bool() },
      handler: (ctx) => {
        const old = found(ctx, ctx.params.name);
        const next = { ...old, allowForcePush: ctx.params.allow_force_push ?? old.allowForcePush };
        ctx.update((draft) => pset((draft as State).groupProtectedBranches, ctx.group.id, old.name, next));
        return json(entity(next));
      },
    }),
    route({
      method: 'DELETE', path: '/groups/:id/protected_branches/:name', ...common, params: { name: str().required() },
      handler: (ctx) => {
        const old = found(ctx, ctx.params.name);
        ctx.update((draft) => void pdel((draft as State).groupProtectedBranches, ctx.group.id, old.name));
        return noContent();
      },
    }),
  ],
  forget: { group: (draft, id) => void tdel((draft as State).groupProtectedBranches, id) },
});
