// The repository tree, blobs, compare, merge_base, contributors, and a commit's diff, refs,
// sequence and signature (lib/api/repositories.rb, lib/api/commits.rb), with diffs checked
// against the real `git diff`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      visibility: 'public',
      repository: {
        files: { 'README.md': 'one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n', 'src/a.c': 'int a;\n', 'src/lib/b.c': 'int b;\n', 'z.txt': 'z' },
        branches: { topic: 'main' },
        commits: [
          { message: 'Edit readme', author: 'dev', files: { 'README.md': 'one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\nnine\nTEN\n' }, date: '2024-01-02T00:00:00Z' },
          { branch: 'topic', message: 'Topic', author: 'mai', files: { 'topic.txt': 'topic\n', 'z.txt': null }, date: '2024-01-03T00:00:00Z' },
          { branch: 'topic', message: 'Topic 2', author: 'mai', files: { 'src/a.c': 'int a = 1;\n' }, date: '2024-01-04T00:00:00Z' },
        ],
        tags: { 'v1.0': 'main~1', 'v2.0': 'main' },
      },
    }),
    { namespace: 'acme', path: 'empty', creator: 'root', visibility: 'public' },
  ],
};

const world = seededWorld(FIXTURE, '2024-02-01T00:00:00Z');
const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const P = '/projects/acme%2Fapp/repository';
const get = (path: string, token?: string) => apiCall(world(), `${P}${path}`, { token });
const body = async <T = unknown>(path: string) => {
  const res = await get(path);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
const sha = (rev: string) => world().git('acme/app').resolve(rev) as Promise<string>;

type TreeObject = { id: string; name: string; type: string; path: string; mode: string };

describe('GET /projects/:id/repository/tree', () => {
  it('lists the root of the default branch, trees first, as Entities::TreeObject', async () => {
    const tree = await body<TreeObject[]>('/tree');
    expect(tree.map((t) => [t.type, t.path])).toEqual([['tree', 'src'], ['blob', 'README.md'], ['blob', 'z.txt']]);
    expect(Object.keys(tree[0]!)).toEqual(['id', 'name', 'type', 'path', 'mode']);
    expect(tree[0]!.mode).toBe('040000');
    expect(tree[1]!.mode).toBe('100644');
  });

  it('lists a path, recursively, at a ref', async () => {
    expect((await body<TreeObject[]>('/tree?path=src&ref=topic')).map((t) => t.path)).toEqual(['src/lib', 'src/a.c']);
    expect((await body<TreeObject[]>('/tree?recursive=true&ref=topic')).map((t) => t.path)).toEqual([
      'src', 'src/lib', 'README.md', 'src/a.c', 'src/lib/b.c', 'topic.txt',
    ]);
  });

  it('pages by offset with totals, and by keyset after page_token with Link and Links', async () => {
    const res = await get('/tree?recursive=true&per_page=2');
    expect(res.headers.get('x-total')).toBe('6');
    expect(((await res.json()) as TreeObject[]).map((t) => t.path)).toEqual(['src', 'src/lib']);
    const all = await body<TreeObject[]>('/tree?recursive=true&pagination=none');
    expect(all).toHaveLength(6);
    let url = `${P}/tree?recursive=true&pagination=keyset&per_page=4`;
    const seen: string[] = [];
    for (let i = 0; i < 5 && url; i++) {
      const page = await apiCall(world(), url.replace(/^.*\/api\/v4/, ''));
      seen.push(...((await page.json()) as TreeObject[]).map((t) => t.path));
      const link = page.headers.get('link');
      expect(page.headers.get('links')).toBe(link);
      url = link ? /<([^>]+)>; rel="next"/.exec(link)![1]! : '';
      if (link) expect(link).toContain(`page_token=${encodeURIComponent(btoa(JSON.stringify({ file_name: all[3]!.path })))}`);
    }
    expect(seen).toEqual(all.map((t) => t.path));
  });

  it('answers 404 for an unknown ref or path, and an empty repository', async () => {
    expect(await (await get('/tree?ref=nope')).json()).toEqual({ message: '404 Tree Not Found' });
    expect(await (await get('/tree?path=nope')).json()).toEqual({ message: '404 invalid revision or path Not Found' });
    expect((await apiCall(world(), '/projects/acme%2Fempty/repository/tree')).status).toBe(404);
    expect(await (await get('/tree?pagination=none')).json()).toEqual({ error: 'pagination cannot be "none" unless "recursive" is true' });
    expect(await (await get('/tree?pagination=keyset&page_token=nope')).json()).toEqual({ message: '400 Bad request - could not find starting OID: nope' });
  });
});

describe('GET /projects/:id/repository/blobs/:sha and /raw', () => {
  it('answers the blob in Base64, and raw', async () => {
    const readme = (await body<TreeObject[]>('/tree')).find((t) => t.path === 'README.md')!;
    const blob = await body<Record<string, unknown>>(`/blobs/${readme.id}`);
    expect(blob).toEqual({ size: 49, encoding: 'base64', content: expect.any(String), sha: readme.id });
    expect(Buffer.from(blob.content as string, 'base64').toString()).toContain('TWO');
    const raw = await get(`/blobs/${readme.id.slice(0, 10)}/raw`);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await raw.text()).toContain('TEN\n');
    expect(await (await get(`/blobs/${await sha('main')}`)).json()).toEqual({ message: '404 Blob Not Found' });
    expect((await get('/blobs/0000000000000000000000000000000000000000/raw')).status).toBe(404);
  });
});

describe('GET /projects/:id/repository/compare', () => {
  it('answers commits oldest first, the newest as commit, diffs from the merge base, and the web URL', async () => {
    const c = await body<Record<string, any>>('/compare?from=main&to=topic');
    expect(Object.keys(c)).toEqual(['commit', 'commits', 'diffs', 'compare_timeout', 'compare_same_ref', 'web_url']);
    expect(c.commits.map((x: { title: string }) => x.title)).toEqual(['Topic', 'Topic 2']);
    expect(c.commit.title).toBe('Topic 2');
    expect(c.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(['src/a.c', 'topic.txt', 'z.txt']);
    expect(Object.keys(c.diffs[0])).toEqual([
      'diff', 'collapsed', 'too_large', 'new_path', 'old_path', 'a_mode', 'b_mode', 'new_file', 'renamed_file', 'deleted_file', 'generated_file',
    ]);
    expect(c.diffs[1]).toMatchObject({ a_mode: '0', b_mode: '100644', new_file: true, diff: '@@ -0,0 +1 @@\n+topic\n' });
    expect(c.diffs[2]).toMatchObject({ deleted_file: true, b_mode: '0', diff: '@@ -1 +0,0 @@\n-z\n\\ No newline at end of file\n' });
    expect(c.web_url).toBe(`https://gitlab.example.com/acme/app/-/compare/${await sha('main')}...${await sha('topic')}`);
    expect(c.compare_same_ref).toBe(false);
  });

  it('compares straight when asked, and the same ref as empty', async () => {
    const straight = await body<Record<string, any>>('/compare?from=main&to=topic&straight=true');
    expect(straight.diffs.map((d: { new_path: string }) => d.new_path)).toEqual(['README.md', 'src/a.c', 'topic.txt', 'z.txt']);
    const same = await body<Record<string, any>>('/compare?from=main&to=v2.0');
    expect(same).toMatchObject({ commit: null, commits: [], diffs: [], compare_same_ref: true });
  });

  it("answers GitLab's errors", async () => {
    expect(await (await get('/compare?from=main&to=nope')).json()).toEqual({ message: '404 Ref Not Found' });
    const id = (await (await apiCall(world(), '/projects/acme%2Fapp')).json()) as { id: number };
    expect(await (await get(`/compare?from=main&to=topic&from_project_id=${id.id + 100}`)).json()).toEqual({
      message: `Target project id:${id.id + 100} is not a fork of project id:acme/app`,
    });
    expect((await get(`/compare?from=main&to=topic&from_project_id=${id.id}`)).status).toBe(200);
  });


  it.skipIf(!HAS_GIT)('gives each file the hunks `git diff` prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gle-diff-'));
    dirs.push(dir);
    await world().git('acme/app').export(dir);
    for (const [from, to] of [['main', 'topic'], ['topic', 'main'], ['v1.0', 'topic']] as const) {
      const c = await body<{ diffs: { new_path: string; diff: string }[] }>(`/compare?from=${from}&to=${to}&straight=true`);
      for (const d of c.diffs) {
        const out = execFileSync('git', ['--git-dir', dir, 'diff', '--no-renames', '--no-color', from, to, '--', d.new_path], { encoding: 'utf8' });
        expect(d.diff).toBe(out.slice(out.indexOf('@@')));
      }
    }
  });
});

describe('renames', () => {
  it('pairs a file moved with its content unchanged as git --find-renames does', async () => {
    const res = await apiCall(world(), `${P}/commits`, {
      method: 'POST',
      token: 'maintainer-token',
      json: { branch: 'main', commit_message: 'Move', actions: [{ action: 'move', file_path: 'docs/readme.md', previous_path: 'README.md' }, { action: 'move', file_path: 'lib/a.c', previous_path: 'src/a.c', content: 'changed\n' }] },
    });
    expect(res.status).toBe(201);
    const diffs = await body<Record<string, unknown>[]>('/commits/main/diff');
    expect(diffs.map((d) => [d.old_path, d.new_path, d.renamed_file, d.new_file, d.deleted_file])).toEqual([
      ['README.md', 'docs/readme.md', true, false, false],
      ['lib/a.c', 'lib/a.c', false, true, false],
      ['src/a.c', 'src/a.c', false, false, true],
    ]);
    expect(diffs[0]).toMatchObject({ a_mode: '100644', b_mode: '100644', diff: '' });
    if (!HAS_GIT) return;
    const dir = mkdtempSync(join(tmpdir(), 'gle-rename-'));
    dirs.push(dir);
    await world().git('acme/app').export(dir);
    const out = execFileSync('git', ['--git-dir', dir, 'diff', '--find-renames=30%', '--name-status', 'main~1', 'main'], { encoding: 'utf8' });
    expect(out).toContain('R100\tREADME.md\tdocs/readme.md');
  });
});

describe('GET /projects/:id/repository/merge_base and contributors', () => {
  it('answers the best common ancestor, and GitLab 400s for refs', async () => {
    const base = await body<{ id: string }>('/merge_base?refs[]=topic&refs[]=main');
    expect(base.id).toBe(await sha('main~1'));
    expect((await body<{ id: string }>('/merge_base?refs=main,v1.0')).id).toBe(await sha('v1.0'));
    expect(await (await get('/merge_base?refs[]=main')).json()).toEqual({ message: 'Provide at least 2 refs' });
    expect(await (await get('/merge_base?refs[]=main&refs[]=x&refs[]=y')).json()).toEqual({ message: 'Could not find refs: x, y' });
  });

  it('groups the default branch history by author email', async () => {
    const list = await body<Record<string, unknown>[]>('/contributors?ref=topic');
    expect(list).toEqual([
      { name: 'Administrator', email: 'root@example.com', commits: 1, additions: 0, deletions: 0 },
      { name: 'Mai Ntainer', email: 'mai@example.com', commits: 2, additions: 0, deletions: 0 },
    ]);
    expect((await body<{ name: string }[]>('/contributors?order_by=name&sort=desc')).map((c) => c.name)).toEqual(['Dee Veloper', 'Administrator']);
  });
});

describe('commit sub-resources', () => {
  it('/diff pages the diffs of the commit against its first parent', async () => {
    const res = await get('/commits/topic~1/diff?per_page=1&page=2');
    expect(res.headers.get('x-total')).toBe('2');
    expect(await res.json()).toMatchObject([{ new_path: 'z.txt', deleted_file: true }]);
    const uni = await body<{ diff: string }[]>('/commits/main/diff?unidiff=true');
    expect(uni[0]!.diff.startsWith('--- a/README.md\n+++ b/README.md\n@@ -1,5 +1,5 @@\n one\n-two\n+TWO\n')).toBe(true);
    expect(await (await get('/commits/nope/diff')).json()).toEqual({ message: '404 Commit Not Found' });
  });

  it('/refs names the branches and tags that hold the commit', async () => {
    expect(await body(`/commits/${await sha('main~1')}/refs`)).toEqual([
      { type: 'branch', name: 'main' }, { type: 'branch', name: 'topic' }, { type: 'tag', name: 'v1.0' }, { type: 'tag', name: 'v2.0' },
    ]);
    expect(await body('/commits/topic/refs?type=tag')).toEqual([]);
    expect(await body('/commits/main/refs?type=branch')).toEqual([{ type: 'branch', name: 'main' }]);
  });

  it('/sequence counts, /signature is 404 for an unsigned commit', async () => {
    expect(await body('/commits/topic/sequence')).toEqual({ count: 3 });
    expect(await (await get('/commits/main/signature')).json()).toEqual({ message: '404 Signature Not Found' });
    expect(await (await get('/commits/nope/signature')).json()).toEqual({ message: '404 Commit Not Found' });
  });
});
