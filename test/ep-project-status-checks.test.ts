// External status checks (ee/lib/api/status_checks.rb, Ultimate): a project's maintainers add,
// list, change and remove them, optionally for some of its protected branches.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';
import type { Fixture } from '../src/index.js';

const fixture = (tier: 'premium' | 'ultimate'): Fixture => ({
  instance: { tier }, users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: { 'README.md': 'hi' } } })],
});
const world = seededWorld(fixture('ultimate'), '2026-05-04T10:00:00Z');
const premium = seededWorld(fixture('premium'), '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}, e = world()) => apiCall(e, path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const BASE = '/projects/acme%2Fapp/external_status_checks';

describe('external status checks', () => {
  it('a maintainer adds one; it lists, changes (with a protected branch and a secret) and goes', async () => {
    const project = await (await call('/projects/acme%2Fapp')).json();
    const res = await call(BASE, { method: 'POST', token: 'maintainer-token', json: { name: 'MR blocker', external_url: 'https://example.com/mr-blocker' } });
    expect(await body(res)).toEqual([201, { id: 1, name: 'MR blocker', project_id: project.id, external_url: 'https://example.com/mr-blocker', hmac: false, protected_branches: [] }]);
    expect((await (await call(BASE)).json()).map((c: any) => c.name)).toEqual(['MR blocker']);
    const pb = await (await call('/projects/acme%2Fapp/protected_branches', { method: 'POST', json: { name: 'release/*' } })).json();
    const changed = await (await call(`${BASE}/1`, { method: 'PUT', json: { shared_secret: 's3cret', protected_branch_ids: [pb.id] } })).json();
    expect(changed).toMatchObject({ hmac: true, protected_branches: [{ id: pb.id, name: 'release/*' }] });
    expect((await call(`${BASE}/1`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${BASE}/1`, { method: 'DELETE' }))).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses a taken name, a bad URL and a foreign branch, and changes nothing', async () => {
    await call(BASE, { method: 'POST', json: { name: 'a', external_url: 'https://a.example' } });
    expect(await body(await call(BASE, { method: 'POST', json: { name: 'a', external_url: 'ftp://b.example' } })))
      .toEqual([400, { message: { name: ['has already been taken'], external_url: ['is blocked: Only allowed schemes are http, https'] } }]);
    expect(await body(await call(`${BASE}/1`, { method: 'PUT', json: { protected_branch_ids: [999] } }))).toEqual([400, { message: { protected_branches: ['must belong to project'] } }]);
    expect((await (await call(BASE)).json()).map((c: any) => [c.name, c.protected_branches])).toEqual([['a', []]]);
  });

  it('is for maintainers, and for Ultimate only', async () => {
    expect((await call(BASE, { token: 'dev-token' })).status).toBe(403);
    expect((await call(BASE, {}, premium())).status).toBe(404);
  });
});
