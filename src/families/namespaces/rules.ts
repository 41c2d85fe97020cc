// Who sees which namespace (lib/api/namespaces.rb, NamespacesFinder, NamespacePolicy).
import { groupAccess } from '../../policy/access.js';
import { ACCESS, type Namespace, type User } from '../../store/state.js';
import { tvalues } from '../../store/table.js';
import { memberCount } from '../../store/members.js';
import type { State } from '../world.js';

/** A user sees their own namespace and the groups they belong to (with `ownedOnly`, own); administrators see all. */
export function canSeeNamespace(state: State, user: User, ns: Namespace, now: number, ownedOnly = false): boolean {
  if (ns.pendingDelete) return false;
  if (user.admin && !ownedOnly) return true;
  if (ns.kind === 'user') return ns.ownerId === user.id;
  return groupAccess(state, user, ns, now) >= (ownedOnly ? ACCESS.owner : ACCESS.guest);
}

/** A group's counts, for administrators and the group's Owners (`admin_namespace`); none otherwise. */
export function namespaceCounts(state: State, user: User, ns: Namespace, now: number): { members: number; projects: number } | undefined {
  const owner = ns.kind === 'group' && (user.admin || groupAccess(state, user, ns, now) >= ACCESS.owner);
  if (!owner) return undefined;
  let projects = 0;
  for (const p of tvalues(state.projects)) if (p.namespaceId === ns.id && !p.pendingDelete) projects++;
  return { members: memberCount(state, ns), projects };
}
