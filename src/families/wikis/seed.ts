// The fixture's `wiki` part of groups and projects: pages committed one by one, by their
// `author` (default: the project's creator, or for a group the first administrator), through
// the same service as the API.
import { ApiError, EmulatorError, invalidFixture } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import type { User } from '../../store/state.js';
import { tget, tvalues } from '../../store/table.js';
import { objectsOf } from '../repositories/index.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type GitWork, type SeedRun } from '../define.js';
import { isFormat, type WikiOwner } from './rules.js';
import { createPage } from './service.js';
import type { wikiPageSchema, wikisSchema } from './schema.js';

export type FixtureWikiPage = Infer<typeof wikiPageSchema>;

export type FixtureWikisPart = Infer<typeof wikisSchema>;

interface Job {
  owner: WikiOwner;
  where: string;
  pages: FixtureWikiPage[];
  defaultAuthor: User | undefined;
}

function authorOf(s: SeedRun, job: Job, page: FixtureWikiPage, where: string): User {
  if (page.author === undefined) {
    if (!job.defaultAuthor) throw new EmulatorError(`${where}: no author (name one with 'author')`);
    return job.defaultAuthor;
  }
  const id = s.handles.users[page.author]?.id;
  const user = id === undefined ? undefined : tget(s.state.users, id);
  if (!user) throw new EmulatorError(`${where}: unknown author '${page.author}'`);
  return user;
}

export async function seedWikis(s: SeedRun): Promise<void> {
  const firstAdmin = Array.from(tvalues(s.state.users)).find((u) => u.admin);
  const jobs: Job[] = [];
  for (const g of s.fixture.groups ?? []) {
    const id = s.handles.groups[fixtureGroupPath(g)]?.id;
    if (id !== undefined && g.wiki?.length) jobs.push({ owner: { kind: 'group', id }, where: groupWhere(g), pages: g.wiki, defaultAuthor: firstAdmin });
  }
  for (const p of s.fixture.projects ?? []) {
    const id = s.handles.projects[fixtureProjectPath(p)]?.id;
    const project = id === undefined ? undefined : tget(s.state.projects, id);
    if (project && p.wiki?.length) jobs.push({ owner: { kind: 'project', id: project.id }, where: projectWhere(p), pages: p.wiki, defaultAuthor: tget(s.state.users, project.creatorId) });
  }
  for (const job of jobs) await seedWiki(s, job);
}

/** Each page through WikiPages::CreateService, as the API makes them, by its author; a page it refuses is the fixture's mistake. */
async function seedWiki(s: SeedRun, job: Job): Promise<void> {
  for (const page of job.pages) {
    const where = `${job.where}: wiki page '${page.title}'`;
    const format = page.format ?? 'markdown';
    if (!isFormat(format)) throw invalidFixture(where, { format: ['is not one of markdown, rdoc, asciidoc, org'] });
    const work: GitWork = {
      state: s.state,
      user: authorOf(s, job, page, where),
      now: s.now,
      git: (key) => objectsOf({ db: s.git, state: s.state, update: (recipe) => s.update(recipe), current: () => s.state }, { id: key }),
    };
    try {
      s.update(await createPage(work, job.owner, { title: page.title, content: page.content, format }));
    } catch (e) {
      const errors = e instanceof ApiError ? (e.body as { message?: unknown }).message : undefined;
      if (typeof errors === 'object' && errors !== null) throw invalidFixture(where, errors as Record<string, string[]>);
      throw e;
    }
  }
}
