// Entities::ProjectRepositoryStorageMove, SnippetRepositoryStorageMove, GroupRepositoryStorageMove:
// BasicRepositoryStorageMove and the container.
import { iso } from '../../render/time.js';
import { tget } from '../../store/table.js';
import { fullName } from '../namespaces/index.js';
import { basicSnippetEntity, snippetById } from '../snippets/index.js';
import type { UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import type { StorageMove } from './records.js';

function container(state: State, move: StorageMove, u: UrlBase) {
  if (move.type === 'project') {
    const p = tget(state.projects, move.containerId);
    const ns = p ? tget(state.namespaces, p.namespaceId) : undefined;
    // Entities::ProjectIdentity
    return {
      project: p && ns
        ? {
            id: p.id, description: p.description, name: p.name, name_with_namespace: `${fullName(state, ns)} / ${p.name}`,
            path: p.path, path_with_namespace: `${ns.fullPath}/${p.path}`, created_at: iso(p.createdAt),
          }
        : null,
    };
  }
  if (move.type === 'group') {
    const g = tget(state.namespaces, move.containerId);
    // Entities::BasicGroupDetails
    return { group: g ? { id: g.id, web_url: `${u.webBase}/groups/${g.fullPath}`, name: g.name } : null };
  }
  // Entities::BasicSnippet.
  const s = snippetById(state, move.containerId);
  return { snippet: s ? basicSnippetEntity(state, s, u) : null };
}

export function storageMoveEntity(state: State, move: StorageMove, u: UrlBase) {
  return {
    id: move.id,
    created_at: iso(move.createdAt),
    state: move.state,
    source_storage_name: move.sourceStorage,
    destination_storage_name: move.destinationStorage,
    error_message: move.errorMessage,
    ...container(state, move, u),
  };
}
