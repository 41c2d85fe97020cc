// Users and tokens through the two network doors: @gitbeaker/rest against the node server, and
// plain fetch through the MSW handler set, on one world.
import { Gitlab } from '@gitbeaker/rest';
import { setupServer } from 'msw/node';
import { describe, expect, it } from 'vitest';
import { handlers } from '../src/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'] }] },
    { username: 'alice', name: 'Alice', tokens: [{ token: 'alice-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private' }],
};

describe('users and tokens through the doors', () => {
  it('@gitbeaker/rest: Users, UserImpersonationTokens, PersonalAccessTokens, ProjectAccessTokens', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const admin = new Gitlab({ host: server.url, token: 'root-token' });
      const made = await admin.Users.create({ email: 'carol@example.com', name: 'Carol', username: 'carol', password: 'Tr0ub4dor&3x' });
      expect(made).toMatchObject({ username: 'carol', is_admin: false });
      const all = await admin.Users.all();
      expect(all.map((u) => u.username)).toEqual(['carol', 'alice', 'root']);
      expect((await admin.Users.all({ username: 'ALICE' })).map((u) => u.username)).toEqual(['alice']);
      expect((await admin.Users.all({ search: 'car' })).map((u) => u.username)).toEqual(['carol']);
      await expect(admin.Users.create({ email: 'carol@example.com', name: 'C', username: 'c2', password: 'Tr0ub4dor&3x' })).rejects.toMatchObject({
        cause: { response: { status: 409 } },
      });
      const carol = made.id as number;
      expect((await admin.Users.edit(carol, { bio: 'hello' })).bio).toBe('hello');
      expect((await admin.Users.show(carol)).username).toBe('carol');

      const imp = await admin.UserImpersonationTokens.create(carol, 'support', ['api']);
      expect(imp).toMatchObject({ name: 'support', impersonation: true });
      const asCarol = new Gitlab({ host: server.url, token: imp.token as string });
      expect((await asCarol.Users.showCurrentUser()).username).toBe('carol');
      expect((await admin.UserImpersonationTokens.all(carol)).map((t) => t.name)).toEqual(['support']);
      await admin.UserImpersonationTokens.revoke(carol, imp.id as number);
      await expect(asCarol.Users.showCurrentUser()).rejects.toMatchObject({ cause: { response: { status: 401 } } });

      const pat = await admin.Users.createPersonalAccessToken(carol, 'cli', ['api']);
      const carolApi = new Gitlab({ host: server.url, token: pat.token as string });
      expect((await carolApi.PersonalAccessTokens.show()).name).toBe('cli');
      expect((await carolApi.PersonalAccessTokens.all()).map((t) => t.name)).toEqual(['cli']);
      const rotated = await carolApi.PersonalAccessTokens.rotate(pat.id as number);
      const carolAgain = new Gitlab({ host: server.url, token: rotated.token as string });
      expect((await carolAgain.Users.showCurrentUser()).username).toBe('carol');
      await carolAgain.PersonalAccessTokens.remove();
      await expect(carolAgain.Users.showCurrentUser()).rejects.toMatchObject({ cause: { response: { status: 401 } } });

      const alice = new Gitlab({ host: server.url, token: 'alice-token' });
      const projectToken = await alice.ProjectAccessTokens.create('acme/app', 'deploy', ['read_api'], '2026-12-31', { accessLevel: 30 });
      expect(projectToken).toMatchObject({ name: 'deploy', access_level: 30 });
      const bot = new Gitlab({ host: server.url, token: projectToken.token as string });
      expect((await bot.Projects.show('acme/app')).path).toBe('app');
      expect((await alice.ProjectAccessTokens.all('acme/app')).map((t) => t.name)).toEqual(['deploy']);
      await alice.ProjectAccessTokens.revoke('acme/app', projectToken.id as number);
      await expect(bot.Projects.show('acme/app')).rejects.toMatchObject({ cause: { response: { status: 401 } } });

      await admin.Users.block(carol);
      expect((await admin.Users.all({ blocked: true })).map((u) => u.username)).toEqual(['carol']);
      await admin.Users.remove(carol);
      emulator.runUntilIdle();
      await expect(admin.Users.show(carol)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
    } finally {
      await server.close();
    }
  });

  it('plain fetch through the MSW handler set sees the same users', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const msw = setupServer(...handlers(emulator));
    msw.listen({ onUnhandledRequest: 'error' });
    try {
      const base = emulator.baseUrl;
      const res = await fetch(`${base}/api/v4/users?username=alice`);
      expect((await res.json()).map((u: { username: string }) => u.username)).toEqual(['alice']);
      const created = await fetch(`${base}/api/v4/users`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'dan@example.com', name: 'Dan', username: 'dan', reset_password: true }),
      });
      expect(created.status).toBe(201);
      const { id } = await created.json();
      const token = await fetch(`${base}/api/v4/users/${id}/personal_access_tokens`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'ci', scopes: 'api,read_user' }),
      });
      const secret = (await token.json()).token;
      const me = await fetch(`${base}/api/v4/user`, { headers: { Authorization: `Bearer ${secret}` } });
      expect((await me.json()).username).toBe('dan');
    } finally {
      msw.close();
    }
  });
});
