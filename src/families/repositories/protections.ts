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

export const protectionIds = sequences(['protected_branch', 'protected_branch_access_level', 'protected_tag', 'protected_tag_access_level']);

/** Gives ids to the protections of a repository that have none (those a fixture seeded). */
export function numberProtections(draft: State, refs: Draft<Repository>): void {
  for (const p of Object.values(refs.protectedBranches)) {
    if (p.id !== undefined) continue;
    p.id = protectionIds.next(draft, 'protected_branch');
    p.accessIds = [protectionIds.next(draft, 'protected_branch_access_level'), protectionIds.next(draft, 'protected_branch_access_level')];
  }
  for (const t of Object.values(refs.protectedTags)) {
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
    refs.protectedBranches[name] = p;
    return p;
  };
}

export function updateBranchProtection(projectId: number, name: string, changes: Partial<BranchProtectionInput>): Change<ProtectedBranch> {
  return (draft) => {
    const p = draftRefs(draft, projectId).protectedBranches[name]!;
    Object.assign(p, changes);
    return plain(p as ProtectedBranch);
  };
}

export function unprotectBranch(projectId: number, name: string): Change<void> {
  return (draft) => void delete draftRefs(draft, projectId).protectedBranches[name];
}

export function protectTag(projectId: number, name: string, createAccessLevel: number): Change<ProtectedTag> {
  return (draft) => {
    const t: ProtectedTag = { createAccessLevel, accessId: protectionIds.next(draft as State, 'protected_tag_access_level') };
    draftRefs(draft, projectId).protectedTags[name] = t;
    return t;
  };
}

export function unprotectTag(projectId: number, name: string): Change<void> {
  return (draft) => void delete draftRefs(draft, projectId).protectedTags[name];
}

/** A protection by its exact name (a pattern is its own name); names such as `constructor` are like any other. */
export const findProtectedBranch = (refs: Repository, name: string) => (Object.hasOwn(refs.protectedBranches, name) ? refs.protectedBranches[name] : undefined);
export const findProtectedTag = (refs: Repository, name: string) => (Object.hasOwn(refs.protectedTags, name) ? refs.protectedTags[name] : undefined);
