// The fixture's `wiki` part of groups and projects: pages committed one by one, by their
// `author` (default: the project's creator, or for a group the first administrator), with
// the same title rules and validations as the API.
import { EmulatorError, invalidFixture } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import type { User } from '../../store/state.js';
import { pset, tget, tset, tvalues } from '../../store/table.js';
import { emptyRepository, personOf, writeFileCommit } from '../repositories/index.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import type { WikiFormat, WikiPage } from './records.js';
import { commitsTable, isFormat, objectsKey, pageKey, pagePath, pagesTable, reposTable, sluggify, squishTitle, validatePage, type WikiOwner } from './rules.js';
import { ids, WIKI_DEFAULT_BRANCH } from './service.js';
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

async function seedWiki(s: SeedRun, job: Job): Promise<void> {
  const key = objectsKey(job.owner);
  const refs = tget(s.state.repositories, key);
  // A project's wiki writes to its project's storage (a new one when the project has none).
  const storage = refs?.storage ?? s.git.allocate();
  const objects = s.git.storage(storage);
  const pages = new Map<string, { slug: string; format: WikiFormat }>();
  const commits: string[] = [];
  let head: string | null = null;
  for (const page of job.pages) {
    const where = `${job.where}: wiki page '${page.title}'`;
    const format = page.format ?? 'markdown';
    if (!isFormat(format)) throw invalidFixture(where, { format: ['is not one of markdown, rdoc, asciidoc, org'] });
    const title = squishTitle(page.title);
    const errors = validatePage(title, page.content);
    const slug = sluggify(title);
    if (slug === '' && !errors.title) errors.title = ["can't be blank"];
    if (pages.has(pageKey(slug))) (errors.base ??= []).push('Duplicate page: A page with that title already exists');
    if (Object.keys(errors).length) throw invalidFixture(where, errors);
    const who = personOf(authorOf(s, job, page, where));
    head = await writeFileCommit(objects, head, {
      message: `${authorOf(s, job, page, where).username} created page: ${title}`,
      author: who,
      committer: who,
      now: s.now,
      actions: [{ action: 'create', path: pagePath(slug, format), content: new TextEncoder().encode(page.content) }],
    });
    commits.push(head);
    pages.set(pageKey(slug), { slug, format });
  }
  if (head === null) return;
  const tip = head;
  s.update((draft) => {
    const d = draft as State;
    const existing = tget(d.repositories, key);
    if (existing) existing.seen = objects.store.count;
    else tset(d.repositories, key, { ...emptyRepository(), storage, seen: objects.store.count });
    const o = job.owner;
    tset(reposTable(d, o), o.id, { head: tip, branch: WIKI_DEFAULT_BRANCH });
    for (const sha of commits) pset(commitsTable(d, o), o.id, sha, s.now);
    for (const [k, p] of pages) {
      const record: WikiPage = { path: pagePath(p.slug, p.format), format: p.format, metaId: ids.next(d, 'wiki_page_meta') };
      pset(pagesTable(d, o), o.id, k, record);
    }
  });
}
