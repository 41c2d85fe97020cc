// Groups as GitLab renders them (lib/api/entities/group.rb, group_detail.rb), CE fields in order.
import type { Namespace } from '../../store/state.js';
import { sharesOf } from '../../store/members.js';
import { tget } from '../../store/table.js';
import type { State } from '../world.js';
import { fullName } from '../namespaces/index.js';
import { iso } from '../../render/time.js';
import type { UrlBase } from '../users/index.js';
import { avatarUrl } from '../avatars/index.js';
import { defaultBranchProtection } from '../repositories/index.js';

/** The instance's `default_branch_protection`, which a group inherits, and its defaults as Gitlab::Access::BranchProtection spells them. */
function branchProtectionOf(level: number) {
  const p = defaultBranchProtection(level);
  return {
    default_branch_protection: level,
    default_branch_protection_defaults: {
      allowed_to_push: [{ access_level: p?.pushAccessLevel ?? 30 }],
      allow_force_push: p === null,
      allowed_to_merge: [{ access_level: p?.mergeAccessLevel ?? 30 }],
      developer_can_initial_push: level === 4,
    },
  };
}

export function groupEntity(state: State, g: Namespace, u: UrlBase) {
  return {
    id: g.id,
    web_url: `${u.webBase}/groups/${g.fullPath}`,
    name: g.name,
    path: g.path,
    description: g.description,
    visibility: g.visibility,
    share_with_group_lock: false,
    require_two_factor_authentication: false,
    two_factor_grace_period: 48,
    project_creation_level: g.projectCreationLevel,
    auto_devops_enabled: null,
    subgroup_creation_level: g.subgroupCreationLevel,
    emails_disabled: false,
    emails_enabled: true,
    show_diff_preview_in_email: true,
    mentions_disabled: null,
    lfs_enabled: true,
    archived: false,
    math_rendering_limits_enabled: true,
    lock_math_rendering_limits_enabled: false,
    default_branch: null,
    ...branchProtectionOf(state.instance.settings.default_branch_protection),
    avatar_url: avatarUrl(state, u.webBase, 'group', g.id),
    request_access_enabled: g.requestAccessEnabled,
    full_name: fullName(state, g),
    full_path: g.fullPath,
    created_at: iso(g.createdAt),
    parent_id: g.parentId,
    organization_id: 1,
    shared_runners_setting: 'enabled',
    max_artifacts_size: null,
    marked_for_deletion_on: null,
  };
}

/** GroupDetail: the group plus, when asked, its projects (Project entities, no permissions). */
export function groupDetail(state: State, g: Namespace, u: UrlBase, projects?: unknown[]) {
  return {
    ...groupEntity(state, g, u),
    shared_with_groups: Array.from(sharesOf(state, g), (share) => {
      const with_ = tget(state.namespaces, share.groupId);
      return { group_id: share.groupId, group_name: with_?.name ?? null, group_full_path: with_?.fullPath ?? null, group_access_level: share.groupAccess, expires_at: share.expiresAt };
    }),
    ...(projects ? { projects, shared_projects: [] as unknown[] } : {}),
  };
}
