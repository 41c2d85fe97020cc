// Commits (lib/api/commits.rb, lib/api/entities/commit.rb, commit_detail.rb).
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { apiCall, type CallInit } from './support/world.js';

const FIXTURE: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
    { username: 'ann', name: 'Ann Author', email: 'ann@example.com', tokens: [{ token: 'ann-token', scopes: ['api'] }] },
  ],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'public',
      creator: 'root',
      members: [{ user: 'ann', access_level: 'developer' }],
      jobs: [{ name: 'build', user: 'ann', token: 'job-token-app' }],
      repository: {
        files: { 'README.md': 'one\ntwo\n' },
        commits: [
          { message: 'Add docs', author: 'ann', files: { 'docs/a.md': 'a\n' }, date: '2024-01-02T00:00:00Z' },
          { message: 'Edit readme\n\nLonger body.\n\nSigned-off-by: Ann <ann@example.com>\nReviewed-by: Bob <bob@example.com>\nReviewed-by: Cy <cy@example.com>\n', files: { 'README.md': 'one\n2\nthree\n' }, date: '2024-01-03T00:00:00Z' },
          { branch: 'topic', message: 'Topic work', files: { 'topic.txt': 't\n' }, date: '2024-01-04T00:00:00Z' },
          { message: 'More docs', author: 'ann', files: { 'docs/b.md': 'b\n' }, date: '2024-01-05T00:00:00Z' },
        ],
        tags: { 'v1.0': 'main~1', 'v0.1': { ref: 'main~3', message: 'First release' } },
      },
    },
  ],
};

let e: Emulator;
const setup = async () => (e = await createEmulator({ fixture: FIXTURE, clock: { now: '2024-01-01T00:00:00Z', frozen: true } }));

const api = (path: string, init?: CallInit) => apiCall(e, path, init);

const COMMITS = '/projects/acme%2Fapp/repository/commits';
type C = { id: string; title: string; message: string; stats?: unknown; trailers: Record<string, string> };
const titles = (list: C[]) => list.map((c) => c.title);
const list = async (q = '') => (await (await api(`${COMMITS}${q}`)).json()) as C[];

describe('GET /projects/:id/repository/commits', () => {
  it('lists the default branch newest first, with the Commit entity', async () => {
    await setup();
    const res = await api(COMMITS);
    expect(res.status).toBe(200);
    const commits = (await res.json()) as (C & Record<string, unknown>)[];
    expect(titles(commits)).toEqual(['More docs', 'Edit readme', 'Add docs', 'Initial commit']);
    expect(Object.keys(commits[0]!)).toEqual([
      'id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date',
      'committer_name', 'committer_email', 'committed_date', 'trailers', 'extended_trailers', 'web_url',
    ]);
    const c = commits[0]!;
    expect(c).toMatchObject({
      short_id: c.id.slice(0, 8),
      created_at: '2024-01-05T00:00:00.000+00:00',
      authored_date: '2024-01-05T00:00:00.000+00:00',
      author_name: 'Ann Author',
      author_email: 'ann@example.com',
      parent_ids: [commits[1]!.id],
      web_url: `https://gitlab.example.com/acme/app/-/commit/${c.id}`,
      trailers: {},
    });
    expect(commits[1]!.message).toBe(FIXTURE.projects![0]!.repository!.commits![1]!.message);
  });

  it('paginates without counting: no totals, a next link while pages are full', async () => {
    await setup();
    const res = await api(`${COMMITS}?per_page=2`);
    expect(titles(await res.json())).toEqual(['More docs', 'Edit readme']);
    expect(res.headers.get('x-total')).toBeNull();
    expect(res.headers.get('x-total-pages')).toBeNull();
    expect(res.headers.get('x-next-page')).toBe('2');
    expect(res.headers.get('link')).toContain('rel="next"');
    const last = await api(`${COMMITS}?per_page=2&page=2`);
    expect(titles(await last.json())).toEqual(['Add docs', 'Initial commit']);
    expect(last.headers.get('x-next-page')).toBe('3');
    const beyond = await api(`${COMMITS}?per_page=2&page=3`);
    expect(await beyond.json()).toEqual([]);
    expect(beyond.headers.get('x-next-page')).toBe('');
  });

  it('follows ref_name, and answers [] for an unknown ref', async () => {
    await setup();
    expect(titles(await list('?ref_name=topic'))).toEqual(['Topic work', 'Edit readme', 'Add docs', 'Initial commit']);
    expect(titles(await list('?ref_name=v1.0'))).toEqual(['Edit readme', 'Add docs', 'Initial commit']);
    expect(await list('?ref_name=nope')).toEqual([]);
    const bad = await api(`${COMMITS}?ref_name=--all`);
    expect([bad.status, await bad.json()]).toEqual([400, { message: 'ref_name is invalid' }]);
  });

  it('filters by path, dates and author', async () => {
    await setup();
    expect(titles(await list('?path=README.md'))).toEqual(['Edit readme', 'Initial commit']);
    expect(titles(await list('?path=docs'))).toEqual(['More docs', 'Add docs']);
    expect(titles(await list('?since=2024-01-03T00:00:00Z'))).toEqual(['More docs', 'Edit readme']);
    expect(titles(await list('?until=2024-01-02T12:00:00Z'))).toEqual(['Add docs', 'Initial commit']);
    expect(titles(await list('?author=Ann'))).toEqual(['More docs', 'Add docs']);
  });

  it('lists every ref with all, and in topological order', async () => {
    await setup();
    expect(titles(await list('?all=true'))).toEqual(['More docs', 'Topic work', 'Edit readme', 'Add docs', 'Initial commit']);
    expect(titles(await list('?order=topo'))).toEqual(['More docs', 'Edit readme', 'Add docs', 'Initial commit']);
    expect((await api(`${COMMITS}?order=sideways`)).status).toBe(400);
  });

  it('adds stats and trailers when asked', async () => {
    await setup();
    const [c] = await list('?ref_name=main~1&with_stats=true&trailers=true&per_page=1');
    expect(c!.stats).toEqual({ additions: 2, deletions: 1, total: 3 });
    expect(c).toMatchObject({
      trailers: { 'Signed-off-by': 'Ann <ann@example.com>', 'Reviewed-by': 'Cy <cy@example.com>' },
      extended_trailers: { 'Signed-off-by': ['Ann <ann@example.com>'], 'Reviewed-by': ['Bob <bob@example.com>', 'Cy <cy@example.com>'] },
    });
  });
});

describe('GET /projects/:id/repository/commits/:sha', () => {
  it('answers CommitDetail for a sha, a short sha, a branch, a tag', async () => {
    await setup();
    const head = e.git('acme/app').refs().branches.main!;
    for (const ref of [head, head.slice(0, 7), 'main', 'HEAD']) {
      const res = await api(`${COMMITS}/${ref}`);
      expect(res.status).toBe(200);
      const c = await res.json();
      expect(c.id).toBe(head);
      expect(Object.keys(c).slice(-5)).toEqual(['web_url', 'stats', 'status', 'project_id', 'last_pipeline']);
      // The fixture's job ran in a pipeline of the head commit: its status and that pipeline.
      expect(c).toMatchObject({ stats: { additions: 1, deletions: 0, total: 1 }, status: 'running', last_pipeline: { ref: 'main', sha: head, status: 'running' } });
    }
    const tagged = await (await api(`${COMMITS}/v0.1`)).json();
    expect(tagged.title).toBe('Initial commit');
    expect((await (await api(`${COMMITS}/main?stats=false`)).json()).stats).toBeUndefined();
  });

  it('parses trailers of a single commit', async () => {
    await setup();
    const c = await (await api(`${COMMITS}/main~1`)).json();
    expect(c.trailers['Signed-off-by']).toBe('Ann <ann@example.com>');
    expect(c.title).toBe('Edit readme');
  });

  it('is 404 Commit Not Found for what names no commit', async () => {
    await setup();
    for (const ref of ['nope', 'f'.repeat(40), 'main~9']) {
      const res = await api(`${COMMITS}/${ref}`);
      expect([res.status, await res.json()]).toEqual([404, { message: '404 Commit Not Found' }]);
    }
  });

  it('accepts a CI job token', async () => {
    await setup();
    expect((await api(`${COMMITS}/main`, { headers: { 'JOB-TOKEN': 'job-token-app' } })).status).toBe(200);
  });
});

describe('POST /projects with initialize_with_readme', () => {
  it('commits README.md as "Initial commit" on the default branch', async () => {
    await setup();
    const res = await e.handle(
      new Request('https://gitlab.example.com/api/v4/projects', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'ann-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Fresh', description: 'A new one', initialize_with_readme: true }),
      }),
    );
    expect(res.status).toBe(201);
    const project = await res.json();
    expect(project).toMatchObject({ empty_repo: false, default_branch: 'main' });
    const commits = await (await api(`/projects/${project.id}/repository/commits`, { token: 'ann-token' })).json();
    expect(commits).toHaveLength(1);
    expect(commits[0]).toMatchObject({ title: 'Initial commit', author_name: 'Ann Author' });
    expect(await e.git(project.id).readText('README.md')).toBe('# Fresh\n\nA new one\n');
    const bare = await e.handle(
      new Request('https://gitlab.example.com/api/v4/projects', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'ann-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Bare' }),
      }),
    );
    expect((await bare.json()).empty_repo).toBe(true);
  });
});
