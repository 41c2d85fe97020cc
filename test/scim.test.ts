// SCIM provisioning (ee/lib/api/scim/group_scim.rb) driven as an identity provider drives it:
// create, filter by userName, patch inactive, reactivate, delete.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, ORIGIN, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  instance: { tier: 'premium', offering: 'hosted' },
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'owner', tokens: [{ token: 'owner-token' }] },
    { username: 'taken', email: 'taken@example.com' },
  ],
  groups: [
    { path: 'acme', visibility: 'private', members: [{ user: 'owner', access_level: 'owner' }], scim_token: 'scim-secret' },
    { path: 'plain', visibility: 'private' },
  ],
};

const world = seededWorld(FIXTURE, '2024-03-01T12:00:00.000Z');

async function scim(method: string, path: string, body?: unknown, token = 'scim-secret') {
  const headers: Record<string, string> = { 'Content-Type': 'application/scim+json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await world().handle(new Request(`${ORIGIN}/api/scim/v2${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text ? JSON.parse(text) : undefined };
}

const NEW_USER = {
  schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
  externalId: 'okta-123',
  userName: 'jdoe',
  active: true,
  emails: [{ primary: true, type: 'work', value: 'jdoe@example.com' }],
  name: { formatted: 'Jane Doe', givenName: 'Jane', familyName: 'Doe' },
  meta: { resourceType: 'User' },
};

describe('group SCIM', () => {
  it('provisions a user with a membership and a SCIM identity the users API shows', async () => {
    const made = await scim('POST', '/groups/acme/Users', NEW_USER);
    expect(made.status).toBe(201);
    expect(made.type).toBe('application/scim+json');
    expect(made.body).toEqual({
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      id: 'okta-123',
      active: true,
      'name.formatted': 'Jane Doe',
      userName: 'jdoe',
      meta: { resourceType: 'User' },
      emails: [{ type: 'work', value: 'jdoe@example.com', primary: true }],
    });
    const user = (await (await apiCall(world(), '/users?username=jdoe', { token: 'root-token' })).json())[0];
    expect(user).toMatchObject({ provisioned_by_group_id: expect.any(Number), scim_identities: [{ extern_uid: 'okta-123', group_id: expect.any(Number), active: true }] });
    const members = await (await apiCall(world(), `/users/${user.id}/memberships`, { token: 'root-token' })).json();
    expect(members).toEqual([{ source_id: expect.any(Number), source_name: 'acme', source_type: 'Namespace', access_level: 10 }]);
  });

  it('filters by userName, externalId and id, pages by startIndex and count, refuses other filters', async () => {
    await scim('POST', '/groups/acme/Users', NEW_USER);
    await scim('POST', '/groups/acme/Users', { ...NEW_USER, externalId: 'okta-456', userName: 'rroe', emails: [{ primary: true, value: 'rroe@example.com' }] });
    const byName = await scim('GET', `/groups/acme/Users?filter=${encodeURIComponent('userName eq "jdoe"')}`);
    expect(byName.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 1, itemsPerPage: 20, startIndex: 1 });
    expect(byName.body.Resources.map((r: { id: string }) => r.id)).toEqual(['okta-123']);
    expect((await scim('GET', `/groups/acme/Users?filter=${encodeURIComponent('externalId eq "okta-456"')}`)).body.totalResults).toBe(1);
    expect((await scim('GET', `/groups/acme/Users?filter=${encodeURIComponent('id eq okta-123')}`)).body.totalResults).toBe(1);
    const page = await scim('GET', '/groups/acme/Users?startIndex=2&count=1');
    expect(page.body).toMatchObject({ totalResults: 2, itemsPerPage: 1, startIndex: 2 });
    expect(page.body.Resources.map((r: { id: string }) => r.id)).toEqual(['okta-456']);
    expect(await scim('GET', `/groups/acme/Users?filter=${encodeURIComponent('title sw "x"')}`)).toMatchObject({
      status: 412,
      type: 'application/scim+json',
      body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], detail: 'Unsupported Filter', status: 412 },
    });
  });

  it('patches a user inactive (leaving the group), back to active, and renames them', async () => {
    await scim('POST', '/groups/acme/Users', NEW_USER);
    const off = await scim('PATCH', '/groups/acme/Users/okta-123', { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'Replace', path: 'active', value: 'False' }] });
    expect(off.status).toBe(204);
    expect((await scim('GET', '/groups/acme/Users/okta-123')).body.active).toBe(false);
    const user = (await (await apiCall(world(), '/users?username=jdoe', { token: 'root-token' })).json())[0];
    expect(await (await apiCall(world(), `/users/${user.id}/memberships`, { token: 'root-token' })).json()).toEqual([]);
    expect((await scim('PATCH', '/groups/acme/Users/okta-123', { Operations: [{ op: 'replace', value: { active: true } }] })).status).toBe(204);
    expect((await scim('GET', '/groups/acme/Users/okta-123')).body.active).toBe(true);
    expect((await scim('PATCH', '/groups/acme/Users/okta-123', { Operations: [{ op: 'Add', path: 'name.formatted', value: 'Jane Roe' }] })).status).toBe(204);
    expect((await scim('GET', '/groups/acme/Users/okta-123')).body['name.formatted']).toBe('Jane Roe');
  });

  it('replaces a user with PUT', async () => {
    await scim('POST', '/groups/acme/Users', NEW_USER);
    const put = await scim('PUT', '/groups/acme/Users/okta-123', { ...NEW_USER, name: { formatted: 'J. Doe' }, emails: [{ primary: true, value: 'jd@example.com' }] });
    expect(put).toMatchObject({ status: 200, body: { 'name.formatted': 'J. Doe', emails: [{ value: 'jd@example.com' }] } });
  });

  it('deletes: the identity is inactive and the user leaves the group', async () => {
    await scim('POST', '/groups/acme/Users', NEW_USER);
    expect((await scim('DELETE', '/groups/acme/Users/okta-123')).status).toBe(204);
    expect((await scim('GET', '/groups/acme/Users/okta-123')).body.active).toBe(false);
    expect(await scim('DELETE', '/groups/acme/Users/nobody')).toMatchObject({ status: 404, body: { detail: 'Resource nobody not found', status: 404 } });
  });

  it('answers conflicts and missing groups in SCIM\'s envelope, and 401 without the group\'s token', async () => {
    await scim('POST', '/groups/acme/Users', NEW_USER);
    const again = await scim('POST', '/groups/acme/Users', NEW_USER);
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/^Error saving user with \{"schemas"=>\["urn:ietf:params:scim:schemas:core:2.0:User"\], "externalId"=>"okta-123"/);
    const taken = await scim('POST', '/groups/acme/Users', { ...NEW_USER, externalId: 'x-1', emails: [{ primary: true, value: 'taken@example.com' }] });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toMatch(/: Email has already been taken$/);
    expect((await scim('GET', '/groups/nope/Users')).body).toEqual({ schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'], detail: 'Group nope not found', status: 404 });
    expect((await scim('GET', '/groups/plain/Users')).body.detail).toBe('Group plain does not have SAML SSO configured');
    expect(await scim('GET', '/groups/acme/Users', undefined, 'wrong')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await scim('GET', '/groups/acme/Users', undefined, '')).status).toBe(401);
  });

  it('takes a token made through the control API', async () => {
    const made = await world().handle(new Request(`${ORIGIN}/-/emulator/scim_tokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"group":"plain"}' }));
    expect(made.status).toBe(201);
    const { token } = await made.json();
    expect((await scim('GET', '/groups/plain/Users', undefined, token)).body).toMatchObject({ totalResults: 0, Resources: [] });
    expect((await scim('GET', '/groups/acme/Users', undefined, token)).status).toBe(401);
    const bad = await world().handle(new Request(`${ORIGIN}/-/emulator/scim_tokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"group":"nope"}' }));
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
  });

  it('exists only on the hosted offering at the higher tiers', async () => {
    world().configure({ offering: 'self-managed' });
    expect((await scim('GET', '/groups/acme/Users')).status).toBe(404);
    world().configure({ offering: 'hosted', tier: 'free' });
    expect((await scim('GET', '/groups/acme/Users')).status).toBe(404);
  });
});

describe('what SCIM provisioning says on the event stream', () => {
  it('a provisioned user and their membership are the identity provider\'s, not the next API caller\'s', async () => {
    await scim('POST', '/groups/acme/Users', NEW_USER);
    expect((await apiCall(world(), '/user', { token: 'owner-token' })).status).toBe(200);
    const made = world().events.list('user.created', 'member.added');
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((e) => e.actorId === null)).toBe(true);
    expect(world().state.pendingEvents).toEqual([]);
  });
});
