// Wikis of projects (every tier) and of groups (the higher tier): pages in a git repository of
// the object store, indexed in the world; every change is a commit by the caller.
import { wikisSchema } from './schema.js';
import { emptyTable, tdel, type Partitioned, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { WikiPage, WikiRepo } from './records.js';
import { wikiRoutes } from './routes.js';
import { seedWikis, type FixtureWikisPart } from './seed.js';
import { WIKIS_GIT } from './git.js';

export interface WikisSlice {
  /** Project id -> its wiki's head. */
  projectWikis: Table<WikiRepo>;
  /** Group id -> its wiki's head. */
  groupWikis: Table<WikiRepo>;
  /** Project id -> its wiki's pages by lower-cased slug. */
  projectWikiPages: Partitioned<WikiPage>;
  /** Group id -> its wiki's pages by lower-cased slug. */
  groupWikiPages: Partitioned<WikiPage>;
  /** Project id -> the commits of its wiki (sha -> when), the versions a page may be read at. */
  projectWikiCommits: Partitioned<number>;
  /** Group id -> the commits of its wiki. */
  groupWikiCommits: Partitioned<number>;
}

declare module '../world.js' {
  interface Slices extends WikisSlice {}
  interface FixtureGroupParts extends FixtureWikisPart {}
  interface FixtureProjectParts extends FixtureWikisPart {}
}

export const wikis: Family<WikisSlice> = defineFamily({
  name: 'wikis',
  schema: { group: wikisSchema, project: wikisSchema },
  state: () => ({
    projectWikis: emptyTable(),
    groupWikis: emptyTable(),
    projectWikiPages: emptyTable(),
    groupWikiPages: emptyTable(),
    projectWikiCommits: emptyTable(),
    groupWikiCommits: emptyTable(),
  }),
  seed: { after: ['users', 'groups', 'projects', 'repositories'], run: seedWikis },
  routes: wikiRoutes,
  git: WIKIS_GIT,
  forget: {
    project: (draft, id) => void (tdel(draft.projectWikis, id), tdel(draft.projectWikiPages, id), tdel(draft.projectWikiCommits, id)),
    group: (draft, id) => {
      tdel(draft.groupWikis, id);
      tdel(draft.groupWikiPages, id);
      tdel(draft.groupWikiCommits, id);
      // The refs entry that records the storage of the group wiki's objects (see `objectsKey`).
      tdel(draft.repositories, -id);
    },
  },
});

export type { WikiPage, WikiFormat } from './records.js';
export type { FixtureWikiPage, FixtureWikisPart } from './seed.js';
export { canReadProjectWiki, findPage, listPages } from './rules.js';
export { renderPage } from './entity.js';
export { groupOwner as groupWikiOwner, projectOwner as projectWikiOwner, slugOf, titleOf, type WikiOwner } from './rules.js';
