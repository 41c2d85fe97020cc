// Deliveries through the MSW door: what happened reaches the hooks that take it, after the
// answer, through the global fetch, with GitLab's headers and payloads; confidential routing,
// branch filters, the delivery log, and a receiver that fails or hangs never holds up an answer.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { handlers } from '../src/msw.js';
import { ACME, ORIGIN, TEAM, teamProject } from './support/world.js';

const NOW = '2026-05-04T10:00:00Z';
const RECEIVER = 'https://receiver.example.com';

interface Received {
  url: string;
  headers: Record<string, string>;
  body: any;
}

let emulator: Emulator;
let received: Received[] = [];
/** What the receiver answers next (a status), or a promise it waits on first. */
let answer: () => Promise<Response> | Response = () => HttpResponse.json({ ok: true });

const msw = setupServer();
beforeAll(async () => {
  msw.listen({ onUnhandledRequest: 'bypass' });
  emulator = await createEmulator({
    clock: { now: NOW, frozen: true },
    fixture: {
      users: TEAM,
      groups: [ACME],
      projects: [teamProject({ repository: { files: { 'README.md': '# app\n' } } })],
    },
  });
});
afterAll(() => msw.close());

let seeded: ReturnType<Emulator['snapshot']>;
beforeAll(() => {
  seeded = emulator.snapshot();
});
beforeEach(() => {
  emulator.restore(seeded);
  emulator.clock.set(NOW);
  emulator.hooks.resume();
  received = [];
  answer = () => HttpResponse.json({ ok: true });
  msw.resetHandlers(
    ...handlers(emulator),
    http.post(`${RECEIVER}/*`, async ({ request }) => {
      received.push({ url: request.url, headers: Object.fromEntries(request.headers), body: await request.json() });
      return answer();
    }),
  );
});

const api = (path: string, method = 'GET', body?: unknown, token = 'maintainer-token') =>
  fetch(`${ORIGIN}/api/v4${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': token, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });

const P = '/projects/acme%2Fapp';
async function addHook(body: Record<string, unknown>) {
  const res = await api(`${P}/hooks`, 'POST', { url: `${RECEIVER}/hook`, ...body });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
}

describe('deliveries', () => {
  it('an issue opened reaches an issue hook with GitLab\'s headers and payload', async () => {
    await addHook({ issues_events: true, push_events: false, token: 'tok' });
    const res = await api(`${P}/issues`, 'POST', { title: 'Broken build', description: 'It fails' });
    expect(res.status).toBe(201);
    await emulator.hooks.settled();
    expect(received).toHaveLength(1);
    const [r] = received;
    expect(r!.headers).toMatchObject({
      'content-type': 'application/json', 'user-agent': expect.stringMatching(/^GitLab\/\d+\.\d+\.\d+/), 'x-gitlab-event': 'Issue Hook', 'x-gitlab-token': 'tok',
      'x-gitlab-instance': ORIGIN,
    });
    for (const h of ['idempotency-key', 'x-gitlab-webhook-uuid', 'x-gitlab-event-uuid']) expect(r!.headers[h]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r!.body).toMatchObject({
      object_kind: 'issue', event_type: 'issue',
      user: { username: 'mai', name: 'Mai Ntainer', email: '[REDACTED]' },
      project: { path_with_namespace: 'acme/app', web_url: `${ORIGIN}/acme/app`, visibility_level: 0, default_branch: 'main' },
      object_attributes: { title: 'Broken build', description: 'It fails', iid: 1, state: 'opened', action: 'open', confidential: false, url: `${ORIGIN}/acme/app/-/issues/1` },
      labels: [],
      repository: { name: 'app' },
    });
    expect(r!.body.changes).toMatchObject({ title: { previous: null, current: 'Broken build' } });
  });

  it('a confidential issue goes only to confidential issue hooks; its notes only to confidential note hooks', async () => {
    const plain = await addHook({ issues_events: true, note_events: true, push_events: false });
    const secret = await addHook({ confidential_issues_events: true, confidential_note_events: true, push_events: false });
    await api(`${P}/issues`, 'POST', { title: 'Leak', confidential: true });
    await api(`${P}/issues/1/notes`, 'POST', { body: 'seen' });
    await api(`${P}/issues`, 'POST', { title: 'Open' });
    await api(`${P}/issues/2/notes`, 'POST', { body: 'internal', internal: true });
    await api(`${P}/issues/2/notes`, 'POST', { body: 'public' });
    await emulator.hooks.settled();
    const to = (id: number) => emulator.hooks.deliveries({ hookId: id }).map((d) => `${d.event}:${(d.payload as any).object_attributes.title ?? (d.payload as any).object_attributes.note}`);
    expect(to(plain.id)).toEqual(['Issue Hook:Open', 'Note Hook:public']);
    expect(to(secret.id)).toEqual(['Confidential Issue Hook:Leak', 'Confidential Note Hook:seen', 'Confidential Note Hook:internal']);
    expect(received.map((r) => r.body.event_type)).toEqual(expect.arrayContaining(['confidential_issue', 'confidential_note', 'issue', 'note']));
  });

  it('a commit through the API delivers a Push Hook with its commits and files; branch filters select', async () => {
    const all = await addHook({});
    const release = await addHook({ push_events_branch_filter: 'release/*' });
    const regex = await addHook({ push_events_branch_filter: '^ma', branch_filter_strategy: 'regex' });
    const res = await api(`${P}/repository/commits`, 'POST', {
      branch: 'main', commit_message: 'Add docs\n\nMore words', actions: [{ action: 'create', file_path: 'docs/a.md', content: 'a' }, { action: 'update', file_path: 'README.md', content: '# App\n' }],
    });
    expect(res.status).toBe(201);
    const sha = (await res.json()).id;
    await emulator.hooks.settled();
    expect(emulator.hooks.deliveries({ hookId: release.id })).toEqual([]);
    expect(emulator.hooks.deliveries({ hookId: regex.id })).toHaveLength(1);
    const [d] = emulator.hooks.deliveries({ hookId: all.id });
    expect(d!.event).toBe('Push Hook');
    expect(d!.payload).toMatchObject({
      object_kind: 'push', event_name: 'push', after: sha, ref: 'refs/heads/main', checkout_sha: sha, user_username: 'mai', project_id: 1, total_commits_count: 1,
      commits: [{ id: sha, message: 'Add docs\n\nMore words', title: 'Add docs', url: `${ORIGIN}/acme/app/-/commit/${sha}`, added: ['docs/a.md'], modified: ['README.md'], removed: [] }],
    });
    expect(d!.state).toBe('sent');
    expect(d!.responseStatus).toBe('200');
  });

  it('a tag delivers a Tag Push Hook to tag push hooks only', async () => {
    const tags = await addHook({ tag_push_events: true, push_events: false });
    const pushes = await addHook({});
    expect((await api(`${P}/repository/tags`, 'POST', { tag_name: 'v1.0', ref: 'main', message: 'First' })).status).toBe(201);
    await emulator.hooks.settled();
    expect(emulator.hooks.deliveries({ hookId: pushes.id })).toEqual([]);
    const [d] = emulator.hooks.deliveries({ hookId: tags.id });
    expect(d!.payload).toMatchObject({ object_kind: 'tag_push', ref: 'refs/tags/v1.0', message: 'First', before: '0000000000000000000000000000000000000000' });
  });

  it('a merge request opened, then merged: its hooks, and the target branch\'s push', async () => {
    const hook = await addHook({ merge_requests_events: true });
    await api(`${P}/repository/branches`, 'POST', { branch: 'feature', ref: 'main' });
    await api(`${P}/repository/commits`, 'POST', { branch: 'feature', commit_message: 'Feature', actions: [{ action: 'create', file_path: 'f.txt', content: 'f' }] });
    const mr = await (await api(`${P}/merge_requests`, 'POST', { source_branch: 'feature', target_branch: 'main', title: 'Add feature' })).json();
    expect((await api(`${P}/merge_requests/${mr.iid}/merge`, 'PUT', {})).status).toBe(200);
    await emulator.hooks.settled();
    const seen = emulator.hooks.deliveries({ hookId: hook.id }).map((d) => [d.event, (d.payload as any).object_attributes?.action ?? (d.payload as any).ref]);
    // The branch made, then its commit; the merge request opened; merged: the target's push, then the merge.
    expect(seen).toEqual([
      ['Push Hook', 'refs/heads/feature'],
      ['Push Hook', 'refs/heads/feature'],
      ['Merge Request Hook', 'open'],
      ['Push Hook', 'refs/heads/main'],
      ['Merge Request Hook', 'merge'],
    ]);
    const merged = emulator.hooks.deliveries({ event: 'Merge Request Hook' }).at(-1)!.payload as any;
    expect(merged).toMatchObject({ object_kind: 'merge_request', object_attributes: { action: 'merge', state: 'merged', source_branch: 'feature', target_branch: 'main', iid: mr.iid } });
  });

  it('a slow receiver holds up no answer; paused deliveries wait', async () => {
    await addHook({ issues_events: true });
    let release!: () => void;
    answer = () => new Promise((r) => (release = () => r(HttpResponse.json({}))));
    const started = performance.now();
    expect((await api(`${P}/issues`, 'POST', { title: 'one' })).status).toBe(201);
    expect((await api(`${P}/issues`, 'POST', { title: 'two' })).status).toBe(201);
    expect(performance.now() - started).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 20));
    expect(received.map((r) => r.body.object_attributes.title)).toEqual(['one']);
    answer = () => HttpResponse.json({});
    release();
    await emulator.hooks.settled();
    expect(received.map((r) => r.body.object_attributes.title)).toEqual(['one', 'two']);
    emulator.hooks.pause();
    await api(`${P}/issues`, 'POST', { title: 'three' });
    await emulator.hooks.settled();
    expect(received).toHaveLength(2);
    expect(emulator.hooks.deliveries({ state: 'pending' })).toHaveLength(1);
    emulator.hooks.resume();
    await emulator.hooks.settled();
    expect(received).toHaveLength(3);
  });

  it('the log lists what was sent, newest first, by status, and resends', async () => {
    const hook = await addHook({ issues_events: true });
    await api(`${P}/issues`, 'POST', { title: 'ok' });
    await emulator.hooks.settled();
    answer = () => HttpResponse.text('nope', { status: 500 });
    await api(`${P}/issues`, 'POST', { title: 'fails' });
    await emulator.hooks.settled();
    const logs = await (await api(`${P}/hooks/${hook.id}/events`)).json();
    expect(logs.map((l: any) => [l.response_status, l.request_data.object_attributes.title])).toEqual([['500', 'fails'], ['200', 'ok']]);
    expect(logs[0]).toMatchObject({ trigger: 'issue_hooks', url: `${RECEIVER}/hook`, response_body: 'nope', request_headers: { 'X-Gitlab-Event': 'Issue Hook' } });
    const failed = await (await api(`${P}/hooks/${hook.id}/events?status=server_failure`)).json();
    expect(failed.map((l: any) => l.id)).toEqual([logs[0].id]);
    const bad = await api(`${P}/hooks/${hook.id}/events?status=999`);
    expect(bad.status).toBe(400);
    answer = () => HttpResponse.json({});
    const resent = await api(`${P}/hooks/${hook.id}/events/${logs[0].id}/resend`, 'POST');
    expect(resent.status).toBe(201);
    await emulator.hooks.settled();
    expect(received.map((r) => r.body.object_attributes.title)).toEqual(['ok', 'fails', 'fails']);
    expect(received[2]!.headers['idempotency-key']).toBe(received[1]!.headers['idempotency-key']);
    expect((await api(`${P}/hooks/${hook.id}/events/9999/resend`, 'POST')).status).toBe(404);
    // Kept for seven days, on the emulator's clock.
    emulator.clock.advance('6d');
    expect((await (await api(`${P}/hooks/${hook.id}/events`)).json()).length).toBe(3);
    emulator.clock.advance('2d');
    expect(await (await api(`${P}/hooks/${hook.id}/events`)).json()).toEqual([]);
  });

  it('the same requests on a frozen clock deliver the same bytes', async () => {
    const run = async () => {
      emulator.restore(seeded);
      received = [];
      await addHook({ issues_events: true, token: 't' });
      await api(`${P}/issues`, 'POST', { title: 'same' });
      await emulator.hooks.settled();
      return JSON.stringify(received);
    };
    expect(await run()).toBe(await run());
  });
});

describe('more event kinds', () => {
  it('a release, a milestone and a wiki page reach the hooks that take them', async () => {
    const hook = await addHook({ releases_events: true, milestone_events: true, wiki_page_events: true, push_events: false });
    expect((await api(`${P}/releases`, 'POST', { tag_name: 'v1.0', ref: 'main', name: 'First', description: 'Notes' })).status).toBe(201);
    expect((await api(`${P}/milestones`, 'POST', { title: 'M1' })).status).toBe(201);
    expect((await api(`${P}/wikis`, 'POST', { title: 'Home', content: '# Welcome' })).status).toBe(201);
    await emulator.hooks.settled();
    const sent = emulator.hooks.deliveries({ hookId: hook.id });
    expect(sent.map((d) => d.event)).toEqual(['Release Hook', 'Milestone Hook', 'Wiki Page Hook']);
    expect(sent[0]!.payload).toMatchObject({ object_kind: 'release', action: 'create', tag: 'v1.0', name: 'First', description: 'Notes', url: `${ORIGIN}/acme/app/-/releases/v1.0`, assets: { count: 4 } });
    expect(sent[1]!.payload).toMatchObject({ object_kind: 'milestone', action: 'create', object_attributes: { title: 'M1', state: 'active', iid: 1 } });
    expect(sent[2]!.payload).toMatchObject({ object_kind: 'wiki_page', user: { username: 'mai' }, object_attributes: { title: 'Home', slug: 'Home', content: '# Welcome', action: 'create', format: 'markdown' } });
  });
});

describe('CI events', () => {
  it('a pipeline and its job moving through their statuses reach pipeline and job hooks', async () => {
    const hook = await addHook({ pipeline_events: true, job_events: true, push_events: false });
    const ci = emulator.ci('acme/app');
    const pipeline = ci.pipeline();
    const job = ci.job(pipeline.id, { name: 'test' });
    ci.finish(job.id, { status: 'success' });
    await emulator.settled();
    await emulator.hooks.settled();
    const sent = emulator.hooks.deliveries({ hookId: hook.id });
    const pipelines = sent.filter((d) => d.event === 'Pipeline Hook').map((d) => (d.payload as any).object_attributes.status);
    const jobs = sent.filter((d) => d.event === 'Job Hook').map((d) => (d.payload as any).build_status);
    expect(pipelines.length).toBeGreaterThan(0);
    expect(pipelines.at(-1)).toBe('success');
    expect(jobs).toContain('running');
    expect(jobs.at(-1)).toBe('success');
    const last = sent.filter((d) => d.event === 'Pipeline Hook').at(-1)!.payload as any;
    expect(last).toMatchObject({ object_kind: 'pipeline', object_attributes: { id: pipeline.id, ref: 'main' }, project: { path_with_namespace: 'acme/app' }, builds: [{ name: 'test', status: 'success' }] });
    expect(last.project).not.toHaveProperty('homepage');
    const lastJob = sent.filter((d) => d.event === 'Job Hook').at(-1)!.payload as any;
    expect(lastJob).toMatchObject({ object_kind: 'build', build_name: 'test', build_stage: 'test', pipeline_id: pipeline.id, project_id: 1 });
  });
});

describe('names and values of any kind', () => {
  it('custom headers and URL variables named __proto__ or constructor, and values beyond Latin-1, are kept and sent', async () => {
    const res = await api(`${P}/hooks`, 'POST', {
      url: `${RECEIVER}/{constructor}`, issues_events: true, url_variables: [{ key: 'constructor', value: 'in' }],
      custom_headers: [{ key: '__proto__', value: 'p' }, { key: 'X-Note', value: 'héllo ✓' }],
    });
    expect(res.status).toBe(201);
    const hook = await res.json();
    expect(hook).toMatchObject({ url_variables: [{ key: 'constructor' }], custom_headers: [{ key: '__proto__' }, { key: 'X-Note' }] });
    expect((await api(`${P}/issues`, 'POST', { title: 'ünïcode ✓' })).status).toBe(201);
    await emulator.hooks.settled();
    expect(received).toHaveLength(1);
    expect(received[0]!.url).toBe(`${RECEIVER}/in`);
    expect(received[0]!.headers['__proto__']).toBe('p');
    expect(received[0]!.headers['x-note']).toBeDefined();
    expect(received[0]!.body.object_attributes.title).toBe('ünïcode ✓');
    const [log] = await (await api(`${P}/hooks/${hook.id}/events`)).json();
    expect(log.url).toBe(`${RECEIVER}/{constructor}`);
    expect(Object.getPrototypeOf(log.request_headers)).toBe(Object.prototype);
  });
});
