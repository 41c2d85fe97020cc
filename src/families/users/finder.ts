// GET /users (app/finders/users_finder.rb, lib/api/users.rb): who may list, which filters each
// caller may use, and the order.
import { ACCESS, type Tier, type User } from '../../store/state.js';
import { tget, tvalues, tvaluesDesc } from '../../store/table.js';
import type { State } from '../world.js';
import { membersOf } from './memberships.js';
import { identityKey } from './rules.js';
import { fuzzyMatches } from './search.js';

/** lib/gitlab/..: the user types that are not internal bots (User::NON_INTERNAL_USER_TYPES). */
export const NON_INTERNAL_TYPES = new Set(['human', 'project_bot', 'service_user', 'service_account']);

export interface UserFilters {
  username?: string;
  search?: string;
  extern_uid?: string;
  provider?: string;
  active?: boolean;
  external?: boolean;
  exclude_external?: boolean;
  blocked?: boolean;
  humans?: boolean;
  exclude_humans?: boolean;
  exclude_active?: boolean;
  created_after?: number;
  created_before?: number;
  without_projects?: boolean;
  exclude_internal?: boolean;
  without_project_bots?: boolean;
  admins?: boolean;
  auditors?: boolean;
  two_factor?: string;
  saml_provider_id?: number;
  skip_ldap?: boolean;
  custom_attributes?: Record<string, string>;
  order_by?: string;
  sort?: string;
}

export interface Viewer {
  user: User | null;
  /** `can_read_all_resources?`: an administrator (or an auditor, at the higher tiers). */
  readsAll: boolean;
  admin: boolean;
  tier: Tier;
}

/** `User.without_forbidden_states`: what a non-administrator never sees in the list. */
const FORBIDDEN_SEARCH_STATES = new Set(['blocked', 'banned', 'ldap_blocked']);

/** Users with any project authorization: members of a project, of a group above one, or owners of a personal one. */
function usersWithProjects(state: State): Set<number> {
  const out = new Set<number>();
  const groupsWithProjects = new Set<number>();
  for (const p of tvalues(state.projects)) {
    for (const m of membersOf(state, { kind: 'project', id: p.id })) if (m.accessLevel > ACCESS.minimal) out.add(m.userId);
    let ns = tget(state.namespaces, p.namespaceId);
    if (ns?.kind === 'user' && ns.ownerId !== null) out.add(ns.ownerId);
    while (ns && ns.kind === 'group' && !groupsWithProjects.has(ns.id)) {
      groupsWithProjects.add(ns.id);
      ns = ns.parentId === null ? undefined : tget(state.namespaces, ns.parentId);
    }
  }
  for (const id of groupsWithProjects) {
    for (const m of membersOf(state, { kind: 'namespace', id })) if (m.accessLevel > ACCESS.minimal) out.add(m.userId);
  }
  return out;
}

/** User.search: the candidates, ranked (public email, username, name exact; then by name). */
function searchUsers(state: State, raw: string, viewer: Viewer): User[] {
  const q = raw.replace(/^@/, '').toLowerCase();
  if (q.trim() === '') return [];
  const hits = new Map<number, User>();
  for (const u of fuzzyMatches(state.users, q)) hits.set(u.id, u);
  const owner = tget(state.emailOwners, q);
  const byEmail = owner === undefined ? undefined : tget(state.users, owner);
  if (byEmail) {
    const privateOk = viewer.admin && (byEmail.email.toLowerCase() === q || isConfirmedSecondary(state, byEmail.id, q));
    if (privateOk || byEmail.publicEmail?.toLowerCase() === q) hits.set(byEmail.id, byEmail);
  }
  const rank = (u: User) =>
    u.publicEmail?.toLowerCase() === q ? 0 : u.username.toLowerCase() === q ? 1 : u.name.toLowerCase() === q ? 2 : 3;
  return [...hits.values()].sort((a, b) => rank(a) - rank(b) || cmp(a.name, b.name) || a.id - b.id);
}

function isConfirmedSecondary(state: State, userId: number, email: string): boolean {
  const t = tget(state.userEmails, userId);
  if (!t) return false;
  for (const e of tvalues(t)) if (e.email.toLowerCase() === email && e.confirmedAt !== null) return true;
  return false;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Every user in id order, newest first when `desc`, without building the list (chunks hold ascending ids). */
function usersById(state: State, desc: boolean): IterableIterator<User> {
  return desc ? tvaluesDesc(state.users) : tvalues(state.users);
}

/** The users the viewer may list with these filters (already stripped of what the viewer may not use), in GitLab's order. */
export function findUsers(state: State, f: UserFilters, viewer: Viewer): User[] {
  return findUsersUpTo(state, f, viewer, Infinity).users;
}

/**
 * The same, but when the order is by id (no search ranking, no other key) it stops once it has
 * `limit` users: a page and GitLab's count limit need no more. `complete` says whether every
 * match was found.
 */
export function findUsersUpTo(state: State, f: UserFilters, viewer: Viewer, limit: number): { users: User[]; complete: boolean } {
  let candidates: Iterable<User>;
  let ranked = false;
  const byId = f.order_by === undefined || f.order_by === 'id' || f.order_by === 'created_at';
  const streamed = byId && f.username === undefined && !(f.search !== undefined && f.search !== '');
  if (f.username !== undefined) {
    const id = tget(state.usernames, f.username.toLowerCase());
    const u = id === undefined ? undefined : tget(state.users, id);
    candidates = u ? [u] : [];
  } else if (f.search !== undefined && f.search !== '') {
    candidates = searchUsers(state, f.search, viewer);
    ranked = true;
  } else candidates = streamed ? usersById(state, f.sort !== 'asc') : tvalues(state.users);
  if (f.username !== undefined && f.search !== undefined && f.search !== '') {
    const hits = new Set(searchUsers(state, f.search, viewer).map((u) => u.id));
    candidates = [...candidates].filter((u) => hits.has(u.id));
  }
  const identityOwner = f.extern_uid !== undefined && f.provider !== undefined ? tget(state.identityOwners, identityKey(f.provider, f.extern_uid)) ?? -1 : undefined;
  const withProjects = f.without_projects ? usersWithProjects(state) : undefined;
  const attrs = f.custom_attributes && Object.keys(f.custom_attributes).length ? Object.entries(f.custom_attributes) : undefined;
  const out: User[] = [];
  for (const u of candidates) {
    if (!viewer.readsAll && FORBIDDEN_SEARCH_STATES.has(u.state)) continue;
    if (f.admins && viewer.readsAll && !u.admin) continue;
    if (f.auditors && !u.auditor) continue;
    if (f.humans && u.userType !== 'human') continue;
    if (f.exclude_humans && u.userType === 'human') continue;
    if (f.blocked && u.state !== 'blocked') continue;
    if (f.active && (u.state !== 'active' || !NON_INTERNAL_TYPES.has(u.userType))) continue;
    if (f.exclude_active && u.state === 'active') continue;
    if (identityOwner !== undefined && u.id !== identityOwner) continue;
    if (f.external && !u.external) continue;
    if (f.exclude_external && u.external) continue;
    if (f.two_factor === 'enabled' && !u.twoFactorEnabled) continue;
    if (f.two_factor === 'disabled' && u.twoFactorEnabled) continue;
    if (f.created_after !== undefined && u.createdAt < f.created_after) continue;
    if (f.created_before !== undefined && u.createdAt > f.created_before) continue;
    if (withProjects?.has(u.id)) continue;
    if (attrs && !attrs.every(([k, v]) => tget(state.customAttributes, u.id) && tget(tget(state.customAttributes, u.id)!, k) === v)) continue;
    if (f.exclude_internal && !NON_INTERNAL_TYPES.has(u.userType)) continue;
    if (f.without_project_bots && u.userType === 'project_bot') continue;
    if (f.saml_provider_id !== undefined && !hasSamlProvider(state, u.id, f.saml_provider_id)) continue;
    if (f.skip_ldap && hasLdap(state, u.id)) continue;
    out.push(u);
    if (streamed && out.length >= limit) return { users: out, complete: false };
  }
  return { users: streamed ? out : order(out, f, ranked), complete: true };
}

function hasSamlProvider(state: State, userId: number, providerId: number): boolean {
  const t = tget(state.identities, userId);
  if (!t) return false;
  for (const i of tvalues(t)) if (i.samlProviderId === providerId) return true;
  return false;
}

function hasLdap(state: State, userId: number): boolean {
  const t = tget(state.identities, userId);
  if (!t) return false;
  for (const i of tvalues(t)) if (i.provider.startsWith('ldap')) return true;
  return false;
}

/**
 * Administrators always get `order_by`/`sort` (defaults `id`/`desc`; `created_at` is read as
 * `id`, with `id` as the tie-breaker); others get the search's ranking, else `id desc`.
 */
function order(users: User[], f: UserFilters, ranked: boolean): User[] {
  if (f.order_by === undefined) return ranked ? users : users.sort((a, b) => b.id - a.id);
  const dir = f.sort === 'asc' ? 1 : -1;
  const key = f.order_by;
  const value = (u: User): string | number =>
    key === 'name' ? u.name : key === 'username' ? u.username : key === 'updated_at' ? u.updatedAt : u.id;
  return users.sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    const c = typeof va === 'number' ? va - (vb as number) : cmp(va, vb as string);
    return (c || a.id - b.id) * dir;
  });
}
