// user_failed_login: a blocked user who signs in on the web is refused after the credentials
// matched, and the system hooks hear of it (Warden's before_logout, BlockedUserTracker,
// SystemHooksService#execute_hooks_for(user, :failed_login), Gitlab::HookData::UserBuilder).
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';
import { handlers } from '../src/msw.js';
import type { FixtureUser } from '../src/index.js';
import { ORIGIN, TEAM } from './support/world.js';

const NOW = '2026-05-04T10:00:00Z';
const RECEIVER = 'https://system.example.com';
const USERS: FixtureUser[] = [
  ...TEAM,
  { username: 'blk', name: 'Bea Locked', email: 'blk@example.com', state: 'blocked' },
  { username: 'ban', name: 'Ban Ned', email: 'ban@example.com', state: 'banned' },
  { username: 'pend', name: 'Pen Ding', email: 'pend@example.com', state: 'blocked_pending_approval' },
  { username: 'sleepy', name: 'Dee Activated', email: 'sleepy@example.com', state: 'deactivated' },
];

describe('user_failed_login, in process', () => {
  let emulator: Emulator;
  let seeded: ReturnType<Emulator['snapshot']>;
  const msw = setupServer();
  let received: { headers: Headers; body: any }[] = [];

  beforeAll(async () => {
    msw.listen({ onUnhandledRequest: 'bypass' });
    emulator = await createEmulator({ clock: { now: NOW, frozen: true }, fixture: { users: USERS } });
    seeded = emulator.snapshot();
  });
  afterAll(() => msw.close());
  beforeEach(() => {
    emulator.restore(seeded);
    received = [];
    msw.resetHandlers(
      ...handlers(emulator),
      http.post(`${RECEIVER}/*`, async ({ request }) => {
        received.push({ headers: request.headers, body: await request.json() });
        return HttpResponse.json({});
      }),
    );
  });

  const api = async (path: string, method = 'GET', body?: unknown) => {
    const res = await fetch(`${ORIGIN}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: res.status === 204 ? null : await res.json() };
  };
  const signIn = async (username: string) => {
    const res = await fetch(`${ORIGIN}/-/emulator/sessions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username }) });
    return { status: res.status, body: await res.json() };
  };
  const failedLogins = () => emulator.hooks.deliveries().filter((d) => (d.payload as { event_name?: string }).event_name === 'user_failed_login');

  it('a blocked user signing in is refused, and each system hook gets GitLab\'s payload', async () => {
    const hook = (await api('/hooks', 'POST', { url: `${RECEIVER}/sys`, token: 's3cret' })).body;
    const blk = (await api('/users?username=blk')).body[0];
    const refused = await signIn('blk');
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Your account has been blocked. Please contact your GitLab administrator if you think this is an error.');
    await emulator.hooks.settled();
    const sent = failedLogins();
    expect(sent).toHaveLength(1);
    expect(sent[0]!).toMatchObject({ hookId: hook.id, event: 'System Hook', state: 'sent' });
    // Gitlab::HookData::UserBuilder: the timestamps, the event, the user, its state, in that order.
    expect(Object.keys(sent[0]!.payload as object)).toEqual(['created_at', 'updated_at', 'event_name', 'name', 'email', 'user_id', 'username', 'state']);
    expect(sent[0]!.payload).toEqual({
      created_at: '2026-05-04T10:00:00Z', updated_at: '2026-05-04T10:00:00Z', event_name: 'user_failed_login',
      name: 'Bea Locked', email: 'blk@example.com', user_id: blk.id, username: 'blk', state: 'blocked',
    });
    // The receiver got it as GitLab sends it.
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.get('x-gitlab-event')).toBe('System Hook');
    expect(received[0]!.headers.get('x-gitlab-token')).toBe('s3cret');
    expect(received[0]!.body).toEqual(sent[0]!.payload);
    // The refused sign-in made no session and counted nothing.
    expect((await api(`/users/${blk.id}`)).body).toMatchObject({ sign_in_count: 0, current_sign_in_at: null, state: 'blocked' });
  });

  it('a banned user and one pending approval are blocked too (User#blocked?), with their own state', async () => {
    await api('/hooks', 'POST', { url: `${RECEIVER}/sys` });
    expect((await signIn('ban')).body.message).toBe('Your account has been blocked. Please contact your GitLab administrator if you think this is an error.');
    const pending = await signIn('pend');
    expect(pending.status).toBe(400);
    expect(pending.body.message).toBe('Your account is pending approval from your GitLab administrator and hence blocked. Please contact your GitLab administrator if you think this is an error.');
    await emulator.hooks.settled();
    expect(failedLogins().map((d) => [(d.payload as any).username, (d.payload as any).state])).toEqual([
      ['ban', 'banned'],
      ['pend', 'blocked_pending_approval'],
    ]);
  });

  it('an active or deactivated user signs in and no hook hears of a failed login', async () => {
    await api('/hooks', 'POST', { url: `${RECEIVER}/sys` });
    expect((await signIn('dev')).status).toBe(201);
    expect((await signIn('sleepy')).status).toBe(201); // signing in on the web reactivates
    await emulator.hooks.settled();
    expect(failedLogins()).toEqual([]);
  });

  it('only system hooks hear of it; with none, the sign-in is refused all the same', async () => {
    expect(() => emulator.signIn('blk')).toThrow('Your account has been blocked.');
    await emulator.hooks.settled();
    expect(emulator.hooks.deliveries()).toEqual([]);
    // A hook added afterwards hears of later attempts only.
    await api('/hooks', 'POST', { url: `${RECEIVER}/late` });
    emulator.clock.advance('1h');
    expect(() => emulator.signIn('blk')).toThrow();
    await emulator.hooks.settled();
    expect(failedLogins().map((d) => (d.payload as any).updated_at)).toEqual(['2026-05-04T10:00:00Z']);
  });
});

describe('user_failed_login, through the server door', () => {
  let emulator: Emulator;
  let server: Server;
  let receiver: HttpServer;
  let got: { headers: IncomingMessage['headers']; body: any }[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: JSON.parse(body) });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    emulator = await createEmulator({ clock: { now: NOW, frozen: true }, fixture: { users: USERS } });
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
    await new Promise((r) => receiver.close(r));
  });

  it('a real receiver gets user_failed_login', async () => {
    const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
    const made = await fetch(`${server.url}/api/v4/hooks`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: JSON.stringify({ url }) });
    expect(made.status).toBe(201);
    const res = await fetch(`${server.url}/-/emulator/sessions`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'ban' }) });
    expect(res.status).toBe(400);
    await emulator.hooks.settled();
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['x-gitlab-event']).toBe('System Hook');
    expect(got[0]!.body).toMatchObject({ event_name: 'user_failed_login', username: 'ban', email: 'ban@example.com', state: 'banned' });
  });
});
