// Users (lib/api/users.rb, app/finders/users_finder.rb, lib/api/entities/user*.rb): the list
// for each kind of caller, one user, the current user, and what administrators change.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'] }] },
    { username: 'alice', name: 'Alice Liddell', public_email: 'alice@example.com', tokens: [{ token: 'alice-token' }], identities: [{ provider: 'github', extern_uid: 'A-1' }], custom_attributes: { team: 'red' } },
    { username: 'bob', name: 'Bob Alison', external: true, tokens: [{ token: 'bob-token' }], two_factor_enabled: true, emails: [{ email: 'bob@work.example' }] },
    { username: 'carol', name: 'Carol', private_profile: true, tokens: [{ token: 'carol-token' }], bio: 'secret' },
    { username: 'dave', name: 'Dave', state: 'blocked' },
    { username: 'erin', name: 'Erin', state: 'deactivated' },
    { username: 'alert', name: 'GitLab Alert Bot', user_type: 'alert_bot' },
    { username: 'reader', tokens: [{ token: 'read-user-token', scopes: ['read_user'] }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }, { user: 'bob', access_level: 'developer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', members: [{ user: 'carol', access_level: 'reporter' }] }],
};

const world = seededWorld(FIXTURE, NOW);

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
}

const names = (list: { username: string }[]) => list.map((u) => u.username);
const idOf = async (username: string) => (await call('GET', `/users?username=${username}`, 'root-token')).body[0].id as number;

describe('GET /users', () => {
  it('refuses an anonymous caller without username, and finds exactly one user by username in any case', async () => {
    expect(await call('GET', '/users')).toMatchObject({ status: 403, body: { message: '403 Forbidden - Not authorized to access /api/v4/users' } });
    const one = await call('GET', '/users?username=ALICE');
    expect(one.status).toBe(200);
    expect(names(one.body)).toEqual(['alice']);
    expect(Object.keys(one.body[0])).toEqual(['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url']);
    expect((await call('GET', '/users?username=nobody')).body).toEqual([]);
  });

  it('lists newest first without blocked users for a signed-in caller; administrators see every state', async () => {
    const user = await call('GET', '/users', 'alice-token');
    expect(names(user.body)).toEqual(['reader', 'alert', 'erin', 'carol', 'bob', 'alice', 'root']);
    expect(user.body[0]).not.toHaveProperty('note');
    const admin = await call('GET', '/users', 'root-token');
    expect(names(admin.body)).toContain('dave');
    expect(admin.body[0]).toHaveProperty('note', null);
    expect(admin.body[0]).toHaveProperty('created_by', null);
    expect(admin.body[0]).toHaveProperty('email_reset_offered_at', null);
    expect(admin.body[0]).toHaveProperty('is_admin', false);
  });

  it('filters by state, kind and type', async () => {
    expect(names((await call('GET', '/users?active=true', 'root-token')).body)).toEqual(['reader', 'carol', 'bob', 'alice', 'root']);
    expect(names((await call('GET', '/users?blocked=true', 'root-token')).body)).toEqual(['dave']);
    expect(names((await call('GET', '/users?external=true', 'alice-token')).body)).toEqual(['bob']);
    expect(names((await call('GET', '/users?exclude_external=true&exclude_internal=true', 'alice-token')).body)).toEqual(['reader', 'erin', 'carol', 'alice', 'root']);
    expect(names((await call('GET', '/users?admins=true', 'root-token')).body)).toEqual(['root']);
    // The unsupported false values filter nothing.
    expect((await call('GET', '/users?active=false', 'alice-token')).body).toHaveLength(7);
  });

  it('drops the administrators\' filters for everyone else, and keeps them for administrators', async () => {
    expect(names((await call('GET', '/users?two_factor=enabled', 'root-token')).body)).toEqual(['bob']);
    expect((await call('GET', '/users?two_factor=enabled', 'alice-token')).body).toHaveLength(7);
    expect(names((await call('GET', '/users?order_by=username&sort=asc', 'root-token')).body).slice(0, 3)).toEqual(['alert', 'alice', 'bob']);
    expect(names((await call('GET', '/users?order_by=username&sort=asc', 'alice-token')).body)[0]).toBe('reader');
    expect(names((await call('GET', '/users?without_projects=true', 'root-token')).body)).not.toContain('carol');
    expect(names((await call('GET', '/users?custom_attributes[team]=red', 'root-token')).body)).toEqual(['alice']);
  });

  it('has the higher tiers\' filters at those tiers only: auditors, saml_provider_id, skip_ldap', async () => {
    const e = await createEmulator({
      fixture: {
        users: [
          { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
          { username: 'aud', auditor: true, tokens: [{ token: 'aud-token' }] },
          { username: 'sam', identities: [{ provider: 'group_saml', extern_uid: 's-1', saml_provider_id: 7 }] },
          { username: 'lda', identities: [{ provider: 'ldapmain', extern_uid: 'cn=lda' }] },
        ],
      },
      clock: { now: NOW, frozen: true },
    });
    const list = async (q: string, token = 'root-token') => names(await (await apiCall(e, `/users?${q}`, { token })).json());
    expect(await list('auditors=true')).toEqual(['lda', 'sam', 'aud', 'root']);
    e.configure({ tier: 'ultimate' });
    expect(await list('auditors=true')).toEqual(['aud']);
    expect(await list('saml_provider_id=7')).toEqual(['sam']);
    expect(await list('skip_ldap=true')).toEqual(['sam', 'aud', 'root']);
    // An auditor reads everything, as an administrator does, at these tiers.
    expect(await list('saml_provider_id=7', 'aud-token')).toEqual(['sam']);
  });

  it('finds by external identity for administrators only, both parameters or none', async () => {
    expect(names((await call('GET', '/users?extern_uid=A-1&provider=github', 'root-token')).body)).toEqual(['alice']);
    expect((await call('GET', '/users?extern_uid=A-1&provider=github', 'alice-token')).status).toBe(403);
    expect((await call('GET', '/users?extern_uid=A-1', 'root-token'))).toMatchObject({ status: 400, body: { error: 'extern_uid, provider provide all or none of parameters' } });
  });

  it('searches names and usernames, exact usernames first; emails only in full', async () => {
    const hits = await call('GET', '/users?search=ali', 'alice-token');
    expect(names(hits.body)).toEqual(['alice', 'bob']);
    expect(names((await call('GET', '/users?search=bob', 'alice-token')).body)).toEqual(['bob']);
    expect(names((await call('GET', '/users?search=alice@example.com', 'bob-token')).body)).toEqual(['alice']);
    // A private email is found by administrators only.
    expect(names((await call('GET', '/users?search=bob@work.example', 'alice-token')).body)).toEqual([]);
    expect(names((await call('GET', '/users?search=bob@work.example', 'root-token')).body)).toEqual(['bob']);
  });

  it('pages by offset and by keyset', async () => {
    const page = await call('GET', '/users?per_page=2&page=2', 'alice-token');
    expect(names(page.body)).toEqual(['erin', 'carol']);
    expect(page.res.headers.get('x-total')).toBe('7');
    const first = await call('GET', '/users?pagination=keyset&per_page=3', 'alice-token');
    expect(names(first.body)).toEqual(['reader', 'alert', 'erin']);
    const next = /<([^>]+)>; rel="next"/.exec(first.res.headers.get('link')!)![1]!;
    const second = await apiCall(world(), next.replace(/^.*\/api\/v4/, ''), { token: 'alice-token' });
    expect(names(await second.json())).toEqual(['carol', 'bob', 'alice']);
  });

  it('adds custom attributes for administrators who ask', async () => {
    const list = await call('GET', '/users?username=alice&with_custom_attributes=true', 'root-token');
    expect(list.body[0].custom_attributes).toEqual([{ key: 'team', value: 'red' }]);
    expect((await call('GET', '/users?username=alice&with_custom_attributes=true', 'bob-token')).body[0]).not.toHaveProperty('custom_attributes');
  });

  it('accepts a read_user token', async () => {
    expect((await call('GET', '/users', 'read-user-token')).status).toBe(200);
  });
});

describe('GET /users/:id and GET /user', () => {
  it('needs a signed-in caller; an unknown or blocked user is 404', async () => {
    const alice = await idOf('alice');
    expect(await call('GET', `/users/${alice}`)).toMatchObject({ status: 403, body: { message: '403 Forbidden - Not authorized!' } });
    expect(await call('GET', '/users/9999', 'bob-token')).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect((await call('GET', `/users/${await idOf('dave')}`, 'bob-token')).status).toBe(404);
    expect((await call('GET', `/users/${await idOf('dave')}`, 'root-token')).status).toBe(200);
    expect((await call('GET', '/users/abc', 'bob-token')).status).toBe(404);
  });

  it('shows a profile with GitLab\'s fields, and a private one without them', async () => {
    const alice = await call('GET', `/users/${await idOf('alice')}`, 'bob-token');
    expect(Object.keys(alice.body)).toEqual([
      'id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url', 'created_at', 'bio', 'location', 'public_email', 'skype',
      'linkedin', 'twitter', 'discord', 'website_url', 'organization', 'job_title', 'pronouns', 'bot', 'work_information',
      'followers', 'following', 'is_followed', 'local_time',
    ]);
    expect(alice.body.public_email).toBe('alice@example.com');
    const carol = await call('GET', `/users/${await idOf('carol')}`, 'bob-token');
    expect(carol.body).not.toHaveProperty('bio');
    expect(carol.body).not.toHaveProperty('created_at');
    expect((await call('GET', `/users/${await idOf('carol')}`, 'carol-token')).body.bio).toBe('secret');
  });

  it('gives administrators the details with the highest role', async () => {
    const alice = await call('GET', `/users/${await idOf('alice')}`, 'root-token');
    expect(alice.body).toMatchObject({ is_admin: false, highest_role: 50, identities: [{ provider: 'github', extern_uid: 'A-1' }], email: 'alice@example.com' });
    expect(alice.body).not.toHaveProperty('is_auditor');
  });

  it('adds the higher tiers\' fields only at those tiers', async () => {
    world().configure({ tier: 'ultimate' });
    const alice = await call('GET', `/users/${await idOf('alice')}`, 'root-token');
    expect(alice.body).toMatchObject({ is_auditor: false, using_license_seat: true, provisioned_by_group_id: null, scim_identities: [], shared_runners_minutes_limit: null, plan: null, trial: false });
  });

  it('GET /user is UserPublic for a user and UserWithAdmin for an administrator; 401 anonymous', async () => {
    expect((await call('GET', '/user')).status).toBe(401);
    const bob = await call('GET', '/user', 'bob-token');
    expect(bob.body).toMatchObject({ username: 'bob', email: 'bob@example.com', two_factor_enabled: true, external: true, can_create_project: false });
    expect(bob.body).not.toHaveProperty('is_admin');
    expect((await call('GET', '/user', 'root-token')).body).toMatchObject({ is_admin: true, namespace_id: expect.any(Number) });
  });
});

describe('POST /users', () => {
  const NEW = { email: 'new@example.com', name: 'New Person', username: 'newbie', password: 'Tr0ub4dor&3x' };

  it('creates a user as an administrator: 201 UserWithAdmin, usable at once', async () => {
    const res = await call('POST', '/users', 'root-token', NEW);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ username: 'newbie', email: 'new@example.com', is_admin: false, external: false, private_profile: false, bio: '', created_by: { username: 'root' }, confirmed_at: null });
    const confirmed = await call('POST', '/users', 'root-token', { ...NEW, email: 'n2@example.com', username: 'n2', skip_confirmation: true });
    expect(confirmed.body.confirmed_at).toBe('2024-03-01T12:00:00.000Z');
    expect(names((await call('GET', '/users?username=newbie', 'alice-token')).body)).toEqual(['newbie']);
  });

  it('takes its fields from the query string with an empty JSON body, as python-gitlab sends them', async () => {
    const q = new URLSearchParams({ email: 'q@example.com', name: 'Query', username: 'query', password: 'Tr0ub4dor&3x', admin: 'True' });
    const res = await call('POST', `/users?${q}`, 'root-token', {});
    expect(res).toMatchObject({ status: 201, body: { username: 'query', is_admin: true } });
  });

  it('takes multipart form values as strings, as gitbeaker edits', async () => {
    const form = new FormData();
    form.set('projects_limit', '10');
    form.set('private_profile', 'true');
    form.set('avatar', new Blob(['png'], { type: 'image/png' }), 'a.png');
    const res = await apiCall(world(), `/users/${await idOf('bob')}`, { method: 'PUT', token: 'root-token', body: form });
    expect(await res.json()).toMatchObject({ projects_limit: 10, private_profile: true });
  });

  it('refuses anonymous callers (401) and non-administrators (403)', async () => {
    expect((await call('POST', '/users', undefined, NEW)).status).toBe(401);
    expect((await call('POST', '/users', 'alice-token', NEW)).status).toBe(403);
  });

  it('needs a password or a reset', async () => {
    const { password: _p, ...rest } = NEW;
    expect(await call('POST', '/users', 'root-token', rest)).toMatchObject({
      status: 400,
      body: { error: 'password, reset_password, force_random_password are missing, at least one parameter must be provided' },
    });
    expect((await call('POST', '/users', 'root-token', { ...rest, reset_password: true })).status).toBe(201);
  });

  it('answers 409 for a taken email or username, in any case', async () => {
    expect(await call('POST', '/users', 'root-token', { ...NEW, email: 'ALICE@example.com' })).toMatchObject({ status: 409, body: { message: 'Email has already been taken' } });
    expect(await call('POST', '/users', 'root-token', { ...NEW, email: 'BOB@work.example' })).toMatchObject({ status: 409, body: { message: 'Email has already been taken' } });
    expect(await call('POST', '/users', 'root-token', { ...NEW, username: 'ALICE' })).toMatchObject({ status: 409, body: { message: 'Username has already been taken' } });
  });

  it('validates as GitLab does', async () => {
    expect((await call('POST', '/users', 'root-token', { ...NEW, password: 'pass' })).body).toEqual({ message: { password: ['is too short (minimum is 8 characters)'] } });
    expect((await call('POST', '/users', 'root-token', { ...NEW, password: 'password' })).body).toEqual({ message: { password: ['must not contain commonly used combinations of words and letters'] } });
    expect((await call('POST', '/users', 'root-token', { ...NEW, bio: 'x'.repeat(256) })).body).toEqual({ message: { bio: ['is too long (maximum is 255 characters)'] } });
    expect((await call('POST', '/users', 'root-token', { ...NEW, projects_limit: -1 })).body).toEqual({ message: { projects_limit: ['must be greater than or equal to 0'] } });
    const bad = await call('POST', '/users', 'root-token', { ...NEW, username: 'test!' });
    expect(bad.status).toBe(400);
    expect(bad.body.message.username).toEqual([
      "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.",
      "can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'.",
    ]);
    expect((await call('POST', '/users', 'root-token', { ...NEW, email: 'nope' })).status).toBe(400);
    expect((await call('POST', '/users', 'root-token', { ...NEW, theme_id: 50 })).status).toBe(400);
    expect((await call('GET', '/users?username=newbie', 'root-token')).body).toEqual([]);
  });

  it('takes private_profile from the instance setting when absent or null', async () => {
    world().configure({ settings: { user_defaults_to_private_profile: true } });
    expect((await call('POST', '/users', 'root-token', { ...NEW, private_profile: null })).body.private_profile).toBe(true);
  });

  it('records an identity from provider and extern_uid', async () => {
    const res = await call('POST', '/users', 'root-token', { ...NEW, provider: 'ldapmain', extern_uid: 'cn=new' });
    expect(res.body.identities).toEqual([{ provider: 'ldapmain', extern_uid: 'cn=new' }]);
  });
});

describe('PUT /users/:id', () => {
  it('changes a user, with 404 for an unknown one, and 404 (as the spec says, not 409) for a taken email or username', async () => {
    const bob = await idOf('bob');
    const res = await call('PUT', `/users/${bob}`, 'root-token', { name: 'Robert', bio: null, note: 'watch' });
    expect(res).toMatchObject({ status: 200, body: { name: 'Robert', bio: '', note: 'watch' } });
    expect((await call('PUT', '/users/9999', 'root-token', { name: 'x' })).status).toBe(404);
    expect(await call('PUT', `/users/${bob}`, 'root-token', { email: 'alice@example.com' })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(await call('PUT', `/users/${bob}`, 'root-token', { username: 'Alice' })).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect((await call('GET', `/users/${bob}`, 'root-token')).body.username).toBe('bob');
    expect((await call('PUT', `/users/${bob}`, 'alice-token', { name: 'x' })).status).toBe(403);
  });

  it('renames the user and their namespace', async () => {
    const bob = await idOf('bob');
    expect((await call('PUT', `/users/${bob}`, 'root-token', { username: 'robert' })).body.username).toBe('robert');
    expect(names((await call('GET', '/users?username=robert', 'alice-token')).body)).toEqual(['robert']);
    expect((await call('GET', '/namespaces/robert', 'bob-token')).status).toBe(200);
  });

  it('moves the primary email to a secondary one only after confirmation, unless told to skip it', async () => {
    const bob = await idOf('bob');
    expect((await call('PUT', `/users/${bob}`, 'root-token', { email: 'bob@work.example' })).body.email).toBe('bob@work.example');
    // The old primary address stays the user's, as a confirmed secondary one.
    expect((await call('GET', `/users/${bob}/emails`, 'root-token')).body.map((e: { email: string }) => e.email)).toEqual(['bob@example.com']);
    const alice = await idOf('alice');
    expect((await call('PUT', `/users/${alice}`, 'root-token', { email: 'al@new.example' })).body.email).toBe('alice@example.com');
    expect((await call('PUT', `/users/${alice}`, 'root-token', { email: 'al@new.example', skip_reconfirmation: true })).body.email).toBe('al@new.example');
  });

  it('accepts only a verified public email, and _private as the commit email', async () => {
    const bob = await idOf('bob');
    expect((await call('PUT', `/users/${bob}`, 'root-token', { public_email: 'elsewhere@example.com' })).status).toBe(400);
    expect((await call('PUT', `/users/${bob}`, 'root-token', { public_email: 'bob@work.example' })).body.public_email).toBe('bob@work.example');
    expect((await call('PUT', `/users/${bob}`, 'root-token', { commit_email: '_private' })).body.commit_email).toMatch(/noreply/);
  });
});

describe('DELETE /users/:id', () => {
  it('refuses the sole owner of a group unless hard_delete', async () => {
    const alice = await idOf('alice');
    expect(await call('DELETE', `/users/${alice}`, 'root-token')).toMatchObject({ status: 409, body: { message: 'User cannot be removed while is the sole-owner of a group' } });
    expect((await call('DELETE', `/users/${alice}`, 'root-token', { hard_delete: true })).status).toBe(204);
  });

  it('deletes on the clock: tokens die, memberships and the namespace go', async () => {
    const bob = await idOf('bob');
    expect((await call('DELETE', `/users/${bob}`, 'root-token')).status).toBe(204);
    world().runUntilIdle();
    expect((await call('GET', `/users/${bob}`, 'root-token')).status).toBe(404);
    expect((await call('GET', '/user', 'bob-token')).status).toBe(401);
    expect((await call('GET', '/namespaces/bob', 'root-token')).status).toBe(404);
    expect((await call('GET', '/users/9999', 'root-token')).status).toBe(404);
    expect((await call('DELETE', '/users/9999', 'root-token'))).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
    expect((await call('POST', '/users', 'root-token', { email: 'bob@example.com', name: 'Bob', username: 'bob', password: 'Tr0ub4dor&3x' })).status).toBe(201);
  });
});

describe('states', () => {
  it('blocks and unblocks; a blocked user cannot use the API', async () => {
    const bob = await idOf('bob');
    expect(await call('POST', `/users/${bob}/block`, 'root-token')).toMatchObject({ status: 201, body: true });
    expect(await call('GET', '/user', 'bob-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden - Your account has been blocked.' } });
    expect(await call('POST', `/users/${bob}/block`, 'root-token')).toMatchObject({ status: 201, body: null });
    expect(await call('POST', `/users/${bob}/unblock`, 'root-token')).toMatchObject({ status: 201, body: true });
    expect((await call('GET', '/user', 'bob-token')).status).toBe(200);
  });

  it('refuses to block the caller, to unblock a deactivated user, to activate a blocked one', async () => {
    const root = await idOf('root');
    expect(await call('POST', `/users/${root}/block`, 'root-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden - The API initiating user cannot be blocked by the API' } });
    expect(await call('POST', `/users/${await idOf('erin')}/unblock`, 'root-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' } });
    expect(await call('POST', `/users/${await idOf('dave')}/activate`, 'root-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden - A blocked user must be unblocked to be activated' } });
  });

  it('deactivates a dormant user only, and activates them again', async () => {
    const carol = await idOf('carol');
    await call('GET', '/user', 'carol-token'); // active today
    expect(await call('POST', `/users/${carol}/deactivate`, 'root-token')).toMatchObject({
      status: 403,
      body: { message: 'The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated' },
    });
    const bob = await idOf('bob');
    expect(await call('POST', `/users/${bob}/deactivate`, 'root-token')).toMatchObject({ status: 201, body: true });
    expect((await call('GET', '/user', 'bob-token')).status).toBe(403);
    expect(await call('POST', `/users/${bob}/activate`, 'root-token')).toMatchObject({ status: 201, body: true });
    await call('POST', `/users/${bob}/deactivate`, 'root-token');
    world().signIn('bob'); // signing in on the web reactivates
    expect((await call('GET', '/user', 'bob-token')).status).toBe(200);
  });

  it('approves or rejects a user pending approval', async () => {
    const made = (await call('POST', '/users', 'root-token', { email: 'p@example.com', name: 'Pending', username: 'pending', reset_password: true })).body.id;
    expect(await call('POST', `/users/${made}/approve`, 'root-token')).toMatchObject({ status: 403, body: { message: 'The user you are trying to approve is not pending approval' } });
    await call('POST', `/users/${made}/block`, 'root-token');
    expect(await call('POST', `/users/${made}/reject`, 'root-token')).toMatchObject({ status: 403, body: { message: 'User does not have a pending request' } });
    const e = await createEmulator({
      fixture: { users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }, { username: 'p1', state: 'blocked_pending_approval' }, { username: 'p2', state: 'blocked_pending_approval' }] },
      clock: { now: NOW, frozen: true },
    });
    const ask = async (method: string, path: string) => apiCall(e, path, { method, token: 'root-token' });
    expect(await (await ask('POST', '/users/2/approve')).json()).toEqual({ message: 'Success' });
    expect((await (await ask('GET', '/users/2')).json()).state).toBe('active');
    expect((await ask('POST', '/users/3/reject')).status).toBe(201);
    e.runUntilIdle();
    expect((await ask('GET', '/users/3')).status).toBe(404);
  });

  it('bans and unbans with their refusals', async () => {
    const bob = await idOf('bob');
    expect(await call('POST', `/users/${bob}/ban`, 'root-token')).toMatchObject({ status: 201, body: true });
    expect(await call('POST', `/users/${bob}/ban`, 'root-token')).toMatchObject({ status: 403, body: { message: 'You cannot ban banned users.' } });
    expect(names((await call('GET', '/users', 'alice-token')).body)).not.toContain('bob');
    expect(await call('POST', `/users/${bob}/unban`, 'root-token')).toMatchObject({ status: 201, body: true });
    expect(await call('POST', `/users/${bob}/unban`, 'root-token')).toMatchObject({ status: 403, body: { message: 'You cannot unban active users.' } });
    expect((await call('POST', `/users/${bob}/ban`, 'alice-token')).status).toBe(403);
    expect((await call('POST', '/users/9999/ban', 'root-token')).status).toBe(404);
  });
});

describe('two-factor, identities, memberships, custom attributes', () => {
  it('disables two-factor with GitLab\'s answers', async () => {
    const bob = await idOf('bob');
    expect((await call('PATCH', `/users/${bob}/disable_two_factor`, 'alice-token')).body).toEqual({ message: '403 Forbidden' });
    expect((await call('PATCH', `/users/${bob}/disable_two_factor`)).status).toBe(401);
    expect((await call('PATCH', `/users/${bob}/disable_two_factor`, 'root-token')).status).toBe(204);
    expect(await call('PATCH', `/users/${bob}/disable_two_factor`, 'root-token')).toMatchObject({ status: 400, body: { message: '400 Bad request - Two-factor authentication is not enabled for this user' } });
    expect(await call('PATCH', `/users/${await idOf('root')}/disable_two_factor`, 'root-token')).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Two-factor authentication for admins cannot be disabled via the API. Use the Rails console' },
    });
    expect(await call('PATCH', '/users/9999/disable_two_factor', 'root-token')).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
  });

  it('deletes an identity', async () => {
    const alice = await idOf('alice');
    expect(await call('DELETE', `/users/${alice}/identities/gitlab`, 'root-token')).toMatchObject({ status: 404, body: { message: '404 Identity Not Found' } });
    expect((await call('DELETE', `/users/${alice}/identities/github`, 'root-token')).status).toBe(204);
    expect((await call('GET', '/users?extern_uid=A-1&provider=github', 'root-token')).body).toEqual([]);
  });

  it('lists direct memberships by type', async () => {
    const carol = await idOf('carol');
    const all = await call('GET', `/users/${carol}/memberships`, 'root-token');
    expect(all.body).toEqual([{ source_id: expect.any(Number), source_name: 'app', source_type: 'Project', access_level: 20 }]);
    const alice = await idOf('alice');
    expect((await call('GET', `/users/${alice}/memberships?type=Namespace`, 'root-token')).body).toEqual([{ source_id: expect.any(Number), source_name: 'acme', source_type: 'Namespace', access_level: 50 }]);
    expect((await call('GET', `/users/${alice}/memberships?type=Project`, 'root-token')).body).toEqual([]);
    expect((await call('GET', `/users/${alice}/memberships?type=Group`, 'root-token')).status).toBe(400);
    expect((await call('GET', `/users/${alice}/memberships`, 'bob-token')).status).toBe(403);
    expect((await call('GET', '/users/9999/memberships', 'root-token')).status).toBe(404);
  });

  it('sets, reads and deletes custom attributes', async () => {
    const bob = await idOf('bob');
    expect((await call('PUT', `/users/${bob}/custom_attributes/level`, 'root-token', { value: '3' })).body).toEqual({ key: 'level', value: '3' });
    expect((await call('GET', `/users/${bob}/custom_attributes`, 'root-token')).body).toEqual([{ key: 'level', value: '3' }]);
    expect(names((await call('GET', '/users?custom_attributes[level]=3', 'root-token')).body)).toEqual(['bob']);
    expect((await call('DELETE', `/users/${bob}/custom_attributes/level`, 'root-token')).status).toBe(204);
    expect((await call('GET', `/users/${bob}/custom_attributes/level`, 'root-token')).status).toBe(404);
  });
});

describe('activity', () => {
  it('records the day of API use once, and lists activities oldest first from a date', async () => {
    expect((await call('GET', '/user', 'alice-token')).body.last_activity_on).toBeNull();
    const before = world().state;
    const again = await call('GET', '/user', 'alice-token');
    expect(again.body).toMatchObject({ last_activity_on: '2024-03-01', current_sign_in_at: '2024-03-01T12:00:00.000Z' });
    expect(world().state).toBe(before); // the same day: nothing more to write
    world().clock.advance('2d');
    await call('GET', '/user', 'bob-token');
    const all = await call('GET', '/user/activities?from=2024-01-01', 'root-token');
    expect(all.body).toEqual([
      { username: 'alice', last_activity_on: '2024-03-01', last_activity_at: '2024-03-01' },
      { username: 'bob', last_activity_on: '2024-03-03', last_activity_at: '2024-03-03' },
    ]);
    // The administrator's own request counted once it was answered.
    expect(names((await call('GET', '/user/activities?from=2024-03-02', 'root-token')).body)).toEqual(['root', 'bob']);
  });

  it('shows private profiles to administrators only', async () => {
    await call('GET', '/user', 'carol-token');
    expect(names((await call('GET', '/user/activities', 'root-token')).body)).toContain('carol');
    expect(names((await call('GET', '/user/activities', 'alice-token')).body)).not.toContain('carol');
    expect((await call('GET', '/user/activities')).status).toBe(401);
  });

  it('signing in counts: current and last sign-in, count, activity', async () => {
    world().signIn('bob');
    world().clock.advance('1h');
    world().signIn('bob');
    const bob = (await call('GET', `/users/${await idOf('bob')}`, 'root-token')).body;
    expect(bob).toMatchObject({ sign_in_count: 2, last_sign_in_at: '2024-03-01T12:00:00.000Z', current_sign_in_at: '2024-03-01T13:00:00.000Z', last_activity_on: '2024-03-01' });
  });

  it('a failed request records nothing', async () => {
    await call('GET', '/users/9999', 'bob-token');
    expect((await call('GET', `/users/${await idOf('bob')}`, 'root-token')).body.last_activity_on).toBeNull();
  });
});

describe('status, emails, keys, follows', () => {
  const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl alice@laptop';

  it('reads and changes preferences', async () => {
    expect((await call('GET', '/user/preferences', 'alice-token')).body).toMatchObject({ view_diffs_file_by_file: false, show_whitespace_in_diffs: true, pass_user_identities_to_ci_jwt: false });
    expect((await call('PUT', '/user/preferences', 'alice-token', { view_diffs_file_by_file: true })).body.view_diffs_file_by_file).toBe(true);
    expect((await call('GET', '/user/preferences', 'alice-token')).body).toMatchObject({ view_diffs_file_by_file: true, show_whitespace_in_diffs: true });
    expect((await call('PUT', '/user/preferences', 'alice-token', {})).status).toBe(400);
  });

  it('sets, patches and reads a status', async () => {
    expect((await call('PUT', '/user/status', 'alice-token', { message: 'on leave', availability: 'busy' })).body).toEqual({
      emoji: 'speech_balloon', availability: 'busy', message: 'on leave', message_html: 'on leave', clear_status_at: null,
    });
    expect((await call('PATCH', '/user/status', 'alice-token', { emoji: 'palm_tree' })).body).toMatchObject({ emoji: 'palm_tree', message: 'on leave' });
    expect((await call('GET', '/users/alice/status', 'bob-token')).body).toMatchObject({ emoji: 'palm_tree', availability: 'busy' });
    expect((await call('PUT', '/user/status', 'alice-token', { clear_status_after: '30_minutes', message: 'brb' })).body.clear_status_at).toBe('2024-03-01T12:30:00.000Z');
    world().clock.advance('31m');
    expect((await call('GET', '/user/status', 'alice-token')).body.message).toBeNull();
    expect((await call('GET', '/users/nobody/status', 'bob-token')).status).toBe(404);
  });

  it('adds, lists and deletes emails; a confirmed one is taken for everyone', async () => {
    const mine = await call('POST', '/user/emails', 'alice-token', { email: 'a2@example.com' });
    expect(mine).toMatchObject({ status: 201, body: { email: 'a2@example.com', confirmed_at: null } });
    expect((await call('GET', '/user/emails', 'alice-token')).body).toHaveLength(1);
    expect((await call('POST', '/user/emails', 'bob-token', { email: 'a2@example.com' })).body).toEqual({ message: { email: ['has already been taken'] } });
    const bob = await idOf('bob');
    const added = await call('POST', `/users/${bob}/emails`, 'root-token', { email: 'b2@example.com', skip_confirmation: true });
    expect(added.body.confirmed_at).toBe('2024-03-01T12:00:00.000Z');
    expect((await call('POST', '/users', 'root-token', { email: 'b2@example.com', name: 'X', username: 'xx', password: 'Tr0ub4dor&3x' })).status).toBe(409);
    expect((await call('DELETE', `/user/emails/${mine.body.id}`, 'alice-token')).status).toBe(204);
    expect((await call('DELETE', `/user/emails/${mine.body.id}`, 'alice-token')).body).toEqual({ message: '404 Email Not Found' });
    expect((await call('GET', `/users/${bob}/emails`, 'alice-token')).status).toBe(403);
  });

  it('adds SSH keys, refuses a key in use or of a bad type, and lists them for anyone', async () => {
    const key = await call('POST', '/user/keys', 'alice-token', { title: 'laptop', key: KEY });
    expect(key).toMatchObject({ status: 201, body: { title: 'laptop', key: KEY, usage_type: 'auth_and_signing', expires_at: null } });
    expect((await call('POST', '/user/keys', 'bob-token', { title: 'again', key: KEY })).body).toEqual({ message: { fingerprint_sha256: ['has already been taken'] } });
    expect((await call('POST', '/user/keys', 'bob-token', { title: 'bad', key: 'nope' })).status).toBe(400);
    expect((await call('GET', '/users/alice/keys')).body).toHaveLength(1);
    expect((await call('GET', `/users/${await idOf('alice')}/keys/${key.body.id}`)).body.title).toBe('laptop');
    expect((await call('DELETE', `/user/keys/${key.body.id}`, 'alice-token')).status).toBe(204);
    expect((await call('GET', '/user/keys', 'alice-token')).body).toEqual([]);
  });

  it('adds and revokes GPG keys', async () => {
    const body = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQENBF...\n-----END PGP PUBLIC KEY BLOCK-----';
    const key = await call('POST', '/user/gpg_keys', 'alice-token', { key: body });
    expect(key.status).toBe(201);
    expect((await call('GET', `/users/${await idOf('alice')}/gpg_keys`)).body).toHaveLength(1);
    expect((await call('POST', `/user/gpg_keys/${key.body.id}/revoke`, 'alice-token')).status).toBe(202);
    expect((await call('GET', '/user/gpg_keys', 'alice-token')).body).toEqual([]);
    expect((await call('POST', '/user/gpg_keys', 'alice-token', { key: 'x' })).status).toBe(400);
    const alice = await idOf('alice');
    const other = (await call('POST', `/users/${alice}/gpg_keys`, 'root-token', { key: body })).body;
    expect((await call('GET', `/users/${alice}/gpg_keys/${other.id}`)).body.id).toBe(other.id);
    expect((await call('POST', `/users/${alice}/gpg_keys/${other.id}/revoke`, 'bob-token')).status).toBe(403);
    expect((await call('DELETE', `/users/${alice}/gpg_keys/${other.id}`, 'root-token')).status).toBe(204);
    expect(await call('GET', `/users/${alice}/gpg_keys/${other.id}`)).toMatchObject({ status: 404, body: { message: '404 GPG Key Not Found' } });
  });

  it('follows and unfollows, with 304 when nothing changes', async () => {
    const bob = await idOf('bob');
    expect((await call('POST', `/users/${bob}/follow`, 'alice-token')).status).toBe(201);
    expect((await call('POST', `/users/${bob}/follow`, 'alice-token')).status).toBe(304);
    const profile = await call('GET', `/users/${bob}`, 'alice-token');
    expect(profile.body).toMatchObject({ followers: 1, following: 0, is_followed: true });
    expect(names((await call('GET', `/users/${bob}/followers`, 'root-token')).body)).toEqual(['alice']);
    expect(names((await call('GET', `/users/${await idOf('alice')}/following`, 'root-token')).body)).toEqual(['bob']);
    expect((await call('GET', `/users/${bob}/followers`)).status).toBe(403);
    expect((await call('POST', `/users/${bob}/unfollow`, 'alice-token')).status).toBe(201);
    expect((await call('POST', `/users/${bob}/unfollow`, 'alice-token')).status).toBe(304);
  });
});

describe('GET /users past GitLab\'s count limit', () => {
  it('pages past 10,000 users without totals, with next links to the end', async () => {
    const users = [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }, ...Array.from({ length: 10_050 }, (_, i) => ({ username: `m${i}` }))];
    const e = await createEmulator({ fixture: { users }, clock: { now: NOW, frozen: true } });
    const first = await apiCall(e, '/users?per_page=100', { token: 'root-token' });
    const body = await first.json();
    expect(body.map((u: { username: string }) => u.username).slice(0, 2)).toEqual(['m10049', 'm10048']);
    expect(first.headers.get('x-total')).toBeNull();
    expect(first.headers.get('x-next-page')).toBe('2');
    expect(first.headers.get('link')).not.toContain('rel="last"');
    const last = await apiCall(e, '/users?per_page=100&page=101', { token: 'root-token' });
    expect((await last.json()).map((u: { username: string }) => u.username)).toEqual(['m49', ...Array.from({ length: 49 }, (_, i) => `m${48 - i}`), 'root']);
    expect(last.headers.get('x-next-page')).toBe('');
    const beyond = await apiCall(e, '/users?per_page=100&page=102', { token: 'root-token' });
    expect(await beyond.json()).toEqual([]);
    const asc = await apiCall(e, '/users?per_page=2&order_by=id&sort=asc', { token: 'root-token' });
    expect((await asc.json()).map((u: { username: string }) => u.username)).toEqual(['root', 'm0']);
  });
});
