// The fixture's snippets: a project's (`projects[].snippets`, by its creator unless `author` names
// someone) and a user's personal ones (`users[].snippets`). Each gets its repository at seed, with
// one "Initial commit" of its files by its author. The seeded repositories share one storage (a
// write to one later moves it to a storage of its own), so a thousand snippets seed in well
// under a second.
import { EmulatorError, invalidFixture } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import type { User } from '../../store/state.js';
import { tget, tset } from '../../store/table.js';
import { emptyRepository, personOf, setBranchRef } from '../repositories/index.js';
import { fixtureProjectPath, projectWhere, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import type { Snippet } from './records.js';
import { CommitRefused, snippetRepoKey, writeSnippetCommit } from './repository.js';
import { ids, indexSnippet, INITIAL_COMMIT_MSG, SNIPPET_DEFAULT_BRANCH } from './service.js';
import type { projectSnippetSchema, projectSnippetsSchema, snippetFileSchema, snippetSchema, userSnippetsSchema } from './schema.js';

export type FixtureSnippetFile = Infer<typeof snippetFileSchema>;

export type FixtureSnippet = Infer<typeof snippetSchema>;

export type FixtureProjectSnippet = Infer<typeof projectSnippetSchema>;

export type FixtureUserSnippetsPart = Infer<typeof userSnippetsSchema>;

export type FixtureProjectSnippetsPart = Infer<typeof projectSnippetsSchema>;

interface Job {
  snippet: FixtureSnippet;
  projectId: number | null;
  author: User;
  where: string;
}

function userNamed(s: SeedRun, username: string, where: string): User {
  const id = s.handles.users[username]?.id;
  const user = id === undefined ? undefined : tget(s.state.users, id);
  if (!user) throw new EmulatorError(`${where}: unknown author '${username}'`);
  return user;
}

function validate(job: Job): void {
  const errors: Record<string, string[]> = {};
  if (job.snippet.title.trim() === '') errors.title = ["can't be blank"];
  if (job.snippet.files.length === 0) errors.files = ["can't be empty"];
  const paths = new Set<string>();
  for (const f of job.snippet.files) {
    if (f.content.trim() === '') (errors.content ??= []).push(`of '${f.path}' can't be blank`);
    if (paths.has(f.path)) (errors.files ??= []).push(`has '${f.path}' twice`);
    paths.add(f.path);
  }
  if (Object.keys(errors).length) throw invalidFixture(job.where, errors);
}

export async function seedSnippets(s: SeedRun): Promise<void> {
  const jobs: Job[] = [];
  for (const u of s.fixture.users ?? []) {
    (u.snippets ?? []).forEach((snippet, i) => {
      const where = `user '${u.username}': snippet ${i + 1} '${snippet.title}'`;
      jobs.push({ snippet, projectId: null, author: userNamed(s, u.username, where), where });
    });
  }
  for (const p of s.fixture.projects ?? []) {
    if (!p.snippets?.length) continue;
    const id = s.handles.projects[fixtureProjectPath(p)]?.id;
    const project = id === undefined ? undefined : tget(s.state.projects, id);
    if (!project) continue;
    p.snippets.forEach((snippet, i) => {
      const where = `${projectWhere(p)}: snippet ${i + 1} '${snippet.title}'`;
      const author = snippet.author === undefined ? tget(s.state.users, project.creatorId) : userNamed(s, snippet.author, where);
      if (!author) throw new EmulatorError(`${where}: no author (name one with 'author')`);
      jobs.push({ snippet, projectId: project.id, author, where });
    });
  }
  if (jobs.length === 0) return;
  for (const job of jobs) validate(job);
  const storage = s.git.allocate();
  const objects = s.git.storage(storage);
  const made: { job: Job; sha: string; paths: string[] }[] = [];
  for (const job of jobs) {
    const actions = job.snippet.files.map((f) => ({ action: 'create' as const, path: f.path, content: f.content }));
    try {
      made.push({ job, ...(await writeSnippetCommit(objects, null, actions, { message: INITIAL_COMMIT_MSG, author: personOf(job.author), now: s.now })) });
    } catch (e) {
      if (e instanceof CommitRefused) throw invalidFixture(job.where, { files: [e.invalidPath ? 'has an invalid file name' : 'has a file where a directory is'] });
      throw e;
    }
  }
  const seen = objects.store.count;
  s.update((draft) => {
    const d = draft as State;
    for (const { job, sha, paths } of made) {
      const snippet: Snippet = {
        id: ids.next(d, 'snippet'),
        projectId: job.projectId,
        authorId: job.author.id,
        title: job.snippet.title,
        description: job.snippet.description ?? null,
        visibility: job.snippet.visibility ?? 'private',
        fileName: job.snippet.files[0]!.path,
        paths,
        branch: SNIPPET_DEFAULT_BRANCH,
        createdAt: s.now,
        updatedAt: s.now,
      };
      indexSnippet(d, snippet);
      const refs = { ...emptyRepository(), storage, seen };
      setBranchRef(refs, snippet.branch, sha);
      tset(d.repositories, snippetRepoKey(snippet.id), refs);
    }
  });
}
