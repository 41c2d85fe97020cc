// Members and storage moves through the two network doors: @gitbeaker/rest against the node
// server (GroupMembers.all, ProjectMembers.add, ProjectRepositoryStorageMoves), and plain fetch
// through the MSW handler set.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'own', name: 'Owen Owner', tokens: [{ token: 'own-token' }] },
    { username: 'dev', name: 'Dee Veloper', tokens: [{ token: 'dev-token' }] },
    { username: 'new', name: 'New Comer', tokens: [{ token: 'new-token' }] },
  ],
  groups: [
    { path: 'acme', name: 'Acme', visibility: 'public', members: [{ user: 'own', access_level: 'owner' }] },
    { path: 'team', name: 'Team', parent: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'developer' }] },
  ],
  projects: [{ namespace: 'acme/team', path: 'app', visibility: 'private', creator: 'root', repository: { files: { 'README.md': '# App\n' } } }],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('lists inherited members, adds a project member, and moves the project between storages', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const owner = new Gitlab({ host: server.url, token: 'own-token' });
      const all = await owner.GroupMembers.all('acme/team', { includeInherited: true });
      expect(all.map((m) => [m.username, m.access_level])).toEqual([['own', 50], ['dev', 30]]);
      expect((await owner.GroupMembers.all('acme/team')).map((m) => m.username)).toEqual(['dev']);

      const newId = (await new Gitlab({ host: server.url, token: 'new-token' }).Users.showCurrentUser()).id as number;
      const added = await owner.ProjectMembers.add('acme/team/app', 30, { userId: newId, expiresAt: '2026-12-31' });
      expect(added).toMatchObject({ username: 'new', access_level: 30, expires_at: '2026-12-31', created_by: { username: 'own' } });
      await expect(owner.ProjectMembers.add('acme/team/app', 30, { userId: newId })).rejects.toMatchObject({ cause: { response: { status: 409 } } });
      expect((await owner.ProjectMembers.show('acme/team/app', newId)).access_level).toBe(30);
      expect((await owner.ProjectMembers.show('acme/team/app', newId, { includeInherited: true })).access_level).toBe(30);

      const admin = new Gitlab({ host: server.url, token: 'root-token' });
      const move = await admin.ProjectRepositoryStorageMoves.schedule('default', { projectId: 'acme/team/app', destinationStorageName: 'storage2' });
      expect(move).toMatchObject({ state: 'scheduled', source_storage_name: 'default', destination_storage_name: 'storage2' });
      const newcomer = new Gitlab({ host: server.url, token: 'new-token' });
      await expect(newcomer.RepositoryFiles.create('acme/team/app', 'x.txt', 'main', 'x', 'add')).rejects.toMatchObject({
        cause: { response: { status: 400 } },
      });
      emulator.runUntilIdle();
      expect((await admin.ProjectRepositoryStorageMoves.show(move.id as number)).state).toBe('finished');
      expect((await admin.ProjectRepositoryStorageMoves.all({ projectId: 'acme/team/app' })).map((m) => m.id)).toEqual([move.id]);
      expect(await admin.ProjectRepositoryStorageMoves.schedule('default', { destinationStorageName: 'storage2' })).toEqual({ message: '202 Accepted' });
      await newcomer.RepositoryFiles.create('acme/team/app', 'x.txt', 'main', 'x', 'add');
      await expect(newcomer.ProjectRepositoryStorageMoves.all()).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const door = mswDoor();

  it('adds a member, lists /all, and refuses writes while a move runs', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const send = door.serve(emulator);
    const app = encodeURIComponent('acme/team/app');
    expect((await send(`/projects/${app}/members`, 'own-token', 'POST', { username: 'new', access_level: 20 })).status).toBe(201);
    const all = (await (await send(`/projects/${app}/members/all`, 'new-token')).json()) as { username: string }[];
    expect(all.map((m) => m.username).sort()).toEqual(['dev', 'new', 'own']);
    expect((await send(`/projects/${app}/repository_storage_moves`, 'root-token', 'POST', { destination_storage_name: 'storage2' })).status).toBe(201);
    const refused = await send(`/projects/${app}/repository/branches`, 'dev-token', 'POST', { branch: 'topic', ref: 'main' });
    expect([refused.status, await refused.json()]).toEqual([400, { message: 'The repository is temporarily read-only. Please try again later.' }]);
    emulator.clock.advance('20s');
    expect((await send(`/projects/${app}/repository/branches`, 'dev-token', 'POST', { branch: 'topic', ref: 'main' })).status).toBe(201);
  });
});
