// Repository storage moves through `emulator.handle`: scheduling, validation, the state machine
// on the clock with failures chosen ahead, the read-only window every repository write meets,
// the bulk scheduler, `emulator.moves` and the control API (doc/api/project_repository_storage_moves.md,
// spec/support/shared_examples/requests/api/repository_storage_moves_shared_examples.rb).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, idOf, pendingTasks, seededWorld, TEAM, TEAM_MEMBERS } from './support/world.js';

const fixture: Fixture = {
  instance: { tier: 'premium' },
  users: TEAM,
  groups: [{ path: 'acme', name: 'Acme', visibility: 'public', members: [{ user: 'mai', access_level: 'owner' }] }],
  projects: [
    { namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'README.md': '# App\n' } } },
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', repository_storage: 'storage2' },
    { namespace: 'acme', path: 'docs', visibility: 'public', creator: 'root' },
  ],
  storage: { move_step: '30s' },
};

const READ_ONLY = { message: 'The repository is temporarily read-only. Please try again later.' };
const world = seededWorld(fixture, '2026-03-01T12:00:00Z');
const call = (path: string, init: Parameters<typeof apiCall>[2] = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => res.json() as Promise<any>;
const APP = encodeURIComponent('acme/app');
const schedule = (project: string, json: unknown = {}) => call(`/projects/${encodeURIComponent(project)}/repository_storage_moves`, { method: 'POST', json });
const stateOf = async (id: number) => (await body(await call(`/project_repository_storage_moves/${id}`))).state as string;
const step = () => world().clock.advance('30s');

describe('scheduling a project move', () => {
  it('answers 201 with the move, scheduled, from the project’s storage; the project goes read-only', async () => {
    const res = await schedule('acme/app', { destination_storage_name: 'storage2' });
    expect(res.status).toBe(201);
    const move = await body(res);
    expect(Object.keys(move)).toEqual(['id', 'created_at', 'state', 'source_storage_name', 'destination_storage_name', 'error_message', 'project']);
    expect(move).toMatchObject({
      created_at: '2026-03-01T12:00:00.000Z', state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage2', error_message: null,
      project: { id: idOf(world(), 'acme/app'), name: 'app', name_with_namespace: 'Acme / app', path: 'app', path_with_namespace: 'acme/app', description: '' },
    });
    expect(world().moves.isReadOnly('project', 'acme/app')).toBe(true);
    // a second move while the first runs
    const again = await schedule('acme/app', { destination_storage_name: 'storage2' });
    expect([again.status, await body(again)]).toEqual([400, { message: { project: ['is read-only'] } }]);
  });

  it('validates the destination; picks one by weight when omitted, the same for the same world', async () => {
    const bad = await schedule('acme/app', { destination_storage_name: 'nowhere' });
    expect([bad.status, await body(bad)]).toEqual([400, { message: { destination_storage_name: ['is not included in the list'] } }]);
    const picked = (await body(await schedule('acme/docs'))).destination_storage_name;
    expect(['default', 'storage2']).toContain(picked);
    const before = world().snapshot();
    world().restore(before);
    world().moves.setShards([{ name: 'default', weight: 0 }, { name: 'storage2', weight: 5 }]);
    expect((await body(await schedule('acme/app'))).destination_storage_name).toBe('storage2');
  });

  it('is for administrators only: 401 anonymous, 403 others, on every endpoint', async () => {
    const paths = [
      ['GET', '/project_repository_storage_moves'], ['GET', '/project_repository_storage_moves/1'], ['POST', '/project_repository_storage_moves'],
      ['GET', `/projects/${APP}/repository_storage_moves`], ['GET', `/projects/${APP}/repository_storage_moves/1`], ['POST', `/projects/${APP}/repository_storage_moves`],
      ['GET', '/snippet_repository_storage_moves'], ['GET', '/group_repository_storage_moves'], ['POST', '/groups/acme/repository_storage_moves'],
    ] as const;
    for (const [method, path] of paths) {
      expect((await apiCall(world(), path, { method })).status, `${method} ${path}`).toBe(401);
      expect((await apiCall(world(), path, { method, token: 'maintainer-token' })).status, `${method} ${path}`).toBe(403);
    }
  });
});

describe('the state machine on the clock', () => {
  it('steps scheduled -> started -> replicated -> finished, one step per configured time; writable from replication on', async () => {
    const { id } = await body(await schedule('acme/app', { destination_storage_name: 'storage2' }));
    expect(await stateOf(id)).toBe('scheduled');
    world().clock.advance('29s');
    expect(await stateOf(id)).toBe('scheduled');
    world().clock.advance('1s');
    expect(await stateOf(id)).toBe('started');
    expect(world().moves.isReadOnly('project', 'acme/app')).toBe(true);
    step();
    expect(await stateOf(id)).toBe('replicated');
    expect(world().moves.isReadOnly('project', 'acme/app')).toBe(false);
    expect((await body(await call(`/projects/${APP}`))).repository_storage).toBe('storage2');
    step();
    expect(await stateOf(id)).toBe('finished');
    // a later move starts from the new storage
    expect((await body(await schedule('acme/app', { destination_storage_name: 'default' }))).source_storage_name).toBe('storage2');
  });

  it('keeps time: one advance over several steps runs them all', async () => {
    const { id } = await body(await schedule('acme/app', { destination_storage_name: 'storage2' }));
    world().clock.advance('95s');
    expect(await stateOf(id)).toBe('finished');
    const move = world().moves.get('project', id)!;
    expect(new Date(move.updatedAt).toISOString()).toBe('2026-03-01T12:01:30.000Z');
  });

  it('fails as chosen ahead: a copy failure, a checksum mismatch, storages on one filesystem', async () => {
    for (const [failure, message] of [
      ['copy', /^Failed to replicate project repository/],
      ['checksum', /^Failed to verify project repository checksum from [0-9a-f]{40} to [0-9a-f]{40}$/],
      ['same_filesystem', /SameFilesystemError/],
    ] as const) {
      world().moves.failNext('project', 'acme/app', failure);
      const { id } = await body(await schedule('acme/app', { destination_storage_name: 'storage2' }));
      step();
      expect(await stateOf(id)).toBe('started');
      step();
      const move = await body(await call(`/project_repository_storage_moves/${id}`));
      expect(move.state).toBe('failed');
      expect(move.error_message).toMatch(message);
      expect(world().moves.isReadOnly('project', 'acme/app')).toBe(false);
      expect(world().moves.storageOf('project', 'acme/app')).toBe('default');
      step();
      expect(await stateOf(id)).toBe('failed');
    }
  });

  it('fails a cleanup: `cleanup failed` (with a space), on the new storage, writable', async () => {
    const { id } = await body(await schedule('acme/app', { destination_storage_name: 'storage2' }));
    world().moves.fail('project', id, 'cleanup');
    world().runUntilIdle();
    const move = await body(await call(`/projects/${APP}/repository_storage_moves/${id}`));
    expect(move).toMatchObject({ state: 'cleanup failed', error_message: expect.stringMatching(/remove/) });
    expect(world().moves.storageOf('project', 'acme/app')).toBe('storage2');
    expect(() => world().moves.fail('project', id, 'copy')).toThrow(/too late/);
  });
});

describe('reading moves', () => {
  it('lists newest first, per project, and gets one; 404 for unknown ids or another project’s move', async () => {
    const a = await body(await schedule('acme/docs', { destination_storage_name: 'storage2' }));
    world().clock.advance('1s');
    const b = await body(await schedule('acme/app', { destination_storage_name: 'storage2' }));
    expect((await body(await call('/project_repository_storage_moves'))).map((m: { id: number }) => m.id)).toEqual([b.id, a.id]);
    expect((await body(await call(`/projects/${APP}/repository_storage_moves`))).map((m: { id: number }) => m.id)).toEqual([b.id]);
    expect((await body(await call(`/projects/${APP}/repository_storage_moves/${b.id}`))).id).toBe(b.id);
    expect(await body(await call(`/projects/${APP}/repository_storage_moves/${a.id}`))).toEqual({ message: '404 Not found' });
    expect(await body(await call('/project_repository_storage_moves/999'))).toEqual({ message: '404 Not found' });
    expect(await body(await call('/projects/999/repository_storage_moves'))).toEqual({ message: '404 Project Not Found' });
    const paged = await call('/project_repository_storage_moves?per_page=1');
    expect(paged.headers.get('x-total')).toBe('2');
  });
});

describe('moving every project off a shard', () => {
  it('answers 202 and lets a timed worker create the moves', async () => {
    const res = await call('/project_repository_storage_moves', { method: 'POST', json: { source_storage_name: 'default', destination_storage_name: 'storage2' } });
    expect([res.status, await body(res)]).toEqual([202, { message: '202 Accepted' }]);
    expect(world().moves.list('project')).toEqual([]);
    const list = await body(await call('/project_repository_storage_moves'));
    expect(list.map((m: { project: { path: string }; state: string }) => [m.project.path, m.state]).sort()).toEqual([['app', 'scheduled'], ['docs', 'scheduled']]);
  });

  it('checks the storage names as Grape does', async () => {
    let res = await call('/project_repository_storage_moves', { method: 'POST', json: { source_storage_name: 'nowhere' } });
    expect([res.status, await body(res)]).toEqual([400, { error: 'source_storage_name does not have a valid value' }]);
    res = await call('/project_repository_storage_moves', { method: 'POST', json: { source_storage_name: 'default', destination_storage_name: 'x' } });
    expect([res.status, await body(res)]).toEqual([400, { error: 'destination_storage_name does not have a valid value' }]);
    res = await call('/project_repository_storage_moves', { method: 'POST', json: {} });
    expect(res.status).toBe(400);
  });
});

describe('the read-only window', () => {
  it('refuses every repository write through the API while the move runs, and keeps reads working', async () => {
    await schedule('acme/app', { destination_storage_name: 'storage2' });
    const dev = (path: string, init: Parameters<typeof apiCall>[2] = {}) => apiCall(world(), `/projects/${APP}${path}`, { token: 'maintainer-token', ...init });
    const refused = async (res: Response) => expect([res.status, await body(res)]).toEqual([400, READ_ONLY]);
    await refused(await dev('/repository/files/new.txt', { method: 'POST', json: { branch: 'main', content: 'x', commit_message: 'add' } }));
    await refused(await dev('/repository/files/README.md', { method: 'PUT', json: { branch: 'main', content: 'x', commit_message: 'edit' } }));
    await refused(await dev('/repository/files/README.md', { method: 'DELETE', json: { branch: 'main', commit_message: 'drop' } }));
    await refused(await dev('/repository/branches', { method: 'POST', json: { branch: 'topic', ref: 'main' } }));
    await refused(await dev('/repository/tags', { method: 'POST', json: { tag_name: 'v1', ref: 'main' } }));
    await refused(await dev('/releases', { method: 'POST', json: { tag_name: 'v2', ref: 'main', name: 'Two' } }));
    expect((await dev('/repository/files/README.md/raw?ref=main')).status).toBe(200);
    expect((await dev('/repository/branches')).status).toBe(200);
    expect((await dev('/repository/commits')).status).toBe(200);
    world().runUntilIdle();
    expect((await dev('/repository/branches', { method: 'POST', json: { branch: 'topic', ref: 'main' } })).status).toBe(201);
  });

  it('refuses deleting a branch or a tag too', async () => {
    await apiCall(world(), `/projects/${APP}/repository/branches`, { method: 'POST', token: 'maintainer-token', json: { branch: 'old', ref: 'main' } });
    await apiCall(world(), `/projects/${APP}/repository/tags`, { method: 'POST', token: 'maintainer-token', json: { tag_name: 'v0', ref: 'main' } });
    await schedule('acme/app', { destination_storage_name: 'storage2' });
    for (const path of ['/repository/branches/old', '/repository/tags/v0']) {
      const res = await apiCall(world(), `/projects/${APP}${path}`, { method: 'DELETE', token: 'maintainer-token' });
      expect([res.status, await body(res)]).toEqual([400, READ_ONLY]);
    }
  });
});

describe('a deleted container', () => {
  it('takes its moves with it, even mid-move', async () => {
    await schedule('acme/docs', { destination_storage_name: 'storage2' });
    step();
    expect((await call(`/projects/${encodeURIComponent('acme/docs')}`, { method: 'DELETE' })).status).toBe(202);
    world().runUntilIdle();
    expect(await body(await call('/project_repository_storage_moves'))).toEqual([]);
    expect(pendingTasks(world())).toEqual([]);
  });
});

describe('group and snippet moves', () => {
  it('moves a group’s wiki repository (paid tiers)', async () => {
    const res = await call('/groups/acme/repository_storage_moves', { method: 'POST', json: { destination_storage_name: 'storage2' } });
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ state: 'scheduled', group: { id: idOf(world(), 'acme'), name: 'Acme', web_url: 'https://gitlab.example.com/groups/acme' } });
    expect((await body(await call('/group_repository_storage_moves'))).length).toBe(1);
    world().configure({ tier: 'free' });
    expect((await call('/group_repository_storage_moves')).status).toBe(404);
  });

  it('moves a snippet, which is read-only meanwhile, and 404s one that does not exist', async () => {
    const made = await apiCall(world(), '/snippets', { token: 'dev-token', method: 'POST', json: { title: 'Notes', file_name: 'a.txt', content: 'a', visibility: 'private' } });
    expect(made.status).toBe(201);
    const { id } = await body(made);
    const res = await call(`/snippets/${id}/repository_storage_moves`, { method: 'POST', json: { destination_storage_name: 'storage2' } });
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ state: 'scheduled', snippet: { id, title: 'Notes' } });
    expect((await body(await call('/snippet_repository_storage_moves'))).length).toBe(1);
    const edit = () => apiCall(world(), `/snippets/${id}`, { token: 'dev-token', method: 'PUT', json: { title: 'Renamed' } });
    const refused = await edit();
    expect(refused.status).toBe(400);
    expect(await body(refused)).toEqual(READ_ONLY);
    world().runUntilIdle();
    expect((await edit()).status).toBe(200);
    expect(await body(await call('/snippets/999/repository_storage_moves'))).toEqual({ message: '404 Snippet Not Found' });
  });

  it('moves every snippet of a storage in bulk, each shown as a BasicSnippet', async () => {
    for (const title of ['One', 'Two']) {
      await apiCall(world(), '/snippets', { token: 'dev-token', method: 'POST', json: { title, file_name: 'a.txt', content: 'a', visibility: 'private' } });
    }
    const res = await call('/snippet_repository_storage_moves', { method: 'POST', json: { source_storage_name: 'default', destination_storage_name: 'storage2' } });
    expect(res.status).toBe(202);
    world().runUntilIdle();
    const moves = await body(await call('/snippet_repository_storage_moves'));
    expect(moves.map((m: { snippet: { title: string } }) => m.snippet.title).sort()).toEqual(['One', 'Two']);
    expect(Object.keys(moves[0].snippet)).not.toContain('files');
    expect(moves.every((m: { destination_storage_name: string }) => m.destination_storage_name === 'storage2')).toBe(true);
  });
});

describe('the control API', () => {
  it('lists moves, chooses failures ahead and sets the step time', async () => {
    const control = (path: string, json?: unknown) =>
      world().handle(new Request(`https://gitlab.example.com/-/emulator${path}`, json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) }));
    expect((await control('/moves/step', { step: '5s' })).status).toBe(200);
    expect((await control('/moves/failures', { type: 'project', container: 'acme/app', failure: 'checksum' })).status).toBe(204);
    expect((await control('/moves/failures', { type: 'project', container: 'acme/app', failure: 'melt' })).status).toBe(400);
    const { id } = await body(await schedule('acme/app', { destination_storage_name: 'storage2' }));
    world().clock.advance('10s');
    const seen = await body(await control('/moves'));
    expect(seen).toMatchObject({ step_ms: 5000, shards: [{ name: 'default', weight: 100 }, { name: 'storage2', weight: 100 }] });
    expect(seen.moves[0]).toMatchObject({ type: 'project', id, state: 'failed', failure: 'checksum' });
    const { id: second } = await body(await schedule('acme/docs', { destination_storage_name: 'storage2' }));
    const failed = await control(`/moves/project/${second}/fail`, { failure: 'cleanup' });
    expect(await body(failed)).toMatchObject({ id: second, failure: 'cleanup' });
  });
});
