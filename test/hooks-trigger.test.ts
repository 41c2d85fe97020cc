// A group hook's test trigger (POST /groups/:id/hooks/:hook_id/test/:trigger, TestHooks::GroupService:
// the sample of the group's first project with commits) and the rate limits of the test and
// resend endpoints (ApplicationRateLimiter's web_hook_test and web_hook_event_resend: five a
// minute for each hook's parent and user). A test is sent while the caller waits, as GitLab's
// WebHookService#execute sends it: the answer says how the receiver took it.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

let e: Emulator;
/** What the receiver answers next. */
let answer: (request: Request) => Promise<Response> | Response = () => HttpResponse.json({ ok: true });
const received: { headers: Headers; body: any }[] = [];
const msw = setupServer(
  http.post('https://r.example.com/', async ({ request }) => {
    received.push({ headers: request.headers, body: await request.clone().json() });
    return answer(request);
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
afterAll(() => msw.close());

const root = (path: string, method = 'GET', json?: unknown) => apiCall(e, path, { method, token: 'root-token', json });

beforeEach(async () => {
  e = await createEmulator({
    clock: { now: '2026-05-04T10:00:00Z', frozen: true },
    fixture: {
      instance: { tier: 'premium' },
      users: TEAM,
      groups: [ACME, { path: 'empty' }],
      projects: [teamProject({ repository: { files: { 'README.md': '# app\n' } } }), { namespace: 'empty', path: 'bare', creator: 'root' }],
    },
  });
  e.hooks.pause();
  received.length = 0;
  answer = () => HttpResponse.json({ ok: true });
});

const hookOn = async (base: string) => (await (await root(`${base}/hooks`, 'POST', { url: 'https://r.example.com/', push_events: true })).json()).id as number;

describe('group hook test trigger', () => {
  it('sends the push sample of the group\'s first project with commits', async () => {
    const id = await hookOn('/groups/acme');
    const res = await root(`/groups/acme/hooks/${id}/test/push_events`, 'POST');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: '201 Created' });
    // Sent before the answer, though queued deliveries are paused.
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.get('x-gitlab-event')).toBe('Push Hook');
    const [d] = e.hooks.deliveries({ hookId: id });
    expect(d).toMatchObject({ event: 'Push Hook', state: 'sent', responseStatus: '200' });
    const p = d!.payload as any;
    expect(received[0]!.body).toEqual(p);
    expect(p).toMatchObject({ object_kind: 'push', ref: 'refs/heads/main', project: { path_with_namespace: 'acme/app' } });
    expect(p.commits.length).toBeGreaterThan(0);
  });

  it('answers GitLab\'s 422 when no project of the group has commits, and 400 for an unknown trigger', async () => {
    const id = await hookOn('/groups/empty');
    const res = await root(`/groups/empty/hooks/${id}/test/push_events`, 'POST');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: 'Ensure the group has a project with commits.' });
    expect((await root(`/groups/empty/hooks/${id}/test/bogus`, 'POST')).status).toBe(400);
    expect((await root(`/groups/empty/hooks/999/test/push_events`, 'POST')).status).toBe(404);
    expect(e.hooks.deliveries()).toEqual([]);
  });
});

describe('the receiver\'s answer is the test\'s', () => {
  it('422 with the receiver\'s body when it answers an error, and the log keeps it', async () => {
    const id = await hookOn('/projects/acme%2Fapp');
    answer = () => new HttpResponse('receiver is down for maintenance', { status: 503 });
    const res = await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST');
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ message: 'receiver is down for maintenance' });
    const [log] = await (await root(`/projects/acme%2Fapp/hooks/${id}/events`)).json();
    expect(log).toMatchObject({ trigger: 'push_hooks', response_status: '503', response_body: 'receiver is down for maintenance' });
    // A failed test backs the hook off, as any failed delivery does.
    const hook = await (await root(`/projects/acme%2Fapp/hooks/${id}`)).json();
    expect(hook.alert_status).toBe('executable');
    answer = () => new HttpResponse(null, { status: 204 });
    expect((await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST')).status).toBe(201);
  });

  it('422 with the error when nothing answers', async () => {
    const res = await root('/projects/acme%2Fapp/hooks', 'POST', { url: 'http://127.0.0.1:9/nothing', push_events: true });
    const { id } = await res.json();
    const test = await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST');
    expect(test.status).toBe(422);
    const { message } = await test.json();
    expect(typeof message).toBe('string');
    expect(message.length).toBeGreaterThan(0);
    const [log] = await (await root(`/projects/acme%2Fapp/hooks/${id}/events`)).json();
    expect(log).toMatchObject({ response_status: 'internal error', response_body: message });
  });

  it('a receiver that calls back into the emulator before answering is not kept waiting', async () => {
    const id = await hookOn('/projects/acme%2Fapp');
    answer = async () => {
      const note = await root('/projects/acme%2Fapp/issues', 'POST', { title: 'made by the receiver' });
      return HttpResponse.json({ made: note.status });
    };
    const res = await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST');
    expect(res.status).toBe(201);
    const [log] = await (await root(`/projects/acme%2Fapp/hooks/${id}/events`)).json();
    expect(JSON.parse(log.response_body)).toEqual({ made: 201 });
    const issues = await (await root('/projects/acme%2Fapp/issues?search=receiver')).json();
    expect(issues.map((i: any) => i.title)).toEqual(['made by the receiver']);
  });

  it('a system hook\'s test answers the sample whatever the receiver did', async () => {
    const { id } = await (await root('/hooks', 'POST', { url: 'https://r.example.com/' })).json();
    answer = () => new HttpResponse('no', { status: 500 });
    const res = await root(`/hooks/${id}`, 'POST');
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ event_name: 'project_create', name: 'Ruby' });
    expect(received.map((r) => r.headers.get('x-gitlab-event'))).toEqual(['System Hook']);
    expect(e.hooks.deliveries({ hookId: id })).toMatchObject([{ state: 'sent', responseStatus: '500' }]);
  });
});

describe('rate limits', () => {
  it('five tests a minute for each hook parent and user, then 429 until the minute is over', async () => {
    const id = await hookOn('/projects/acme%2Fapp');
    for (let i = 0; i < 5; i++) expect((await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST')).status).toBe(201);
    const refused = await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST');
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
    expect(e.hooks.deliveries({ hookId: id })).toHaveLength(5);
    // Another user, or another parent, counts apart.
    expect((await apiCall(e, `/projects/acme%2Fapp/hooks/${id}/test/push_events`, { method: 'POST', token: 'maintainer-token' })).status).toBe(201);
    const group = await hookOn('/groups/acme');
    expect((await root(`/groups/acme/hooks/${group}/test/push_events`, 'POST')).status).toBe(201);
    e.clock.advance('61s');
    expect((await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST')).status).toBe(201);
  });

  it('five resends a minute', async () => {
    const id = await hookOn('/projects/acme%2Fapp');
    expect((await root(`/projects/acme%2Fapp/hooks/${id}/test/push_events`, 'POST')).status).toBe(201);
    const [log] = await (await root(`/projects/acme%2Fapp/hooks/${id}/events`)).json();
    for (let i = 0; i < 5; i++) expect((await root(`/projects/acme%2Fapp/hooks/${id}/events/${log.id}/resend`, 'POST')).status).toBe(201);
    expect((await root(`/projects/acme%2Fapp/hooks/${id}/events/${log.id}/resend`, 'POST')).status).toBe(429);
  });
});
