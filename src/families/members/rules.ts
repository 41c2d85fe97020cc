// Members of groups and projects as GitLab's models and services decide them (Member's
// validations, Members::{Create,Update,Destroy}Service, the member policies, MembersFinder).
// Memberships are the core's tables (store/members.ts); effective ones come from policy/members.ts.
import { forbidden, notFound, recordNotFound } from '../../core/errors.js';
import { activeLevel, ancestry, canReadGroup, canReadProject, groupAccess, hasGroupRole, hasProjectRole, isWithin, projectAccess, today } from '../../policy/access.js';
import { effectiveMemberList, effectiveMembers, type EffectiveMember } from '../../policy/members.js';
import {
  membershipOf, membersInOrder, membersOf, removeMembership, setMembership, sourceRef, sourcesOfUser, type SourceRef,
} from '../../store/members.js';
import { ACCESS, type Member, type MemberState, type Namespace, type Project, type User } from '../../store/state.js';
import { pset, tget, tvalues } from '../../store/table.js';
import { projectIssues, putIssue } from '../issues/index.js';
import { plain, type Change } from '../define.js';
import { emit } from '../stream.js';
import type { State } from '../world.js';
import { belowInherited, expiryInPast, levelNotInList, projectBotElsewhere } from './errors.js';

export type Source = Project | Namespace;
export type SourceKind = 'project' | 'group';

export const kindOf = (s: Source): SourceKind => ('namespaceId' in s ? 'project' : 'group');

/** Gitlab::Access's human names, as messages and entities spell them. */
export const ROLE_NAMES: Record<number, string> = {
  5: 'Minimal Access', 10: 'Guest', 15: 'Planner', 20: 'Reporter', 30: 'Developer', 40: 'Maintainer', 50: 'Owner',
};

const paid = (state: State) => state.instance.tier !== 'free';

/** The levels a membership of the source may have (minimal access: groups, paid tiers). */
export function validLevels(state: State, kind: SourceKind): number[] {
  const levels: number[] = [ACCESS.guest, ACCESS.planner, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer, ACCESS.owner];
  return kind === 'group' && paid(state) ? [ACCESS.minimal, ...levels] : levels;
}

/** A user's level in the source through any membership (administrators above every role). */
export function callerLevel(state: State, user: User, source: Source, now: number): number {
  if (user.admin) return ACCESS.owner + 10;
  return kindOf(source) === 'project' ? projectAccess(state, user, source as Project, now) : groupAccess(state, user, source as Namespace, now);
}

/** admin_project_member / admin_group_member: Maintainers of a project, Owners of a group. */
export function canAdminMembers(state: State, user: User | null, source: Source, now: number): boolean {
  return kindOf(source) === 'project'
    ? hasProjectRole(state, user, source as Project, ACCESS.maintainer, now)
    : hasGroupRole(state, user, source as Namespace, ACCESS.owner, now);
}

/**
 * read_group_member: a group's members are for whoever may read the group for itself (its
 * visibility or a role in it), not for someone who sees it only through a subgroup or project.
 */
export function canReadGroupMembers(state: State, user: User | null, group: Namespace, now: number): boolean {
  if (user?.admin || group.visibility === 'public') return true;
  if (group.visibility === 'internal' && user !== null && !user.external) return true;
  return groupAccess(state, user, group, now) >= ACCESS.guest;
}

/** Whether the caller may read a member source (`is_source_accessible_to_current_user`). */
export function canReadSource(state: State, user: User | null, ref: SourceRef, now: number): boolean {
  if (ref.type === 'project') {
    const p = tget(state.projects, ref.id);
    return p !== undefined && canReadProject(state, user, p, now);
  }
  const g = tget(state.namespaces, ref.id);
  return g !== undefined && canReadGroup(state, user, g, now);
}

const expired = (m: Member, t: string) => m.expiresAt !== null && m.expiresAt <= t;

/** The direct, unexpired members of a source, in list order (membership id). */
export function directMembers(state: State, source: Source, now: number): Member[] {
  const t = today(now);
  const out: Member[] = [];
  for (const m of membersInOrder(state, source)) if (!expired(m, t)) out.push(m);
  return out;
}

/** The direct, unexpired membership of a user. */
export function directMember(state: State, source: Source, userId: number, now: number): Member | undefined {
  const m = membershipOf(state, source, userId);
  return m && !expired(m, today(now)) ? m : undefined;
}

/**
 * The effective members a caller may list: invited groups' members only when the invited group
 * is public, or visible to a caller who is a member of the source or of the invited group.
 */
export function effectiveFor(state: State, user: User, source: Source, now: number): Map<number, EffectiveMember> {
  const t = today(now);
  const isMember = user.admin || activeLevel(membershipOf(state, source, user.id), t) > ACCESS.none;
  return effectiveMembers(state, source, now, (groupId) => {
    const g = tget(state.namespaces, groupId);
    if (!g) return false;
    if (g.visibility === 'public' || isMember) return true;
    return canReadGroup(state, user, g, now) && (g.visibility === 'internal' || groupAccess(state, user, g, now) > ACCESS.none);
  });
}

export const effectiveList = (state: State, user: User, source: Source, now: number): EffectiveMember[] =>
  effectiveMemberList(effectiveFor(state, user, source, now));

/** The highest membership a user has in the source's ancestor groups, and the group that gives it. */
export function inheritedMembership(state: State, source: Source, userId: number, now: number): { level: number; group: Namespace } | undefined {
  const t = today(now);
  const chain = kindOf(source) === 'project' ? ancestry(state, (source as Project).namespaceId) : ancestry(state, source.id).slice(1);
  let best: { level: number; group: Namespace } | undefined;
  for (const g of chain) {
    if (g.kind !== 'group') continue;
    const level = activeLevel(membershipOf(state, g, userId), t);
    if (level > ACCESS.none && (!best || level > best.level)) best = { level, group: g };
  }
  return best;
}

export interface MemberInput {
  accessLevel: number;
  /** `YYYY-MM-DD`, or null for none. */
  expiresAt: string | null;
}

/** Member's validations, as the model names them: the level, the expiry, the inherited floor, project bots. */
export function validateMember(state: State, source: Source, user: User, input: MemberInput, now: number): void {
  if (!validLevels(state, kindOf(source)).includes(input.accessLevel)) throw levelNotInList();
  if (input.expiresAt !== null && input.expiresAt < today(now)) throw expiryInPast();
  const inherited = inheritedMembership(state, source, user.id, now);
  if (inherited && input.accessLevel < inherited.level) throw belowInherited(ROLE_NAMES[inherited.level] ?? String(inherited.level), inherited.group.name);
  const bot = /^project_(\d+)_bot/.exec(user.username);
  if (user.bot && bot && !(kindOf(source) === 'project' && Number(bot[1]) === source.id)) throw projectBotElsewhere();
}

/** The same checks, as the sentence Members::CreateService collects for one user of a bulk add. */
export function memberProblem(state: State, source: Source, user: User, input: MemberInput, now: number): string | null {
  if (!validLevels(state, kindOf(source)).includes(input.accessLevel)) return 'Access level is not included in the list';
  if (input.expiresAt !== null && input.expiresAt < today(now)) return 'Expires at cannot be a date in the past';
  const inherited = inheritedMembership(state, source, user.id, now);
  if (inherited && input.accessLevel < inherited.level)
    return `Access level should be greater than or equal to ${ROLE_NAMES[inherited.level]} inherited membership from group ${inherited.group.name}`;
  const bot = /^project_(\d+)_bot/.exec(user.username);
  if (user.bot && bot && !(kindOf(source) === 'project' && Number(bot[1]) === source.id)) return 'User project bots cannot be added to other groups / projects';
  return null;
}

/** Nobody grants (or touches a membership) above their own level; a project's Owners are managed by Owners. */
export function checkGrant(state: State, caller: User, source: Source, level: number, now: number): void {
  if (caller.admin) return;
  const own = callerLevel(state, caller, source, now);
  if (level > own) throw forbidden();
  if (kindOf(source) === 'project' && level >= ACCESS.owner && own < ACCESS.owner) throw forbidden();
}

/** Adds (or, in bulk, replaces) a direct membership; returns it. */
export function putMember(source: Source, caller: User, user: User, input: MemberInput, now: number): Change<Member> {
  return (draft) => {
    const before = membershipOf(draft as State, source, user.id);
    const member: Member = {
      ...(before ? plain(before) : {}),
      userId: user.id,
      accessLevel: input.accessLevel,
      createdAt: before?.createdAt ?? now,
      createdById: before ? before.createdById : caller.id,
      expiresAt: input.expiresAt,
      updatedAt: now,
    };
    setMembership(draft as State, source, member);
    emit(draft, { kind: before ? 'member.updated' : 'member.added', ...memberSubject(source), userId: user.id, accessLevel: input.accessLevel });
    return membershipOf(draft as State, source, user.id)!;
  };
}

/** The owners of a group and its ancestors, project bots aside (Group#all_owners_excluding_project_bots). */
function ownersOf(state: State, group: Namespace, now: number): number[] {
  const t = today(now);
  const owners = new Set<number>();
  for (const g of ancestry(state, group.id)) {
    for (const m of membersOf(state, g)) {
      if (m.accessLevel !== ACCESS.owner || expired(m, t) || m.state === 'awaiting') continue;
      if (tget(state.users, m.userId)?.bot) continue;
      owners.add(m.userId);
    }
  }
  return [...owners];
}

/** Whether this membership is the last owner of a group (which GitLab keeps). */
export function isLastOwner(state: State, source: Source, member: Member, now: number): boolean {
  if (kindOf(source) !== 'group' || member.accessLevel !== ACCESS.owner) return false;
  const owners = ownersOf(state, source as Namespace, now);
  return owners.length === 1 && owners[0] === member.userId;
}

/** The owner of a personal project, who cannot leave it nor be demoted. */
export function isPersonalOwner(state: State, source: Source, userId: number): boolean {
  if (kindOf(source) !== 'project') return false;
  const ns = tget(state.namespaces, (source as Project).namespaceId);
  return ns?.kind === 'user' && ns.ownerId === userId;
}

/** update_*_member: the caller administers members, and may touch this member's level and the new one. */
export function checkEdit(state: State, caller: User, source: Source, member: Member, level: number, now: number): void {
  if (!canAdminMembers(state, caller, source, now)) throw forbidden();
  checkGrant(state, caller, source, Math.max(level, member.accessLevel), now);
  if (level < member.accessLevel && (isLastOwner(state, source, member, now) || isPersonalOwner(state, source, member.userId))) throw forbidden();
}

/** destroy_*_member: oneself, or someone who administers members and stands at least as high. */
export function checkRemove(state: State, caller: User, source: Source, member: Member, now: number): void {
  const target = tget(state.users, member.userId);
  if (isLastOwner(state, source, member, now) || isPersonalOwner(state, source, member.userId)) throw forbidden();
  if (target?.bot && !caller.admin) throw forbidden();
  if (caller.id === member.userId) return;
  if (!canAdminMembers(state, caller, source, now)) throw forbidden();
  checkGrant(state, caller, source, member.accessLevel, now);
}

/** The groups and projects below a group (not itself), as member sources. */
export function isBelow(state: State, ref: SourceRef, group: Namespace): boolean {
  if (ref.type === 'namespace') return ref.id !== group.id && isWithin(state, ref.id, group.id);
  const p = tget(state.projects, ref.id);
  return p !== undefined && isWithin(state, p.namespaceId, group.id);
}

/**
 * Members::DestroyService: the membership goes, and (for a group, unless `skipSubresources`)
 * the user's direct memberships of its subgroups and projects with it.
 */
export function removeMember(source: Source, userId: number, skipSubresources: boolean): Change<void> {
  return (draft) => {
    const state = draft as State;
    const removed = (from: Source | SourceRef) => {
      const member = membershipOf(state, from, userId);
      if (!member || !removeMembership(state, from, userId)) return;
      const record = 'type' in from ? (from.type === 'project' ? tget(state.projects, from.id) : tget(state.namespaces, from.id)) : from;
      if (record) emit(draft, { kind: 'member.removed', ...memberSubject(record), userId, accessLevel: member.accessLevel });
    };
    removed(source);
    if (kindOf(source) !== 'group' || skipSubresources) return;
    for (const ref of Array.from(sourcesOfUser(state, userId))) {
      if (isBelow(state, ref, source as Namespace)) removed(ref);
    }
  };
}

/**
 * Members::UnassignIssuablesService (`unassign_issuables=true` on removal): the user leaves the
 * assignees of every issue and merge request in the source's projects (a group's: all of its
 * hierarchy's), as GitLab deletes those rows, without touching the issuables otherwise.
 */
export function unassignIssuables(source: Source, userId: number): Change<void> {
  return (draft) => {
    const state = draft as State;
    const projectIds = kindOf(source) === 'project'
      ? [source.id]
      : [...tvalues(state.projects)].filter((p) => isWithin(state, p.namespaceId, source.id)).map((p) => p.id);
    for (const projectId of projectIds) {
      for (const issue of [...projectIssues(state, projectId)]) {
        if (issue.assigneeIds.includes(userId)) putIssue(draft, { ...plain(issue), assigneeIds: issue.assigneeIds.filter((id) => id !== userId) });
      }
      const mrs = tget(state.mergeRequests, projectId);
      for (const mr of mrs ? [...tvalues(mrs)] : []) {
        if (mr.assigneeIds.includes(userId)) pset(draft.mergeRequests, projectId, mr.iid, { ...plain(mr), assigneeIds: mr.assigneeIds.filter((id) => id !== userId) });
      }
    }
  };
}

/** What a member event says of its source. */
function memberSubject(source: Source) {
  return kindOf(source) === 'project'
    ? { source: 'project' as const, sourceId: source.id, projectId: source.id }
    : { source: 'group' as const, sourceId: source.id };
}

/** Every direct membership of a user in a top-level group's hierarchy (the group, its subgroups, their projects). */
export function hierarchyMemberships(state: State, top: Namespace, userId: number): { ref: SourceRef; member: Member }[] {
  const out: { ref: SourceRef; member: Member }[] = [];
  for (const ref of sourcesOfUser(state, userId)) {
    if (!(ref.type === 'namespace' && ref.id === top.id) && !isBelow(state, ref, top)) continue;
    const member = membershipOf(state, ref, userId);
    if (member) out.push({ ref: { type: ref.type, id: ref.id }, member });
  }
  return out.sort((a, b) => (a.member.id ?? 0) - (b.member.id ?? 0));
}

/** Members::ActivateService / AwaitService: the user's memberships across the hierarchy take the state. */
export function setMemberState(top: Namespace, userId: number, state: MemberState, now: number): Change<number> {
  return (draft) => {
    const found = hierarchyMemberships(draft as State, top, userId);
    for (const { ref, member } of found) setMembership(draft as State, ref, { ...plain(member), state, updatedAt: now });
    return found.length;
  };
}

/** The source record of a reference, or undefined when it is gone. */
export function sourceOf(state: State, ref: SourceRef): Source | undefined {
  return ref.type === 'project' ? tget(state.projects, ref.id) : tget(state.namespaces, ref.id);
}

/** A user by id, or GitLab's `404 User Not Found`. */
export function userById(state: State, id: number): User {
  const u = tget(state.users, id);
  if (!u) throw notFound('User');
  return u;
}

/** The direct member of `:user_id` (find_by!), or `404 Not found`. */
export function directMemberOr404(state: State, source: Source, userId: number, now: number): Member {
  const m = directMember(state, source, userId, now);
  if (!m) throw recordNotFound();
  return m;
}

export { sourceRef };
