// The headers a delivery sends: GitLab's and the hook's custom ones, a value beyond Latin-1
// percent-encoded (a header carries bytes), one within it as it is.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { handlers } from '../src/msw.js';
import { ACME, ORIGIN, TEAM, teamProject } from './support/world.js';

const RECEIVER = 'https://headers.example.com/hook';
const msw = setupServer();
let emulator: Emulator;
const received: Headers[] = [];

beforeAll(async () => {
  emulator = await createEmulator({ clock: { now: '2026-05-04T10:00:00Z', frozen: true }, fixture: { users: TEAM, groups: [ACME], projects: [teamProject()] } });
  msw.listen({ onUnhandledRequest: 'bypass' });
  msw.use(...handlers(emulator), http.post(RECEIVER, ({ request }) => (received.push(request.headers), HttpResponse.json({}, { headers: { 'x-receiver-said': 'ok' } }))));
});
afterAll(() => msw.close());

it('sends custom headers as GitLab does, encoding what a header cannot carry, and logs the answer\'s headers by their shown names', async () => {
  const api = (path: string, body: unknown) =>
    fetch(`${ORIGIN}/api/v4${path}`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'maintainer-token', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const hook = await (await api('/projects/acme%2Fapp/hooks', {
    url: RECEIVER, issues_events: true, token: 'tok',
    custom_headers: [{ key: 'X-Latin', value: 'café' }, { key: 'X-Wide', value: 'ok ✓' }],
  })).json();
  expect((await api('/projects/acme%2Fapp/issues', { title: 'hello' })).status).toBe(201);
  await emulator.hooks.settled();
  expect(received).toHaveLength(1);
  const h = received[0]!;
  expect(h.get('x-gitlab-event')).toBe('Issue Hook');
  expect(h.get('x-gitlab-token')).toBe('tok');
  expect(h.get('content-type')).toBe('application/json');
  expect(h.get('x-latin')).toBe('café');
  expect(h.get('x-wide')).toBe('ok%20%E2%9C%93');
  const [log] = await (await fetch(`${ORIGIN}/api/v4/projects/acme%2Fapp/hooks/${hook.id}/events`, { headers: { 'PRIVATE-TOKEN': 'maintainer-token' } })).json();
  expect(log.response_headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Receiver-Said': 'ok' });
});
