// Who sees which namespace (lib/api/namespaces.rb, NamespacesFinder, NamespacePolicy).
import { groupAccess } from '../../policy/access.js';
import { ACCESS, type Namespace, type User } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
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

/** Namespace.by_parent: the namespaces directly under a group, or the top-level ones (users' too). */
export function namespacesUnder(state: State, parentId: number | null): Namespace[] {
  const out: Namespace[] = [];
  for (const ns of tvalues(state.namespaces)) if (ns.parentId === parentId) out.push(ns);
  return out;
}

/**
 * Namespace.clean_path: the path with what a path may not hold removed, then made unique among
 * `siblings` (by path or name, case-insensitively) with a counter, as Gitlab::Utils::Uniquify does.
 */
export function suggestPath(path: string, siblings: readonly Namespace[]): string {
  let base = path.replace(/@.*$/, '').replace(/\.git$/, '').replace(/^-+/, '').replace(/\.+$/, '').replace(/[^a-zA-Z0-9_.-]/g, '');
  if (base.trim() === '') base = 'blank';
  const taken = (s: string) => siblings.some((ns) => ns.path.toLowerCase() === s.toLowerCase() || ns.name.toLowerCase() === s.toLowerCase());
  if (!taken(base)) return base;
  for (let n = 1; ; n++) if (!taken(`${base}${n}`)) return `${base}${n}`;
}

/** Whether a namespace of the path sits under the parent (top level when null): one look-up in the paths index. */
export function namespaceExists(state: State, parentId: number | null, path: string): boolean {
  if (path.includes('/')) return false;
  const parent = parentId === null ? null : tget(state.namespaces, parentId);
  if (parentId !== null && !parent) return false;
  const entry = tget(state.paths, (parent ? `${parent.fullPath}/${path}` : path).toLowerCase());
  return entry?.kind === 'namespace';
}
