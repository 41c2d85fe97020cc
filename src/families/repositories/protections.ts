// Protected branches and tags as records of the refs (ProtectedBranches::CreateService,
// ProtectedTags::CreateService and their destroy services): each protection and access level
// gets an id when it is made, fixtures' ones at seed time.
import type { Draft } from 'immer';
import { sequences } from '../../store/state.js';
import type { State } from '../world.js';
import type { Change } from '../define.js';
import { plain } from '../define.js';
import type { ProtectedBranch, ProtectedTag, Repository } from './records.js';
import { draftRefs } from './rules.js';
import { deleteProtectedBranch, deleteProtectedTag, findProtectedBranch, protectedBranchEntries, protectedTagEntries, setProtectedBranch, setProtectedTag } from './refs.js';

export const protectionIds = sequences(['protected_branch', 'protected_branch_access_level', 'protected_tag', 'protected_tag_access_level']);

/** Gives ids to the protections of a repository that have none (those a fixture seeded). */
export function numberProtections(draft: State, refs: Draft<Repository>): void {
  for (const [, p] of protectedBranchEntries(refs as Repository)) {
    if (p.id !== undefined) continue;
    p.id = protectionIds.next(draft, 'protected_branch');
    p.accessIds = [protectionIds.next(draft, 'protected_branch_access_level'), protectionIds.next(draft, 'protected_branch_access_level')];
  }
  for (const [, t] of protectedTagEntries(refs as Repository)) {
    if (t.accessId === undefined) t.accessId = protectionIds.next(draft, 'protected_tag_access_level');
  }
}

export interface BranchProtectionInput {
  pushAccessLevel: number;
  mergeAccessLevel: number;
  allowForcePush: boolean;
  codeOwnerApprovalRequired: boolean;
}

export function protectBranch(projectId: number, name: string, input: BranchProtectionInput): Change<ProtectedBranch> {
  return (draft) => {
    const d = draft as State;
    const refs = draftRefs(draft, projectId);
    const p: ProtectedBranch = {
      ...input,
      id: protectionIds.next(d, 'protected_branch'),
      accessIds: [protectionIds.next(d, 'protected_branch_access_level'), protectionIds.next(d, 'protected_branch_access_level')],
    };
    setProtectedBranch(refs, name, p);
    return p;
  };
}

export function updateBranchProtection(projectId: number, name: string, changes: Partial<BranchProtectionInput>): Change<ProtectedBranch> {
  return (draft) => {
    const p = findProtectedBranch(draftRefs(draft, projectId), name)!;
    Object.assign(p, changes);
    return plain(p as ProtectedBranch);
  };
}

export function unprotectBranch(projectId: number, name: string): Change<void> {
  return (draft) => void deleteProtectedBranch(draftRefs(draft, projectId), name);
}

export function protectTag(projectId: number, name: string, createAccessLevel: number): Change<ProtectedTag> {
  return (draft) => {
    const t: ProtectedTag = { createAccessLevel, accessId: protectionIds.next(draft as State, 'protected_tag_access_level') };
    setProtectedTag(draftRefs(draft, projectId), name, t);
    return t;
  };
}

export function unprotectTag(projectId: number, name: string): Change<void> {
  return (draft) => void deleteProtectedTag(draftRefs(draft, projectId), name);
}
