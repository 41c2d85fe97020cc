// The world around the API: snapshots, forks, the clock and timed work, determinism, the
// journal, injected faults, rate limits, and the control API under /-/emulator/.
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { handlers } from '../src/msw.js';
import { Clock, createEmulator, parseDuration, type Emulator, type Fixture, type Server } from '../src/index.js';
import { idOf, pendingTasks, scheduleTask, SMALL_WORLD } from './support/world.js';

const ORIGIN = 'https://gitlab.example.com';
const BASE = `${ORIGIN}/api/v4`;
const ALICE = { 'PRIVATE-TOKEN': 'alice-token' };
const START = '2030-01-01T00:00:00.000Z';

const fixture: Fixture = SMALL_WORLD;

let gitlab: Emulator;

beforeEach(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: START, frozen: true } });
});

const request = (path: string, init: RequestInit = {}) => new Request(`${BASE}${path}`, init);
const createProject = (e: Emulator, name: string, headers: Record<string, string> = ALICE) =>
  e.handle(request('/projects', { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) }));
async function projectNames(e: Emulator): Promise<string[]> {
  const res = await e.handle(request('/projects?per_page=100&order_by=id&sort=asc', { headers: ALICE }));
  return ((await res.json()) as { name: string }[]).map((p) => p.name);
}

describe('snapshots', () => {
  it('restore brings back the world exactly as it was', async () => {
    const snap = gitlab.snapshot();
    await createProject(gitlab, 'Later');
    expect(await projectNames(gitlab)).toEqual(['website', 'Later']);
    gitlab.restore(snap);
    expect(gitlab.state).toBe(snap.state);
    expect(await projectNames(gitlab)).toEqual(['website']);
  });

  it('a snapshot is not changed by what happens after it', async () => {
    const snap = gitlab.snapshot();
    const before = JSON.stringify(snap.state);
    await createProject(gitlab, 'Later');
    expect(JSON.stringify(snap.state)).toBe(before);
  });

  it('ids continue from the restored world, so a replay gives the same ids', async () => {
    const snap = gitlab.snapshot();
    const first = (await (await createProject(gitlab, 'Again')).json()) as { id: number };
    gitlab.restore(snap);
    const second = (await (await createProject(gitlab, 'Again')).json()) as { id: number };
    expect(second.id).toBe(first.id);
  });

  it('named snapshots can be saved, listed, restored and deleted', async () => {
    gitlab.saveSnapshot('clean');
    await createProject(gitlab, 'Dirty');
    expect(gitlab.snapshotNames()).toEqual(['clean']);
    expect(gitlab.restoreSnapshot('clean')).toBe(true);
    expect(await projectNames(gitlab)).toEqual(['website']);
    expect(gitlab.deleteSnapshot('clean')).toBe(true);
    expect(gitlab.restoreSnapshot('clean')).toBe(false);
  });

  it('reset returns to the world as seeded at creation', async () => {
    await createProject(gitlab, 'Gone after reset');
    gitlab.reset();
    expect(await projectNames(gitlab)).toEqual(['website']);
  });
});

describe('fork', () => {
  it('gives an independent emulator on the same world', async () => {
    const other = gitlab.fork();
    expect(other.state).toBe(gitlab.state);
    await createProject(other, 'Only in the fork');
    await createProject(gitlab, 'Only in the original');
    expect(await projectNames(other)).toEqual(['website', 'Only in the fork']);
    expect(await projectNames(gitlab)).toEqual(['website', 'Only in the original']);
  });

  it('starts at the same time, with a clock of its own', () => {
    const other = gitlab.fork();
    expect(other.clock.now()).toBe(gitlab.clock.now());
    expect(other.clock.frozen).toBe(true);
    other.clock.advance('1h');
    expect(gitlab.clock.now()).toBe(Date.parse(START));
  });

  it('resets to the original seed, not to the world it was forked from', async () => {
    await createProject(gitlab, 'Before the fork');
    const other = gitlab.fork();
    other.reset();
    expect(await projectNames(other)).toEqual(['website']);
  });
});

describe('the clock', () => {
  const createdAt = async (name: string) => ((await (await createProject(gitlab, name)).json()) as { created_at: string }).created_at;

  it('frozen, it does not move between requests', async () => {
    expect(await createdAt('One')).toBe(START);
    expect(await createdAt('Two')).toBe(START);
  });

  it('set and advance move every timestamp the emulator writes', async () => {
    gitlab.clock.set('2031-06-15T08:00:00Z');
    expect(await createdAt('Set')).toBe('2031-06-15T08:00:00.000Z');
    gitlab.clock.advance('2h30m');
    expect(await createdAt('Advanced')).toBe('2031-06-15T10:30:00.000Z');
    gitlab.clock.advance(1500);
    expect(await createdAt('Millis')).toBe('2031-06-15T10:30:01.500Z');
  });

  it('durations read like 2h30m, 1d 4h, 90s, 250ms', () => {
    expect(parseDuration('2h30m')).toBe(9_000_000);
    expect(parseDuration('1d 4h')).toBe(100_800_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('250ms')).toBe(250);
    expect(parseDuration(42)).toBe(42);
    expect(() => parseDuration('soon')).toThrow(RangeError);
    expect(() => parseDuration(-1)).toThrow(RangeError);
  });

  it('a frozen clock stands exactly at its start, even when the real clock ticks meanwhile', () => {
    let real = 1_000;
    const spy = vi.spyOn(Date, 'now').mockImplementation(() => real++);
    try {
      expect(new Clock({ now: START, frozen: true }).now()).toBe(Date.parse(START));
    } finally {
      spy.mockRestore();
    }
  });

  it('a running clock starts where it is told and never goes back', async () => {
    const live = await createEmulator({ fixture, clock: { now: START } });
    expect(live.clock.frozen).toBe(false);
    const first = live.clock.now();
    expect(first).toBeGreaterThanOrEqual(Date.parse(START));
    expect(live.clock.now()).toBeGreaterThanOrEqual(first);
    live.clock.freeze();
    expect(live.clock.now()).toBe(live.clock.now());
  });
});

describe('timed work', () => {
  // A task in the world: the destruction of a project, due in one hour.
  function scheduleDestroy(inMs: number) {
    const id = idOf(gitlab, 'acme/website');
    scheduleTask(gitlab, { id: 999, at: gitlab.clock.now() + inMs, kind: 'project.destroy', payload: { projectId: id } });
  }

  it('runs when the clock passes its time, not before', () => {
    scheduleDestroy(3_600_000);
    gitlab.clock.advance('59m');
    expect(pendingTasks(gitlab)).toHaveLength(1);
    gitlab.clock.advance('1m');
    expect(pendingTasks(gitlab)).toHaveLength(0);
    expect(() => idOf(gitlab, 'acme/website')).toThrow();
  });

  it('runUntilIdle moves the clock to each task and runs it', () => {
    scheduleDestroy(86_400_000);
    expect(gitlab.runUntilIdle()).toBe(1);
    expect(gitlab.clock.now()).toBe(Date.parse(START) + 86_400_000);
    expect(pendingTasks(gitlab)).toEqual([]);
  });

  it('is part of the world: a snapshot taken before it ran brings it back', () => {
    scheduleDestroy(1000);
    const snap = gitlab.snapshot();
    gitlab.runUntilIdle();
    gitlab.restore(snap);
    expect(pendingTasks(gitlab)).toHaveLength(1);
  });
});

describe('determinism', () => {
  async function script(e: Emulator): Promise<string[]> {
    const out: string[] = [];
    const record = async (res: Response) => {
      const headers = [...res.headers].filter(([k]) => k !== 'date').map(([k, v]) => `${k}: ${v}`);
      out.push(`${res.status}\n${headers.join('\n')}\n${await res.text()}`);
    };
    await record(await createProject(e, 'First'));
    await record(await e.handle(request('/groups', { method: 'POST', headers: { ...ALICE, 'Content-Type': 'application/json' }, body: '{"name":"G","path":"gg"}' })));
    await record(await e.handle(request('/projects?per_page=1', { headers: ALICE })));
    await record(await e.handle(request('/user', { headers: ALICE })));
    await record(await e.handle(request('/projects/acme%2Fwebsite', { method: 'DELETE', headers: ALICE })));
    await record(await e.handle(request('/projects', {})));
    return out;
  }

  it('the same fixture, frozen clock and requests give byte-identical answers', async () => {
    const a = await createEmulator({ fixture, clock: { now: START, frozen: true }, seed: 7 });
    const b = await createEmulator({ fixture, clock: { now: START, frozen: true }, seed: 7 });
    expect(await script(b)).toEqual(await script(a));
  });

  it('generated secrets come from the seed', async () => {
    const f: Fixture = { users: [{ username: 'u', tokens: [{}] }] };
    const one = await createEmulator({ fixture: {}, seed: 3 });
    const two = await createEmulator({ fixture: {}, seed: 3 });
    const three = await createEmulator({ fixture: {}, seed: 4 });
    const t1 = (await one.seed(f)).users.u!.tokens[0];
    expect((await two.seed(f)).users.u!.tokens[0]).toBe(t1);
    expect((await three.seed(f)).users.u!.tokens[0]).not.toBe(t1);
  });
});

describe('the journal', () => {
  it('records each request: method, path, query, status, acting user, route', async () => {
    await gitlab.handle(request('/projects?search=web', { headers: ALICE }));
    await gitlab.handle(request('/user?sudo=alice', { headers: { 'PRIVATE-TOKEN': 'root-token' } }));
    await gitlab.handle(request('/nope'));
    const [a, b, c] = gitlab.journal.entries();
    expect(a).toMatchObject({ method: 'GET', path: '/api/v4/projects', query: '?search=web', status: 200, user: 'alice', route: 'GET /projects', at: START });
    expect(b).toMatchObject({ status: 200, user: 'alice', route: 'GET /user' });
    expect(c).toMatchObject({ status: 404, user: null, route: null });
    expect(c!.seq).toBe(a!.seq + 2);
  });

  it('keeps only the last N entries', async () => {
    const small = await createEmulator({ fixture, journalLimit: 3 });
    for (let i = 0; i < 5; i++) await small.handle(request(`/projects?page=${i + 1}`));
    const entries = small.journal.entries();
    expect(entries.map((e) => e.query)).toEqual(['?page=3', '?page=4', '?page=5']);
    const none = await createEmulator({ fixture, journalLimit: 0 });
    await none.handle(request('/projects'));
    expect(none.journal.entries()).toEqual([]);
  });

  it('before and after snapshots let a test step back to any point', async () => {
    await createProject(gitlab, 'One');
    await createProject(gitlab, 'Two');
    const [one, two] = gitlab.journal.entries();
    gitlab.restore(two!.before);
    expect(await projectNames(gitlab)).toEqual(['website', 'One']);
    gitlab.restore(one!.before);
    expect(await projectNames(gitlab)).toEqual(['website']);
    gitlab.restore(two!.after);
    expect(await projectNames(gitlab)).toEqual(['website', 'One', 'Two']);
  });

  it('a read leaves the world as it was, once the caller\'s activity of the day is recorded', async () => {
    await gitlab.handle(request('/user', { headers: ALICE }));
    await gitlab.handle(request('/projects', { headers: ALICE }));
    const entry = gitlab.journal.last()!;
    expect(entry.after.state).toBe(entry.before.state);
  });
});

describe('faults', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a forced status answers with its body, for as many requests as asked', async () => {
    gitlab.faults.add({ method: 'GET', path: '/projects', status: 503, body: { message: '503 Service Unavailable' }, times: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await gitlab.handle(request('/projects'));
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: '503 Service Unavailable' });
    }
    expect((await gitlab.handle(request('/projects'))).status).toBe(200);
    expect(gitlab.faults.list()).toEqual([]);
  });

  it('a fault matches by method and by path prefix', async () => {
    gitlab.faults.add({ method: 'POST', path: '/projects*', status: 500 });
    expect((await gitlab.handle(request('/projects'))).status).toBe(200);
    expect((await createProject(gitlab, 'Refused')).status).toBe(500);
    expect(gitlab.journal.last()).toMatchObject({ status: 500 });
  });

  it('latency delays the answer by that much', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    gitlab.faults.add({ path: '/user', latencyMs: 5_000 });
    let settled = false;
    const pending = gitlab.handle(request('/user', { headers: ALICE })).then((r) => {
      settled = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await pending).status).toBe(200);
  });

  it('a dropped connection is a network error at the handle door', async () => {
    gitlab.faults.add({ path: '/user', drop: true, times: 1 });
    const res = await gitlab.handle(request('/user', { headers: ALICE }));
    expect(res.type).toBe('error');
  });

  describe('through MSW', () => {
    const mswServer = setupServer();
    beforeAll(() => mswServer.listen({ onUnhandledRequest: 'error' }));
    afterEach(() => mswServer.resetHandlers());
    afterAll(() => mswServer.close());

    it('a dropped connection makes fetch reject', async () => {
      mswServer.use(...handlers(gitlab));
      gitlab.faults.add({ path: '/projects', drop: true, times: 1 });
      await expect(fetch(`${BASE}/projects`)).rejects.toThrow();
      expect((await fetch(`${BASE}/projects`)).status).toBe(200);
    });
  });

  describe('through the node server', () => {
    let node: Server;
    afterEach(() => node.close());

    it('a dropped connection makes fetch reject', async () => {
      node = await gitlab.listen({ port: 0 });
      gitlab.faults.add({ path: '/projects', drop: true, times: 1 });
      await expect(fetch(`${node.url}/api/v4/projects`)).rejects.toThrow();
      expect((await fetch(`${node.url}/api/v4/projects`)).status).toBe(200);
    });
  });
});

describe('rate limits', () => {
  it('answer 429 with GitLab\'s body and Retry-After past the limit, and OK again when the window has passed', async () => {
    gitlab.configure({ settings: { rate_limits: { 'GET /projects': { limit: 2, period_seconds: 60 } } } });
    for (let i = 0; i < 2; i++) expect((await gitlab.handle(request('/projects'))).status).toBe(200);
    gitlab.clock.advance('20s');
    const limited = await gitlab.handle(request('/projects'));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
    expect(limited.headers.get('retry-after')).toBe('40');
    gitlab.clock.advance('40s');
    expect((await gitlab.handle(request('/projects'))).status).toBe(200);
  });

  it('count each caller apart, and only the route named', async () => {
    gitlab.configure({ settings: { rate_limits: { 'GET /projects': { limit: 1, period_seconds: 60 } } } });
    expect((await gitlab.handle(request('/projects'))).status).toBe(200);
    expect((await gitlab.handle(request('/projects'))).status).toBe(429);
    expect((await gitlab.handle(request('/projects', { headers: ALICE }))).status).toBe(200);
    expect((await gitlab.handle(request('/projects/acme%2Fwebsite'))).status).toBe(200);
  });

  it('reset forgets the windows', async () => {
    gitlab.configure({ settings: { rate_limits: { 'GET /projects': { limit: 1, period_seconds: 60 } } } });
    await gitlab.handle(request('/projects'));
    expect((await gitlab.handle(request('/projects'))).status).toBe(429);
    gitlab.reset();
    gitlab.configure({ settings: { rate_limits: { 'GET /projects': { limit: 1, period_seconds: 60 } } } });
    expect((await gitlab.handle(request('/projects'))).status).toBe(200);
  });
});

describe('the control API, over HTTP', () => {
  let server: Server;
  let control: (path: string, method?: string, body?: unknown) => Promise<{ status: number; body: any }>;
  let api: (path: string, init?: RequestInit) => Promise<Response>;

  beforeEach(async () => {
    server = await gitlab.listen({ port: 0 });
    control = async (path, method = 'GET', body) => {
      const res = await fetch(`${server.url}/-/emulator${path}`, {
        method,
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'Content-Type': 'application/json' } } : {}),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
    };
    api = (path, init) => fetch(`${server.url}/api/v4${path}`, init);
  });
  afterEach(() => server.close());

  const names = async () => ((await (await api('/projects?order_by=id&sort=asc', { headers: ALICE })).json()) as { name: string }[]).map((p) => p.name);
  const post = (name: string) => api('/projects', { method: 'POST', headers: { ...ALICE, 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });

  it('describes itself', async () => {
    const res = await control('');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ base_url: ORIGIN, clock: { now: START, frozen: true, pending_tasks: 0 } });
    expect(res.body.endpoints).toEqual(expect.arrayContaining(['reset', 'seed', 'snapshots', 'clock', 'journal', 'faults', 'instance']));
  });

  it('seeds a fixture and answers the handles', async () => {
    const res = await control('/seed', 'POST', { users: [{ username: 'zed', tokens: [{ token: 'zed-token' }] }] });
    expect(res.status).toBe(201);
    expect(res.body.users.zed.tokens).toEqual(['zed-token']);
    expect((await api('/user', { headers: { 'PRIVATE-TOKEN': 'zed-token' } })).status).toBe(200);
  });

  it('a fixture that names what does not exist is 400 and changes nothing', async () => {
    const before = gitlab.state;
    const res = await control('/seed', 'POST', { projects: [{ namespace: 'nowhere', path: 'x' }] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/unknown namespace 'nowhere'/);
    expect(gitlab.state).toBe(before);
  });

  it('resets the world, the journal and the faults', async () => {
    await post('Temporary');
    await control('/faults', 'POST', { path: '/user', status: 500 });
    expect((await control('/reset', 'POST')).status).toBe(204);
    expect(await names()).toEqual(['website']);
    expect((await control('/faults')).body).toEqual([]);
    expect((await control('/journal')).body).toHaveLength(1); // the names() request above
  });

  it('saves and restores named snapshots', async () => {
    expect((await control('/snapshots/base', 'POST')).status).toBe(201);
    await post('After the snapshot');
    expect((await control('/snapshots')).body).toEqual(['base']);
    expect((await control('/snapshots/base/restore', 'POST')).status).toBe(204);
    expect(await names()).toEqual(['website']);
    expect((await control('/snapshots/base', 'DELETE')).status).toBe(204);
    expect((await control('/snapshots/base/restore', 'POST')).status).toBe(404);
  });

  it('moves the clock and runs timed work', async () => {
    expect((await control('/clock', 'POST', { set: '2032-02-02T00:00:00Z' })).body).toMatchObject({ now: '2032-02-02T00:00:00.000Z', frozen: true });
    expect((await control('/clock', 'POST', { advance: '1h30m' })).body.now).toBe('2032-02-02T01:30:00.000Z');
    await api('/projects/acme%2Fwebsite', { method: 'DELETE', headers: ALICE });
    expect((await control('/clock')).body.pending_tasks).toBe(1);
    expect((await control('/clock/run-until-idle', 'POST')).body).toMatchObject({ ran: 1, pending_tasks: 0 });
    expect((await control('/clock', 'POST', { advance: 'later' })).status).toBe(400);
    expect((await control('/clock', 'POST', { freeze: false })).body.frozen).toBe(false);
  });

  it('shows the journal without snapshots, clears it, and steps the world back to a request', async () => {
    await post('Journaled');
    const journal = (await control('/journal')).body as { seq: number; method: string; status: number }[];
    expect(journal.at(-1)).toMatchObject({ method: 'POST', status: 201, route: 'POST /projects' });
    expect(journal.at(-1)).not.toHaveProperty('before');
    expect((await control(`/journal/${journal.at(-1)!.seq}/restore`, 'POST')).status).toBe(204);
    expect(await names()).toEqual(['website']);
    expect((await control('/journal', 'DELETE')).status).toBe(204);
    expect((await control('/journal')).body).toEqual([]);
    expect((await control('/journal/12345/restore', 'POST')).status).toBe(404);
  });

  it('adds, lists and removes faults', async () => {
    const added = await control('/faults', 'POST', { method: 'GET', path: '/user', status: 502 });
    expect(added.status).toBe(201);
    expect((await api('/user', { headers: ALICE })).status).toBe(502);
    expect((await control('/faults')).body).toEqual([expect.objectContaining({ id: added.body.id, path: '/user', status: 502 })]);
    expect((await control(`/faults/${added.body.id}`, 'DELETE')).status).toBe(204);
    expect((await api('/user', { headers: ALICE })).status).toBe(200);
    expect((await control('/faults', 'POST', { status: 500 })).status).toBe(400);
  });

  it('reads and changes the instance', async () => {
    expect((await control('/instance')).body).toMatchObject({ tier: 'free', offering: 'self-managed' });
    const res = await control('/instance', 'PUT', { tier: 'premium', settings: { impersonation_enabled: false } });
    expect(res.body).toMatchObject({ tier: 'premium', settings: { impersonation_enabled: false } });
    expect(gitlab.state.instance.tier).toBe('premium');
  });

  it('signs a user in and answers the session cookie', async () => {
    const res = await control('/sessions', 'POST', { username: 'alice' });
    expect(res.status).toBe(201);
    const me = await api('/user', { headers: { Cookie: `_gitlab_session=${res.body.cookie}` } });
    expect(((await me.json()) as { username: string }).username).toBe('alice');
    expect((await control('/sessions', 'POST', { username: 'nobody' })).status).toBe(400);
  });

  it('answers 400 to a body that is not JSON or a fixture of the wrong shape, and 404 to an unknown endpoint', async () => {
    expect((await control('/seed', 'POST', '{nope')).status).toBe(400);
    const wrong = await control('/seed', 'POST', { users: 'not a list of users' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toMatch(/^invalid fixture: /);
    expect((await control('/nope')).status).toBe(404);
    expect((await control('/snapshots/%E0%A4%A/restore', 'POST')).status).toBe(400);
  });
});
