// Entities::Member (lib/api/entities/member.rb with EE's additions), Entities::BillableMember,
// BillableMembership and ProjectGroupLink, fields in GitLab's order.
import type { Member, User } from '../../store/state.js';
import type { SourceRef } from '../../store/members.js';
import type { GroupShare } from '../../store/members.js';
import { tget } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import { canReadSource, ROLE_NAMES } from './rules.js';

export interface MemberView extends UrlBase {
  state: State;
  viewer: User;
  now: number;
  showSeatInfo?: boolean;
}

/** One member as `viewer` sees it; `level` is the effective level (`/all`), the member's own otherwise. */
export function memberEntity(v: MemberView, member: Member, from: SourceRef, level = member.accessLevel) {
  const user = tget(v.state.users, member.userId)!;
  const creator = member.createdById === null ? undefined : tget(v.state.users, member.createdById);
  const paid = v.state.instance.tier !== 'free';
  return {
    ...userBasic(user, v),
    access_level: level,
    created_at: iso(member.createdAt),
    // expose_nil: false, and only for a caller who may read the membership's source.
    ...(creator && canReadSource(v.state, v.viewer, from, v.now) ? { created_by: userBasic(creator, v) } : {}),
    expires_at: member.expiresAt,
    ...(paid && v.viewer.admin ? { email: user.email } : {}),
    ...(paid && v.showSeatInfo ? { is_using_seat: !user.bot && member.accessLevel > 5 } : {}),
    ...(paid && from.type === 'namespace' && member.ldap ? { override: member.override ?? false } : {}),
    ...(paid ? { membership_state: member.state ?? 'active' } : {}),
  };
}

/** Entities::ProjectGroupLink. */
export function projectShareEntity(projectId: number, share: GroupShare) {
  return { id: share.id, project_id: projectId, group_id: share.groupId, group_access: share.groupAccess, expires_at: share.expiresAt };
}

export type MembershipType = 'group_member' | 'project_member' | 'group_invite' | 'project_invite';

/** Entities::BillableMember. */
export function billableMemberEntity(v: MemberView, user: User, type: MembershipType) {
  return {
    ...userBasic(user, v),
    ...(v.viewer.admin ? { email: user.email } : {}),
    last_activity_on: user.lastActivityOn,
    membership_type: type,
    removable: type === 'group_member' || type === 'project_member',
    created_at: iso(user.createdAt),
    last_login_at: iso(user.lastSignInAt),
  };
}

/** Entities::BillableMembership: one direct membership inside the hierarchy. */
export function billableMembershipEntity(member: Member, source: { id: number; fullName: string; membersUrl: string }) {
  return {
    id: member.id ?? 0,
    source_id: source.id,
    source_full_name: source.fullName,
    source_members_url: source.membersUrl,
    created_at: iso(member.createdAt),
    expires_at: member.expiresAt,
    access_level: { string_value: ROLE_NAMES[member.accessLevel] ?? String(member.accessLevel), integer_value: member.accessLevel },
  };
}
