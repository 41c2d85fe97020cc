// Custom roles of the instance (ee/lib/api/member_roles.rb, Entities::MemberRole; Ultimate,
// self-managed): administrators list them, make one on a base role with the permissions it adds,
// and delete one. Group custom roles are GitLab.com's and answer 404 on a self-managed world.
import { messageError, recordNotFound } from '../../core/errors.js';
import { bool, int, str, type ParamSpec } from '../../http/params.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { iso } from '../../render/time.js';
import { emptyTable, tdel, tget, tset, tvalues, type Table } from '../../store/table.js';
import { ACCESS, sequences } from '../../store/state.js';
import { defineFamily, route, type Family } from '../define.js';
import type { State } from '../world.js';

/** MemberRole's customizable permissions (config/authz/permissions/custom_abilities), a subset. */
export const PERMISSIONS = [
  'admin_cicd_variables', 'admin_compliance_framework', 'admin_group_member', 'admin_integrations', 'admin_merge_request', 'admin_protected_branch',
  'admin_protected_environments', 'admin_push_rules', 'admin_runners', 'admin_security_testing', 'admin_terraform_state', 'admin_vulnerability',
  'admin_web_hook', 'archive_project', 'manage_deploy_tokens', 'manage_group_access_tokens', 'manage_merge_request_settings',
  'manage_project_access_tokens', 'manage_security_policy_link', 'read_code', 'read_compliance_dashboard', 'read_crm_contact', 'read_dependency',
  'read_runners', 'read_vulnerability', 'remove_group', 'remove_project',
] as const;

export interface MemberRole {
  id: number;
  name: string;
  description: string | null;
  baseAccessLevel: number;
  permissions: string[];
  createdAt: number;
}

export interface MemberRolesSlice {
  /** The instance's custom roles by id. */
  memberRoles: Table<MemberRole>;
}

declare module '../world.js' {
  interface Slices extends MemberRolesSlice {}
}

const ids = sequences(['member_role']);

const BASE_LEVELS = [ACCESS.minimal, ACCESS.guest, ACCESS.planner, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer];

function entity(r: MemberRole) {
  return {
    id: r.id, name: r.name, description: r.description, group_id: null, base_access_level: r.baseAccessLevel,
    ...Object.fromEntries(PERMISSIONS.map((p) => [p, r.permissions.includes(p)])),
    created_at: iso(r.createdAt),
  };
}

const PERMISSION_PARAMS: ParamSpec = Object.fromEntries(PERMISSIONS.map((p) => [p, bool()]));

const routes = [
  route({
    method: 'GET', path: '/member_roles', tier: 'ultimate', offering: 'self-managed', auth: 'admin',
    handler: (ctx): Reply => json([...tvalues(ctx.state.memberRoles)].sort((a, b) => a.id - b.id).map(entity)),
  }),
  route({
    method: 'POST', path: '/member_roles', tier: 'ultimate', offering: 'self-managed', auth: 'admin',
    params: { name: str().required(), description: str(), base_access_level: int().required().values(BASE_LEVELS), ...PERMISSION_PARAMS },
    handler: (ctx): Reply => {
      const p = ctx.params as Record<string, unknown> & { name: string; description?: string; base_access_level: number };
      const errors: string[] = [];
      if (p.name.trim() === '') errors.push("Name can't be blank");
      if ([...tvalues(ctx.state.memberRoles)].some((r) => r.name === p.name)) errors.push('Name has already been taken');
      if (errors.length) throw messageError(400, errors.join(', '));
      const now = ctx.now();
      const role = ctx.update((draft) => {
        const r: MemberRole = {
          id: ids.next(draft as State, 'member_role'), name: p.name, description: p.description ?? null, baseAccessLevel: p.base_access_level,
          permissions: PERMISSIONS.filter((x) => p[x] === true), createdAt: now,
        };
        tset((draft as State).memberRoles, r.id, r);
        return r;
      });
      return created(entity(role));
    },
  }),
  route({
    method: 'DELETE', path: '/member_roles/:member_role_id', tier: 'ultimate', offering: 'self-managed', auth: 'admin', params: { member_role_id: int().required() },
    handler: (ctx): Reply => {
      const id = ctx.params.member_role_id;
      if (!tget(ctx.state.memberRoles, id)) throw recordNotFound();
      ctx.update((draft) => void tdel((draft as State).memberRoles, id));
      return noContent();
    },
  }),
];

export const memberRoles: Family<MemberRolesSlice> = defineFamily({ name: 'member-roles', state: () => ({ memberRoles: emptyTable() }), routes });
