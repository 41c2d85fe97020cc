// Snippets as git repositories (Snippets::CreateService / UpdateService, SnippetRepository,
// SnippetInputAction): every change a commit by the caller, file actions with GitLab's errors,
// raw reads at a branch or a commit, the entity's repository fields, the user agent detail,
// fixtures with repositories, and storage moves.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, apiCall, idOf, seededWorld, snippetHistory, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: [
    ...TEAM.slice(0, 5),
    { ...TEAM[5]!, snippets: [{ title: 'Seeded personal', visibility: 'public', files: [{ path: 'notes.md', content: '# notes' }] }] },
    { username: 'ext', name: 'Ex Ternal', external: true, tokens: [{ token: 'ext-token', scopes: ['api'] }] },
  ],
  groups: [ACME],
  projects: [
    teamProject({
      snippets: [
        { title: 'Seeded one', files: [{ path: 'b.txt', content: 'B' }, { path: 'a.txt', content: 'A' }] },
        { title: 'Seeded two', author: 'dev', visibility: 'internal', description: 'two', files: [{ path: 'dir/x.rb', content: 'puts 1' }] },
      ],
    }),
  ],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, token?: string, json?: unknown, headers?: Record<string, string>) {
  const res = await apiCall(world(), path, { method, token, json, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* raw text */
  }
  return { status: res.status, body, res };
}

const make = async (files: { file_path: string; content: string }[], token = 'dev-token') =>
  (await call('POST', `${APP}/snippets`, token, { title: 'T', visibility: 'private', files })).body as { id: number };

describe('every change is a commit', () => {
  it('creates with "Initial commit" by the caller, updates with "Update snippet" by whoever updates', async () => {
    const s = await make([{ file_path: 'hello.rb', content: 'puts 1' }]);
    let log = await snippetHistory(world(), s.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ message: 'Initial commit', author: { name: 'Dee Veloper', email: 'dev@example.com' }, parents: [], files: { 'hello.rb': 'puts 1' } });
    world().clock.advance('1h');
    const u = await call('PUT', `${APP}/snippets/${s.id}`, 'maintainer-token', { files: [{ action: 'update', file_path: 'hello.rb', content: 'puts 2' }] });
    expect(u.status).toBe(200);
    expect(u.body.updated_at).toBe('2024-03-01T11:00:00.000Z');
    log = await snippetHistory(world(), s.id);
    expect(log.map((c) => c.message)).toEqual(['Update snippet', 'Initial commit']);
    expect(log[0]).toMatchObject({ author: { name: 'Mai Ntainer', email: 'mai@example.com' }, parents: [log[1]!.sha], files: { 'hello.rb': 'puts 2' } });

    // Each version reads back at its commit; the branch and HEAD read the newest.
    const at = (ref: string) => call('GET', `${APP}/snippets/${s.id}/files/${ref}/hello.rb/raw`, 'guest-token');
    expect((await at(log[1]!.sha)).body).toBe('puts 1');
    expect((await at(log[1]!.sha.slice(0, 8))).body).toBe('puts 1');
    expect((await at(log[0]!.sha)).body).toBe('puts 2');
    expect((await at('main')).body).toBe('puts 2');
    expect((await at('HEAD')).body).toBe('puts 2');
    expect((await at('main~1')).body).toBe('puts 1');
    expect((await call('GET', `/snippets/${s.id}/files/${log[1]!.sha}/hello.rb/raw`, 'dev-token')).body).toBe('puts 1');
    expect(await at('nope')).toMatchObject({ status: 404, body: { message: '404 Reference Not Found' } });
    expect(await at('0'.repeat(40))).toMatchObject({ status: 404, body: { message: '404 Reference Not Found' } });
    expect(await call('GET', `${APP}/snippets/${s.id}/files/main/other.rb/raw`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });

    // Another snippet's commit is no ref of this one.
    const other = await make([{ file_path: 'hello.rb', content: 'other' }]);
    const otherSha = (await snippetHistory(world(), other.id))[0]!.sha;
    expect(await at(otherSha)).toMatchObject({ status: 404, body: { message: '404 Reference Not Found' } });
  });

  it('commits nothing for a change of title, description or visibility alone', async () => {
    const s = await make([{ file_path: 'a.txt', content: 'a' }]);
    world().clock.advance('1m');
    const u = await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { title: 'New', description: 'd', visibility: 'internal' });
    expect(u.body).toMatchObject({ title: 'New', description: 'd', visibility: 'internal', updated_at: '2024-03-01T10:01:00.000Z' });
    expect(await snippetHistory(world(), s.id)).toHaveLength(1);
  });

  it('takes the legacy content and file_name on a one-file snippet', async () => {
    const made = await call('POST', '/snippets', 'dev-token', { title: 'L', file_name: 'a.txt', content: 'one' });
    const id = made.body.id;
    expect(made.body).toMatchObject({ file_name: 'a.txt', files: [{ path: 'a.txt', raw_url: `${ORIGIN}/-/snippets/${id}/raw/main/a.txt` }] });
    // A new name alone renames the file and keeps its content.
    expect((await call('PUT', `/snippets/${id}`, 'dev-token', { file_name: 'b.txt' })).body.file_name).toBe('b.txt');
    expect((await snippetHistory(world(), id))[0]!.files).toEqual({ 'b.txt': 'one' });
    // Content alone changes the file in place; the same name alone changes nothing in git.
    await call('PUT', `/snippets/${id}`, 'dev-token', { content: 'two' });
    await call('PUT', `/snippets/${id}`, 'dev-token', { file_name: 'b.txt' });
    const log = await snippetHistory(world(), id);
    expect(log.map((c) => c.files)).toEqual([{ 'b.txt': 'two' }, { 'b.txt': 'one' }, { 'a.txt': 'one' }]);
    expect((await call('GET', `/snippets/${id}/raw`, 'dev-token')).body).toBe('two');
  });
});

describe('file actions', () => {
  const put = (id: number, files: unknown[], token = 'dev-token') => call('PUT', `${APP}/snippets/${id}`, token, { files });

  it('creates, updates, deletes and moves in one commit, in order', async () => {
    const s = await make([{ file_path: 'CHANGELOG', content: 'c' }, { file_path: 'LICENSE', content: 'l' }, { file_path: 'VERSION', content: 'v' }]);
    const u = await put(s.id, [
      { action: 'create', file_path: 'created_new_file', content: 'new' },
      { action: 'update', file_path: 'LICENSE', content: 'L2' },
      { action: 'delete', file_path: 'CHANGELOG' },
      { action: 'move', previous_path: 'VERSION', file_path: 'VERSION_new', content: 'V2' },
    ]);
    expect(u.status).toBe(200);
    expect(u.body.files.map((f: { path: string }) => f.path)).toEqual(['LICENSE', 'VERSION_new', 'created_new_file']);
    expect(u.body.file_name).toBe('LICENSE');
    const log = await snippetHistory(world(), s.id);
    expect(log).toHaveLength(2);
    expect(log[0]!.files).toEqual({ LICENSE: 'L2', VERSION_new: 'V2', created_new_file: 'new' });
  });

  it('names files without a path snippetfileN.txt, and a move without content keeps it', async () => {
    const s = await make([{ file_path: 'a.txt', content: 'A' }]);
    await put(s.id, [{ action: 'create', content: 'one' }, { action: 'create', file_path: '', content: 'two' }, { action: 'move', previous_path: 'a.txt' }]);
    expect((await snippetHistory(world(), s.id))[0]!.files).toEqual({ 'snippetfile1.txt': 'one', 'snippetfile2.txt': 'two', 'snippetfile3.txt': 'A' });
    // The next generated name counts on from the highest the snippet has.
    await put(s.id, [{ action: 'move', previous_path: 'snippetfile3.txt', file_path: 'three.txt' }, { action: 'create', content: 'four' }]);
    expect((await snippetHistory(world(), s.id))[0]!.files).toEqual({ 'snippetfile1.txt': 'one', 'snippetfile2.txt': 'two', 'snippetfile4.txt': 'four', 'three.txt': 'A' });
  });

  it('refuses invalid actions with 422 and what git refuses with 400, changing nothing', async () => {
    const s = await make([{ file_path: 'a.txt', content: 'A' }, { file_path: 'dir/b.txt', content: 'B' }]);
    const INVALID = { status: 422, body: { message: { error: 'Snippet actions have invalid data' } } };
    const REFUSED = { status: 400, body: { message: { error: 'Repository Error updating the snippet' } } };
    expect(await put(s.id, [{ action: 'update', file_path: 'a.txt' }])).toMatchObject(INVALID);
    expect(await put(s.id, [{ action: 'update', file_path: 'a.txt', content: '   ' }])).toMatchObject(INVALID);
    expect(await put(s.id, [{ action: 'create', file_path: 'c.txt' }])).toMatchObject(INVALID);
    expect(await put(s.id, [{ action: 'delete' }])).toMatchObject(INVALID);
    expect(await put(s.id, [{ action: 'move', file_path: 'x' }])).toMatchObject(INVALID);
    expect(await put(s.id, [{ action: 'move', previous_path: 'a.txt', file_path: 'a.txt' }])).toMatchObject(INVALID);
    expect(await put(s.id, [{ action: 'update', previous_path: 'a.txt', file_path: 'z.txt', content: 'x' }])).toMatchObject(INVALID);
    const unknown = await put(s.id, [{ action: 'rename', file_path: 'a.txt' }]);
    expect([unknown.status, unknown.body.error]).toEqual([400, expect.stringMatching(/^files\[(0\]\[)?action\] does not have a valid value$/)]);
    expect(await put(s.id, [{ action: 'create', file_path: 'a.txt', content: 'x' }])).toMatchObject(REFUSED);
    expect(await put(s.id, [{ action: 'create', file_path: 'dir', content: 'x' }])).toMatchObject(REFUSED);
    expect(await put(s.id, [{ action: 'create', file_path: 'a.txt/c', content: 'x' }])).toMatchObject(REFUSED);
    expect(await put(s.id, [{ action: 'update', file_path: 'makeup_name', content: 'x' }])).toMatchObject(REFUSED);
    expect(await put(s.id, [{ action: 'delete', file_path: 'makeup_name' }])).toMatchObject(REFUSED);
    expect(await put(s.id, [{ action: 'move', previous_path: 'makeup_name', file_path: 'n' }])).toMatchObject(REFUSED);
    expect(await put(s.id, [{ action: 'move', previous_path: 'a.txt', file_path: 'dir/b.txt' }])).toMatchObject(REFUSED);
    // A generated name moved without a new path lands on itself, which git refuses.
    expect(await put(s.id, [{ action: 'create', content: 'g' }])).toMatchObject({ status: 200 });
    expect(await put(s.id, [{ action: 'move', previous_path: 'snippetfile1.txt' }])).toMatchObject(REFUSED);
    expect(await put(s.id, [{ action: 'create', file_path: 'x/.git/y', content: 'x' }])).toMatchObject({
      status: 400, body: { message: { error: 'Repository Error updating the snippet - Invalid file name' } },
    });
    expect(await put(s.id, [{ action: 'create', file_path: '../x', content: 'x' }])).toMatchObject({
      status: 400, body: { error: 'files[0][file_path] should be a valid file path' },
    });
    // The title of a refused update is not kept either.
    expect((await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { title: 'Kept?', files: [{ action: 'delete', file_path: 'zzz' }] })).status).toBe(400);
    expect((await call('GET', `${APP}/snippets/${s.id}`, 'dev-token')).body.title).toBe('T');
    expect(await snippetHistory(world(), s.id)).toHaveLength(2);
  });

  it('refuses on create what git refuses, with the create message', async () => {
    const dup = await call('POST', `${APP}/snippets`, 'dev-token', { title: 'T', visibility: 'private', files: [{ file_path: 'a', content: 'x' }, { file_path: 'a', content: 'y' }] });
    expect(dup).toMatchObject({ status: 400, body: { message: { error: 'Repository Error creating the snippet' } } });
    const bad = await call('POST', `${APP}/snippets`, 'dev-token', { title: 'T', visibility: 'private', file_name: 'a/./b', content: 'x' });
    expect(bad).toMatchObject({ status: 400, body: { message: { error: 'Repository Error creating the snippet - Invalid file name' } } });
    const blank = await call('POST', '/snippets', 'dev-token', { title: 'T', files: [{ file_path: 'a', content: '' }] });
    expect([blank.status, blank.body.error]).toEqual([400, expect.stringMatching(/^files\[(0\]\[)?content\] is empty$/)]);
    const none = await call('POST', '/snippets', 'dev-token', { title: 'T', files: [] });
    expect(none).toMatchObject({ status: 400, body: { message: { error: "Content can't be blank" } } });
    const titles = async (path: string) => (await call('GET', path, 'dev-token')).body.map((x: { title: string }) => x.title);
    expect(await titles(`${APP}/snippets`)).not.toContain('T');
    expect(await titles('/snippets')).toEqual(['Seeded two']);
  });

  it('refuses a title or first file name above 255 characters', async () => {
    const long = 'x'.repeat(256);
    expect(await call('POST', '/snippets', 'dev-token', { title: long, files: [{ file_path: long, content: 'a' }] })).toMatchObject({
      status: 400, body: { message: { error: 'Title is too long (maximum is 255 characters) and File name is too long (maximum is 255 characters)' } },
    });
    const s = await make([{ file_path: 'a', content: 'a' }]);
    expect(await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { title: long })).toMatchObject({ status: 400, body: { message: { error: 'Title is too long (maximum is 255 characters)' } } });
    expect((await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { title: 'x'.repeat(255) })).status).toBe(200);
  });

  it('keeps names like __proto__ and constructor as files', async () => {
    const s = await make([{ file_path: '__proto__', content: 'p' }, { file_path: 'constructor', content: 'c' }]);
    expect((await call('GET', `${APP}/snippets/${s.id}/files/main/__proto__/raw`, 'dev-token')).body).toBe('p');
    expect((await call('GET', `${APP}/snippets/${s.id}/raw`, 'dev-token')).body).toBe('p');
  });

  it('reads a file in a directory with its path encoded, and serves binary content as a download', async () => {
    const s = await make([{ file_path: 'lib/x.rb', content: 'x = 1' }, { file_path: 'z.bin', content: 'a\u0000b' }]);
    const r = await call('GET', `${APP}/snippets/${s.id}/files/main/lib%2Fx.rb/raw`, 'dev-token');
    expect([r.body, r.res.headers.get('content-disposition')]).toEqual(['x = 1', `inline; filename="x.rb"; filename*=UTF-8''x.rb`]);
    const b = await call('GET', `${APP}/snippets/${s.id}/files/main/z.bin/raw`, 'dev-token');
    expect([b.res.headers.get('content-type'), b.res.headers.get('content-disposition')?.startsWith('attachment')]).toEqual(['application/octet-stream', true]);
  });
});

describe('the entity and the neighbours', () => {
  it('shows administrators the storage the repository is on, and moves it with a storage move', async () => {
    const s = await make([{ file_path: 'a.txt', content: 'a' }]);
    expect((await call('GET', `${APP}/snippets/${s.id}`, 'dev-token')).body).not.toHaveProperty('repository_storage');
    const got = await call('GET', `${APP}/snippets/${s.id}`, 'root-token');
    expect(Object.keys(got.body).slice(-1)).toEqual(['repository_storage']);
    expect(got.body.repository_storage).toBe('default');
    const move = await call('POST', `/snippets/${s.id}/repository_storage_moves`, 'root-token', { destination_storage_name: 'storage2' });
    expect(move.status).toBe(201);
    // While it moves the repository takes no writes; reads go on.
    expect((await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { files: [{ action: 'update', file_path: 'a.txt', content: 'b' }] })).status).toBe(400);
    expect((await call('GET', `${APP}/snippets/${s.id}/raw`, 'dev-token')).body).toBe('a');
    world().runUntilIdle();
    expect((await call('GET', `/snippets/${s.id}`, 'root-token')).body.repository_storage).toBe('storage2');
    expect((await call('GET', '/snippets/all?repository_storage=storage2', 'root-token')).body.map((x: { id: number }) => x.id)).toEqual([s.id]);
    expect((await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { files: [{ action: 'update', file_path: 'a.txt', content: 'b' }] })).status).toBe(200);
    expect((await call('GET', `${APP}/snippets/${s.id}/raw`, 'dev-token')).body).toBe('b');
  });

  it('answers the user agent detail to administrators', async () => {
    const made = await call('POST', '/snippets', 'dev-token', { title: 'UA', visibility: 'public', file_name: 'a', content: 'a' }, { 'User-Agent': 'curl/8.0', 'X-Forwarded-For': '10.1.2.3' });
    const id = made.body.id;
    expect(await call('GET', `/snippets/${id}/user_agent_detail`, 'root-token')).toMatchObject({
      status: 200, body: { user_agent: 'curl/8.0', ip_address: '10.1.2.3', akismet_submitted: false },
    });
    expect((await call('GET', `/snippets/${id}/user_agent_detail`, 'dev-token')).status).toBe(403);
    expect((await call('GET', `/snippets/${id}/user_agent_detail`)).status).toBe(401);
    expect(await call('GET', '/snippets/999/user_agent_detail', 'root-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    const p = (await call('POST', `${APP}/snippets`, 'dev-token', { title: 'T', visibility: 'public', files: [{ file_path: 'a', content: 'a' }] }, { 'User-Agent': 'curl/8.0' })).body;
    expect((await call('GET', `${APP}/snippets/${p.id}/user_agent_detail`, 'root-token')).status).toBe(200);
    expect((await call('GET', `/projects/${idOf(world(), 'acme/app')}/snippets/${id}/user_agent_detail`, 'root-token')).status).toBe(404);
    const seeded = (await call('GET', `${APP}/snippets`, 'root-token')).body.find((x: { title: string }) => x.title === 'Seeded one');
    expect(await call('GET', `/snippets/${seeded.id}/user_agent_detail`, 'root-token')).toMatchObject({ status: 404, body: { message: '404 UserAgentDetail Not Found' } });
  });

  it('records it only where GitLab checks for spam: a public snippet made, made public, or given new content', async () => {
    const ua = { 'User-Agent': 'curl/8.0', 'X-Forwarded-For': '10.1.2.3' };
    const detail = async (id: number) => (await call('GET', `/snippets/${id}/user_agent_detail`, 'root-token')).status;
    const priv = await make([{ file_path: 'a', content: 'a' }]);
    expect(await detail(priv.id)).toBe(404);
    await call('PUT', `${APP}/snippets/${priv.id}`, 'dev-token', { description: 'still private' }, ua);
    expect(await detail(priv.id)).toBe(404);
    await call('PUT', `${APP}/snippets/${priv.id}`, 'dev-token', { visibility: 'public' }, ua);
    expect(await detail(priv.id)).toBe(200);
    const internal = (await call('POST', '/snippets', 'dev-token', { title: 'I', visibility: 'internal', file_name: 'a', content: 'a' }, ua)).body;
    expect(await detail(internal.id)).toBe(404);
    const bare = (await call('POST', '/snippets', 'dev-token', { title: 'B', visibility: 'public', file_name: 'a', content: 'a' }, { 'User-Agent': '' })).body;
    expect(await detail(bare.id)).toBe(404);
  });

  it('pages public and all snippets off their tables as the filtered lists page them', async () => {
    for (let i = 0; i < 23; i++) await call('POST', '/snippets', 'dev-token', { title: `P${i}`, visibility: i % 3 ? 'public' : 'private', file_name: 'a', content: 'a' });
    for (const [path, token] of [['/snippets/public', 'dev-token'], ['/snippets/all', 'root-token']] as const) {
      for (const page of [1, 2, 3, 9]) {
        const lazy = await call('GET', `${path}?per_page=7&page=${page}`, token);
        const eager = await call('GET', `${path}?per_page=7&page=${page}&created_after=2000-01-01T00:00:00Z`, token);
        expect(lazy.body.map((x: { id: number }) => x.id)).toEqual(eager.body.map((x: { id: number }) => x.id));
        for (const h of ['x-total', 'x-total-pages', 'x-next-page', 'x-prev-page', 'x-page']) expect(lazy.res.headers.get(h)).toBe(eager.res.headers.get(h));
      }
    }
    expect((await call('GET', '/snippets/public?per_page=100', 'dev-token')).body).toHaveLength(16);
  });

  it('lets no external user create a personal snippet or read an internal one', async () => {
    expect(await call('POST', '/snippets', 'ext-token', { title: 'E', file_name: 'a', content: 'a' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const internal = await call('POST', '/snippets', 'dev-token', { title: 'I', visibility: 'internal', file_name: 'a', content: 'a' });
    expect((await call('GET', `/snippets/${internal.body.id}`, 'ext-token')).status).toBe(404);
    expect((await call('GET', `/snippets/${internal.body.id}`, 'outsider-token')).status).toBe(200);
  });

  it('filters the lists by creation time', async () => {
    world().clock.advance('1d');
    const late = await call('POST', '/snippets', 'outsider-token', { title: 'Late', visibility: 'public', file_name: 'a', content: 'a' });
    const after = await call('GET', '/snippets/public?created_after=2024-03-01T12:00:00Z', 'dev-token');
    expect(after.body.map((x: { id: number }) => x.id)).toEqual([late.body.id]);
    const before = await call('GET', '/snippets/public?created_before=2024-03-01T12:00:00Z', 'dev-token');
    expect(before.body.map((x: { title: string }) => x.title)).toEqual(['Seeded personal']);
    expect((await call('GET', '/snippets?created_before=2024-03-01T12:00:00Z', 'outsider-token')).body.map((x: { title: string }) => x.title)).toEqual(['Seeded personal']);
  });
});

describe('snippets from a fixture', () => {
  it('seeds project and personal snippets, each with its repository and one commit by its author', async () => {
    const list = (await call('GET', `${APP}/snippets`, 'guest-token')).body as { id: number; title: string; files: { path: string }[]; author: { username: string } }[];
    expect(list.map((s) => [s.title, s.author.username, s.files.map((f) => f.path)])).toEqual([
      ['Seeded two', 'dev', ['dir/x.rb']],
      ['Seeded one', 'root', ['a.txt', 'b.txt']],
    ]);
    const one = list[1]!;
    expect((await call('GET', `${APP}/snippets/${one.id}/raw`, 'guest-token')).body).toBe('A');
    expect((await call('GET', `${APP}/snippets/${one.id}/files/main/b.txt/raw`, 'guest-token')).body).toBe('B');
    const log = await snippetHistory(world(), one.id);
    expect(log).toMatchObject([{ message: 'Initial commit', author: { name: 'Administrator', email: 'root@example.com' }, files: { 'a.txt': 'A', 'b.txt': 'B' } }]);
    const personal = (await call('GET', '/snippets/public', 'dev-token')).body;
    expect(personal.map((s: { title: string }) => s.title)).toEqual(['Seeded personal']);
    expect((await call('GET', `/snippets/${personal[0].id}/raw`)).body).toBe('# notes');
  });

  it('writes to seeded snippets one after another, each keeping its own history', async () => {
    const list = (await call('GET', `${APP}/snippets`, 'root-token')).body as { id: number; title: string }[];
    const [two, one] = list;
    await call('PUT', `${APP}/snippets/${one!.id}`, 'root-token', { files: [{ action: 'update', file_path: 'a.txt', content: 'A2' }] });
    await call('PUT', `${APP}/snippets/${two!.id}`, 'root-token', { files: [{ action: 'create', file_path: 'y.rb', content: 'y' }] });
    const oneLog = await snippetHistory(world(), one!.id);
    const twoLog = await snippetHistory(world(), two!.id);
    expect(oneLog.map((c) => c.files)).toEqual([{ 'a.txt': 'A2', 'b.txt': 'B' }, { 'a.txt': 'A', 'b.txt': 'B' }]);
    expect(twoLog.map((c) => c.files)).toEqual([{ 'dir/x.rb': 'puts 1', 'y.rb': 'y' }, { 'dir/x.rb': 'puts 1' }]);
    // A seeded snippet reads no other seeded snippet's commit.
    expect((await call('GET', `${APP}/snippets/${one!.id}/files/${twoLog[1]!.sha}/a.txt/raw`, 'root-token')).status).toBe(404);
  });

  it('seeds a thousand snippets, and refuses a fixture snippet without files or with a bad path', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ title: `S${i}`, files: [{ path: `f${i}.txt`, content: `content ${i}` }] }));
    const e = await createEmulator({ fixture: { users: TEAM.slice(0, 1), groups: [ACME], projects: [{ namespace: 'acme', path: 'big', creator: 'root', snippets: many }] } });
    const res = await apiCall(e, '/projects/acme%2Fbig/snippets?per_page=1', { token: 'root-token' });
    expect(res.headers.get('x-total')).toBe('1000');
    const [last] = (await res.json()) as { id: number }[];
    expect(await (await apiCall(e, `/projects/acme%2Fbig/snippets/${last!.id}/raw`, { token: 'root-token' })).text()).toBe('content 999');
    await expect(createEmulator({ fixture: { users: TEAM.slice(0, 1), groups: [ACME], projects: [{ namespace: 'acme', path: 'p', creator: 'root', snippets: [{ title: 'x', files: [] }] }] } }))
      .rejects.toThrow(/snippet 1 'x'/);
    await expect(createEmulator({ fixture: { users: TEAM.slice(0, 1), groups: [ACME], projects: [{ namespace: 'acme', path: 'p', creator: 'root', snippets: [{ title: 'x', files: [{ path: '../a', content: 'a' }] }] }] } }))
      .rejects.toThrow(/invalid file name/);
  });

  it('forgets a deleted project’s snippets and their repositories', async () => {
    const s = await make([{ file_path: 'a', content: 'a' }]);
    expect((await call('DELETE', APP, 'root-token')).status).toBeLessThan(300);
    world().runUntilIdle();
    expect((await call('GET', `/snippets/${s.id}`, 'root-token')).status).toBe(404);
    expect(await snippetHistory(world(), s.id)).toEqual([]);
  });
});
