// A user's avatar as python-gitlab's test_create_user uses it: uploaded with the user, served at
// the avatar_url GitLab gives, and without one, GitLab's Gravatar URL.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ORIGIN, apiCall, seededWorld } from './support/world.js';

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'dev', email: 'Dev@Example.com ', tokens: [{ token: 'dev-token' }] },
  ],
};
const world = seededWorld(fixture, '2030-01-01T00:00:00Z');

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4, 5]);

function form(fields: Record<string, string>, file?: { name: string; bytes: Uint8Array<ArrayBuffer> }) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  if (file) f.append('avatar', new File([file.bytes], file.name, { type: 'image/png' }));
  return f;
}

describe('user avatars', () => {
  it('are uploaded with a new user and served at its avatar_url', async () => {
    const res = await apiCall(world(), '/users', { method: 'POST', token: 'root-token', body: form({ email: 'foo@bar.com', username: 'foo', name: 'foo', password: 'E4596f8be406Bc3a14a4ccdb1df80587$3' }, { name: 'avatar.png', bytes: PNG }) });
    expect(res.status).toBe(201);
    const user = await res.json();
    expect(user.avatar_url).toBe(`${ORIGIN}/uploads/-/system/user/avatar/${user.id}/avatar.png`);
    const served = await world().handle(new Request(user.avatar_url));
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG);
    expect((await world().handle(new Request(`${ORIGIN}/uploads/-/system/user/avatar/${user.id}/other.png`))).status).toBe(404);
    // Listed with it too.
    const listed = await (await apiCall(world(), '/users?username=foo', { token: 'root-token' })).json();
    expect(listed[0].avatar_url).toBe(user.avatar_url);
  });

  it('are replaced on update, and refused when not an image, changing nothing', async () => {
    const before = world().state;
    const bad = await apiCall(world(), '/users/2', { method: 'PUT', token: 'root-token', body: form({}, { name: 'evil.svg', bytes: PNG }) });
    expect([bad.status, await bad.json()]).toEqual([400, { message: { avatar: ['file format is not supported. Please try one of the following supported formats: png, jpg, jpeg, gif, bmp, tiff, ico or webp'] } }]);
    expect(world().state).toBe(before);
    const ok = await apiCall(world(), '/users/2', { method: 'PUT', token: 'root-token', body: form({ name: 'Dev' }, { name: 'me.png', bytes: PNG }) });
    expect((await ok.json()).avatar_url).toBe(`${ORIGIN}/uploads/-/system/user/avatar/2/me.png`);
  });

  it('without one, avatar_url is Gravatar’s for the email', async () => {
    const hash = createHash('sha256').update('dev@example.com').digest('hex');
    const dev = await (await apiCall(world(), '/users/2', { token: 'dev-token' })).json();
    expect(dev.avatar_url).toBe(`https://www.gravatar.com/avatar/${hash}?s=80&d=identicon`);
  });
});

describe('Security::WeakPasswords', () => {
  it('finds the parts of the name, username and email that GitLab’s own spec finds', async () => {
    const { isWeakPassword } = await import('../src/families/users/service.js');
    const sid = { name: 'Sid', username: 'sid', email: 'sid@1.io' };
    for (const [password, weak] of [['1.ioABCD', true], ['sid@1.io', true], ['sid@1.ioAB', true], ['sid1ioAB', false], ['sidsidsi', false], ['ioioioio', false]] as const) {
      expect(isWeakPassword(password, sid), password).toBe(weak);
    }
    const user = { name: 'Fortunate Jane-Doe', username: 'fortunate.jane', email: 'jane.doe+tag@acme.com' };
    for (const [password, weak] of [
      ['xxFORTUNATExx', true], ['xxjane-doexx', true], ['xxJan-Doxx', false], ['A1B2acme', true], ['xxacme.comxx', true], ['xxtagxx', false],
      ['xxgitlabxx', true], ['my-DevOps-pw', true], [`${'x'.repeat(60)}gitlab`, false], ['zZz9!gitla', false],
    ] as const) {
      expect(isWeakPassword(password, user), password).toBe(weak);
    }
  });

  it('refuses a weak password on user create with GitLab’s message', async () => {
    const res = await apiCall(world(), '/users', { method: 'POST', token: 'root-token', json: { email: 'q@acme.com', username: 'quentin', name: 'Q', password: 'xxQuentin99' } });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toMatch(/password/);
  });
});
