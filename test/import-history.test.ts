// How `import` carries a repository's history: first-parent lines replayed in order, a branch with
// no commit of its own, merge commits, and what the fixture format cannot hold (a second branch
// at the same commit, commits only a deleted branch had, merge requests whose branch is gone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import type { Fixture } from '../src/families/world.js';
import { importFromGitlab, type ImportResult } from '../src/importer/index.js';

const TOKEN = 'root-secret';
const P = `/projects/${encodeURIComponent('team/lib')}`;

const WORLD: Fixture = {
  users: [{ username: 'root', name: 'Root', admin: true, tokens: [{ token: TOKEN }] }, { username: 'dev', name: 'Dev' }],
  groups: [{ path: 'team', members: [{ user: 'root', access_level: 'owner' }] }, { path: 'empty', parent: 'team' }],
  projects: [
    {
      namespace: 'team', path: 'lib', creator: 'root', members: [{ user: 'dev', access_level: 'maintainer' }],
      repository: {
        commits: [
          { message: 'One', author: 'root', date: '2026-01-01T00:00:00Z', files: { 'one.txt': '1\n' } },
          { message: 'Two', author: 'dev', date: '2026-01-02T00:00:00Z', files: { 'two.txt': '2\n', 'dir/deep/x.txt': 'x\n' } },
          { message: 'Three', author: 'root', date: '2026-01-03T00:00:00Z', files: { 'dir/deep/x.txt': null, 'dir/y.txt': 'y\n' } },
          // Paths and names are keys like any other.
          { message: 'Odd names', author: 'root', date: '2026-01-03T12:00:00Z', files: JSON.parse('{"__proto__": "p\\n", "constructor": "c\\n"}') as Record<string, string> },
          { branch: 'topic', start_branch: 'main~1', message: 'Topic', author: 'dev', date: '2026-01-04T00:00:00Z', files: { 'topic.txt': 't\n' } },
          { branch: 'gone', start_branch: 'main', message: 'Gone work', author: 'dev', date: '2026-01-05T00:00:00Z', files: { 'gone.txt': 'g\n' } },
          { branch: 'later', start_branch: 'main', message: 'Later work', author: 'dev', date: '2026-01-06T00:00:00Z', files: { 'later.txt': 'l\n' } },
        ],
        tags: JSON.parse('{"on-gone": "gone", "__proto__": "main"}') as Record<string, string>,
        protected_branches: { main: { push_access_level: 'developer', merge_access_level: 'maintainer' } },
        protected_tags: { 'v*': { create_access_level: 'developer' } },
      },
      merge_requests: [
        { title: 'Merge gone', source_branch: 'gone', author: 'dev' },
        { title: 'Later', source_branch: 'later', author: 'dev' },
      ],
    },
  ],
};

let source: Emulator;
let close: () => Promise<void>;
let result: ImportResult;

async function call(e: Emulator, method: string, path: string, token = TOKEN): Promise<unknown> {
  const res = await e.handle(new Request(`http://gitlab.test/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token } }));
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.status === 204 ? null : res.json();
}

beforeAll(async () => {
  source = await createEmulator({ fixture: WORLD });
  const main = (await call(source, 'GET', `${P}/repository/commits?ref_name=main`)) as { id: string; title: string }[];
  // A branch with no commit of its own in the middle of main (and, below, one at main's tip).
  await call(source, 'POST', `${P}/repository/branches?branch=stale&ref=${main[1]!.id}`);
  // A merge commit on main, and the merged branch deleted.
  await call(source, 'PUT', `${P}/merge_requests/1/merge?should_remove_source_branch=true`);
  await call(source, 'POST', `${P}/repository/branches?branch=twin&ref=main`);
  const server = await source.listen({ port: 0 });
  close = () => server.close();
  result = await importFromGitlab({ from: server.url, token: TOKEN, groups: ['team'] });
}, 60_000);

afterAll(async () => {
  await close?.();
});

describe('import of a repository history', () => {
  it('says what the fixture cannot hold', () => {
    expect(result.notes).toEqual(
      expect.arrayContaining([
        "team/lib: branch 'twin' not carried: it points at the same commit as another branch",
        "team/lib: tag 'on-gone' not carried: its commit is on no branch's first-parent history",
        "team/lib: merge request !1 not carried: branch 'gone' not in the repository",
        'team/lib: merge request !2 becomes !1 (merge requests take iids in order)',
      ]),
    );
  });

  it('replays every branch with the same trees and first-parent history', async () => {
    const copy = await createEmulator({ fixture: result.fixture });
    const token = result.tokens.root!;
    const branches = (await call(source, 'GET', `${P}/repository/branches`)) as { name: string }[];
    const carried = ((await call(copy, 'GET', `${P}/repository/branches`, token)) as { name: string }[]).map((b) => b.name);
    expect(carried).toEqual(branches.map((b) => b.name).filter((n) => n !== 'twin'));
    for (const name of carried) {
      const tree = (e: Emulator, t?: string) => call(e, 'GET', `${P}/repository/tree?recursive=true&per_page=100&ref=${name}`, t);
      expect(await tree(copy, token), name).toEqual(await tree(source));
      if (name === 'main') expect(JSON.stringify(await tree(source))).toContain('"path":"__proto__"');
      const log = async (e: Emulator, t?: string) =>
        ((await call(e, 'GET', `${P}/repository/commits?ref_name=${name}&first_parent=true&per_page=100`, t)) as { title: string; message: string; author_name: string; authored_date: string; parent_ids: string[] }[]).map((c) => ({
          title: c.title, message: c.message, author: c.author_name, date: c.authored_date, parents: c.parent_ids.length > 0,
        }));
      expect(await log(copy, token), name).toEqual(await log(source));
    }
    const levels = async (e: Emulator, path: string, t?: string) => JSON.stringify(((await call(e, 'GET', `${P}/${path}`, t)) as Record<string, unknown>[]).map(({ id: _, ...rest }) => JSON.stringify(rest).replace(/"id":\d+,?/g, '')));
    expect(await levels(copy, 'protected_branches', token)).toEqual(await levels(source, 'protected_branches'));
    expect(await levels(copy, 'protected_tags', token)).toEqual(await levels(source, 'protected_tags'));
    const tags = async (e: Emulator, t?: string) => ((await call(e, 'GET', `${P}/repository/tags`, t)) as { name: string; commit: { title: string } }[]).map((x) => [x.name, x.commit.title]);
    expect((await tags(source)).map(([n]) => n)).toEqual(['on-gone', '__proto__']);
    expect(await levels(source, 'protected_branches')).toContain('main');
    expect(await tags(copy, token)).toEqual((await tags(source)).filter(([n]) => n !== 'on-gone'));
    const mrs = (await call(copy, 'GET', `${P}/merge_requests`, token)) as { iid: number; title: string }[];
    expect(mrs.map((m) => [m.iid, m.title])).toEqual([[1, 'Later']]);
  });

  it('carries a group without projects below a --group', () => {
    expect(result.fixture.groups?.map((g) => [g.path, g.parent])).toEqual([['team', undefined], ['empty', 'team']]);
  });
});
