// Roles and visibility: who may see and do what (GitLab's ProjectPolicy and GroupPolicy,
// reduced to access levels). Members of a group are members of its subgroups and projects.
import { ACCESS, type Member, type Namespace, type Project, type CoreState, type User } from '../store/state.js';
import { tget } from '../store/table.js';
import { membershipOf, sharesOf, sourcesOfUser, type GroupShare } from '../store/members.js';
import { EmulatorError } from '../core/errors.js';

/** The level a direct membership grants on `today`: none once expired, none while awaiting. */
export function activeLevel(member: Member | undefined, today: string): number {
  if (!member) return ACCESS.none;
  if (member.expiresAt !== null && member.expiresAt <= today) return ACCESS.none;
  if (member.state === 'awaiting') return ACCESS.none;
  return member.accessLevel;
}

let lastDay = { start: 0, end: -1, text: '' };

/** The UTC date of `now`, `YYYY-MM-DD` (memoised per day: access checks ask on every request). */
export function today(now: number): string {
  if (now < lastDay.start || now >= lastDay.end) {
    const start = now - (((now % 86_400_000) + 86_400_000) % 86_400_000);
    lastDay = { start, end: start + 86_400_000, text: new Date(start).toISOString().slice(0, 10) };
  }
  return lastDay.text;
}

/** The namespace and its ancestors, nearest first. */
export function ancestry(state: CoreState, namespaceId: number | null): Namespace[] {
  const out: Namespace[] = [];
  let id = namespaceId;
  while (id !== null) {
    const ns = tget(state.namespaces, id);
    if (!ns) break;
    out.push(ns);
    id = ns.parentId;
  }
  return out;
}

/** The level of a user in a group and its ancestors by direct memberships only (no shares). */
function memberLevelWithParents(state: CoreState, userId: number, groupId: number, t: string): number {
  let level: number = ACCESS.none;
  for (const g of ancestry(state, groupId)) level = Math.max(level, activeLevel(membershipOf(state, g, userId), t));
  return level;
}

/**
 * What a share grants a user, capped by the share: their level in the invited group, or (a
 * project's share) in the invited group and its ancestors, as GitLab's authorizations count them.
 */
function shareLevel(state: CoreState, share: GroupShare, userId: number, t: string, withParents: boolean): number {
  if (share.expiresAt !== null && share.expiresAt <= t) return ACCESS.none;
  const level = withParents
    ? memberLevelWithParents(state, userId, share.groupId, t)
    : activeLevel(membershipOf(state, { type: 'namespace', id: share.groupId }, userId), t);
  return level <= ACCESS.minimal ? ACCESS.none : Math.min(level, share.groupAccess);
}

/**
 * A user's level, worked out once per version of the memberships and namespaces it reads: a
 * request asks several abilities of the same project (read it, read its issues, create one...),
 * and each would walk memberships, shares and ancestors again. A world being changed (a draft)
 * is asked afresh.
 */
const LEVELS = new WeakMap<object, WeakMap<object, Map<string, number>>>();

function memoLevel(state: CoreState, key: string, compute: () => number): number {
  const { memberships, namespaces } = state;
  if (!Object.isFrozen(memberships) || !Object.isFrozen(namespaces)) return compute();
  let byNamespaces = LEVELS.get(memberships);
  if (!byNamespaces) LEVELS.set(memberships, (byNamespaces = new WeakMap()));
  let levels = byNamespaces.get(namespaces);
  if (!levels) byNamespaces.set(namespaces, (levels = new Map()));
  let level = levels.get(key);
  if (level === undefined) levels.set(key, (level = compute()));
  return level;
}

/**
 * A user's level in a group: memberships of the group and its ancestors, and what groups shared
 * with the group or an ancestor grant (capped by each share's access).
 */
export function groupAccess(state: CoreState, user: User | null, ns: Namespace, now: number): number {
  if (!user) return ACCESS.none;
  const t = today(now);
  return memoLevel(state, `g${ns.id}:${user.id}:${t}`, () => groupLevel(state, user, ns, t));
}

function groupLevel(state: CoreState, user: User, ns: Namespace, t: string): number {
  let level: number = ACCESS.none;
  for (const g of ancestry(state, ns.id)) {
    level = Math.max(level, activeLevel(membershipOf(state, g, user.id), t));
    for (const share of sharesOf(state, g)) level = Math.max(level, shareLevel(state, share, user.id, t, false));
  }
  return level;
}

export function projectAccess(state: CoreState, user: User | null, project: Project, now: number): number {
  if (!user) return ACCESS.none;
  const t = today(now);
  return memoLevel(state, `p${project.id}:${project.namespaceId}:${user.id}:${t}`, () => projectLevel(state, user, project, now, t));
}

function projectLevel(state: CoreState, user: User, project: Project, now: number, t: string): number {
  const ns = tget(state.namespaces, project.namespaceId);
  if (ns && ns.kind === 'user' && ns.ownerId === user.id) return ACCESS.owner;
  let level = activeLevel(membershipOf(state, project, user.id), t);
  for (const share of sharesOf(state, project)) level = Math.max(level, shareLevel(state, share, user.id, t, true));
  const inherited = ns && ns.kind === 'group' ? groupAccess(state, user, ns, now) : ACCESS.none;
  return Math.max(level, inherited);
}

function visibleTo(visibility: Project['visibility'], user: User | null, level: number): boolean {
  if (user?.admin) return true;
  if (level >= ACCESS.guest) return true;
  if (visibility === 'public') return true;
  return visibility === 'internal' && user !== null && !user.external;
}

export function canReadProject(state: CoreState, user: User | null, project: Project, now: number): boolean {
  if (project.pendingDelete) return false;
  // Cheap answers first: most reads are of public projects, or by someone who sees everything.
  if (user?.admin || project.visibility === 'public') return true;
  if (project.visibility === 'internal' && user !== null && !user.external) return true;
  return visibleTo(project.visibility, user, projectAccess(state, user, project, now));
}

/**
 * `canReadProject` for many projects of one caller: the caller's access through each namespace
 * is worked out once, not once per project (a list of 10,000 projects shares a few groups).
 */
export function projectReader(state: CoreState, user: User | null, now: number): (project: Project) => boolean {
  if (user?.admin) return (project) => !project.pendingDelete;
  if (!user) return (project) => !project.pendingDelete && project.visibility === 'public';
  const t = today(now);
  const byNamespace = new Map<number, number>();
  const namespaceLevel = (id: number): number => {
    let level = byNamespace.get(id);
    if (level === undefined) {
      const ns = tget(state.namespaces, id);
      level = !ns ? ACCESS.none : ns.kind === 'user' ? (ns.ownerId === user.id ? ACCESS.owner : ACCESS.none) : groupAccess(state, user, ns, now);
      byNamespace.set(id, level);
    }
    return level;
  };
  return (project) => {
    if (project.pendingDelete) return false;
    if (project.visibility === 'public' || (project.visibility === 'internal' && !user.external)) return true;
    return activeLevel(membershipOf(state, project, user.id), t) >= ACCESS.guest || namespaceLevel(project.namespaceId) >= ACCESS.guest;
  };
}

export function canReadGroup(state: CoreState, user: User | null, group: Namespace, now: number): boolean {
  if (group.pendingDelete) return false;
  if (visibleTo(group.visibility, user, groupAccess(state, user, group, now))) return true;
  // Members of anything inside a private group may see the group itself.
  return user !== null && hasDescendantAccess(state, user, group, now);
}

function hasDescendantAccess(state: CoreState, user: User, group: Namespace, now: number): boolean {
  const t = today(now);
  for (const ref of sourcesOfUser(state, user.id)) {
    if (activeLevel(membershipOf(state, ref, user.id), t) === ACCESS.none) continue;
    if (ref.type === 'namespace') {
      if (ref.id !== group.id && isWithin(state, ref.id, group.id)) return true;
    } else {
      const p = tget(state.projects, ref.id);
      if (p && isWithin(state, p.namespaceId, group.id)) return true;
    }
  }
  return false;
}

export function isWithin(state: CoreState, namespaceId: number, ancestorId: number): boolean {
  return ancestry(state, namespaceId).some((ns) => ns.id === ancestorId);
}

/** The ability ladder: admins may do everything; others need the role. */
export function hasProjectRole(state: CoreState, user: User | null, project: Project, level: number, now: number): boolean {
  return !!user && (user.admin || projectAccess(state, user, project, now) >= level);
}

export function hasGroupRole(state: CoreState, user: User | null, group: Namespace, level: number, now: number): boolean {
  return !!user && (user.admin || groupAccess(state, user, group, now) >= level);
}

/** Role needed to use a feature whose access level is `private` (members only). */
const FEATURE_MIN_ROLE: Record<string, number> = {
  merge_requests: ACCESS.reporter, container_registry: ACCESS.reporter, environments: ACCESS.reporter,
};

/**
 * ProjectFeature#feature_available?: a disabled feature is for nobody; a `private` one, or any
 * feature of a private project, is for members of the feature's minimum role (the repository
 * needs reporters in private projects). `access` saves recomputing the user's level.
 */
export function canUseFeature(state: CoreState, user: User | null, project: Project, feature: string, now: number, access?: number): boolean {
  const level = project.features[feature] ?? 'enabled';
  if (level === 'disabled') return false;
  if (user?.admin) return true;
  if (level !== 'private' && project.visibility !== 'private') return true;
  const min = feature === 'repository' && project.visibility === 'private' ? ACCESS.reporter : FEATURE_MIN_ROLE[feature] ?? ACCESS.guest;
  return (access ?? projectAccess(state, user, project, now)) >= min;
}

export type RoleName = 'guest' | 'planner' | 'reporter' | 'developer' | 'maintainer' | 'owner' | 'minimal';

/** A role name or an access level, as fixtures give them. */
export function accessLevel(level: number | RoleName): number {
  if (typeof level === 'number') return level;
  const n = Object.hasOwn(ACCESS, level) ? ACCESS[level] : undefined;
  if (n === undefined) throw new EmulatorError(`unknown role '${level}'`);
  return n;
}
