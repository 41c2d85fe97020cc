// A world written out as a fixture and seeded again answers every read as the world it came
// from: the default world, and worlds built by writes (issues, merge requests with notes,
// pipelines, wikis, snippets, variables, members, a pushed repository with its history).
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { validateFixture } from '../src/families/registry.js';
import { firstDifference, ORIGIN, readPaths } from './support/reads.js';

const NOW = '2030-01-01T00:00:00Z';
const ROOT = 'glpat-emulator-root-token';
const ALICE = 'glpat-emulator-alice-token';

/** The export of `e`, through JSON as a file carries it, seeded into a new emulator on the same time. */
async function reseeded(e: Emulator): Promise<{ fixture: Fixture; copy: Emulator }> {
  const fixture = JSON.parse(JSON.stringify(await e.exportFixture())) as Fixture;
  const copy = await createEmulator({ fixture, clock: { now: e.clock.now(), frozen: true } });
  return { fixture, copy };
}

describe('the default world', () => {
  it('exported and seeded again answers every read route alike, as root, as a member and as a guest', async () => {
    const e = await createEmulator({ clock: { now: NOW, frozen: true } });
    const { copy } = await reseeded(e);
    const paths = readPaths(e);
    expect(paths.length).toBeGreaterThan(300);
    expect(await firstDifference(e, copy, paths, [ROOT, ALICE, null])).toBeUndefined();
  }, 120_000);

  it('an export passes the fixture format', async () => {
    const e = await createEmulator({ clock: { now: NOW, frozen: true } });
    const fixture = JSON.parse(JSON.stringify(await e.exportFixture())) as Fixture;
    expect(fixture.world?.format).toBe('gitlab-emulator/world');
    expect(() => validateFixture(fixture)).not.toThrow();
  });
});

/** A write through the API as `token`; fails the test unless it succeeds. */
async function write(e: Emulator, method: string, path: string, body: unknown, token = ROOT): Promise<any> {
  const res = await e.handle(new Request(`${ORIGIN}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  e.clock.advance('7m');
  return text ? JSON.parse(text) : null;
}

/** A multipart write (an upload) as root; fails the test unless it succeeds. */
async function upload(e: Emulator, method: string, path: string, field: string, name: string, bytes: Uint8Array<ArrayBuffer>): Promise<any> {
  const form = new FormData();
  form.append(field, new File([bytes], name, { type: 'image/png' }));
  const res = await e.handle(new Request(`${ORIGIN}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': ROOT }, body: form }));
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  e.clock.advance('7m');
  return JSON.parse(text);
}

/** A PNG of one pixel. */
const PIXEL = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));

/** Where the last world built keeps its upload. */
let uploaded = '';

/** A world of many kinds of records, each made by a write at its own time. */
export async function builtWorld(): Promise<Emulator> {
  const e = await createEmulator({ clock: { now: NOW, frozen: true } });
  const bob = await write(e, 'POST', '/users', { username: 'bob', name: 'Bob', email: 'bob@example.com', password: 'a-long-password-1' });
  await write(e, 'POST', `/users/${bob.id}/personal_access_tokens`, { name: 'ci', scopes: ['api'], expires_at: '2031-01-01' });
  const group = await write(e, 'POST', '/groups', { name: 'Tools', path: 'tools', parent_id: 3, visibility: 'internal' });
  await write(e, 'POST', `/groups/${group.id}/members`, { user_id: bob.id, access_level: 30 });
  await write(e, 'POST', `/groups/${group.id}/variables`, { key: 'REGION', value: 'eu-west' });
  const p = await write(e, 'POST', '/projects', { name: 'App', path: 'app', namespace_id: group.id, initialize_with_readme: true, visibility: 'internal' });
  const carol = await write(e, 'POST', '/users', { username: 'carol', name: 'Carol', email: 'carol@example.com', password: 'a-long-password-2' });
  await write(e, 'POST', `/projects/${p.id}/members`, { user_id: carol.id, access_level: 40, expires_at: '2030-06-01' });
  await write(e, 'POST', `/projects/${p.id}/repository/commits`, {
    branch: 'main',
    commit_message: 'Add the app and its CI',
    actions: [
      { action: 'create', file_path: 'src/app.ts', content: 'export const app = 1;\n' },
      { action: 'create', file_path: '.gitlab-ci.yml', content: 'test:\n  script: echo ok\n' },
    ],
  });
  await write(e, 'POST', `/projects/${p.id}/repository/branches`, { branch: 'feature', ref: 'main' });
  await write(e, 'POST', `/projects/${p.id}/repository/commits`, { branch: 'feature', commit_message: 'Change the app', actions: [{ action: 'update', file_path: 'src/app.ts', content: 'export const app = 2;\n' }] });
  await write(e, 'POST', `/projects/${p.id}/repository/tags`, { tag_name: 'v0.1.0', ref: 'main', message: 'First' });
  await write(e, 'POST', `/projects/${p.id}/labels`, { name: 'bug', color: '#ff0000' });
  const milestone = await write(e, 'POST', `/projects/${p.id}/milestones`, { title: 'M1', due_date: '2030-02-01' });
  const issue = await write(e, 'POST', `/projects/${p.id}/issues`, { title: 'It breaks', description: 'Steps', labels: 'bug', milestone_id: milestone.id, assignee_ids: [2] });
  await write(e, 'POST', `/projects/${p.id}/issues/${issue.iid}/notes`, { body: 'Seen it too' }, ALICE);
  await write(e, 'PUT', `/projects/${p.id}/issues/${issue.iid}`, { state_event: 'close' });
  await write(e, 'POST', `/projects/${p.id}/issues/${issue.iid}/award_emoji`, { name: 'thumbsup' }, ALICE);
  const mr = await write(e, 'POST', `/projects/${p.id}/merge_requests`, { source_branch: 'feature', target_branch: 'main', title: 'Change the app', labels: 'bug' });
  await write(e, 'POST', `/projects/${p.id}/merge_requests/${mr.iid}/notes`, { body: 'Looks good' }, ALICE);
  await write(e, 'POST', `/projects/${p.id}/merge_requests/${mr.iid}/discussions`, { body: 'A question' });
  await write(e, 'POST', `/projects/${p.id}/pipeline`, { ref: 'main' });
  await write(e, 'POST', `/projects/${p.id}/wikis`, { title: 'Home', content: '# Home' });
  await write(e, 'POST', `/projects/${p.id}/wikis`, { title: 'Guide', content: 'How to' });
  await write(e, 'PUT', `/projects/${p.id}/wikis/home`, { content: '# Home, again' });
  await write(e, 'POST', `/projects/${p.id}/snippets`, { title: 'Snip', visibility: 'internal', files: [{ file_path: 'notes.txt', content: 'n' }] });
  await write(e, 'POST', '/snippets', { title: 'Mine', visibility: 'public', files: [{ file_path: 'a.md', content: '# a' }] }, ALICE);
  await write(e, 'POST', `/projects/${p.id}/variables`, { key: 'DEPLOY_TOKEN', value: 'secret-value-1', masked: true });
  await write(e, 'POST', `/projects/${p.id}/releases`, { tag_name: 'v0.1.0', name: 'First', description: 'The first' });
  uploaded = (await upload(e, 'POST', `/projects/${p.id}/uploads`, 'file', 'shot.png', PIXEL)).full_path;
  await upload(e, 'PUT', `/users/${bob.id}`, 'avatar', 'bob.png', PIXEL);
  return e;
}

describe('a world built by writes', () => {
  it('exported and seeded again answers every read route alike', async () => {
    const e = await builtWorld();
    const { fixture, copy } = await reseeded(e);
    expect(JSON.stringify(await copy.exportFixture())).toBe(JSON.stringify(fixture));
    // The API's reads, and the web's: an upload, an avatar, an archive, a raw file.
    const bob = (await (await e.handle(new Request(`${ORIGIN}/api/v4/users?username=bob`, { headers: { 'PRIVATE-TOKEN': ROOT } }))).json()) as { avatar_url: string }[];
    expect(bob[0]!.avatar_url).toContain('/uploads/-/system/user/avatar/');
    const web = [
      uploaded,
      `/acme/tools/app${uploaded.replace(/^\/-\/project\/\d+/, '')}`,
      new URL(bob[0]!.avatar_url).pathname,
      '/acme/tools/app/-/archive/main/app-main.tar.gz',
      '/acme/tools/app/-/archive/feature/app-feature.zip',
      '/api/v4/projects/acme%2Ftools%2Fapp/repository/files/src%2Fapp.ts/raw?ref=feature',
    ].map((path) => path.replace(/^\/api\/v4/, '-api-'));
    const paths = readPaths(e);
    expect(await firstDifference(e, copy, paths, [ROOT, ALICE, null])).toBeUndefined();
    for (const path of web) {
      const url = path.startsWith('-api-') ? path.replace('-api-', '/api/v4') : path;
      const [x, y] = await Promise.all([e, copy].map(async (target) => {
        const res = await target.handle(new Request(ORIGIN + url, { headers: { 'PRIVATE-TOKEN': ROOT } }));
        return [res.status, res.headers.get('content-type'), new Uint8Array(await res.arrayBuffer()).join(',')];
      }));
      expect(x![0], url).toBe(200);
      expect(y, url).toEqual(x);
    }
    // The reads reach what the writes made.
    const found = await Promise.all(['/projects/acme%2Ftools%2Fapp/repository/commits?ref_name=feature', '/projects/acme%2Ftools%2Fapp/merge_requests/1/notes', '/projects/acme%2Ftools%2Fapp/pipelines', '/projects/acme%2Ftools%2Fapp/wikis', '/projects/acme%2Ftools%2Fapp/snippets'].map(async (path) => (await copy.handle(new Request(`${ORIGIN}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': ROOT } }))).json()));
    expect(found.map((list: unknown[]) => list.length)).toEqual([3, 2, 5, 2, 1]);
  }, 180_000);

  it('a world that differs by one record is told apart', async () => {
    const e = await builtWorld();
    const { copy } = await reseeded(e);
    await write(copy, 'POST', '/projects/acme%2Ftools%2Fapp/issues/1/notes', { body: 'only here' });
    e.clock.advance('7m');
    const found = await firstDifference(e, copy, readPaths(e), [ROOT]);
    expect(found).toBeDefined();
  }, 180_000);
});

describe('worlds that share objects with another history', () => {
  it('a fork exports what it sees of its original, and a restored world none of what came after', async () => {
    const e = await createEmulator({ clock: { now: NOW, frozen: true } });
    const before = e.snapshot();
    await write(e, 'POST', '/projects/1/repository/commits', { branch: 'main', commit_message: 'Later', actions: [{ action: 'create', file_path: 'later.txt', content: 'later' }] });
    const fork = e.fork();
    await write(fork, 'POST', '/projects/1/repository/commits', { branch: 'main', commit_message: 'On the fork', actions: [{ action: 'create', file_path: 'fork.txt', content: 'fork' }] });
    const { copy } = await reseeded(fork);
    expect(await firstDifference(fork, copy, readPaths(fork, 2), [ROOT])).toBeUndefined();

    e.restore(before);
    const { fixture, copy: restored } = await reseeded(e);
    expect(await firstDifference(e, restored, readPaths(e, 2), [ROOT])).toBeUndefined();
    const objects = Object.keys((fixture.world!.parts as { repositories: { storages: Record<string, string>[] } }).repositories.storages[0]!);
    const later = (await (await fork.handle(new Request(`${ORIGIN}/api/v4/projects/1/repository/commits?per_page=1`, { headers: { 'PRIVATE-TOKEN': ROOT } }))).json()) as { id: string }[];
    expect(objects).not.toContain(later[0]!.id);
  }, 60_000);
});
