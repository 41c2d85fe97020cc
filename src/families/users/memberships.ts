// A user's direct memberships of groups and projects. Every read and write of a member record
// goes through these few functions, so where memberships are kept can change in one place.
import type { Member, Namespace, Project } from '../../store/state.js';
import { membershipOf, membersOf as sourceMembers, removeMembership, setMembership, sourcesOfUser, type SourceRef } from '../../store/members.js';
import { tget, tvalues } from '../../store/table.js';
import type { State } from '../world.js';

export type MembershipSource = { kind: 'namespace'; id: number } | { kind: 'project'; id: number };

const ref = (source: MembershipSource): SourceRef => ({ type: source.kind, id: source.id });

/** Sets (or, with null, removes) the user's direct membership of a group or project. */
export function writeMembership(draft: State, source: MembershipSource, userId: number, member: Member | null): void {
  if (member) setMembership(draft, ref(source), member);
  else removeMembership(draft, ref(source), userId);
}

/** The user's direct membership of a group or project, if any. */
export function readMembership(state: State, source: MembershipSource, userId: number): Member | undefined {
  return membershipOf(state, ref(source), userId);
}

/** Every direct member of a group or project. */
export function membersOf(state: State, source: MembershipSource): Member[] {
  return [...sourceMembers(state, ref(source))];
}

export interface Membership {
  source: Namespace | Project;
  type: 'Namespace' | 'Project';
  member: Member;
}

/** The user's direct memberships: groups first, then projects, each by id. */
export function membershipsOf(state: State, userId: number): Membership[] {
  const groups: Membership[] = [];
  const projects: Membership[] = [];
  for (const r of sourcesOfUser(state, userId)) {
    const member = membershipOf(state, r, userId);
    if (!member) continue;
    if (r.type === 'namespace') {
      const ns = tget(state.namespaces, r.id);
      if (ns && ns.kind === 'group') groups.push({ source: ns, type: 'Namespace', member });
    } else {
      const p = tget(state.projects, r.id);
      if (p) projects.push({ source: p, type: 'Project', member });
    }
  }
  const byId = (a: Membership, b: Membership) => a.source.id - b.source.id;
  return [...groups.sort(byId), ...projects.sort(byId)];
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
