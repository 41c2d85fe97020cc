// Memberships of projects and namespaces: the core's chunked tables and the few accessors every
// reader and writer goes through. A source's members are a partition of their own (a write
// copies one chunk of one source), and each user's memberships are indexed the other way
// (user -> sources), so "where is this user a member" never walks every project.
import { coreIds, type CoreState, type Member, type Namespace, type Project } from './state.js';
import { chunkOf, emptyTable, pdel, pget, pset, pvalues, tchunkEntries, tdel, tentries, tget, type Partitioned, type Table } from './table.js';

/** A project or a namespace, by id: what a membership belongs to. */
export interface SourceRef {
  type: 'project' | 'namespace';
  id: number;
}

/** A member source as a record (a project or a namespace) or as a reference. */
export type MemberSource = Project | Namespace | SourceRef;

/**
 * A source shared with a group (ProjectGroupLink, GroupGroupLink): the members of the invited
 * group (and of its ancestors) get at most `groupAccess` in the source and everything below it.
 */
export interface GroupShare {
  id: number;
  /** The invited group (`shared_with_group`). */
  groupId: number;
  groupAccess: number;
  /** A date, `YYYY-MM-DD`; the share grants nothing from the start of that day (UTC). */
  expiresAt: string | null;
  createdAt: number;
}

export interface MembershipTables {
  /** Project id -> user id -> member. */
  project: Partitioned<Member>;
  /** Namespace id -> user id -> member. */
  namespace: Partitioned<Member>;
  /** User id -> `p<id>` / `n<id>` -> the source of one of their memberships. */
  byUser: Partitioned<SourceRef>;
  /** Shares: project id -> invited group id -> share. */
  projectShares: Partitioned<GroupShare>;
  /** Shares: shared group id -> invited group id -> share. */
  namespaceShares: Partitioned<GroupShare>;
  /** Invited group id -> `p<id>` / `n<id>` -> a source it is invited into. */
  sharedInto: Partitioned<SourceRef>;
  /** Source id -> membership id -> member (the same record): a source's members in GitLab's list order, a page without a sort. */
  projectOrder: Partitioned<Member>;
  namespaceOrder: Partitioned<Member>;
  /** Source id -> user id -> expiry date, for the memberships that have one (few): counts without a scan. */
  projectExpiring: Partitioned<string>;
  namespaceExpiring: Partitioned<string>;
}

export function emptyMemberships(): MembershipTables {
  return {
    project: emptyTable(), namespace: emptyTable(), byUser: emptyTable(), projectShares: emptyTable(), namespaceShares: emptyTable(), sharedInto: emptyTable(),
    projectOrder: emptyTable(), namespaceOrder: emptyTable(), projectExpiring: emptyTable(), namespaceExpiring: emptyTable(),
  };
}

/** The reference of a source, whatever form it is given in. */
export function sourceRef(source: MemberSource): SourceRef {
  if ('type' in source) return source;
  return 'namespaceId' in source ? { type: 'project', id: source.id } : { type: 'namespace', id: source.id };
}

const refKey = (r: SourceRef) => (r.type === 'project' ? 'p' : 'n') + r.id;
const orderOf = (state: CoreState, r: SourceRef) => (r.type === 'project' ? state.memberships.projectOrder : state.memberships.namespaceOrder);
const expiringOf = (state: CoreState, r: SourceRef) => (r.type === 'project' ? state.memberships.projectExpiring : state.memberships.namespaceExpiring);

/** The direct membership of `userId` in the source, expired or not. */
export function membershipOf(state: CoreState, source: MemberSource, userId: number): Member | undefined {
  const r = sourceRef(source);
  return pget(state.memberships[r.type], r.id, userId);
}

/** The direct members of a source (expired ones included), in the table's order; sort by `id` for GitLab's. */
export function membersOf(state: CoreState, source: MemberSource): IterableIterator<Member> {
  const r = sourceRef(source);
  return pvalues(state.memberships[r.type], r.id);
}

/** How many direct members a source has. */
export function memberCount(state: CoreState, source: MemberSource): number {
  const r = sourceRef(source);
  return tget(state.memberships[r.type], r.id)?.size ?? 0;
}

/** Adds or replaces the membership of `member.userId` in the source (use on a draft). */
export function setMembership(draft: CoreState, source: MemberSource, member: Member): void {
  const r = sourceRef(source);
  if (member.id === undefined) {
    const before = pget(draft.memberships[r.type], r.id, member.userId);
    member = { ...member, id: before?.id ?? coreIds.next(draft, 'member') };
  }
  pset(draft.memberships[r.type], r.id, member.userId, member);
  pset(orderOf(draft, r), r.id, member.id!, member);
  if (member.expiresAt !== null) pset(expiringOf(draft, r), r.id, member.userId, member.expiresAt);
  else pdel(expiringOf(draft, r), r.id, member.userId);
  if (pget(draft.memberships.byUser, member.userId, refKey(r)) === undefined) pset(draft.memberships.byUser, member.userId, refKey(r), { type: r.type, id: r.id });
}

/** Removes one membership (use on a draft); false when there was none. */
export function removeMembership(draft: CoreState, source: MemberSource, userId: number): boolean {
  const r = sourceRef(source);
  const before = pget(draft.memberships[r.type], r.id, userId);
  if (before === undefined) return false;
  pdel(draft.memberships.byUser, userId, refKey(r));
  if (before.id !== undefined) pdel(orderOf(draft, r), r.id, before.id);
  pdel(expiringOf(draft, r), r.id, userId);
  return pdel(draft.memberships[r.type], r.id, userId);
}

/** Removes every membership of a source (a deleted project or group). */
export function removeAllMemberships(draft: CoreState, source: MemberSource): void {
  const r = sourceRef(source);
  const table: Table<Member> | undefined = tget(draft.memberships[r.type], r.id);
  if (table === undefined) return;
  for (const m of Array.from(pvalues(draft.memberships[r.type], r.id))) pdel(draft.memberships.byUser, m.userId, refKey(r));
  tdel(draft.memberships[r.type], r.id);
  tdel(orderOf(draft, r), r.id);
  tdel(expiringOf(draft, r), r.id);
}

/**
 * One page of a source's direct members that have not expired on `today` (`YYYY-MM-DD`), in
 * GitLab's order (membership id), and how many there are: without a sort, and without reading
 * the members before the page (whole chunks are skipped by their counts).
 */
export function memberPage(state: CoreState, source: MemberSource, today: string, offset: number, limit: number): { total: number; members: Member[] } {
  const r = sourceRef(source);
  const all = tget(state.memberships[r.type], r.id);
  if (all === undefined) return { total: 0, members: [] };
  // The expired ones, by the chunk of the order index they sit in.
  const expired = new Set<number>();
  const expiredIn = new Map<string, number>();
  for (const [userId, date] of ptable(expiringOf(state, r), r.id)) {
    if (date > today) continue;
    const id = pget(state.memberships[r.type], r.id, Number(userId))?.id;
    if (id === undefined) continue;
    expired.add(id);
    const ck = chunkOf(id);
    expiredIn.set(ck, (expiredIn.get(ck) ?? 0) + 1);
  }
  const total = all.size - expired.size;
  const members: Member[] = [];
  const order = tget(orderOf(state, r), r.id);
  if (order === undefined || limit <= 0) return { total, members };
  let skip = offset;
  for (const [ck, chunk] of tchunkEntries(order)) {
    const live = chunk.size - (expiredIn.get(ck) ?? 0);
    if (skip >= live) {
      skip -= live;
      continue;
    }
    for (const [id, m] of chunk) {
      if (expired.has(Number(id))) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      members.push(m);
      if (members.length === limit) return { total, members };
    }
  }
  return { total, members };
}

/** The entries of one owner's table (key as stored, value). */
function* ptable<T>(p: Partitioned<T>, owner: number): IterableIterator<[string, T]> {
  const t = tget(p, owner);
  if (t === undefined) return;
  yield* tentries(t);
}

/** A source's direct members (expired ones included) in GitLab's list order (membership id). */
export function membersInOrder(state: CoreState, source: MemberSource): IterableIterator<Member> {
  const r = sourceRef(source);
  return pvalues(orderOf(state, r), r.id);
}

/** Everything a deleted project or group leaves in these tables: its members, its shares, the shares into it. */
export function forgetSource(draft: CoreState, source: MemberSource): void {
  const r = sourceRef(source);
  removeAllMemberships(draft, r);
  for (const share of Array.from(sharesOf(draft, r))) removeShare(draft, r, share.groupId);
  if (r.type === 'namespace') {
    for (const into of Array.from(pvalues(draft.memberships.sharedInto, r.id))) removeShare(draft, into, r.id);
  }
}

const sharesTable = (state: CoreState, r: SourceRef) => (r.type === 'project' ? state.memberships.projectShares : state.memberships.namespaceShares);

/** The groups a source is shared with (expired shares included). */
export function sharesOf(state: CoreState, source: MemberSource): IterableIterator<GroupShare> {
  const r = sourceRef(source);
  return pvalues(sharesTable(state, r), r.id);
}

/** The share of a source with one group. */
export function shareOf(state: CoreState, source: MemberSource, groupId: number): GroupShare | undefined {
  const r = sourceRef(source);
  return pget(sharesTable(state, r), r.id, groupId);
}

/** Shares a source with a group, or changes the share (use on a draft). */
export function setShare(draft: CoreState, source: MemberSource, share: GroupShare): void {
  const r = sourceRef(source);
  pset(sharesTable(draft, r), r.id, share.groupId, share);
  pset(draft.memberships.sharedInto, share.groupId, refKey(r), { type: r.type, id: r.id });
}

/** Ends the share of a source with a group (use on a draft); false when there was none. */
export function removeShare(draft: CoreState, source: MemberSource, groupId: number): boolean {
  const r = sourceRef(source);
  pdel(draft.memberships.sharedInto, groupId, refKey(r));
  return pdel(sharesTable(draft, r), r.id, groupId);
}

/** The sources a group is invited into. */
export function sharedInto(state: CoreState, groupId: number): IterableIterator<SourceRef> {
  return pvalues(state.memberships.sharedInto, groupId);
}

/** The sources a user is a direct member of (expired memberships included). */
export function sourcesOfUser(state: CoreState, userId: number): IterableIterator<SourceRef> {
  return pvalues(state.memberships.byUser, userId);
}

/**
 * An identity that changes whenever the source's shares change (for caches of rendered
 * entities, which compare what they read by identity); undefined while it has none.
 */
export function sharesVersion(state: CoreState, source: MemberSource): object | undefined {
  const r = sourceRef(source);
  return tget(sharesTable(state, r), r.id);
}
