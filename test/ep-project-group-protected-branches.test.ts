// Protected branches of groups (ee/lib/api/group_protected_branches.rb, Premium): a group's
// owners protect names and patterns, change force pushes and remove them.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';
import type { Fixture } from '../src/index.js';

const fixture = (tier: 'free' | 'premium'): Fixture => ({ instance: { tier }, users: TEAM, groups: [{ ...ACME, members: [{ user: 'out', access_level: 'owner' }, ...TEAM_MEMBERS] }] });
const world = seededWorld(fixture('premium'), '2026-05-04T10:00:00Z');
const free = seededWorld(fixture('free'), '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}, e = world()) => apiCall(e, path, { token: 'outsider-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const BASE = '/groups/acme/protected_branches';

describe('group protected branches', () => {
  it('an owner protects a pattern, lists, reads, allows force pushes and removes it', async () => {
    const res = await call(BASE, { method: 'POST', json: { name: '*-stable', allow_force_push: false, push_access_level: 30 } });
    expect(await body(res)).toEqual([201, {
      id: 1, name: '*-stable',
      push_access_levels: [{ id: 1, access_level: 30, access_level_description: 'Developers + Maintainers', deploy_key_id: null, user_id: null, group_id: null }],
      merge_access_levels: [{ id: 2, access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }],
      allow_force_push: false, unprotect_access_levels: [], code_owner_approval_required: false, inherited: false,
    }]);
    expect((await (await call(BASE)).json()).map((p: any) => p.name)).toEqual(['*-stable']);
    expect((await (await call(`${BASE}/*-stable`, { method: 'PATCH', json: { allow_force_push: true } })).json()).allow_force_push).toBe(true);
    expect((await (await call(`${BASE}/${encodeURIComponent('*-stable')}`)).json()).allow_force_push).toBe(true);
    expect((await call(`${BASE}/*-stable`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${BASE}/*-stable`))).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses a second protection of a name, a bad level, a maintainer; none below Premium', async () => {
    await call(BASE, { method: 'POST', json: { name: 'main' } });
    expect(await body(await call(BASE, { method: 'POST', json: { name: 'main' } }))).toEqual([409, { message: "Protected branch 'main' already exists" }]);
    expect((await call(BASE, { method: 'POST', json: { name: 'x', push_access_level: 35 } })).status).toBe(400);
    expect((await call(BASE, { token: 'maintainer-token' })).status).toBe(403);
    expect((await call(BASE, {}, free())).status).toBe(404);
  });
});
