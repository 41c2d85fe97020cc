// PUT /users/:id `email` (the spec: only an already-added secondary address of the user, the
// endpoint answering 404 where 409 would fit): User#check_for_verified_email makes a confirmed
// secondary address the primary one at once; any other address waits for its confirmation
// (Devise's reconfirmable: `email` is unchanged), unless skip_reconfirmation.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'] }] },
    { username: 'bob', name: 'Bob', tokens: [{ token: 'bob-token' }], emails: [{ email: 'bob@work.example' }] },
    { username: 'cat', name: 'Cat', emails: [{ email: 'cat@home.example' }] },
  ],
};
const world = seededWorld(FIXTURE, '2024-03-01T12:00:00.000Z');

async function call(method: string, path: string, json?: unknown, token = 'root-token') {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
const idOf = async (username: string) => (await call('GET', `/users?username=${username}`)).body[0].id as number;
const secondaries = async (id: number) => ((await call('GET', `/users/${id}/emails`)).body as { email: string; confirmed_at: string | null }[]).map((e) => e.email);

describe('a user\'s primary email', () => {
  it('becomes a confirmed secondary address of the user at once, the old one a secondary', async () => {
    const bob = await idOf('bob');
    expect(await call('PUT', `/users/${bob}`, { email: 'bob@work.example' })).toMatchObject({ status: 200, body: { email: 'bob@work.example' } });
    expect(await secondaries(bob)).toEqual(['bob@example.com']);
  });

  it('stays while the address is not a confirmed secondary one of the user', async () => {
    const bob = await idOf('bob');
    // Added, not yet confirmed.
    expect((await call('POST', `/users/${bob}/emails`, { email: 'bob@new.example' })).status).toBe(201);
    expect((await call('PUT', `/users/${bob}`, { email: 'bob@new.example' })).body.email).toBe('bob@example.com');
    // Never added.
    expect((await call('PUT', `/users/${bob}`, { email: 'bob@elsewhere.example', name: 'Robert' })).body).toMatchObject({ email: 'bob@example.com', name: 'Robert' });
    expect((await call('GET', `/users/${bob}`)).body.email).toBe('bob@example.com');
  });

  it('is refused as the spec has it (404) when another user holds the address', async () => {
    const bob = await idOf('bob');
    for (const email of ['cat@example.com', 'CAT@home.example']) {
      expect(await call('PUT', `/users/${bob}`, { email, name: 'Changed' })).toEqual({ status: 404, body: { message: '404 Not Found' } });
    }
    // A failed request changes nothing.
    expect((await call('GET', `/users/${bob}`)).body).toMatchObject({ email: 'bob@example.com', name: 'Bob' });
  });
});
