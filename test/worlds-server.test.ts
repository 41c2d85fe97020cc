// Several worlds on one served emulator: `POST /-/emulator/worlds` makes a world under
// `/-/worlds/NAME` (a fork of the seeded world, or a fixture of its own), each isolated from the
// others (writes, clock, ids, git objects, snapshots), resettable and removable alone, its URLs,
// git over HTTP and control API under the prefix.
import { createServer } from 'node:http';
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const TOKEN = 'root-token';

const fixture: Fixture = {
  users: [{ username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, tokens: [{ token: TOKEN, scopes: ['api'] }] }],
  groups: [{ path: 'acme', visibility: 'private' }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', repository: { files: { 'README.md': '# App\n' } } }],
};

let emulator: Emulator;
let server: Server;

beforeAll(async () => {
  emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
  server = await emulator.listen({ port: 0 });
});
afterAll(async () => {
  await server.close();
});

async function call(method: string, path: string, body?: unknown, token: string | null = TOKEN) {
  const headers: Record<string, string> = {};
  if (token) headers['PRIVATE-TOKEN'] = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as any, headers: res.headers };
}

const createWorld = (name: string, more: Record<string, unknown> = {}) => call('POST', '/-/emulator/worlds', { name, ...more }, null);
const deleteWorld = (name: string) => call('DELETE', `/-/emulator/worlds/${name}`, undefined, null);

describe('worlds on one server', () => {
  it('creates a world and answers where it lives', async () => {
    const made = await createWorld('w-create');
    expect(made.status).toBe(201);
    expect(made.json).toEqual({ name: 'w-create', url: `${server.url}/-/worlds/w-create` });
    const list = await call('GET', '/-/emulator/worlds', undefined, null);
    expect(list.json).toContainEqual({ name: 'w-create', url: `${server.url}/-/worlds/w-create` });
    const one = await call('GET', '/-/emulator/worlds/w-create', undefined, null);
    expect(one.json).toEqual({ name: 'w-create', url: `${server.url}/-/worlds/w-create` });
    expect((await deleteWorld('w-create')).status).toBe(204);
  });

  it('starts as the seeded world and renders every URL under the prefix', async () => {
    // The server's own world changed before the world was made: the world starts as seeded.
    expect((await call('POST', '/api/v4/projects', { name: 'before-world' })).status).toBe(201);
    await createWorld('w-urls');
    const base = `${server.url}/-/worlds/w-urls`;
    const projects = await call('GET', '/-/worlds/w-urls/api/v4/projects?per_page=1&order_by=id&sort=asc');
    expect(projects.status).toBe(200);
    const p = projects.json[0];
    expect(p.path_with_namespace).toBe('acme/app');
    expect(p.web_url).toBe(`${base}/acme/app`);
    expect(p.http_url_to_repo).toBe(`${base}/acme/app.git`);
    expect(p.namespace.web_url).toBe(`${base}/groups/acme`);
    expect(p._links.self).toBe(`${base}/api/v4/projects/${p.id}`);
    // Paging links too.
    const link = projects.headers.get('link') ?? '';
    expect(link).toContain(`<${base}/api/v4/projects?`);
    const names = (await call('GET', '/-/worlds/w-urls/api/v4/projects')).json.map((x: { path: string }) => x.path);
    expect(names).not.toContain('before-world');
    const user = await call('GET', '/-/worlds/w-urls/api/v4/user');
    expect(user.json.web_url).toBe(`${base}/root`);
    // The world's own control API, under the prefix, reports the prefixed base.
    const control = await call('GET', '/-/worlds/w-urls/-/emulator', undefined, null);
    expect(control.json.base_url).toMatch(/\/-\/worlds\/w-urls$/);
    await deleteWorld('w-urls');
  });

  it('keeps each world isolated: writes, ids, clock and snapshots', async () => {
    await createWorld('w-a');
    await createWorld('w-b');
    const a = await call('POST', '/-/worlds/w-a/api/v4/projects', { name: 'only-in-a' });
    expect(a.status).toBe(201);
    const b = await call('POST', '/-/worlds/w-b/api/v4/projects', { name: 'only-in-b' });
    expect(b.status).toBe(201);
    // Ids are each world's own: both handed out the same next id.
    expect(a.json.id).toBe(b.json.id);
    const inB = (await call('GET', '/-/worlds/w-b/api/v4/projects')).json.map((x: { path: string }) => x.path);
    expect(inB).toContain('only-in-b');
    expect(inB).not.toContain('only-in-a');
    const inRoot = (await call('GET', '/api/v4/projects')).json.map((x: { path: string }) => x.path);
    expect(inRoot).not.toContain('only-in-a');
    expect(inRoot).not.toContain('only-in-b');
    // The clock.
    const moved = await call('POST', '/-/worlds/w-a/-/emulator/clock', { advance: '1d' }, null);
    expect(moved.json.now).toBe('2026-03-02T12:00:00.000Z');
    expect((await call('GET', '/-/worlds/w-b/-/emulator/clock', undefined, null)).json.now).toBe('2026-03-01T12:00:00.000Z');
    expect((await call('GET', '/-/emulator/clock', undefined, null)).json.now).toBe('2026-03-01T12:00:00.000Z');
    // Snapshots.
    expect((await call('POST', '/-/worlds/w-a/-/emulator/snapshots/s1', undefined, null)).status).toBe(201);
    expect((await call('GET', '/-/worlds/w-a/-/emulator/snapshots', undefined, null)).json).toEqual(['s1']);
    expect((await call('GET', '/-/worlds/w-b/-/emulator/snapshots', undefined, null)).json).toEqual([]);
    expect((await call('GET', '/-/emulator/snapshots', undefined, null)).json).toEqual([]);
    // The journal: a world's requests are in its own, with the paths within it.
    const journal = (await call('GET', '/-/worlds/w-b/-/emulator/journal', undefined, null)).json as { method: string; path: string }[];
    expect(journal.some((j) => j.method === 'POST' && j.path === '/api/v4/projects')).toBe(true);
    expect(journal).toHaveLength(2);
    await deleteWorld('w-a');
    await deleteWorld('w-b');
  });

  it('resets one world alone', async () => {
    await createWorld('w-r1');
    await createWorld('w-r2');
    await call('POST', '/-/worlds/w-r1/api/v4/projects', { name: 'r1-project' });
    await call('POST', '/-/worlds/w-r2/api/v4/projects', { name: 'r2-project' });
    expect((await call('POST', '/-/worlds/w-r1/-/emulator/reset', undefined, null)).status).toBe(204);
    const r1 = (await call('GET', '/-/worlds/w-r1/api/v4/projects')).json.map((x: { path: string }) => x.path);
    const r2 = (await call('GET', '/-/worlds/w-r2/api/v4/projects')).json.map((x: { path: string }) => x.path);
    expect(r1).toEqual(['app']);
    expect(r2).toContain('r2-project');
    await deleteWorld('w-r1');
    await deleteWorld('w-r2');
  });

  it('removes a world: its paths answer 404 and its name is free again', async () => {
    await createWorld('w-gone');
    await call('POST', '/-/worlds/w-gone/api/v4/projects', { name: 'soon-gone' });
    expect((await deleteWorld('w-gone')).status).toBe(204);
    expect((await call('GET', '/-/worlds/w-gone/api/v4/projects')).status).toBe(404);
    expect((await call('GET', '/-/emulator/worlds', undefined, null)).json.map((w: { name: string }) => w.name)).not.toContain('w-gone');
    expect((await createWorld('w-gone')).status).toBe(201);
    const again = (await call('GET', '/-/worlds/w-gone/api/v4/projects')).json.map((x: { path: string }) => x.path);
    expect(again).toEqual(['app']);
    await deleteWorld('w-gone');
  });

  it('answers 409 for a name taken, 400 for a bad name or body, 404 for no such world', async () => {
    await createWorld('w-taken');
    const taken = await createWorld('w-taken');
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({ message: "world 'w-taken' already exists" });
    for (const name of ['', '-x', 'a/b', '__proto__', 'x'.repeat(65), 'é', 42, null]) {
      const bad = await call('POST', '/-/emulator/worlds', { name }, null);
      expect(bad.status, JSON.stringify(name)).toBe(400);
      expect(typeof bad.json.message).toBe('string');
    }
    expect((await call('POST', '/-/emulator/worlds', {}, null)).json).toEqual({ message: 'worlds.name is required' });
    expect((await call('POST', '/-/emulator/worlds', { name: 'w-x', color: 'red' }, null)).status).toBe(400);
    expect((await call('POST', '/-/emulator/worlds', { name: 'w-x', fixture: 'nope' }, null)).status).toBe(400);
    const badFixture = await call('POST', '/-/emulator/worlds', { name: 'w-x', fixture: { users: 'nope' } }, null);
    expect(badFixture.status).toBe(400);
    expect(badFixture.json.message).toMatch(/^invalid fixture/);
    // The failed world left its name free.
    expect((await call('GET', '/-/emulator/worlds', undefined, null)).json.map((w: { name: string }) => w.name)).not.toContain('w-x');
    const missing = await deleteWorld('w-none');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ message: "no world 'w-none'" });
    expect((await call('GET', '/-/emulator/worlds/w-none', undefined, null)).status).toBe(404);
    expect((await call('GET', '/-/worlds/w-none/api/v4/projects')).status).toBe(404);
    // A world holds no worlds.
    expect((await call('POST', '/-/worlds/w-taken/-/emulator/worlds', { name: 'nested' }, null)).status).toBe(404);
    await deleteWorld('w-taken');
  });

  it('makes a world from a fixture of its own', async () => {
    const own: Fixture = {
      users: [{ username: 'solo', name: 'Solo', email: 'solo@example.com', admin: true, tokens: [{ token: 'solo-token', scopes: ['api'] }] }],
      projects: [{ namespace: 'solo', path: 'lonely', creator: 'solo', repository: { files: { 'a.txt': 'a\n' } } }],
    };
    const made = await createWorld('w-fixture', { fixture: own });
    expect(made.status).toBe(201);
    const projects = await call('GET', '/-/worlds/w-fixture/api/v4/projects', undefined, 'solo-token');
    expect(projects.json.map((x: { path_with_namespace: string }) => x.path_with_namespace)).toEqual(['solo/lonely']);
    // The server's tokens mean nothing there.
    expect((await call('GET', '/-/worlds/w-fixture/api/v4/user')).status).toBe(401);
    // Reset goes back to the fixture.
    await call('POST', '/-/worlds/w-fixture/api/v4/projects', { name: 'extra' }, 'solo-token');
    await call('POST', '/-/worlds/w-fixture/-/emulator/reset', undefined, null);
    expect((await call('GET', '/-/worlds/w-fixture/api/v4/projects', undefined, 'solo-token')).json).toHaveLength(1);
    await deleteWorld('w-fixture');
  });

  it('works with @gitbeaker/rest given the world as host', async () => {
    const { json } = await createWorld('w-sdk');
    const api = new Gitlab({ host: json.url, token: TOKEN });
    const user = await api.Users.showCurrentUser();
    expect(user.username).toBe('root');
    const project = await api.Projects.create({ name: 'from-sdk' });
    expect(project.web_url).toBe(`${json.url}/root/from-sdk`);
    const issue = await api.Issues.create(project.id, 'An issue');
    expect(issue.web_url).toBe(`${json.url}/root/from-sdk/-/issues/1`);
    const all = await api.Projects.all({ owned: true });
    expect(all.map((p) => p.path)).toContain('from-sdk');
    // Not in another world.
    await createWorld('w-sdk2');
    const other = new Gitlab({ host: `${server.url}/-/worlds/w-sdk2`, token: TOKEN });
    expect((await other.Projects.all({ owned: true })).map((p) => p.path)).not.toContain('from-sdk');
    await deleteWorld('w-sdk');
    await deleteWorld('w-sdk2');
  });
});

describe.skipIf(!HAS_GIT)('git over HTTP under a world prefix', () => {
  it('clones and pushes under the prefix, the push seen only in that world', async () => {
    await createWorld('w-git1');
    await createWorld('w-git2');
    const git = new GitScratch();
    try {
      const url1 = withCredentials(`${server.url}/-/worlds/w-git1/acme/app.git`, 'root', TOKEN);
      await git.ok(['clone', url1, 'one']);
      expect(await git.ok(['show', 'HEAD:README.md'], 'one')).toBe('# App\n');
      await git.ok(['-c', 'commit.gpgsign=false', 'commit', '--allow-empty', '-m', 'world one only'], 'one');
      const sha = (await git.ok(['rev-parse', 'HEAD'], 'one')).trim();
      await git.ok(['push', 'origin', 'HEAD:main'], 'one');
      const inOne = await call('GET', '/-/worlds/w-git1/api/v4/projects/acme%2Fapp/repository/commits/main');
      expect(inOne.json.id).toBe(sha);
      // The other world and the server's own never see the commit, even by its id.
      expect((await call('GET', '/-/worlds/w-git2/api/v4/projects/acme%2Fapp/repository/commits/main')).json.id).not.toBe(sha);
      expect((await call('GET', `/-/worlds/w-git2/api/v4/projects/acme%2Fapp/repository/commits/${sha}`)).status).toBe(404);
      expect((await call('GET', `/api/v4/projects/acme%2Fapp/repository/commits/${sha}`)).status).toBe(404);
      // A clone of the other world has the seeded history only.
      const url2 = withCredentials(`${server.url}/-/worlds/w-git2/acme/app.git`, 'root', TOKEN);
      await git.ok(['clone', url2, 'two']);
      expect((await git.ok(['log', '--format=%s'], 'two')).trim().split('\n')).not.toContain('world one only');
      // The redirect of a path without `.git` stays under the prefix.
      const redirect = await fetch(`${server.url}/-/worlds/w-git1/acme/app/info/refs?service=git-upload-pack`, { redirect: 'manual' });
      expect(redirect.status).toBe(301);
      expect(redirect.headers.get('location')).toBe(`${server.url}/-/worlds/w-git1/acme/app.git/info/refs?service=git-upload-pack`);
      // Reset of the world forgets the push.
      await call('POST', '/-/worlds/w-git1/-/emulator/reset', undefined, null);
      expect((await call('GET', '/-/worlds/w-git1/api/v4/projects/acme%2Fapp/repository/commits/main')).json.id).not.toBe(sha);
    } finally {
      git.remove();
      await deleteWorld('w-git1');
      await deleteWorld('w-git2');
    }
  });
});

describe('the control API of a world is guarded as the server’s', () => {
  it('refuses a foreign Origin under a world prefix', async () => {
    await createWorld('w-guard');
    const res = await fetch(`${server.url}/-/worlds/w-guard/-/emulator/reset`, { method: 'POST', headers: { Origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    await deleteWorld('w-guard');
  });
});

describe('what a world sends and serves', () => {
  it('serves an uploaded avatar under the prefix', async () => {
    await createWorld('w-avatar');
    const form = new FormData();
    form.append('avatar', new File([new Uint8Array([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0])], 'logo.gif'));
    const res = await fetch(`${server.url}/-/worlds/w-avatar/api/v4/projects/acme%2Fapp`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': TOKEN }, body: form });
    const { avatar_url } = (await res.json()) as { avatar_url: string };
    expect(avatar_url).toMatch(new RegExp(`^${server.url}/-/worlds/w-avatar/uploads/-/system/project/avatar/\\d+/logo\\.gif$`));
    const got = await fetch(avatar_url, { headers: { 'PRIVATE-TOKEN': TOKEN } });
    expect(got.status).toBe(200);
    expect(new Uint8Array(await got.arrayBuffer()).slice(0, 3)).toEqual(new Uint8Array([0x47, 0x49, 0x46]));
    // The server's own project has no avatar.
    expect((await call('GET', '/api/v4/projects/acme%2Fapp')).json.avatar_url).toBeNull();
    await deleteWorld('w-avatar');
  });

  it('delivers a world’s webhooks from that world only, with its URLs', async () => {
    const got: { body: any }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ body: JSON.parse(body) });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/in`;
    try {
      await createWorld('w-hook');
      await createWorld('w-quiet');
      const hook = await call('POST', '/-/worlds/w-hook/api/v4/projects/acme%2Fapp/hooks', { url: receiverUrl, issues_events: true });
      expect(hook.status).toBe(201);
      // The same project (same id) in another world and in the server's own has no hook.
      await call('POST', '/-/worlds/w-quiet/api/v4/projects/acme%2Fapp/issues', { title: 'quiet' });
      await call('POST', '/api/v4/projects/acme%2Fapp/issues', { title: 'root' });
      await call('POST', '/-/worlds/w-hook/api/v4/projects/acme%2Fapp/issues', { title: 'heard' });
      await emulator.worlds!.get('w-hook')!.hooks.settled();
      await emulator.worlds!.get('w-quiet')!.hooks.settled();
      await emulator.hooks.settled();
      expect(got.map((g) => g.body.object_attributes.title)).toEqual(['heard']);
      expect(got[0]!.body.project.web_url).toBe(`${server.url}/-/worlds/w-hook/acme/app`);
      expect(got[0]!.body.object_attributes.url).toBe(`${server.url}/-/worlds/w-hook/acme/app/-/issues/1`);
      expect((await call('GET', `/-/worlds/w-quiet/api/v4/projects/acme%2Fapp/hooks`)).json).toEqual([]);
    } finally {
      await new Promise((r) => receiver.close(r));
      await deleteWorld('w-hook');
      await deleteWorld('w-quiet');
    }
  });

  it('asks a world’s control API for the server’s control token', async () => {
    const guarded = await createEmulator({ fixture, controlToken: 'sesame' });
    const s = await guarded.listen({ port: 0 });
    try {
      const post = (path: string, token?: string) =>
        fetch(`${s.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: path.endsWith('/worlds') ? '{"name":"t"}' : undefined });
      expect((await post('/-/emulator/worlds')).status).toBe(401);
      expect((await post('/-/emulator/worlds', 'sesame')).status).toBe(201);
      expect((await post('/-/worlds/t/-/emulator/reset')).status).toBe(401);
      expect((await post('/-/worlds/t/-/emulator/reset', 'sesame')).status).toBe(204);
      // The API itself needs no control token.
      expect((await fetch(`${s.url}/-/worlds/t/api/v4/projects`, { headers: { 'PRIVATE-TOKEN': TOKEN } })).status).toBe(200);
    } finally {
      await s.close();
    }
  });
});

describe('a deleted world lets go of its objects', () => {
  it('writes its commits to storages of its own, removed with it; the seeded storages stay whole', async () => {
    await createWorld('w-mem');
    const world = emulator.worlds!.get('w-mem')!;
    const project = (await call('GET', '/-/worlds/w-mem/api/v4/projects/acme%2Fapp')).json;
    const made = await call('POST', `/-/worlds/w-mem/api/v4/projects/${project.id}/repository/commits`, {
      branch: 'main',
      commit_message: 'only in w-mem',
      actions: [{ action: 'create', file_path: 'mem.txt', content: 'held by the world\n' }],
    });
    expect(made.status).toBe(201);
    const sha = made.json.id as string;
    const loose = (gitdir: string) => `${gitdir}/objects/${sha.slice(0, 2)}/${sha.slice(2)}`;
    const worldGitdir = world.git(project.id).gitdir;
    const rootGitdir = emulator.git(project.id).gitdir;
    expect(worldGitdir).not.toBe(rootGitdir);
    expect(emulator.objects.volume.existsSync(loose(worldGitdir))).toBe(true);
    expect(emulator.objects.volume.existsSync(loose(rootGitdir))).toBe(false);
    expect(await world.git(project.id).readText('mem.txt')).toBe('held by the world\n');
    await deleteWorld('w-mem');
    expect(emulator.objects.volume.existsSync(worldGitdir)).toBe(false);
    // The server's repository reads as it did.
    expect(await emulator.git(project.id).readText('README.md')).toBe('# App\n');
    expect(await emulator.git(project.id).readText('mem.txt')).toBeNull();
  });
});
