// Repositories: the refs of each project's repository (branches, tags, protections, LFS) kept
// in the world, the services that commit to them, and the fixture's `repository` part. The
// families of the repository API (files, branches, commits, tags, archives) build on this one.
export * from './records.js';
export * from './rules.js';
export * from './refs.js';
export * from './errors.js';
export * from './commit-service.js';
export * from './multi-service.js';
export * from './change-service.js';
export * from './protections.js';
export * from './post-push.js';
export { defaultBranchProtection } from './default-branch.js';
export { repositoryHandle, type GitRepository, type RepositoriesMembers, type RepositoryHandle, type RepositoryRefs } from './handle.js';
export type { FixtureCommit, FixtureRepository, FixtureTag, FixtureX509Signature } from './seed.js';
export { checkAccess, gitTarget, type GitTarget } from './git-access.js';
export { registerAdvertisedRefs } from './git.js';
export { registerBranchProtections, registerPushCheck, registerWebCommitCheck, type BranchProtection, type PushCheck } from './git-push.js';

import { repositoryProjectSchema } from './schema.js';
import { emptyTable, tdel, tentries, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import { defaultShards, type Repository, type StorageShard } from './records.js';
import { seedRepositories, type FixtureRepositoryPart } from './seed.js';
import { repositoriesMembers, type RepositoriesMembers } from './handle.js';
import { REPOSITORY_STORAGE } from './rules.js';
import { REPOSITORIES_GIT } from './git.js';
import { protectNewDefaultBranch } from './default-branch.js';
import { snapshotRoutes } from './snapshot-route.js';
import { REPOSITORIES_IMAGE } from './image.js';

export interface RepositoriesSlice {
  /** Project id -> the refs of its repository; absent while it is empty. */
  repositories: Table<Repository>;
  /**
   * Repositories that take no writes for now (`project:<id>`, `snippet:<id>`, `group:<id>` for
   * a group's wiki) -> why: a storage move in progress. See `assertRepositoryWritable`.
   */
  readOnlyRepositories: Table<string>;
  /** The storage shards of the instance (`gitlab.yml` repositories.storages), with their weights for new repositories. */
  storageShards: StorageShard[];
  /** `project:<id>` (and `snippet:`, `group:`) -> the shard its repositories are on; absent: the first shard. */
  repositoryPlacement: Table<string>;
  /** Messages waiting for a user's next push to a project (`project_created:<user>:<project>`); see post-push.ts. */
  postPushMessages?: Table<{ message: string; expiresAt: number }>;
}

declare module '../world.js' {
  interface Slices extends RepositoriesSlice {}
  interface FixtureProjectParts extends FixtureRepositoryPart {}
  interface FamilyHandles extends RepositoriesMembers {}
}

export const repositories: Family<RepositoriesSlice> = defineFamily({
  name: 'repositories',
  schema: { project: repositoryProjectSchema },
  state: () => ({ repositories: emptyTable(), readOnlyRepositories: emptyTable(), storageShards: defaultShards(), repositoryPlacement: emptyTable() }),
  seed: { after: ['users', 'projects'], run: seedRepositories },
  handle: repositoriesMembers,
  provides: { objectStorage: REPOSITORY_STORAGE },
  git: REPOSITORIES_GIT,
  image: REPOSITORIES_IMAGE,
  on: { push: protectNewDefaultBranch },
  routes: snapshotRoutes,
  forget: {
    project: (draft, id) => {
      tdel(draft.repositories, id);
      tdel(draft.readOnlyRepositories, `project:${id}`);
      tdel(draft.repositoryPlacement, `project:${id}`);
      const messages = draft.postPushMessages;
      if (messages) for (const key of [...tentries(messages)].map(([k]) => k).filter((k) => k.endsWith(`:${id}`))) tdel(messages, key);
    },
    group: (draft, id) => {
      tdel(draft.readOnlyRepositories, `group:${id}`);
      tdel(draft.repositoryPlacement, `group:${id}`);
    },
  },
});
