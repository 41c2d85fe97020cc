// Snippets of projects and of users (personal): their files as data, their indexes by project,
// by author, and of public personal snippets.
import { emptyTable, tdel, tget, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { Snippet } from './records.js';
import { personalSnippetRoutes, projectSnippetRoutes } from './routes.js';

export interface SnippetsSlice {
  /** Snippet id -> the snippet. */
  snippets: Table<Snippet>;
  /** Project id -> its snippets' ids. */
  projectSnippetIds: Partitioned<number>;
  /** Author id -> the ids of the snippets they wrote. */
  userSnippetIds: Partitioned<number>;
  /** The ids of public personal snippets. */
  publicSnippetIds: Table<number>;
}

export const snippets: Family<SnippetsSlice> = defineFamily({
  name: 'snippets',
  state: () => ({ snippets: emptyTable(), projectSnippetIds: emptyTable(), userSnippetIds: emptyTable(), publicSnippetIds: emptyTable() }),
  routes: [...projectSnippetRoutes, ...personalSnippetRoutes],
  forget: {
    project: (draft, id) => {
      const own = tget(draft.projectSnippetIds, id);
      if (own) for (const sid of tvalues(own)) tdel(draft.snippets, sid);
      tdel(draft.projectSnippetIds, id);
    },
  },
});

export type { Snippet, SnippetFile } from './records.js';
export { canReadSnippet } from './rules.js';
export { snippetEntity } from './entity.js';

/** A snippet by id (project or personal), if it exists. */
export const snippetById = (state: { snippets: Table<Snippet> }, id: number): Snippet | undefined => tget(state.snippets, id);
