// Members of groups and projects through `emulator.handle`: the direct and effective lists,
// get, add (one and bulk), edit, remove, expiry on the clock, states, billable members, LDAP
// overrides and sharing (doc/api/members.md, spec/requests/api/members_spec.rb).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, idOf, membershipRecord, seededWorld, TEAM, TEAM_MEMBERS } from './support/world.js';

const user = (username: string, extra: Record<string, unknown> = {}) => ({
  username, name: username[0]!.toUpperCase() + username.slice(1), email: `${username}@example.com`, tokens: [{ token: `${username}-token` }], ...extra,
});

const fixture: Fixture = {
  instance: { tier: 'premium' },
  users: [...TEAM, user('own'), user('sam'), user('sub'), user('lee'), user('bot', { bot: true })],
  groups: [
    { path: 'acme', name: 'Acme', visibility: 'public', members: [{ user: 'own', access_level: 'owner' }, { user: 'lee', access_level: 'developer', ldap: true }] },
    { path: 'team', name: 'Team', parent: 'acme', visibility: 'private', members: [{ user: 'sub', access_level: 'developer' }] },
    { path: 'partners', name: 'Partners', visibility: 'private', members: [{ user: 'sam', access_level: 'owner' }] },
    { path: 'vault', name: 'Vault', visibility: 'private', members: [{ user: 'own', access_level: 'owner' }] },
    { path: 'inner', name: 'Inner', parent: 'vault', visibility: 'private', members: [{ user: 'sub', access_level: 'developer' }] },
    { path: 'solo', name: 'Solo', visibility: 'private', members: [{ user: 'own', access_level: 'owner' }] },
  ],
  projects: [
    { namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, shared_with_groups: [{ group: 'partners', group_access: 'developer' }] },
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', members: [{ user: 'dev', access_level: 'developer' }], shared_with_groups: [{ group: 'partners', group_access: 'reporter' }] },
    { namespace: 'acme/team', path: 'tools', visibility: 'private', creator: 'root', members: [{ user: 'gus', access_level: 'guest', expires_at: '2026-03-10' }] },
  ],
};

const world = seededWorld(fixture, '2026-03-01T12:00:00Z');
const call = (path: string, token: string, init: Parameters<typeof apiCall>[2] = {}) => apiCall(world(), path, { token, ...init });
const APP = encodeURIComponent('acme/app');
const ids = (list: { id: number }[]) => list.map((m) => m.id);
const uid = (username: string) => idOf(world(), username);
const body = async (res: Response) => res.json() as Promise<any>;

describe('listing members', () => {
  it('lists the direct members of a project in GitLab order, with the Member entity', async () => {
    const res = await call(`/projects/${APP}/members`, 'dev-token');
    expect(res.status).toBe(200);
    const list = await body(res);
    expect(list.map((m: { username: string }) => m.username)).toEqual(['mai', 'dev', 'rep', 'gus']);
    expect(Object.keys(list[1])).toEqual(['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url', 'access_level', 'created_at', 'expires_at', 'membership_state']);
    expect(list[1]).toMatchObject({ id: uid('dev'), username: 'dev', access_level: 30, created_at: '2026-03-01T12:00:00.000Z', expires_at: null, membership_state: 'active' });
  });

  it('filters by query, user_ids and skip_users', async () => {
    expect((await body(await call(`/projects/${APP}/members?query=ma`, 'dev-token'))).map((m: { username: string }) => m.username)).toEqual(['mai']);
    expect(ids(await body(await call(`/projects/${APP}/members?user_ids=${uid('rep')},${uid('gus')}`, 'dev-token')))).toEqual([uid('rep'), uid('gus')]);
    expect(ids(await body(await call(`/projects/${APP}/members?skip_users[]=${uid('mai')}`, 'dev-token')))).toEqual([uid('dev'), uid('rep'), uid('gus')]);
    expect((await call(`/projects/${APP}/members?user_ids=x`, 'dev-token')).status).toBe(400);
  });

  it('needs a signed-in caller who can see the source', async () => {
    expect((await apiCall(world(), `/projects/${APP}/members`)).status).toBe(401);
    expect(await body(await call(`/projects/${APP}/members`, 'outsider-token'))).toEqual({ message: '404 Project Not Found' });
    expect((await call('/groups/acme/members', 'outsider-token')).status).toBe(200);
    // sub belongs only to a subgroup of private... acme is public; partners is private and sub sees nothing of it.
    expect((await call('/groups/partners/members', 'sub-token')).status).toBe(404);
  });

  it('`/all` adds members of ancestor groups and of invited groups, once per user at the highest level', async () => {
    const list = await body(await call(`/projects/${APP}/members/all`, 'dev-token'));
    const byName = Object.fromEntries(list.map((m: { username: string; access_level: number }) => [m.username, m.access_level]));
    expect(byName).toEqual({ own: 50, lee: 30, mai: 40, dev: 30, rep: 20, gus: 10, sam: 30 });
    // the direct listing has none of them
    expect((await body(await call(`/projects/${APP}/members`, 'dev-token'))).some((m: { username: string }) => m.username === 'own')).toBe(false);
  });

  it('shows an invited private group only to members of the source or of that group, and hides created_by of what the caller cannot read', async () => {
    const site = encodeURIComponent('acme/site');
    const stranger = await body(await call(`/projects/${site}/members/all`, 'outsider-token'));
    expect(stranger.map((m: { username: string }) => m.username)).not.toContain('sam');
    const member = await body(await call(`/projects/${site}/members/all`, 'dev-token'));
    expect(member.find((m: { username: string }) => m.username === 'sam')).toMatchObject({ access_level: 20 });
    // add someone to partners, with a creator, and look as dev (no access to partners)
    await call('/groups/partners/members', 'sam-token', { method: 'POST', json: { user_id: uid('rep'), access_level: 30 } });
    const seen = (await body(await call(`/projects/${site}/members/all`, 'dev-token'))).find((m: { username: string }) => m.username === 'rep');
    expect(seen).toMatchObject({ access_level: 20 });
    expect(seen).not.toHaveProperty('created_by');
    const asSam = (await body(await call(`/projects/${site}/members/all`, 'sam-token'))).find((m: { username: string }) => m.username === 'rep');
    expect(asSam.created_by).toMatchObject({ username: 'sam' });
  });

  it('gets one member directly, or through `/all` with inherited ones', async () => {
    expect(await body(await call(`/projects/${APP}/members/${uid('rep')}`, 'dev-token'))).toMatchObject({ username: 'rep', access_level: 20 });
    expect(await body(await call(`/projects/${APP}/members/${uid('own')}`, 'dev-token'))).toEqual({ message: '404 Not found' });
    expect(await body(await call(`/projects/${APP}/members/all/${uid('own')}`, 'dev-token'))).toMatchObject({ username: 'own', access_level: 50 });
    expect(await body(await call(`/projects/${APP}/members/all/${uid('sam')}`, 'dev-token'))).toMatchObject({ username: 'sam', access_level: 30 });
    expect((await call(`/projects/${APP}/members/all/${uid('out')}`, 'dev-token')).status).toBe(404);
    expect((await call(`/projects/${APP}/members/abc`, 'dev-token')).status).toBe(400);
  });

  it('a private group listed by a member of its subgroup only is refused', async () => {
    expect((await call('/groups/vault', 'sub-token')).status).toBe(200);
    expect((await call('/groups/vault/members', 'sub-token')).status).toBe(403);
    expect((await call('/groups/vault%2Finner/members', 'sub-token')).status).toBe(200);
  });
});

describe('adding members', () => {
  it('adds one by user_id or username: 201, the entity with its creator; 409 a second time', async () => {
    const res = await call(`/projects/${APP}/members`, 'maintainer-token', { method: 'POST', json: { user_id: uid('out'), access_level: 30, expires_at: '2026-12-31' } });
    expect(res.status).toBe(201);
    expect(await body(res)).toMatchObject({ id: uid('out'), access_level: 30, expires_at: '2026-12-31', created_by: { username: 'mai' } });
    expect(membershipRecord(world(), 'acme/app', 'out')).toMatchObject({ accessLevel: 30, expiresAt: '2026-12-31', createdById: uid('mai') });
    expect(await body(await call(`/projects/${APP}/members`, 'maintainer-token', { method: 'POST', json: { user_id: uid('out'), access_level: 30 } }))).toEqual({ message: 'Member already exists' });
    const byName = await call(`/projects/${APP}/members`, 'maintainer-token', { method: 'POST', json: { username: 'sub', access_level: 20 } });
    expect(byName.status).toBe(201);
    expect((await call(`/projects/${APP}/members/${uid('sub')}`, 'sub-token')).status).toBe(200);
  });

  it('answers GitLab errors for unknown users, the identifying parameters, levels and dates', async () => {
    const post = (json: unknown, token = 'maintainer-token') => call(`/projects/${APP}/members`, token, { method: 'POST', json });
    let res = await post({ user_id: 9999, access_level: 30 });
    expect([res.status, await body(res)]).toEqual([404, { message: '404 User Not Found' }]);
    res = await post({ user_id: uid('out'), username: 'out', access_level: 30 });
    expect([res.status, await body(res)]).toEqual([400, { error: 'user_id, username are mutually exclusive' }]);
    res = await post({ access_level: 30 });
    expect([res.status, await body(res)]).toEqual([400, { message: '400 Bad request - "user_id" not given' }]);
    res = await post({ user_id: null, access_level: 30 });
    expect([res.status, await body(res)]).toEqual([400, { message: '400 Bad request - "user_id" not given' }]);
    res = await post({ user_id: uid('out'), access_level: 25 });
    expect([res.status, await body(res)]).toEqual([400, { message: { access_level: ['is not included in the list'] } }]);
    res = await post({ user_id: uid('out'), access_level: 30, expires_at: '2026-02-01' });
    expect([res.status, await body(res)]).toEqual([400, { message: { expires_at: ['cannot be a date in the past'] } }]);
    res = await post({ user_id: uid('out'), access_level: 30, expires_at: 'soon' });
    expect([res.status, await body(res)]).toEqual([400, { error: 'expires_at is invalid' }]);
    res = await post({ user_id: uid('lee'), access_level: 20 });
    expect([res.status, await body(res)]).toEqual([400, { message: { access_level: ['should be greater than or equal to Developer inherited membership from group Acme'] } }]);
    res = await post({ user_id: uid('out'), access_level: 50 });
    expect(res.status).toBe(403);
    res = await post({ user_id: uid('out'), access_level: 30 }, 'dev-token');
    expect(res.status).toBe(403);
    expect((await call(`/projects/${APP}/members/all`, 'dev-token').then(body)).map((m: { username: string }) => m.username)).not.toContain('out');
  });

  it('adds in bulk with GitLab status answers', async () => {
    const post = (json: unknown) => call('/groups/acme/members', 'own-token', { method: 'POST', json });
    let res = await post({ user_id: `${uid('out')},${uid('sam')}`, access_level: 20 });
    expect([res.status, await body(res)]).toEqual([201, { status: 'success' }]);
    expect(await body(await call(`/groups/acme/members/${uid('sam')}`, 'own-token'))).toMatchObject({ access_level: 20 });
    res = await post({ username: 'rep,gus', access_level: 25 });
    expect([res.status, await body(res)]).toEqual([201, { status: 'error', message: 'rep: Access level is not included in the list and gus: Access level is not included in the list' }]);
    res = await post({ user_id: Array.from({ length: 101 }, (_, i) => i + 1).join(','), access_level: 20 });
    expect(await body(res)).toEqual({ status: 'error', message: 'Too many users specified (limit is 100)' });
  });

  it('in bulk, updates the members it finds and adds the others', async () => {
    const res = await call(`/projects/${APP}/members`, 'maintainer-token', { method: 'POST', json: { username: 'dev,out', access_level: 40 } });
    expect([res.status, await body(res)]).toEqual([201, { status: 'success' }]);
    expect(membershipRecord(world(), 'acme/app', 'dev')?.accessLevel).toBe(40);
    expect(membershipRecord(world(), 'acme/app', 'out')?.accessLevel).toBe(40);
    // a Maintainer may not touch a Maintainer's level above their own, nor grant Owner
    expect((await call(`/projects/${APP}/members`, 'maintainer-token', { method: 'POST', json: { username: 'dev,out', access_level: 50 } })).status).toBe(403);
    expect(membershipRecord(world(), 'acme/app', 'dev')?.accessLevel).toBe(40);
  });

  it('only group Owners add group members', async () => {
    expect((await call('/groups/acme/members', 'dev-token', { method: 'POST', json: { user_id: uid('out'), access_level: 10 } })).status).toBe(403);
  });
});

describe('editing and removing members', () => {
  it('edits a level and an expiry; refuses what GitLab refuses', async () => {
    const put = (userId: number, json: unknown, token = 'maintainer-token') => call(`/projects/${APP}/members/${userId}`, token, { method: 'PUT', json });
    let res = await put(uid('rep'), { access_level: 30, expires_at: '2026-06-01' });
    expect([res.status, await body(res)]).toMatchObject([200, { access_level: 30, expires_at: '2026-06-01' }]);
    expect((await put(uid('rep'), {})).status).toBe(400);
    expect(await body(await put(uid('rep'), { access_level: 35 }))).toEqual({ message: { access_level: ['is not included in the list'] } });
    expect(await body(await put(uid('out'), { access_level: 30 }))).toEqual({ message: '404 Not found' });
    expect((await put(uid('rep'), { access_level: 50 })).status).toBe(403);
    expect(await body(await put(uid('rep'), { access_level: 30, expires_at: '2020-01-01' }))).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
  });

  it('removes a member (204), lets members leave, keeps the last owner, and checks If-Unmodified-Since', async () => {
    expect((await call(`/projects/${APP}/members/${uid('gus')}`, 'maintainer-token', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/projects/${APP}/members/${uid('gus')}`, 'dev-token')).status).toBe(404);
    expect((await call(`/projects/${APP}/members/${uid('rep')}`, 'reporter-token', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/projects/${APP}/members/${uid('mai')}`, 'dev-token', { method: 'DELETE' })).status).toBe(403);
    expect((await call(`/groups/solo/members/${uid('own')}`, 'own-token', { method: 'DELETE' })).status).toBe(403);
    const stale = await call(`/projects/${APP}/members/${uid('dev')}`, 'maintainer-token', { method: 'DELETE', headers: { 'If-Unmodified-Since': 'Sat, 28 Feb 2026 00:00:00 GMT' } });
    expect([stale.status, await body(stale)]).toEqual([412, { message: '412 Precondition Failed' }]);
    expect((await call(`/projects/${APP}/members/${uid('dev')}`, 'maintainer-token', { method: 'DELETE', headers: { 'If-Unmodified-Since': 'Mon, 02 Mar 2026 00:00:00 GMT' } })).status).toBe(204);
  });

  it('removing from a group also removes memberships below it, unless skip_subresources', async () => {
    await call('/groups/acme%2Fteam/members', 'own-token', { method: 'POST', json: { user_id: uid('lee'), access_level: 30 } });
    expect((await call(`/groups/acme/members/${uid('lee')}?skip_subresources=true`, 'own-token', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/groups/acme%2Fteam/members/${uid('lee')}`, 'own-token')).status).toBe(200);
    await call('/groups/acme/members', 'own-token', { method: 'POST', json: { user_id: uid('lee'), access_level: 30 } });
    expect((await call(`/groups/acme/members/${uid('lee')}`, 'own-token', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/groups/acme%2Fteam/members/${uid('lee')}`, 'own-token')).status).toBe(404);
  });
});

describe('memberships on the clock, states and overrides', () => {
  it('an expired membership stops granting access when the clock passes its date', async () => {
    const tools = encodeURIComponent('acme/team/tools');
    expect((await call(`/projects/${tools}`, 'guest-token')).status).toBe(200);
    world().clock.set('2026-03-09T23:59:00Z');
    expect((await call(`/projects/${tools}`, 'guest-token')).status).toBe(200);
    world().clock.set('2026-03-10T00:00:00Z');
    expect((await call(`/projects/${tools}`, 'guest-token')).status).toBe(404);
    expect((await body(await call(`/projects/${tools}/members`, 'root-token'))).length).toBe(0);
  });

  it('sets a membership state across the hierarchy; an awaiting member has no access', async () => {
    const tools = encodeURIComponent('acme/team/tools');
    await call(`/projects/${tools}/members`, 'root-token', { method: 'POST', json: { user_id: uid('out'), access_level: 30 } });
    const res = await call(`/groups/acme/members/${uid('out')}/state`, 'own-token', { method: 'PUT', json: { state: 'awaiting' } });
    expect([res.status, await body(res)]).toEqual([200, { success: true }]);
    expect((await call(`/projects/${tools}`, 'outsider-token')).status).toBe(404);
    const all = await body(await call(`/projects/${tools}/members/all?state=awaiting`, 'root-token'));
    expect(all.map((m: { username: string; membership_state: string }) => [m.username, m.membership_state])).toEqual([['out', 'awaiting']]);
    await call(`/groups/acme/members/${uid('out')}/state`, 'own-token', { method: 'PUT', json: { state: 'active' } });
    expect((await call(`/projects/${tools}`, 'outsider-token')).status).toBe(200);
    expect((await call(`/groups/acme%2Fteam/members/${uid('out')}/state`, 'own-token', { method: 'PUT', json: { state: 'active' } })).status).toBe(400);
    expect((await call(`/groups/acme/members/${uid('out')}/state`, 'own-token', { method: 'PUT', json: { state: 'gone' } })).status).toBe(400);
  });

  it('overrides an LDAP member, for Owners only', async () => {
    const res = await call(`/groups/acme/members/${uid('lee')}/override`, 'own-token', { method: 'POST' });
    expect([res.status, (await body(res)).override]).toEqual([200, true]);
    expect((await body(await call(`/groups/acme/members/${uid('lee')}/override`, 'own-token', { method: 'DELETE' }))).override).toBe(false);
    expect((await call(`/groups/acme/members/${uid('own')}/override`, 'own-token', { method: 'POST' })).status).toBe(403);
  });
});

describe('billable members', () => {
  it('lists the humans of a top-level group hierarchy with their membership type; 400 for subgroups and non-owners', async () => {
    const list = await body(await call('/groups/acme/billable_members', 'own-token'));
    const byName = Object.fromEntries(list.map((m: { username: string; membership_type: string }) => [m.username, m.membership_type]));
    expect(byName).toEqual({ mai: 'project_member', dev: 'project_member', rep: 'project_member', gus: 'project_member', own: 'group_member', sam: 'project_invite', sub: 'group_member', lee: 'group_member' });
    expect(list[0]).toHaveProperty('removable');
    const sorted = await body(await call('/groups/acme/billable_members?sort=name_desc&search=e', 'own-token'));
    expect(sorted.map((m: { username: string }) => m.username)).toEqual(['rep', 'mai', 'lee', 'gus', 'dev']);
    expect(await body(await call('/groups/acme%2Fteam/billable_members', 'own-token'))).toEqual({ message: '400 Bad request' });
    expect(await body(await call('/groups/acme/billable_members', 'dev-token'))).toEqual({ message: '400 Bad request' });
  });

  it('lists a user’s memberships in the hierarchy and removes them all', async () => {
    const m = await body(await call(`/groups/acme/billable_members/${uid('gus')}/memberships`, 'own-token'));
    expect(m).toEqual([
      expect.objectContaining({ source_full_name: 'Acme / app', access_level: { string_value: 'Guest', integer_value: 10 } }),
      expect.objectContaining({ source_full_name: 'Acme / Team / tools', expires_at: '2026-03-10' }),
    ]);
    expect((await call(`/groups/acme/billable_members/${uid('out')}/memberships`, 'own-token')).status).toBe(404);
    expect((await call(`/groups/acme/billable_members/${uid('gus')}`, 'own-token', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/groups/acme/billable_members/${uid('gus')}/memberships`, 'own-token')).status).toBe(404);
  });

  it('is a paid-tier endpoint', async () => {
    world().configure({ tier: 'free' });
    expect((await call('/groups/acme/billable_members', 'own-token')).status).toBe(404);
  });
});

describe('sharing with groups', () => {
  it('shares a project with a group (201 ProjectGroupLink), granting its members access; 409 twice; DELETE ends it', async () => {
    // mai cannot see the private subgroup: GitLab's service answers 404
    expect(await body(await call(`/projects/${APP}/share`, 'maintainer-token', { method: 'POST', json: { group_id: idOf(world(), 'acme/team'), group_access: 20 } }))).toEqual({ message: 'Not Found' });
    const res = await call(`/projects/${APP}/share`, 'own-token', { method: 'POST', json: { group_id: idOf(world(), 'acme/team'), group_access: 20 } });
    expect(res.status).toBe(201);
    expect(await body(res)).toEqual({ id: expect.any(Number), project_id: idOf(world(), 'acme/app'), group_id: idOf(world(), 'acme/team'), group_access: 20, expires_at: null });
    expect((await call(`/projects/${APP}/members/all/${uid('sub')}`, 'sub-token').then(body)).access_level).toBe(20);
    expect(await body(await call(`/projects/${APP}/share`, 'root-token', { method: 'POST', json: { group_id: idOf(world(), 'partners'), group_access: 20 } }))).toEqual({ message: 'Group already shared with this group' });
    expect(await body(await call(`/projects/${APP}/share`, 'root-token', { method: 'POST', json: { group_id: idOf(world(), 'acme'), group_access: 20 } }))).toEqual({ message: 'Project cannot be shared with the group it is in or one of its ancestors.' });
    expect((await call(`/projects/${APP}/share`, 'own-token', { method: 'POST', json: { group_id: idOf(world(), 'acme/team'), group_access: 25 } })).status).toBe(400);
    expect((await call(`/projects/${APP}/share`, 'dev-token', { method: 'POST', json: { group_id: idOf(world(), 'acme'), group_access: 20 } })).status).toBe(403);
    expect((await body(await call(`/projects/${APP}`, 'own-token'))).shared_with_groups).toEqual([
      { group_id: idOf(world(), 'acme/team'), group_name: 'Team', group_full_path: 'acme/team', group_access_level: 20, expires_at: null },
    ]);
    // only the groups the viewer can see
    expect((await body(await call(`/projects/${APP}`, 'maintainer-token'))).shared_with_groups).toEqual([]);
    expect((await call(`/projects/${APP}/share/${idOf(world(), 'partners')}`, 'maintainer-token', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/projects/${APP}`, 'sam-token')).status).toBe(404);
    expect(await body(await call(`/projects/${APP}/share/${idOf(world(), 'partners')}`, 'maintainer-token', { method: 'DELETE' }))).toEqual({ message: '404 Group Link Not Found' });
  });

  it('shares a group with a group: its members reach the group and its projects', async () => {
    const tools = encodeURIComponent('acme/team/tools');
    expect((await call(`/projects/${tools}`, 'sam-token')).status).toBe(404);
    expect(await body(await call(`/groups/acme%2Fteam/share`, 'own-token', { method: 'POST', json: { group_id: idOf(world(), 'partners'), group_access: 30 } }))).toEqual({ message: '404 Group Not Found' });
    const res = await call(`/groups/acme%2Fteam/share`, 'root-token', { method: 'POST', json: { group_id: idOf(world(), 'partners'), group_access: 30 } });
    expect(res.status).toBe(201);
    expect((await body(res)).shared_with_groups).toEqual([{ group_id: idOf(world(), 'partners'), group_name: 'Partners', group_full_path: 'partners', group_access_level: 30, expires_at: null }]);
    expect((await call(`/projects/${tools}`, 'sam-token')).status).toBe(200);
    expect((await body(await call(`/groups/acme%2Fteam/members/all/${uid('sam')}`, 'root-token'))).access_level).toBe(30);
    // own cannot see the private invited group: its members are not listed to them
    expect((await call(`/groups/acme%2Fteam/members/all/${uid('sam')}`, 'own-token')).status).toBe(404);
    expect((await call(`/groups/acme%2Fteam/share/${idOf(world(), 'partners')}`, 'own-token', { method: 'DELETE' })).status).toBe(204);
    expect((await call(`/projects/${tools}`, 'sam-token')).status).toBe(404);
  });
});
