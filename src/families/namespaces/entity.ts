// NamespaceBasic and Namespace (lib/api/entities/namespace_basic.rb, namespace.rb).
import type { Namespace } from '../../store/state.js';
import type { State } from '../world.js';
import { tget } from '../../store/table.js';
import type { UrlBase } from '../users/index.js';

export function namespaceWebUrl(ns: Namespace, u: UrlBase): string {
  return ns.kind === 'group' ? `${u.webBase}/groups/${ns.fullPath}` : `${u.webBase}/${ns.fullPath}`;
}

export function namespaceBasic(state: State, ns: Namespace, u: UrlBase) {
  const owner = ns.kind === 'user' && ns.ownerId !== null ? tget(state.users, ns.ownerId) : undefined;
  return {
    id: ns.id,
    name: owner ? owner.name : ns.name,
    path: ns.path,
    kind: ns.kind,
    full_path: ns.fullPath,
    parent_id: ns.parentId,
    avatar_url: null,
    web_url: namespaceWebUrl(ns, u),
  };
}

/** Namespace: admins of a group also see its counts. */
export function namespaceEntity(state: State, ns: Namespace, u: UrlBase, counts?: { members: number; projects: number }) {
  return {
    ...namespaceBasic(state, ns, u),
    ...(counts ? { members_count_with_descendants: counts.members, root_repository_size: 0, projects_count: counts.projects } : {}),
  };
}

/** `Parent / Child`: the human name of a namespace with its ancestors. */
export function fullName(state: State, ns: Namespace): string {
  const names: string[] = [];
  for (let cur: Namespace | undefined = ns; cur; cur = cur.parentId !== null ? tget(state.namespaces, cur.parentId) : undefined) {
    const owner = cur.kind === 'user' && cur.ownerId !== null ? tget(state.users, cur.ownerId) : undefined;
    names.unshift(owner ? owner.name : cur.name);
  }
  return names.join(' / ');
}
