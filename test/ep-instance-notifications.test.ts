// Notification settings (lib/api/notification_settings.rb): the global level (participating until
// changed) and one per project and group (global until changed), custom ones with their events.
import { describe, expect, it } from 'vitest';
import { TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'private', members: TEAM_MEMBERS }],
  projects: [{ path: 'app', namespace: 'acme', visibility: 'private' }],
}, '2026-05-04T10:00:00Z');
const call = (path: string, method = 'GET', json?: unknown, token = 'dev-token') => apiCall(world(), path, { method, token, json });

describe('global notification settings', () => {
  it('are participating with the primary email until changed; watch sticks', async () => {
    expect(await (await call('/notification_settings')).json()).toEqual({ level: 'participating', notification_email: 'dev@example.com' });
    const res = await call('/notification_settings', 'PUT', { level: 'watch' });
    expect(await res.json()).toEqual({ level: 'watch', notification_email: 'dev@example.com' });
    expect((await (await call('/notification_settings')).json()).level).toBe('watch');
    // Each user has their own.
    expect((await (await call('/notification_settings', 'GET', undefined, 'root-token')).json()).level).toBe('participating');
  });

  it('custom shows every event, unset ones null and the pipeline ones on', async () => {
    const body = await (await call('/notification_settings', 'PUT', { level: 'custom', new_note: true, success_pipeline: false })).json();
    expect(body.level).toBe('custom');
    expect(Object.keys(body.events)).toHaveLength(19);
    expect(body.events).toMatchObject({ new_note: true, success_pipeline: false, new_issue: null, failed_pipeline: true, fixed_pipeline: true });
  });

  it('refuses a bad level, an address not the user\'s, and anonymous callers, changing nothing', async () => {
    let res = await call('/notification_settings', 'PUT', { level: 'loud' });
    expect([res.status, await res.json()]).toEqual([400, { message: "'loud' is not a valid level" }]);
    res = await call('/notification_settings', 'PUT', { level: 'watch', notification_email: 'root@example.com' });
    expect([res.status, await res.json()]).toEqual([400, { message: { notification_email: ['must be an email you have verified'] } }]);
    expect((await apiCall(world(), '/notification_settings')).status).toBe(401);
    expect((await (await call('/notification_settings')).json()).level).toBe('participating');
  });
});

describe('project and group notification settings', () => {
  it('follow the global one until changed, per user and source', async () => {
    expect(await (await call('/projects/acme%2Fapp/notification_settings')).json()).toEqual({ level: 'global' });
    const res = await call('/groups/acme/notification_settings', 'PUT', { level: 'mention' });
    expect([res.status, await res.json()]).toEqual([200, { level: 'mention' }]);
    expect(await (await call('/groups/acme/notification_settings')).json()).toEqual({ level: 'mention' });
    expect(await (await call('/projects/acme%2Fapp/notification_settings')).json()).toEqual({ level: 'global' });
    expect(await (await call('/groups/acme/notification_settings', 'GET', undefined, 'reporter-token')).json()).toEqual({ level: 'global' });
  });

  it('are 404 for a source the caller cannot see', async () => {
    expect((await call('/projects/acme%2Fapp/notification_settings', 'GET', undefined, 'outsider-token')).status).toBe(404);
    expect((await call('/groups/acme/notification_settings', 'PUT', { level: 'watch' }, 'outsider-token')).status).toBe(404);
  });
});
