// Wikis of projects (every tier) and of groups (the higher tier): pages in a git repository of
// the object store, indexed in the world; every change is a commit by the caller.
import { wikisSchema } from './schema.js';
import { emptyTable, pdel, pset, tdel, tentries, tget, tset, type Partitioned, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { WikiFormat, WikiPage, WikiRepo } from './records.js';
import { commitsTable, pageKey, pagesTable, reposTable, type WikiOwner } from './rules.js';
import { ids } from './service.js';
import type { State } from '../world.js';
import { wikiRoutes } from './routes.js';
import { seedWikis, type FixtureWikisPart } from './seed.js';

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

export const wikis: Family<WikisSlice, { group: FixtureWikisPart; project: FixtureWikisPart }> = defineFamily({
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
export { EXTENSIONS as WIKI_EXTENSIONS } from './records.js';
export type { FixtureWikiPage, FixtureWikisPart } from './seed.js';
export { findPage, listPages, projectOwner, groupOwner, type WikiOwner } from './rules.js';
export { wikiRepo, isWikiCommit, canReadProjectWiki, canCreateProjectWiki, canReadGroupWiki, canCreateGroupWiki, objectsKey as wikiObjectsKey } from './rules.js';
export { WIKI_DEFAULT_BRANCH } from './service.js';

/**
 * A push to a project's or a group's wiki repository (the git surface, on a draft): the head and the branch
 * move, the pages are the files at the new head that `pages` lists (by path, with the slug and
 * format each is a page of; one still there keeps its meta id), and the new commits become
 * versions a page may be read at.
 */
export function recordWikiPush(
  draft: State,
  o: WikiOwner,
  push: { head: string; branch: string; pages: readonly { path: string; slug: string; format: WikiFormat }[]; commits: readonly [sha: string, at: number][] },
): void {
  tset(reposTable(draft, o), o.id, { head: push.head, branch: push.branch });
  for (const [sha, at] of push.commits) pset(commitsTable(draft, o), o.id, sha, at);
  const kept = new Set(push.pages.map((p) => pageKey(p.slug)));
  const current = tget(pagesTable(draft, o), o.id);
  if (current) for (const [key] of [...tentries(current)]) if (!kept.has(key)) pdel(pagesTable(draft, o), o.id, key);
  for (const p of push.pages) {
    const key = pageKey(p.slug);
    const before = current ? tget(current, key) : undefined;
    if (before && before.path === p.path && before.format === p.format) continue;
    pset(pagesTable(draft, o), o.id, key, { path: p.path, format: p.format, metaId: before?.metaId ?? ids.next(draft, 'wiki_page_meta') });
  }
}
