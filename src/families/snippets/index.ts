// Snippets of projects and of users (personal): each a git repository in the object store (its
// refs under a key of its own in the repositories table), indexed in the world by project, by
// author, and for public personal snippets on their own; the fixture's `snippets` of projects
// and users; award emoji on project snippets and their notes.
import { emptyTable, tdel, tget, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { defineFamily, type Family } from '../define.js';
import type { State } from '../world.js';
import type { Snippet } from './records.js';
import { snippetAwardRoutes } from './awards.js';
import { personalSnippetRoutes, projectSnippetRoutes } from './routes.js';
import { projectSnippetsSchema, userSnippetsSchema } from './schema.js';
import { seedSnippets, type FixtureProjectSnippetsPart, type FixtureUserSnippetsPart } from './seed.js';
import { forgetSnippet } from './service.js';
import { SNIPPETS_GIT } from './git.js';

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

declare module '../world.js' {
  interface Slices extends SnippetsSlice {}
  interface FixtureUserParts extends FixtureUserSnippetsPart {}
  interface FixtureProjectParts extends FixtureProjectSnippetsPart {}
  interface Noteables { Snippet: true }
}

export const snippets: Family<SnippetsSlice> = defineFamily({
  name: 'snippets',
  noteables: ['Snippet'],
  schema: { user: userSnippetsSchema, project: projectSnippetsSchema },
  state: () => ({ snippets: emptyTable(), projectSnippetIds: emptyTable(), userSnippetIds: emptyTable(), publicSnippetIds: emptyTable() }),
  seed: { after: ['users', 'projects', 'repositories'], run: seedSnippets },
  routes: [...projectSnippetRoutes, ...personalSnippetRoutes, ...snippetAwardRoutes],
  git: SNIPPETS_GIT,
  forget: {
    project: (draft, id) => {
      const d = draft as State;
      const own = tget(d.projectSnippetIds, id);
      if (!own) return;
      for (const sid of Array.from(tvalues(own))) {
        const s = tget(d.snippets, sid);
        if (s) forgetSnippet(d, s);
      }
      tdel(d.projectSnippetIds, id);
    },
  },
});

export type { Snippet } from './records.js';
export type { FixtureSnippet, FixtureSnippetFile, FixtureProjectSnippet, FixtureProjectSnippetsPart, FixtureUserSnippetsPart } from './seed.js';
export { canAdminSnippet, findProjectSnippet, findReadableSnippet } from './rules.js';
export { snippetEntity, basicSnippetEntity, snippetHookAttrs } from './entity.js';
export { snippetContent, snippetRepoKey, snippetHead } from './repository.js';

/** A snippet by id (project or personal), if it exists (no read rules: see findReadableSnippet). */
export const snippetById = (state: { snippets: Table<Snippet> }, id: number): Snippet | undefined => tget(state.snippets, id);
export { projectSnippets, snippetsEnabled } from './rules.js';
