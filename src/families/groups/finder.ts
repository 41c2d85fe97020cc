// GroupsFinder (app/finders/groups_finder.rb) and a group's projects: what a caller may list.
import { activeLevel, ancestry, canReadGroup, groupAccess, isWithin, today } from '../../policy/access.js';
import { membershipOf, sourcesOfUser } from '../../store/members.js';
import { ACCESS, type Namespace, type Project, type User, type Visibility } from '../../store/state.js';
import { pget, tget, tvalues } from '../../store/table.js';
import type { State } from '../world.js';

/** The filters of a group list, named as the routes declare them. */
export interface GroupFilters {
  skip_groups?: number[];
  all_available?: boolean;
  visibility?: Visibility;
  search?: string;
  owned: boolean;
  order_by: string;
  sort: string;
  min_access_level?: number;
  top_level_only?: boolean;
  /** Administrators only: each pair a custom attribute of the group. */
  custom_attributes?: Record<string, unknown>;
}

/** Groups the user is a member of, and their ancestors (a regular user's default list). */
function memberGroupIds(state: State, userId: number, now: number): Set<number> {
  const ids = new Set<number>();
  const t = today(now);
  for (const ref of sourcesOfUser(state, userId)) {
    if (ref.type !== 'namespace') continue;
    const ns = tget(state.namespaces, ref.id);
    if (!ns || ns.kind !== 'group' || ns.pendingDelete) continue;
    if (activeLevel(membershipOf(state, ns, userId), t) > ACCESS.none) {
      for (const a of ancestry(state, ns.id)) ids.add(a.id);
    }
  }
  return ids;
}

/** The candidates `user` may list that pass every filter, in the order asked (name by default). */
export function findGroups(state: State, user: User | null, f: GroupFilters, candidates: Iterable<Namespace>, now: number): Namespace[] {
  const allAvailable = f.all_available ?? !!user?.admin;
  const mine = user && !user.admin && !allAvailable ? memberGroupIds(state, user.id, now) : undefined;
  const search = f.search?.toLowerCase();
  const attrs = user?.admin && f.custom_attributes ? Object.entries(f.custom_attributes) : undefined;
  const out: Namespace[] = [];
  for (const g of candidates) {
    if (g.kind !== 'group' || !canReadGroup(state, user, g, now)) continue;
    if (mine && !mine.has(g.id)) continue;
    if (!user && g.visibility !== 'public') continue;
    if (f.skip_groups?.includes(g.id)) continue;
    if (f.visibility && g.visibility !== f.visibility) continue;
    if (f.top_level_only && g.parentId !== null) continue;
    if (search && !g.name.toLowerCase().includes(search) && !g.path.toLowerCase().includes(search)) continue;
    const level = groupAccess(state, user, g, now);
    if (f.owned && level < ACCESS.owner) continue;
    if (f.min_access_level !== undefined && level < f.min_access_level) continue;
    if (attrs && !attrs.every(([k, v]) => pget(state.groupCustomAttributes, g.id, k) === String(v))) continue;
    out.push(g);
  }
  const dir = f.sort === 'desc' ? -1 : 1;
  const key = f.order_by === 'id' ? (g: Namespace) => g.id : f.order_by === 'path' ? (g: Namespace) => g.path.toLowerCase() : (g: Namespace) => g.name.toLowerCase();
  return out.sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return (ka < kb ? -1 : ka > kb ? 1 : 0) * dir || a.id - b.id;
  });
}

/** The projects in a group, and with `includeSubgroups` those in its subgroups; readable or not. */
export function groupProjects(state: State, group: Namespace, includeSubgroups: boolean): Project[] {
  const out: Project[] = [];
  for (const p of tvalues(state.projects)) {
    if (p.namespaceId === group.id || (includeSubgroups && isWithin(state, p.namespaceId, group.id))) out.push(p);
  }
  return out;
}
