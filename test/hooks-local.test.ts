// allow_local_requests_from_web_hooks_and_services / ..._from_system_hooks: on in the emulator's
// world (a test's receiver is local); a fixture or the handle turns them off, and then a hook to
// a local address is refused, and deliveries of hooks saved before are blocked and logged.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

const fixture = { users: TEAM, groups: [ACME], projects: [teamProject()] };
const P = '/projects/acme%2Fapp';

describe('local requests', () => {
  it('are allowed in the emulator\'s world, and the settings say so', async () => {
    const e = await createEmulator({ fixture });
    expect((await apiCall(e, `${P}/hooks`, { method: 'POST', token: 'maintainer-token', json: { url: 'http://127.0.0.1:9/hook' } })).status).toBe(201);
    const settings = await (await apiCall(e, '/application/settings', { token: 'root-token' })).json();
    expect(settings).toMatchObject({ allow_local_requests_from_web_hooks_and_services: true, allow_local_requests_from_system_hooks: true });
  });

  it('a fixture turns them off: a local URL is an invalid one, a public one is fine', async () => {
    const e = await createEmulator({ fixture: { ...fixture, webhooks: { allow_local_requests_from_web_hooks_and_services: false, allow_local_requests_from_system_hooks: false } } });
    for (const url of ['http://127.0.0.1:9/hook', 'http://localhost/x', 'http://10.1.2.3/x', 'http://192.168.0.1/', 'http://[::1]/x']) {
      const res = await apiCall(e, `${P}/hooks`, { method: 'POST', token: 'maintainer-token', json: { url } });
      expect([url, res.status, await res.json()]).toEqual([url, 422, { error: 'Invalid url given' }]);
    }
    expect((await apiCall(e, `${P}/hooks`, { method: 'POST', token: 'maintainer-token', json: { url: 'https://hooks.example.com/' } })).status).toBe(201);
    const system = await apiCall(e, '/hooks', { method: 'POST', token: 'root-token', json: { url: 'http://127.0.0.1/system' } });
    expect(system.status).toBe(422);
    const settings = await (await apiCall(e, '/application/settings', { token: 'root-token' })).json();
    expect(settings).toMatchObject({ allow_local_requests_from_web_hooks_and_services: false, allow_local_requests_from_system_hooks: false });
  });

  it('turned off later, a saved local hook\'s deliveries are blocked and logged as such', async () => {
    const e = await createEmulator({ fixture, clock: { now: '2026-05-04T10:00:00Z', frozen: true } });
    const hook = await (await apiCall(e, `${P}/hooks`, { method: 'POST', token: 'maintainer-token', json: { url: 'http://127.0.0.1:9/hook', issues_events: true } })).json();
    e.hooks.allowLocalRequests({ webHooks: false });
    await apiCall(e, `${P}/issues`, { method: 'POST', token: 'maintainer-token', json: { title: 'blocked' } });
    await e.hooks.settled();
    const [log] = await (await apiCall(e, `${P}/hooks/${hook.id}/events`, { token: 'maintainer-token' })).json();
    expect(log).toMatchObject({ response_status: 'internal error', response_body: 'Url is blocked: Requests to localhost are not allowed' });
  });
});
