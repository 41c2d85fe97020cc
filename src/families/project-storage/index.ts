// GET /projects/:id/storage (lib/api/projects.rb, Entities::ProjectRepositoryStorage): where an
// administrator finds a project's repository: its shard and its hashed disk path.
import { sha256Portable } from '../../git/sha256.js';
import { json } from '../../http/route.js';
import { hexOf, utf8 } from '../../git/bytes.js';
import { iso } from '../../render/time.js';
import type { Project } from '../../store/state.js';
import { repositoryStorageOf } from '../repositories/index.js';
import { defineFamily, project, route, type Family } from '../define.js';
import type { State } from '../world.js';

/** Storage::Hashed#disk_path: `@hashed/ab/cd/<sha256 of the id>`. */
export function hashedDiskPath(id: number): string {
  const hex = hexOf(sha256Portable(utf8(String(id))));
  return `@hashed/${hex.slice(0, 2)}/${hex.slice(2, 4)}/${hex}`;
}

const storageEntity = (state: State, p: Project) => ({
  project_id: p.id,
  disk_path: hashedDiskPath(p.id),
  created_at: iso(p.createdAt),
  repository_storage: repositoryStorageOf(state, 'project', p.id),
});

export const projectStorage: Family = defineFamily({
  name: 'project-storage',
  routes: [
    route({
      method: 'GET', path: '/projects/:id/storage', auth: 'admin', scope: project(),
      handler: (ctx) => json(storageEntity(ctx.state, ctx.project)),
    }),
  ],
});
