// Effective members of a project or group (MembersFinder, GroupMembersFinder with their
// `/all` relations): direct members, members of ancestor groups, and members of groups the
// source (or an ancestor) is shared with, one entry per user at the highest level.
import { ACCESS, type CoreState, type Member, type Namespace, type Project } from '../store/state.js';
import { membersInOrder, sharesOf, sourceRef, type GroupShare, type SourceRef } from '../store/members.js';
import { ancestry, today } from './access.js';

/** How a user is a member of the source: directly, through an ancestor group, or through a shared group. */
export type Via = 'direct' | 'inherited' | 'invited';

export interface EffectiveMember {
  /** The membership record shown (its dates and creator). */
  member: Member;
  /** The highest level the user has in the source through any of these memberships. */
  level: number;
  /** Where `member` belongs. */
  source: SourceRef;
  via: Via;
}

const expired = (m: { expiresAt: string | null }, t: string) => m.expiresAt !== null && m.expiresAt <= t;

/**
 * Every effective member of a project or group on the day of `now`, keyed by user id. Expired
 * memberships and shares count for nothing; `awaiting` members are listed (their state is shown).
 * `seesGroup` says whether the members of an invited group may be listed to the caller.
 */
export function effectiveMembers(
  state: CoreState,
  source: Project | Namespace,
  now: number,
  seesGroup: (groupId: number) => boolean,
): Map<number, EffectiveMember> {
  const t = today(now);
  const out = new Map<number, EffectiveMember>();
  const isProject = 'namespaceId' in source;
  const offer = (m: Member, level: number, from: SourceRef, via: Via) => {
    const had = out.get(m.userId);
    if (!had) return void out.set(m.userId, { member: m, level, source: from, via });
    // A project's own membership is the record shown (MembersFinder's DISTINCT ON prefers it);
    // otherwise the record of the highest level, the nearest first on a tie.
    if (isProject && had.via === 'direct') had.level = Math.max(had.level, level);
    else if (level > had.level) out.set(m.userId, { member: m, level, source: from, via });
  };
  const addSource = (from: SourceRef, via: Via, cap?: number) => {
    for (const m of membersInOrder(state, from)) {
      if (expired(m, t)) continue;
      if (via !== 'direct' && m.accessLevel <= ACCESS.minimal) continue;
      offer(m, cap === undefined ? m.accessLevel : Math.min(cap, m.accessLevel), from, via);
    }
  };
  const addShare = (share: GroupShare, withParents: boolean) => {
    if (expired(share, t) || !seesGroup(share.groupId)) return;
    const groups = withParents ? ancestry(state, share.groupId) : [{ id: share.groupId }];
    for (const g of groups) addSource({ type: 'namespace', id: g.id }, 'invited', share.groupAccess);
  };
  addSource(sourceRef(source), 'direct');
  if (isProject) for (const share of sharesOf(state, source)) addShare(share, true);
  const chain = isProject ? ancestry(state, source.namespaceId) : ancestry(state, source.id);
  for (const g of chain) {
    if (g.kind !== 'group') continue;
    if (g.id !== source.id || isProject) addSource({ type: 'namespace', id: g.id }, 'inherited');
    for (const share of sharesOf(state, g)) addShare(share, false);
  }
  return out;
}

/** The effective members in GitLab's list order (membership id). */
export function effectiveMemberList(members: Map<number, EffectiveMember>): EffectiveMember[] {
  return Array.from(members.values()).sort((a, b) => (a.member.id ?? 0) - (b.member.id ?? 0) || a.member.userId - b.member.userId);
}
