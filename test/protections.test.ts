// Protected branches and tags APIs (lib/api/protected_branches.rb, protected_tags.rb): the
// fixture's protections listed with ids, protect, update, unprotect, and what each one enforces.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  instance: { tier: 'ultimate' },
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'README.md': 'hi\n' },
        protected_branches: { main: {}, 'release/*': { push_access_level: 'developer', merge_access_level: 'maintainer' } },
        protected_tags: { 'v*': { create_access_level: 'maintainer' } },
      },
    }),
  ],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
const call = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) =>
  apiCall(world(), `/projects/acme%2Fapp${path}`, { token: 'maintainer-token', ...init });

describe('protected branches', () => {
  it('lists the fixture protections with ids and the EE fields at ultimate', async () => {
    const list = (await (await call('/protected_branches')).json()) as Record<string, any>[];
    expect(list.map((p) => p.name)).toEqual(['main', 'release/*']);
    expect(Object.keys(list[0]!)).toEqual([
      'id', 'name', 'push_access_levels', 'merge_access_levels', 'allow_force_push', 'unprotect_access_levels', 'code_owner_approval_required', 'inherited',
    ]);
    expect(list[1]).toMatchObject({
      id: expect.any(Number),
      push_access_levels: [{ id: expect.any(Number), access_level: 30, access_level_description: 'Developers + Maintainers', deploy_key_id: null, user_id: null, group_id: null }],
      merge_access_levels: [{ access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }],
      allow_force_push: false,
    });
    expect((await (await call('/protected_branches?search=REL')).json() as unknown[]).length).toBe(1);
    expect(await (await call('/protected_branches/release%2F*')).json()).toEqual(list[1]);
    expect(await (await call('/protected_branches/nope')).json()).toEqual({ message: '404 Not found' });
  });

  it('protects, updates and unprotects, and the protection is enforced', async () => {
    let res = await call('/protected_branches', { method: 'POST', json: { name: 'stable', push_access_level: 0, merge_access_level: 30, allow_force_push: true } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'stable', push_access_levels: [{ access_level: 0, access_level_description: 'No one' }], allow_force_push: true });
    await call('/repository/branches', { method: 'POST', json: { branch: 'stable', ref: 'main' } });
    const push = () => call('/repository/commits', { method: 'POST', token: 'maintainer-token', json: { branch: 'stable', commit_message: 'x', actions: [{ action: 'create', file_path: 'x' }] } });
    expect((await push()).status).toBe(403);
    res = await call('/protected_branches', { method: 'POST', json: { name: 'stable' } });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ message: "Protected branch 'stable' already exists" });
    res = await call('/protected_branches/stable', { method: 'PATCH', json: { allow_force_push: false } });
    expect(await res.json()).toMatchObject({ allow_force_push: false });
    expect((await call('/protected_branches/stable', { method: 'DELETE' })).status).toBe(204);
    expect((await push()).status).toBe(201);
    expect((await call('/protected_branches/stable', { method: 'DELETE' })).status).toBe(404);
  });

  it('refuses bad levels and callers below maintainer', async () => {
    expect(await (await call('/protected_branches', { method: 'POST', json: { name: 'x', push_access_level: 20 } })).json()).toEqual({
      error: 'push_access_level does not have a valid value',
    });
    expect((await call('/protected_branches', { token: 'dev-token' })).status).toBe(403);
    expect((await call('/protected_branches', { token: 'outsider-token' })).status).toBe(404);
  });

  it('leaves the EE fields out on the free tier', async () => {
    const e = await createEmulator({ fixture: { ...FIXTURE, instance: { tier: 'free' } } });
    const [p] = (await (await apiCall(e, '/projects/acme%2Fapp/protected_branches', { token: 'maintainer-token' })).json()) as Record<string, any>[];
    expect(Object.keys(p!)).toEqual(['id', 'name', 'push_access_levels', 'merge_access_levels', 'allow_force_push']);
    expect(Object.keys(p!.push_access_levels[0])).toEqual(['id', 'access_level', 'access_level_description', 'deploy_key_id']);
  });
});

describe('protected tags', () => {
  it('lists, protects and unprotects, and the protection is enforced', async () => {
    expect(await (await call('/protected_tags')).json()).toEqual([
      { name: 'v*', create_access_levels: [{ id: expect.any(Number), access_level: 40, access_level_description: 'Maintainers', user_id: null, group_id: null }] },
    ]);
    let res = await call('/protected_tags', { method: 'POST', json: { name: 'release-*', create_access_level: 0 } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'release-*', create_access_levels: [{ access_level: 0, access_level_description: 'No one' }] });
    expect(await (await call('/protected_tags', { method: 'POST', json: { name: 'release-*' } })).json()).toEqual({ message: ['Name has already been taken'] });
    expect((await call('/repository/tags', { method: 'POST', json: { tag_name: 'release-1', ref: 'main' } })).status).toBeGreaterThanOrEqual(400);
    expect((await call('/protected_tags/release-*', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/repository/tags', { method: 'POST', json: { tag_name: 'release-1', ref: 'main' } })).status).toBe(201);
    expect(await (await call('/protected_tags/nope')).json()).toEqual({ message: '404 Not found' });
  });
});
