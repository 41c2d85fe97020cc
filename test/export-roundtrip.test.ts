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
  return e;
}

describe('a world built by writes', () => {
  it('exported and seeded again answers every read route alike', async () => {
    const e = await builtWorld();
    const { copy } = await reseeded(e);
    const paths = readPaths(e);
    expect(await firstDifference(e, copy, paths, [ROOT, ALICE, null])).toBeUndefined();
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
