// Resource Access Token Hook: a project or group access token that expires within seven days is
// told once to its project's or group's hooks by the daily run at 01:00 UTC, on the clock.
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

let e: Emulator;
const root = (path: string, method = 'GET', json?: unknown) => apiCall(e, path, { method, token: 'root-token', json });
const P = '/projects/acme%2Fapp';

beforeEach(async () => {
  e = await createEmulator({
    clock: { now: '2026-05-04T10:00:00Z', frozen: true },
    fixture: { instance: { tier: 'premium' }, users: TEAM, groups: [ACME], projects: [teamProject()] },
  });
  e.hooks.pause();
});

const sent = async () => {
  e.hooks.resume();
  await e.hooks.settled();
  e.hooks.pause();
  return e.hooks.deliveries({ event: 'Resource Access Token Hook' });
};

describe('expiring project and group access tokens', () => {
  it('a project token expiring on the 15th is told on the 8th at 01:00, once, with GitLab\'s payload', async () => {
    const hook = (await (await root(`${P}/hooks`, 'POST', { url: 'https://r.example.com/p', resource_access_token_events: true })).json()).id;
    await root(`${P}/hooks`, 'POST', { url: 'https://r.example.com/quiet' });
    const token = await (await root(`${P}/access_tokens`, 'POST', { name: 'deployer', scopes: ['api'], access_level: 30, expires_at: '2026-05-15' })).json();
    e.clock.set('2026-05-08T00:59:00Z');
    expect(await sent()).toEqual([]);
    e.clock.advance('2m');
    const [d, ...more] = await sent();
    expect(more).toEqual([]);
    expect(d!.hookId).toBe(hook);
    expect(d!.payload).toEqual({
      object_kind: 'access_token',
      project: expect.objectContaining({ path_with_namespace: 'acme/app' }),
      object_attributes: { user_id: token.user_id, created_at: '2026-05-04 10:00:00 UTC', id: token.id, name: 'deployer', expires_at: '2026-05-15' },
      event_name: 'expiring_access_token',
    });
    e.clock.advance('10d');
    expect(await sent()).toHaveLength(1);
  });

  it('a token made inside the window is told at the next run; a revoked one, or one without expiry, never', async () => {
    const hook = (await (await root(`${P}/hooks`, 'POST', { url: 'https://r.example.com/p', resource_access_token_events: true })).json()).id;
    await root(`${P}/access_tokens`, 'POST', { name: 'soon', scopes: ['api'], expires_at: '2026-05-06' });
    const revoked = await (await root(`${P}/access_tokens`, 'POST', { name: 'gone', scopes: ['api'], expires_at: '2026-05-07' })).json();
    expect((await root(`${P}/access_tokens/${revoked.id}`, 'DELETE')).status).toBe(204);
    e.clock.set('2026-05-05T01:00:00Z');
    expect((await sent()).map((d) => [d.hookId, (d.payload as any).object_attributes.name])).toEqual([[hook, 'soon']]);
    e.clock.advance('30d');
    expect(await sent()).toHaveLength(1);
  });

  it('a group token goes to the group\'s hooks with the group\'s attributes', async () => {
    const hook = (await (await root('/groups/acme/hooks', 'POST', { url: 'https://r.example.com/g', resource_access_token_events: true })).json()).id;
    await root('/groups/acme/access_tokens', 'POST', { name: 'group-bot', scopes: ['read_api'], access_level: 30, expires_at: '2026-05-10' });
    e.clock.set('2026-05-05T01:00:00Z');
    const [d] = await sent();
    expect(d!.hookId).toBe(hook);
    expect(d!.payload).toMatchObject({ object_kind: 'access_token', group: { group_name: 'acme', group_path: 'acme', full_path: 'acme' }, event_name: 'expiring_access_token' });
    expect(Object.keys(d!.payload as object)).toEqual(['object_kind', 'group', 'object_attributes', 'event_name']);
  });
});
