// Projects::ProtectDefaultBranchService: when the first push creates a project's default branch
// (Git::BranchHooksService#branch_create_hooks, `project.after_create_default_branch`), it is
// protected as the instance's `default_branch_protection` says (Gitlab::Access::BranchProtection),
// unless a protection already covers it.
import { tget } from '../../store/table.js';
import { ACCESS } from '../../store/state.js';
import type { Context } from '../define.js';
import type { StoredEvent } from '../stream.js';
import { protectBranch, type BranchProtectionInput } from './protections.js';
import { protectionsFor, refsOf } from './rules.js';

/** Gitlab::Access's protection levels: who may push to and merge into the default branch; null for none. */
export function defaultBranchProtection(level: number): BranchProtectionInput | null {
  const base = { allowForcePush: false, codeOwnerApprovalRequired: false };
  switch (level) {
    case 1: // PROTECTION_DEV_CAN_PUSH
      return { ...base, pushAccessLevel: ACCESS.developer, mergeAccessLevel: ACCESS.maintainer };
    case 2: // PROTECTION_FULL
    case 4: // PROTECTION_DEV_CAN_INITIAL_PUSH (the initial push is past when this runs)
      return { ...base, pushAccessLevel: ACCESS.maintainer, mergeAccessLevel: ACCESS.maintainer };
    case 3: // PROTECTION_DEV_CAN_MERGE
      return { ...base, pushAccessLevel: ACCESS.maintainer, mergeAccessLevel: ACCESS.developer };
    default: // PROTECTION_NONE
      return null;
  }
}

/** The `push` subscriber: a new branch that is the project's default one gets the instance's protection. */
export function protectNewDefaultBranch(ctx: Context<unknown>, e: StoredEvent<'push'>): void {
  if (e.refType !== 'branch' || e.before !== null || e.after === null) return;
  const project = tget(ctx.state.projects, e.projectId);
  if (!project || (project.defaultBranch !== null && project.defaultBranch !== e.ref)) return;
  const input = defaultBranchProtection(ctx.state.instance.settings.default_branch_protection);
  if (!input || protectionsFor(refsOf(ctx.state, e.projectId), e.ref).length > 0) return;
  ctx.update(protectBranch(e.projectId, e.ref, input));
}
