// Mirrors: a project's push mirrors (lib/api/remote_mirrors.rb) and its pull mirror
// (ee/lib/api/project_mirror.rb, Premium), configured by its maintainers.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';
import type { Fixture } from '../src/index.js';

const fixture = (tier: 'free' | 'premium'): Fixture => ({ instance: { tier }, users: TEAM, groups: [ACME], projects: [teamProject()] });
const world = seededWorld(fixture('premium'), '2026-05-04T10:00:00Z');
const free = seededWorld(fixture('free'), '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}, e = world()) => apiCall(e, path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

describe('push mirrors', () => {
  it('a maintainer adds one (disabled, its password masked), enables, syncs and removes it', async () => {
    const res = await call(`${APP}/remote_mirrors`, { method: 'POST', token: 'maintainer-token', json: { url: 'https://bot:secret@gitlab.example.com/root/mirror.git' } });
    expect(await body(res)).toEqual([201, {
      id: 1, enabled: false, url: 'https://bot:*****@gitlab.example.com/root/mirror.git', update_status: 'none', last_update_at: null, last_update_started_at: null,
      last_successful_update_at: null, last_error: null, only_protected_branches: false, keep_divergent_refs: false, auth_method: 'password', mirror_branch_regex: null,
    }]);
    expect(await (await call(`${APP}/remote_mirrors/1`, { method: 'PUT', json: { enabled: true, only_protected_branches: true } })).json()).toMatchObject({ enabled: true, only_protected_branches: true });
    expect((await call(`${APP}/remote_mirrors/1/sync`, { method: 'POST' })).status).toBe(204);
    expect((await (await call(`${APP}/remote_mirrors`)).json())[0]).toMatchObject({ update_status: 'started', last_update_started_at: '2026-05-04T10:00:00.000Z' });
    expect((await call(`${APP}/remote_mirrors/1`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${APP}/remote_mirrors/1`))).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses a URL of another scheme, a developer, and has no branch regex below Premium', async () => {
    expect(await body(await call(`${APP}/remote_mirrors`, { method: 'POST', json: { url: 'file:///etc/passwd' } }))).toEqual([400, { message: { url: ['is blocked: Only allowed schemes are ssh, git, http, https'] } }]);
    expect((await call(`${APP}/remote_mirrors`, { token: 'dev-token' })).status).toBe(403);
    const made = await (await call(`${APP}/remote_mirrors`, { method: 'POST', json: { url: 'ssh://git@example.com/x.git', mirror_branch_regex: 'main' } }, free())).json();
    expect(made).not.toHaveProperty('mirror_branch_regex');
    expect(await (await call(`${APP}/remote_mirrors`)).json()).toEqual([]);
  });
});

describe('the pull mirror', () => {
  it('is configured, read and switched off by a maintainer (Premium)', async () => {
    expect(await body(await call(`${APP}/mirror/pull`))).toEqual([404, { message: '404 Not found' }]);
    const res = await call(`${APP}/mirror/pull`, { method: 'PUT', token: 'maintainer-token', json: { url: 'https://gitlab.example.com/root/mirror.git', auth_user: 'bot', auth_password: 'pw', enabled: true } });
    expect(await body(res)).toEqual([200, {
      id: 1, last_error: null, last_successful_update_at: null, last_update_at: null, last_update_started_at: null, update_status: 'none',
      url: 'https://bot:*****@gitlab.example.com/root/mirror.git', enabled: true, mirror_trigger_builds: false, only_mirror_protected_branches: false,
      mirror_overwrites_diverged_branches: false, mirror_branch_regex: null,
    }]);
    expect(await (await call(`${APP}/mirror/pull`, { method: 'PUT', json: { enabled: false } })).json()).toMatchObject({ id: 1, enabled: false, url: 'https://bot:*****@gitlab.example.com/root/mirror.git' });
    expect(await body(await call(`${APP}/mirror/pull`, { method: 'PUT', json: { url: 'nonsense' } }))).toEqual([400, { message: { import_url: ['is blocked: URI is invalid'] } }]);
    expect((await call(`${APP}/mirror/pull`, {}, free())).status).toBe(404);
  });
});
