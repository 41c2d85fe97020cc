// A group hook's test trigger (POST /groups/:id/hooks/:hook_id/test/:trigger, TestHooks::GroupService:
// the sample of the group's first project with commits) and the rate limits of the test and
// resend endpoints (ApplicationRateLimiter's web_hook_test and web_hook_event_resend: five a
// minute for each hook's parent and user).
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

let e: Emulator;
const root = (path: string, method = 'GET', json?: unknown) => apiCall(e, path, { method, token: 'root-token', json });

beforeEach(async () => {
  e = await createEmulator({
    clock: { now: '2026-05-04T10:00:00Z', frozen: true },
    fixture: {
      instance: { tier: 'premium' },
      users: TEAM,
      groups: [ACME, { path: 'empty' }],
      projects: [teamProject({ repository: { files: { 'README.md': '# app\n' } } }), { namespace: 'empty', path: 'bare', creator: 'root' }],
    },
  });
  e.hooks.pause();
});

const hookOn = async (base: string) => (await (await root(`${base}/hooks`, 'POST', { url: 'https://r.example.com/', push_events: true })).json()).id as number;

describe('group hook test trigger', () => {
  it('sends the push sample of the group\'s first project with commits', async () => {
    const id = await hookOn('/groups/acme');
    const res = await root(`/groups/acme/hooks/${id}/test/push_events`, 'POST');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: '201 Created' });
    const [d] = e.hooks.deliveries({ hookId: id });
    expect(d!.event).toBe('Push Hook');
    e.hooks.resume();
    await e.hooks.settled();
    const p = e.hooks.deliveries({ hookId: id })[0]!.payload as any;
    expect(p).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', project: { path_with_namespace: 'acme/app' } });
    expect(p.commits.length).toBeGreaterThan(0);
  });

  it('answers GitLab\'s 422 when no project of the group has commits, and 400 for an unknown trigger', async () => {
    const id = await hookOn('/groups/empty');
    const res = await root(`/groups/empty/hooks/${id}/test/push_events`, 'POST');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: 'Ensure the group has a project with commits.' });
    expect((await root(`/groups/empty/hooks/${id}/test/bogus`, 'POST')).status).toBe(400);
    expect((await root(`/groups/empty/hooks/999/test/push_events`, 'POST')).status).toBe(404);
    expect(e.hooks.deliveries()).toEqual([]);
  });
});

describe('rate limits', () => {
  it('five tests a minute for each hook parent and user, then 429 until the minute is over', async () => {
    const id = await hookOn('/projects/acme%2Fapp');
    for (let i = 0; i < 5; i++) expect((await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST')).status).toBe(201);
    const refused = await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
    expect(e.hooks.deliveries({ hookId: id })).toHaveLength(5);
    // Another user, or another parent, counts apart.
    expect((await apiCall(e, `/projects/acme%2Fapp/hooks/${id}/test/push_events`, { method: 'POST', token: 'maintainer-token' })).status).toBe(201);
    const group = await hookOn('/groups/acme');
    expect((await root(`/groups/acme/hooks/${group}/test/push_events`, 'POST')).status).toBe(201);
    e.clock.advance('61s');
    expect((await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST')).status).toBe(201);
  });

  it('five resends a minute', async () => {
    const id = await hookOn('/projects/acme%2Fapp');
    expect((await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST')).status).toBe(201);
    e.hooks.resume();
    await e.hooks.settled();
    const [log] = await (await root(`/projects/acme%2Fapp/hooks/${id}/events`)).json();
    for (let i = 0; i < 5; i++) expect((await root(`/projects/acme%2Fapp/hooks/${id}/events/${log.id}/resend`, 'POST')).status).toBe(201);
    expect((await root(`/projects/acme%2Fapp/hooks/${id}/events/${log.id}/resend`, 'POST')).status).toBe(429);
  });
});
