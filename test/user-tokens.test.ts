// Access tokens through the API (lib/api/personal_access_tokens.rb, users.rb's token resources,
// resource_access_tokens.rb): each token works at once, and is dead once revoked or expired.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'] }] },
    { username: 'alice', name: 'Alice', tokens: [{ token: 'alice-token', name: 'main' }, { token: 'alice-old', name: 'old', revoked: true }, { token: 'alice-read', name: 'reader', scopes: ['read_api'] }] },
    { username: 'bob', tokens: [{ token: 'bob-token' }] },
    { username: 'mai', name: 'Mai', tokens: [{ token: 'mai-token' }] },
    { username: 'dev', tokens: [{ token: 'dev-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'private', members: [{ user: 'alice', access_level: 'owner' }, { user: 'mai', access_level: 'maintainer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', members: [{ user: 'dev', access_level: 'developer' }] }],
};

const world = seededWorld(FIXTURE, NOW);

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, res };
}
const idOf = async (username: string) => (await call('GET', `/users?username=${username}`, 'root-token')).body[0].id as number;

describe('personal access tokens created through the API', () => {
  it('an administrator creates one for anyone: shown once, usable at once', async () => {
    const bob = await idOf('bob');
    const res = await call('POST', `/users/${bob}/personal_access_tokens`, 'root-token', { name: 'ci', scopes: ['read_api'], expires_at: '2024-06-01' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'revoked', 'created_at', 'description', 'scopes', 'user_id', 'last_used_at', 'active', 'expires_at', 'token']);
    expect(res.body).toMatchObject({ name: 'ci', scopes: ['read_api'], user_id: bob, active: true, revoked: false, expires_at: '2024-06-01' });
    expect((await call('GET', '/user', res.body.token)).body.username).toBe('bob');
    expect((await call('POST', '/user/emails', res.body.token, { email: 'x@example.com' })).status).toBe(403);
    expect((await call('GET', `/personal_access_tokens/${res.body.id}`, 'root-token')).body).not.toHaveProperty('token');
  });

  it('validates scopes, and refuses non-administrators', async () => {
    const bob = await idOf('bob');
    expect(await call('POST', `/users/${bob}/personal_access_tokens`, 'root-token', { name: 'x', scopes: ['everything'] })).toMatchObject({
      status: 400,
      body: { error: 'scopes does not have a valid value' },
    });
    expect((await call('POST', `/users/${bob}/personal_access_tokens`, 'root-token', { name: 'x' })).status).toBe(400);
    expect((await call('POST', `/users/${bob}/personal_access_tokens`, 'alice-token', { name: 'x', scopes: ['api'] })).status).toBe(403);
    expect((await call('POST', '/users/9999/personal_access_tokens', 'root-token', { name: 'x', scopes: ['api'] })).status).toBe(404);
  });

  it('keeps within the instance\'s maximum lifetime', async () => {
    world().configure({ settings: { max_personal_access_token_lifetime: 30 } });
    const bob = await idOf('bob');
    expect(await call('POST', `/users/${bob}/personal_access_tokens`, 'root-token', { name: 'x', scopes: ['api'], expires_at: '2025-01-01' })).toMatchObject({
      status: 422,
      body: { message: 'Expires at must be before 2024-04-01' },
    });
    expect((await call('POST', `/users/${bob}/personal_access_tokens`, 'root-token', { name: 'x', scopes: ['api'] })).body.expires_at).toBe('2024-03-31');
  });

  it('a user creates their own with k8s_proxy only, expiring at the end of the day', async () => {
    const res = await call('POST', '/user/personal_access_tokens', 'alice-token', { name: 'k8s', scopes: ['k8s_proxy'] });
    expect(res).toMatchObject({ status: 201, body: { scopes: ['k8s_proxy'], expires_at: '2024-03-02', token: expect.stringMatching(/^glpat-/) } });
    expect((await call('POST', '/user/personal_access_tokens', 'alice-token', { name: 'k8s', scopes: ['api'] })).body).toEqual({ error: 'scopes does not have a valid value' });
    // Usable today (for what k8s_proxy allows), dead tomorrow.
    world().clock.advance('1d');
    expect((await call('GET', '/user', res.body.token)).status).toBe(401);
  });

  it('expires on the clock', async () => {
    const bob = await idOf('bob');
    const { body } = await call('POST', `/users/${bob}/personal_access_tokens`, 'root-token', { name: 'short', scopes: ['api'], expires_at: '2024-03-02' });
    expect((await call('GET', '/user', body.token)).status).toBe(200);
    world().clock.advance('1d');
    expect(await call('GET', '/user', body.token)).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    expect((await call('GET', `/personal_access_tokens/${body.id}`, 'root-token')).body.active).toBe(false);
  });
});

describe('GET /personal_access_tokens', () => {
  it('lists the caller\'s own for a user, and anyone\'s for an administrator', async () => {
    const mine = await call('GET', '/personal_access_tokens', 'alice-token');
    expect(mine.body.map((t: { name: string }) => t.name)).toEqual(['main', 'old', 'reader']);
    expect((await call('GET', `/personal_access_tokens?user_id=${await idOf('bob')}`, 'alice-token')).status).toBe(401);
    const all = await call('GET', '/personal_access_tokens', 'root-token');
    expect(all.body).toHaveLength(7);
    expect((await call('GET', `/personal_access_tokens?user_id=${await idOf('alice')}`, 'root-token')).body).toHaveLength(3);
    expect((await call('GET', '/personal_access_tokens?user_id=9999', 'root-token')).status).toBe(404);
  });

  it('records when a token was used, at most every ten minutes, and filters by it', async () => {
    await call('GET', '/user', 'alice-read');
    const used = async () => (await call('GET', '/personal_access_tokens?search=reader', 'alice-token')).body[0].last_used_at;
    expect(await used()).toBe('2024-03-01T12:00:00.000Z');
    world().clock.advance('5m');
    await call('GET', '/user', 'alice-read');
    expect(await used()).toBe('2024-03-01T12:00:00.000Z');
    world().clock.advance('6m');
    await call('GET', '/user', 'alice-read');
    expect(await used()).toBe('2024-03-01T12:11:00.000Z');
    const names = async (q: string) => (await call('GET', `/personal_access_tokens?${q}`, 'alice-token')).body.map((t: { name: string }) => t.name);
    expect(await names('last_used_after=2024-03-01T12:05:00Z')).toEqual(['main', 'reader']);
    expect(await names('last_used_before=2024-03-01T12:05:00Z')).toEqual([]);
  });

  it('filters by state, revoked, search, dates, and sorts', async () => {
    const names = async (q: string) => (await call('GET', `/personal_access_tokens?${q}`, 'alice-token')).body.map((t: { name: string }) => t.name);
    expect(await names('state=active')).toEqual(['main', 'reader']);
    expect(await names('state=inactive')).toEqual(['old']);
    expect(await names('revoked=true')).toEqual(['old']);
    expect(await names('search=EAD')).toEqual(['reader']);
    expect(await names('created_after=2024-03-02')).toEqual([]);
    expect(await names('sort=name_desc')).toEqual(['reader', 'old', 'main']);
    expect((await call('GET', '/personal_access_tokens?state=gone', 'alice-token')).status).toBe(400);
  });
});

describe('one personal access token', () => {
  it('GET /:id for the owner or an administrator; 401 for others, 404 for administrators when missing', async () => {
    const main = (await call('GET', '/personal_access_tokens/self', 'alice-token')).body;
    expect(main).toMatchObject({ name: 'main', active: true, scopes: ['api'] });
    expect((await call('GET', `/personal_access_tokens/${main.id}`, 'alice-token')).status).toBe(200);
    expect((await call('GET', `/personal_access_tokens/${main.id}`, 'bob-token')).status).toBe(401);
    expect((await call('GET', '/personal_access_tokens/9999', 'root-token')).status).toBe(404);
  });

  it('GET /self works with any scope, for personal tokens only', async () => {
    expect((await call('GET', '/personal_access_tokens/self', 'alice-read')).body.name).toBe('reader');
    const session = world().signIn('alice');
    const res = await world().handle(new Request('https://gitlab.example.com/api/v4/personal_access_tokens/self', { headers: { Cookie: `_gitlab_session=${session}` } }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: '400 Bad request - This endpoint requires token type to be a personal access token' });
  });

  it('DELETE revokes: the token dies, stays listed as revoked; others may not', async () => {
    const main = (await call('GET', '/personal_access_tokens/self', 'alice-token')).body;
    expect((await call('DELETE', `/personal_access_tokens/${main.id}`, 'bob-token'))).toMatchObject({ status: 400, body: { message: '400 Bad request - Not permitted to revoke' } });
    expect((await call('DELETE', `/personal_access_tokens/${main.id}`, 'root-token')).status).toBe(204);
    expect((await call('GET', '/user', 'alice-token')).body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
    expect((await call('GET', '/personal_access_tokens?revoked=true', 'alice-read')).body.map((t: { name: string }) => t.name)).toEqual(['main', 'old']);
    expect(await call('DELETE', '/personal_access_tokens/9999', 'root-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('DELETE /self revokes the token used', async () => {
    expect((await call('DELETE', '/personal_access_tokens/self', 'alice-read')).status).toBe(204);
    expect((await call('GET', '/user', 'alice-read')).status).toBe(401);
  });

  it('rotates: the old token dies, a new one with the same name and scopes works at once', async () => {
    const main = (await call('GET', '/personal_access_tokens/self', 'alice-token')).body;
    const res = await call('POST', `/personal_access_tokens/${main.id}/rotate`, 'alice-token', { expires_at: '2024-04-01' });
    expect(res).toMatchObject({ status: 200, body: { name: 'main', scopes: ['api'], expires_at: '2024-04-01', token: expect.any(String) } });
    expect(res.body.id).not.toBe(main.id);
    expect((await call('GET', '/user', 'alice-token')).status).toBe(401);
    expect((await call('GET', '/user', res.body.token)).body.username).toBe('alice');
    expect(await call('POST', `/personal_access_tokens/${main.id}/rotate`, 'root-token')).toMatchObject({ status: 400, body: { message: '400 Bad request - Token already revoked' } });
    expect((await call('POST', `/personal_access_tokens/${res.body.id}/rotate`, 'bob-token')).status).toBe(401);
  });

  it('self/rotate accepts a token with only the self_rotate scope', async () => {
    const bob = await idOf('bob');
    const { body } = await call('POST', `/users/${bob}/personal_access_tokens`, 'root-token', { name: 'rot', scopes: ['self_rotate'] });
    expect((await call('GET', '/user', body.token)).status).toBe(403);
    const res = await call('POST', '/personal_access_tokens/self/rotate', body.token);
    expect(res).toMatchObject({ status: 200, body: { name: 'rot', scopes: ['self_rotate'] } });
    expect((await call('POST', '/personal_access_tokens/self/rotate', 'alice-read')).status).toBe(403);
  });

  it('self/rotate with the token itself; a week when expiry is required', async () => {
    world().configure({ settings: { require_personal_access_token_expiry: true } });
    const res = await call('POST', '/personal_access_tokens/self/rotate', 'alice-token');
    expect(res).toMatchObject({ status: 200, body: { expires_at: '2024-03-08' } });
    expect((await call('GET', '/user', res.body.token)).status).toBe(200);
  });
});

describe('impersonation tokens', () => {
  it('are created, listed by state, read and revoked by an administrator', async () => {
    const bob = await idOf('bob');
    const made = await call('POST', `/users/${bob}/impersonation_tokens`, 'root-token', { name: 'support', scopes: ['api'] });
    expect(made).toMatchObject({ status: 201, body: { name: 'support', impersonation: true, active: true, token: expect.any(String) } });
    expect((await call('GET', '/user', made.body.token)).body.username).toBe('bob');
    expect((await call('GET', `/users/${bob}/impersonation_tokens`, 'root-token')).body).toHaveLength(1);
    expect((await call('GET', `/users/${bob}/impersonation_tokens/${made.body.id}`, 'root-token')).body).not.toHaveProperty('token');
    expect((await call('DELETE', `/users/${bob}/impersonation_tokens/${made.body.id}`, 'root-token')).status).toBe(204);
    expect((await call('GET', '/user', made.body.token)).status).toBe(401);
    expect((await call('GET', `/users/${bob}/impersonation_tokens?state=active`, 'root-token')).body).toEqual([]);
    expect((await call('GET', `/users/${bob}/impersonation_tokens?state=inactive`, 'root-token')).body).toHaveLength(1);
    expect((await call('GET', `/users/${bob}/impersonation_tokens`, 'root-token')).body).toHaveLength(1);
    expect(await call('GET', `/users/${bob}/impersonation_tokens/9999`, 'root-token')).toMatchObject({ status: 404, body: { message: '404 Impersonation Token Not Found' } });
    expect((await call('GET', `/users/${bob}/impersonation_tokens`, 'alice-token')).status).toBe(403);
    expect(await call('POST', `/users/${bob}/impersonation_tokens`, 'root-token', { name: 'x' })).toMatchObject({ status: 400, body: { message: { scopes: ["can't be blank"] } } });
  });

  it('stop working while the instance disables impersonation', async () => {
    const bob = await idOf('bob');
    const { body } = await call('POST', `/users/${bob}/impersonation_tokens`, 'root-token', { name: 'support', scopes: ['api'] });
    world().configure({ settings: { impersonation_enabled: false } });
    expect((await call('GET', '/user', body.token)).body.error_description).toBe('Token is an impersonation token but impersonation was disabled.');
  });

  it('are not in a user\'s own list of personal access tokens', async () => {
    const bob = await idOf('bob');
    await call('POST', `/users/${bob}/impersonation_tokens`, 'root-token', { name: 'support', scopes: ['api'] });
    expect((await call('GET', '/personal_access_tokens', 'bob-token')).body).toHaveLength(1);
  });
});

describe('project and group access tokens', () => {
  const APP = '/projects/acme%2Fapp';

  it('a maintainer creates a project token: a bot member with the role, a token that works at once', async () => {
    const res = await call('POST', `${APP}/access_tokens`, 'mai-token', { name: 'deploy', scopes: ['read_api', 'read_repository'], access_level: 30, expires_at: '2024-12-31' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'deploy', scopes: ['read_api', 'read_repository'], access_level: 30, expires_at: '2024-12-31', active: true, token: expect.any(String) });
    const me = await call('GET', '/user', res.body.token);
    expect(me.body).toMatchObject({ name: 'deploy', bot: true });
    expect(me.body.username).toMatch(/^project_\d+_bot_[0-9a-f]{32}$/);
    expect(me.body.email).toBe(`${me.body.username}@noreply.gitlab.example.com`);
    expect((await call('GET', APP, res.body.token)).status).toBe(200);
    const members = await call('GET', `/users/${res.body.user_id}/memberships`, 'root-token');
    expect(members.body).toEqual([{ source_id: expect.any(Number), source_name: 'app', source_type: 'Project', access_level: 30 }]);
    expect((await call('GET', `${APP}/access_tokens`, 'mai-token')).body.map((t: { name: string }) => t.name)).toEqual(['deploy']);
    expect((await call('GET', `${APP}/access_tokens/${res.body.id}`, 'mai-token')).body).not.toHaveProperty('token');
    // Bots are in the list of users, unless asked to leave them out.
    const users = await call('GET', '/users?without_project_bots=true', 'root-token');
    expect(users.body.map((u: { bot?: boolean; username: string }) => u.username)).not.toContain(me.body.username);
  });

  it('defaults to the maintainer role and refuses a role above the creator\'s', async () => {
    expect((await call('POST', `${APP}/access_tokens`, 'mai-token', { name: 'x', scopes: ['api'] })).body.access_level).toBe(40);
    expect((await call('POST', `${APP}/access_tokens`, 'mai-token', { name: 'x', scopes: ['api'], access_level: 50 })).status).toBe(400);
    expect((await call('POST', `${APP}/access_tokens`, 'mai-token', { name: 'x', scopes: ['sudo'] })).body).toEqual({ error: 'scopes does not have a valid value' });
  });

  it('refuses developers: 401 to list, 400 to create; 404 for outsiders', async () => {
    expect((await call('GET', `${APP}/access_tokens`, 'dev-token')).status).toBe(401);
    expect(await call('POST', `${APP}/access_tokens`, 'dev-token', { name: 'x', scopes: ['api'] })).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - User does not have permission to create project access token' },
    });
    expect((await call('GET', `${APP}/access_tokens`, 'bob-token')).status).toBe(404);
  });

  it('revokes: the token dies and the bot leaves the project', async () => {
    const { body } = await call('POST', `${APP}/access_tokens`, 'mai-token', { name: 'deploy', scopes: ['api'] });
    expect((await call('DELETE', `${APP}/access_tokens/${body.id}`, 'mai-token')).status).toBe(204);
    expect((await call('GET', '/user', body.token)).status).toBe(401);
    expect((await call('GET', `/users/${body.user_id}/memberships`, 'root-token')).body).toEqual([]);
    expect((await call('GET', `${APP}/access_tokens?state=inactive`, 'mai-token')).body).toHaveLength(1);
    expect(await call('DELETE', `${APP}/access_tokens/9999`, 'mai-token')).toMatchObject({ status: 404, body: { message: '404 project Access Token Not Found' } });
  });

  it('rotates: the same bot, a new secret', async () => {
    const { body } = await call('POST', `${APP}/access_tokens`, 'mai-token', { name: 'deploy', scopes: ['api'] });
    const res = await call('POST', `${APP}/access_tokens/${body.id}/rotate`, 'mai-token', { expires_at: '2024-05-01' });
    expect(res).toMatchObject({ status: 200, body: { name: 'deploy', user_id: body.user_id, expires_at: '2024-05-01', access_level: 40 } });
    expect((await call('GET', '/user', body.token)).status).toBe(401);
    expect((await call('GET', APP, res.body.token)).status).toBe(200);
    expect((await call('POST', `${APP}/access_tokens/${res.body.id}/rotate`, 'dev-token')).status).toBe(401);
  });

  it('die with their project', async () => {
    const { body } = await call('POST', `${APP}/access_tokens`, 'mai-token', { name: 'deploy', scopes: ['api'] });
    expect((await call('DELETE', APP, 'root-token')).status).toBe(202);
    world().runUntilIdle();
    expect((await call('GET', '/user', body.token)).status).toBe(401);
  });

  it('group tokens need a group owner', async () => {
    expect((await call('POST', '/groups/acme/access_tokens', 'mai-token', { name: 'g', scopes: ['api'] })).status).toBe(400);
    const res = await call('POST', '/groups/acme/access_tokens', 'alice-token', { name: 'g', scopes: ['api'], access_level: 20 });
    expect(res).toMatchObject({ status: 201, body: { access_level: 20 } });
    expect((await call('GET', '/user', res.body.token)).body.username).toMatch(/^group_\d+_bot_/);
    expect((await call('GET', '/projects/acme%2Fapp', res.body.token)).status).toBe(200);
    expect((await call('GET', '/groups/acme/access_tokens', 'alice-token')).body).toHaveLength(1);
    expect((await call('GET', '/groups/acme/access_tokens', 'mai-token')).status).toBe(401);
  });
});
