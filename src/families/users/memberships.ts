// A user's direct memberships of groups and projects. Every read and write of a member record
// goes through these few functions, so where memberships are kept can change in one place.
import type { Member, Namespace, Project } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import type { State } from '../world.js';

export type MembershipSource = { kind: 'namespace'; id: number } | { kind: 'project'; id: number };

/** Sets (or, with null, removes) the user's direct membership of a group or project. */
export function writeMembership(draft: State, source: MembershipSource, userId: number, member: Member | null): void {
  const record = sourceRecord(draft, source);
  if (!record) return;
  if (member) record.members[userId] = member;
  else delete record.members[userId];
}

function sourceRecord(state: State, source: MembershipSource): { members: Record<number, Member> } | undefined {
  return source.kind === 'project' ? tget(state.projects, source.id) : tget(state.namespaces, source.id);
}

/** The user's direct membership of a group or project, if any. */
export function readMembership(state: State, source: MembershipSource, userId: number): Member | undefined {
  return sourceRecord(state, source)?.members[userId];
}

/** Every direct member of a group or project. */
export function membersOf(state: State, source: MembershipSource): Member[] {
  const record = sourceRecord(state, source);
  return record ? Object.values(record.members) : [];
}

export interface Membership {
  source: Namespace | Project;
  type: 'Namespace' | 'Project';
  member: Member;
}

/** The user's direct memberships: groups first, then projects, each by id. */
export function membershipsOf(state: State, userId: number): Membership[] {
  const out: Membership[] = [];
  for (const ns of tvalues(state.namespaces)) {
    const m = ns.kind === 'group' ? ns.members[userId] : undefined;
    if (m) out.push({ source: ns, type: 'Namespace', member: m });
  }
  for (const p of tvalues(state.projects)) {
    const m = p.members[userId];
    if (m) out.push({ source: p, type: 'Project', member: m });
  }
  return out;
}

/** Groups the user owns with no other owner (User#can_be_removed? is false while there are any). */
export function soleOwnedGroups(state: State, userId: number): Namespace[] {
  const out: Namespace[] = [];
  for (const ns of tvalues(state.namespaces)) {
    if (ns.kind !== 'group' || readMembership(state, { kind: 'namespace', id: ns.id }, userId)?.accessLevel !== 50) continue;
    const owners = membersOf(state, { kind: 'namespace', id: ns.id }).filter((m) => m.accessLevel === 50);
    if (owners.length === 1) out.push(ns);
  }
  return out;
}

/** Removes every direct membership of the user (a deleted user). */
export function dropMemberships(draft: State, userId: number): void {
  for (const m of membershipsOf(draft, userId))
    writeMembership(draft, { kind: m.type === 'Project' ? 'project' : 'namespace', id: m.source.id }, userId, null);
}
