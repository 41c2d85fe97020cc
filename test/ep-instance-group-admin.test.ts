// A group's LDAP links (ee/lib/api/ldap_group_links.rb), service accounts
// (group_service_accounts.rb) and the instance's custom roles (member_roles.rb).
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { TEAM, apiCall, seededWorld } from './support/world.js';

const FIXTURE = {
  instance: { tier: 'ultimate' as const },
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'private' as const, members: [{ user: 'mai', access_level: 'owner' as const }, { user: 'dev', access_level: 'developer' as const }] }, { path: 'sub', parent: 'acme', visibility: 'private' as const }],
};
const world = seededWorld(FIXTURE, '2026-05-04T10:00:00Z');
const call = (path: string, method = 'GET', json?: unknown, token = 'maintainer-token') => apiCall(world(), path, { method, token, json });

describe('LDAP group links', () => {
  it('are linked by cn or filter, listed in order, and removed', async () => {
    let res = await call('/groups/acme/ldap_group_links');
    expect([res.status, await res.json()]).toEqual([404, { message: 'No linked LDAP groups found' }]);
    res = await call('/groups/acme/ldap_group_links', 'POST', { provider: 'ldapmain', group_access: 30, cn: 'common-name' });
    expect([res.status, await res.json()]).toEqual([201, { cn: 'common-name', group_access: 30, provider: 'ldapmain', filter: null, member_role_id: null }]);
    await call('/groups/acme/ldap_group_links', 'POST', { provider: 'ldapmain', group_access: 30, filter: '(cn=Common Name)' });
    const list = await (await call('/groups/acme/ldap_group_links')).json();
    expect(list.map((l: any) => [l.cn, l.filter])).toEqual([['common-name', null], [null, '(cn=Common Name)']]);
    res = await call('/groups/acme/ldap_group_links', 'POST', { provider: 'ldapmain', group_access: 30, cn: 'common-name' });
    expect(res.status).toBe(409);
    expect((await call('/groups/acme/ldap_sync', 'POST')).status).toBe(404);
    expect((await call('/groups/acme/ldap_group_links?provider=ldapmain&filter=(cn%3DCommon%20Name)', 'DELETE')).status).toBe(204);
    expect((await call('/groups/acme/ldap_group_links?provider=ldapmain&cn=common-name', 'DELETE')).status).toBe(204);
    expect((await call('/groups/acme/ldap_group_links')).status).toBe(404);
  });

  it('need an owner, cn or filter (one), and a valid level', async () => {
    expect((await call('/groups/acme/ldap_group_links', 'POST', { provider: 'p', group_access: 30, cn: 'x' }, 'dev-token')).status).toBe(403);
    let res = await call('/groups/acme/ldap_group_links', 'POST', { provider: 'p', group_access: 30, cn: 'x', filter: '(a=b)' });
    expect([res.status, await res.json()]).toEqual([400, { error: 'cn, filter are mutually exclusive' }]);
    res = await call('/groups/acme/ldap_group_links', 'POST', { provider: 'p', group_access: 31, cn: 'x' });
    expect(res.status).toBe(400);
  });
});

describe('group service accounts', () => {
  it('an administrator makes one for a top-level group; owners list them', async () => {
    const res = await call('/groups/acme/service_accounts', 'POST', { name: 'gitlab-service-account', username: 'gitlab-service-account' }, 'root-token');
    expect(res.status).toBe(201);
    const sa = await res.json();
    expect(sa).toMatchObject({ name: 'gitlab-service-account', username: 'gitlab-service-account', email: 'gitlab-service-account@noreply.gitlab.example.com' });
    const made = await (await call('/groups/acme/service_accounts', 'POST', {}, 'root-token')).json();
    expect(made.username).toMatch(/^service_account_group_\d+_[0-9a-f]{32}$/);
    const list = await (await call('/groups/acme/service_accounts')).json();
    expect(list.map((u: any) => u.id)).toEqual([made.id, sa.id]);
    const user = await (await call(`/users/${sa.id}`, 'GET', undefined, 'root-token')).json();
    expect(user).toMatchObject({ bot: true });
  });

  it('refuses owners without the setting, subgroups and taken usernames', async () => {
    expect((await call('/groups/acme/service_accounts', 'POST', { username: 'x1' })).status).toBe(403);
    expect((await call('/groups/acme%2Fsub/service_accounts', 'POST', { username: 'x2' }, 'root-token')).status).toBe(403);
    const res = await call('/groups/acme/service_accounts', 'POST', { username: 'dev' }, 'root-token');
    expect([res.status, await res.json()]).toEqual([400, { message: 'Username has already been taken' }]);
  });
});

describe('custom roles of the instance', () => {
  it('administrators make, list and delete them', async () => {
    const res = await call('/member_roles', 'POST', { name: 'Custom webhook manager role', base_access_level: 20, description: 'Custom reporter', admin_web_hook: true }, 'root-token');
    expect(res.status).toBe(201);
    const role = await res.json();
    expect(role).toMatchObject({ id: 1, name: 'Custom webhook manager role', base_access_level: 20, admin_web_hook: true, read_code: false, group_id: null });
    expect((await (await call('/member_roles', 'GET', undefined, 'root-token')).json()).map((r: any) => r.id)).toEqual([1]);
    const dup = await call('/member_roles', 'POST', { name: 'Custom webhook manager role', base_access_level: 20 }, 'root-token');
    expect([dup.status, await dup.json()]).toEqual([400, { message: 'Name has already been taken' }]);
    expect((await call('/member_roles/1', 'DELETE', undefined, 'root-token')).status).toBe(204);
    expect((await call('/member_roles/1', 'DELETE', undefined, 'root-token')).status).toBe(404);
    expect((await call('/member_roles', 'GET', undefined, 'dev-token')).status).toBe(403);
  });

  it('are Ultimate\'s', async () => {
    const e = await createEmulator({ fixture: { ...FIXTURE, instance: { tier: 'premium' } } });
    expect((await apiCall(e, '/member_roles', { token: 'root-token' })).status).toBe(404);
  });
});
