// A bot driven by webhooks, tested entirely in process: the emulator delivers its Issue Hook
// through `fetch` to an MSW handler at the bot's URL, the bot checks the secret token and
// comments back on the issue through the API, and the test waits for the hooks to settle.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from 'gitlab-emulator';
import { handlers } from 'gitlab-emulator/msw';

const API = 'https://gitlab.example.com/api/v4';
const BOT_URL = 'https://bot.example.com/gitlab';
const SECRET = 'hook-secret';

// The code under test: an HTTP handler for GitLab's issue events.
async function onWebhook(request: Request): Promise<Response> {
  if (request.headers.get('X-Gitlab-Token') !== SECRET) return new Response('forbidden', { status: 403 });
  if (request.headers.get('X-Gitlab-Event') !== 'Issue Hook') return new Response(null, { status: 204 });
  const event = (await request.json()) as { object_attributes: { iid: number; action: string; title: string }; project: { id: number }; user: { username: string } };
  if (event.object_attributes.action !== 'open') return new Response(null, { status: 204 });
  await fetch(`${API}/projects/${event.project.id}/issues/${event.object_attributes.iid}/notes`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': 'glpat-bot', 'Content-Type': 'application/json' },
    body: JSON.stringify({ body: `Thanks @${event.user.username}, triaging "${event.object_attributes.title}".` }),
  });
  return HttpResponse.json({ ok: true });
}

const emulator = await createEmulator({
  clock: { now: '2026-05-04T10:00:00Z', frozen: true },
  fixture: {
    users: [{ username: 'dev', tokens: [{ token: 'glpat-dev' }] }, { username: 'bot', tokens: [{ token: 'glpat-bot' }] }],
    groups: [{ path: 'acme', members: [{ user: 'dev', access_level: 'maintainer' }, { user: 'bot', access_level: 'reporter' }] }],
    projects: [{ namespace: 'acme', path: 'app' }],
  },
});
const server = setupServer(...handlers(emulator), http.post(BOT_URL, ({ request }) => onWebhook(request)));

const as = (token: string, path: string, method = 'GET', body?: unknown) =>
  fetch(`${API}${path}`, { method, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

let seeded: ReturnType<typeof emulator.snapshot>;
beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await as('glpat-dev', '/projects/acme%2Fapp/hooks', 'POST', { url: BOT_URL, token: SECRET, issues_events: true, push_events: false });
  seeded = emulator.snapshot();
});
beforeEach(() => emulator.restore(seeded));
afterAll(() => server.close());

describe('the triage bot', () => {
  it('comments on a new issue once its hook arrives', async () => {
    await as('glpat-dev', '/projects/acme%2Fapp/issues', 'POST', { title: 'Login is slow' });
    await emulator.hooks.settled();
    const notes = (await (await as('glpat-dev', '/projects/acme%2Fapp/issues/1/notes')).json()) as { body: string; author: { username: string } }[];
    expect(notes.map((n) => [n.author.username, n.body])).toEqual([['bot', 'Thanks @dev, triaging "Login is slow".']]);
    expect(emulator.hooks.deliveries({ event: 'Issue Hook' }).map((d) => d.responseStatus)).toEqual(['200']);
  });

  it('stays quiet on other actions: closing the issue delivers, but says nothing', async () => {
    await as('glpat-dev', '/projects/acme%2Fapp/issues', 'POST', { title: 'Typo' });
    await as('glpat-dev', '/projects/acme%2Fapp/issues/1', 'PUT', { state_event: 'close' });
    await emulator.hooks.settled();
    const actions = emulator.hooks.deliveries({ event: 'Issue Hook' }).map((d) => (d.payload as { object_attributes: { action: string } }).object_attributes.action);
    expect(actions).toEqual(['open', 'close']);
    const notes = (await (await as('glpat-dev', '/projects/acme%2Fapp/issues/1/notes')).json()) as { body: string; system: boolean }[];
    expect(notes.filter((n) => !n.system)).toHaveLength(1);
  });
});
