// System hooks hear of the instance (SystemHooksService): projects, groups and users made and
// removed, members added; a group's hooks (Premium) hear of its members, subgroups and projects.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { handlers } from '../src/msw.js';
import { ACME, ORIGIN, TEAM, idOf } from './support/world.js';

const RECEIVER = 'https://system.example.com';
let emulator: Emulator;
let seeded: ReturnType<Emulator['snapshot']>;
const msw = setupServer();

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' });
  emulator = await createEmulator({ clock: { now: '2026-05-04T10:00:00Z', frozen: true }, fixture: { instance: { tier: 'premium' }, users: TEAM, groups: [{ ...ACME, members: [{ user: 'mai', access_level: 'owner' }] }] } });
  seeded = emulator.snapshot();
});
afterAll(() => msw.close());
beforeEach(() => {
  emulator.restore(seeded);
  msw.resetHandlers(...handlers(emulator), http.post(`${RECEIVER}/*`, () => HttpResponse.json({})));
});

const api = async (path: string, method = 'GET', body?: unknown, token = 'root-token') => {
  const res = await fetch(`${ORIGIN}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
};

describe('system hooks', () => {
  it('hear of users, groups, projects and members, as System Hook', async () => {
    const hook = (await api('/hooks', 'POST', { url: `${RECEIVER}/sys` })).body;
    expect((await api('/users', 'POST', { username: 'newbie', name: 'New Bie', email: 'newbie@example.com', password: 'a-long-password-1' })).status).toBe(201);
    expect((await api('/groups', 'POST', { name: 'Tools', path: 'tools' })).status).toBe(201);
    const project = (await api('/projects', 'POST', { name: 'cli', namespace_id: idOf(emulator, 'tools') })).body;
    expect((await api(`/projects/${project.id}/members`, 'POST', { user_id: (await api('/users?username=newbie')).body[0].id, access_level: 30 })).status).toBe(201);
    await emulator.hooks.settled();
    const sent = emulator.hooks.deliveries({ hookId: hook.id });
    expect(new Set(sent.map((d) => d.event))).toEqual(new Set(['System Hook']));
    const names = sent.map((d) => (d.payload as { event_name: string }).event_name);
    expect(names).toEqual(expect.arrayContaining(['user_create', 'group_create', 'project_create', 'user_add_to_team']));
    const user = sent.find((d) => (d.payload as any).event_name === 'user_create')!.payload;
    expect(user).toMatchObject({ username: 'newbie', name: 'New Bie', email: 'newbie@example.com', created_at: '2026-05-04T10:00:00Z' });
    const made = sent.find((d) => (d.payload as any).event_name === 'project_create')!.payload;
    expect(made).toMatchObject({ name: 'cli', path: 'cli', path_with_namespace: 'tools/cli', project_id: project.id, project_visibility: 'private' });
    const team = sent.find((d) => (d.payload as any).event_name === 'user_add_to_team')!.payload;
    expect(team).toMatchObject({ access_level: 'Developer', project_path_with_namespace: 'tools/cli', user_username: 'newbie' });
  });
});

describe('system hooks hear of SSH keys', () => {
  it('key_create and key_destroy with the key and its owner', async () => {
    const hook = (await api('/hooks', 'POST', { url: `${RECEIVER}/keys` })).body;
    const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOt3Wq9bZ0lS7cY6p7hJ5Gm0Zm7r2yFz1S0c1x2y3z4A mai@laptop';
    const made = await api('/user/keys', 'POST', { title: 'laptop', key }, 'maintainer-token');
    expect(made.status).toBe(201);
    expect((await api(`/user/keys/${made.body.id}`, 'DELETE', undefined, 'maintainer-token')).status).toBe(204);
    // Refused writes tell nobody.
    expect((await api('/user/keys', 'POST', { title: 'bad', key: 'not a key' }, 'maintainer-token')).status).toBe(400);
    await emulator.hooks.settled();
    const sent = emulator.hooks.deliveries({ hookId: hook.id }).map((d) => d.payload);
    expect(sent).toEqual([
      { event_name: 'key_create', created_at: '2026-05-04T10:00:00Z', updated_at: '2026-05-04T10:00:00Z', username: 'mai', key, id: made.body.id },
      { event_name: 'key_destroy', created_at: '2026-05-04T10:00:00Z', updated_at: '2026-05-04T10:00:00Z', username: 'mai', key, id: made.body.id },
    ]);
  });
});

describe('group hooks', () => {
  it('hear of the group\'s members, subgroups and projects when they take those events', async () => {
    const hook = (await api('/groups/acme/hooks', 'POST', { url: `${RECEIVER}/group`, member_events: true, subgroup_events: true, project_events: true }, 'maintainer-token')).body;
    const quiet = (await api('/groups/acme/hooks', 'POST', { url: `${RECEIVER}/quiet` }, 'maintainer-token')).body;
    await api('/groups/acme/members', 'POST', { user_id: (await api('/users?username=dev')).body[0].id, access_level: 30 }, 'maintainer-token');
    await api('/groups', 'POST', { name: 'Sub', path: 'sub', parent_id: idOf(emulator, 'acme') }, 'maintainer-token');
    await api('/projects', 'POST', { name: 'web', namespace_id: idOf(emulator, 'acme') }, 'maintainer-token');
    await emulator.hooks.settled();
    const seen = emulator.hooks.deliveries({ hookId: hook.id }).map((d) => [d.event, (d.payload as any).event_name]);
    expect(seen).toEqual([
      ['Member Hook', 'user_add_to_group'],
      ['Subgroup Hook', 'subgroup_create'],
      ['Project Hook', 'project_create'],
    ]);
    expect(emulator.hooks.deliveries({ hookId: quiet.id })).toEqual([]);
  });
});
