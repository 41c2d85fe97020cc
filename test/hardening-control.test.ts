// The control API refuses what would break the emulator and who should not reach it: every input
// is checked before anything changes (400 naming the field); the clock refuses times it cannot
// render and reset() brings it back as created; a web page of another site, a rebound DNS name
// or a non-JSON body is refused; a control token, when set, is required.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Clock, createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';
import { SMALL_WORLD } from './support/world.js';
import { CLI } from './support/cli.js';

const ORIGIN = 'https://gitlab.example.com';
const ALICE = { 'PRIVATE-TOKEN': 'alice-token' };
const START = '2030-01-01T00:00:00.000Z';

const fixture: Fixture = SMALL_WORLD;

let gitlab: Emulator;

beforeEach(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: START, frozen: true } });
});

type Answer = { status: number; body: any; headers: Headers };

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers };
}

/** A control request through `emulator.handle`, with a JSON body unless told otherwise. */
function control(e: Emulator, path: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json', ...headers };
  }
  return e.handle(new Request(`${ORIGIN}/-/emulator${path}`, init)).then(answer);
}

const api = (e: Emulator, path: string, init: RequestInit = {}) => e.handle(new Request(`${ORIGIN}/api/v4${path}`, init));

/** What a refused control input must leave as it was. */
function observed(e: Emulator) {
  return { now: e.clock.now(), frozen: e.clock.frozen, state: e.state, instance: JSON.stringify(e.state.instance), faults: JSON.stringify(e.faults.list()) };
}

/** Every kind of request still works: a read, a write, a control read. */
async function stillServes(e: Emulator) {
  expect((await api(e, '/projects/acme%2Fwebsite', { headers: ALICE })).status).toBe(200);
  const made = await api(e, '/projects', { method: 'POST', headers: { ...ALICE, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: `After ${Math.random()}` }) });
  expect(made.status).toBe(201);
  expect((await control(e, '/clock')).status).toBe(200);
}

describe('every control input is checked before anything changes', () => {
  const cases: [string, string, string, unknown, RegExp][] = [
    ['a clock beyond 9999', 'POST', '/clock', { set: 1e20 }, /^clock\.set must be an ISO 8601 time or epoch milliseconds between 1970 and 9999$/],
    ['a clock before 1970', 'POST', '/clock', { set: -1 }, /^clock\.set must be/],
    ['a year 10000', 'POST', '/clock', { set: '+010000-01-01T00:00:00Z' }, /^clock\.set must be/],
    ['a time that is not ISO 8601', 'POST', '/clock', { set: 'next tuesday' }, /^clock\.set must be/],
    ['fractional epoch milliseconds', 'POST', '/clock', { set: 1.5 }, /^clock\.set must be/],
    ['a freeze with a bad set', 'POST', '/clock', { freeze: false, set: 1e20 }, /^clock\.set must be/],
    ['an advance that is an object', 'POST', '/clock', { advance: {} }, /^clock\.advance must be a duration/],
    ['a negative advance', 'POST', '/clock', { advance: -5 }, /^clock\.advance must be a duration/],
    ['an advance that is not a duration', 'POST', '/clock', { advance: 'later' }, /^clock\.advance must be a duration/],
    ['an advance past 9999', 'POST', '/clock', { advance: `${400_000 * 365}d` }, /^clock\.advance must not move the clock past 9999-12-31T23:59:59\.999Z$/],
    ['a set and advance that end past 9999', 'POST', '/clock', { set: '9999-12-31T00:00:00Z', advance: '2d' }, /^clock\.advance must not move the clock past/],
    ['freeze that is not a boolean', 'POST', '/clock', { freeze: 'yes' }, /^clock\.freeze must be true or false$/],
    ['an unknown clock field', 'POST', '/clock', { sett: '2031-01-01' }, /^clock\.sett is not one of freeze, set, advance$/],
    ['rate_limits null', 'PUT', '/instance', { settings: { rate_limits: null } }, /^instance\.settings\.rate_limits must be an object$/],
    ['a bogus tier', 'PUT', '/instance', { tier: 'bogus' }, /^instance\.tier must be one of free, premium, ultimate$/],
    ['a null tier', 'PUT', '/instance', { tier: null }, /^instance\.tier must be one of/],
    ['a bogus offering', 'POST', '/instance', { offering: 'cloud' }, /^instance\.offering must be one of self-managed, hosted$/],
    ['a valid tier beside a bad setting', 'PUT', '/instance', { tier: 'ultimate', settings: { rate_limits: null } }, /^instance\.settings\.rate_limits must be an object$/],
    ['settings null', 'PUT', '/instance', { settings: null }, /^instance\.settings must be an object$/],
    ['an unknown setting', 'PUT', '/instance', { settings: { signup_enabled: true } }, /^instance\.settings\.signup_enabled is not one of /],
    ['a setting of the wrong type', 'PUT', '/instance', { settings: { impersonation_enabled: 'no' } }, /^instance\.settings\.impersonation_enabled must be true or false$/],
    ['a visibility that does not exist', 'PUT', '/instance', { settings: { default_project_visibility: 'secret' } }, /^instance\.settings\.default_project_visibility must be one of private, internal, public$/],
    ['a token lifetime below one day', 'PUT', '/instance', { settings: { max_personal_access_token_lifetime: 0 } }, /^instance\.settings\.max_personal_access_token_lifetime must be a number of days/],
    ['a page limit of zero', 'PUT', '/instance', { settings: { offset_pagination_limit: 0 } }, /^instance\.settings\.offset_pagination_limit must be an integer from 1$/],
    ['a rate limit of zero', 'PUT', '/instance', { settings: { rate_limits: { notes_create: { limit: 0, period_seconds: 60 } } } }, /^instance\.settings\.rate_limits\.notes_create\.limit must be an integer from 1$/],
    ['a rate limit without its period', 'PUT', '/instance', { settings: { rate_limits: { notes_create: { limit: 5 } } } }, /^instance\.settings\.rate_limits\.notes_create\.period_seconds is required$/],
    ['a rate limit that is a number', 'PUT', '/instance', { settings: { rate_limits: { notes_create: 5 } } }, /^instance\.settings\.rate_limits\.notes_create must be an object$/],
    ['a fault method that is a number', 'POST', '/faults', { method: 5, path: '/user' }, /^faults\.method must be an HTTP method/],
    ['a fault method that is no method', 'POST', '/faults', { method: 'FETCH', path: '/user' }, /^faults\.method must be an HTTP method/],
    ['a fault status of 99', 'POST', '/faults', { path: '/user', status: 99 }, /^faults\.status must be an HTTP status from 200 to 599/],
    ['a fault status of 600', 'POST', '/faults', { path: '/user', status: 600 }, /^faults\.status must be/],
    ['a fault status of 205, which has no body', 'POST', '/faults', { path: '/user', status: 205 }, /^faults\.status must be/],
    ['a fractional fault status', 'POST', '/faults', { path: '/user', status: 500.5 }, /^faults\.status must be/],
    ['a fault status that is a string', 'POST', '/faults', { path: '/user', status: '500' }, /^faults\.status must be/],
    ['a fault without a path', 'POST', '/faults', { status: 500 }, /^faults\.path is required$/],
    ['a fault path that is a number', 'POST', '/faults', { path: 5 }, /^faults\.path must be a string$/],
    ['a negative latency', 'POST', '/faults', { path: '/user', latencyMs: -1 }, /^faults\.latencyMs must be a number of milliseconds from 0 to 60000$/],
    ['a latency of a day', 'POST', '/faults', { path: '/user', latencyMs: 86_400_000 }, /^faults\.latencyMs must be/],
    ['times of zero', 'POST', '/faults', { path: '/user', times: 0 }, /^faults\.times must be an integer from 1$/],
    ['drop that is not a boolean', 'POST', '/faults', { path: '/user', drop: 'yes' }, /^faults\.drop must be true or false$/],
    ['a fault body that is a list', 'POST', '/faults', { path: '/user', status: 500, body: [1] }, /^faults\.body must be a JSON object, string, number or null$/],
    ['an unknown fault field', 'POST', '/faults', { path: '/user', statsu: 500 }, /^faults\.statsu is not one of /],
    ['a session without a username', 'POST', '/sessions', {}, /^sessions\.username is required$/],
    ['a session username that is a number', 'POST', '/sessions', { username: 5 }, /^sessions\.username must be a string$/],
  ];

  it.each(cases)('%s: 400, nothing changes, every request still works', async (_what, method, path, body, message) => {
    const before = observed(gitlab);
    const res = await control(gitlab, path, method, body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: expect.stringMatching(message) });
    expect(observed(gitlab)).toEqual(before);
    await stillServes(gitlab);
  });

  it('an artifact path a zip cannot hold (64 KiB, a NUL) is 400 with the path cut short, and the job keeps no archive', async () => {
    const project = encodeURIComponent('acme/website');
    const pipeline = await control(gitlab, `/ci/${project}/pipelines`, 'POST', {});
    const job = await control(gitlab, `/ci/${project}/jobs`, 'POST', { pipeline_id: pipeline.body.id, name: 'build' });
    for (const path of ['a'.repeat(65536), `${'a/'.repeat(40000)}x`, 'x\u0000y']) {
      const state = gitlab.state;
      const res = await control(gitlab, `/ci/${project}/jobs/${job.body.id}/artifacts`, 'POST', { files: { [path]: 'hi' } });
      expect(res.status).toBe(400);
      expect(res.body.message.length).toBeLessThan(300);
      expect(gitlab.state).toBe(state);
    }
  });

  it('a journal step to somewhere other than before or after is 400', async () => {
    await api(gitlab, '/projects', { method: 'POST', headers: { ...ALICE, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'One' }) });
    const seq = gitlab.journal.entries().at(-1)!.seq;
    const state = gitlab.state;
    const res = await control(gitlab, `/journal/${seq}/restore?to=sideways`, 'POST');
    expect([res.status, res.body.message]).toEqual([400, 'journal.to must be one of before, after']);
    expect(gitlab.state).toBe(state);
  });

  it('good values still work: epoch milliseconds, ISO times, durations, settings, faults', async () => {
    expect((await control(gitlab, '/clock', 'POST', { set: Date.UTC(2031, 0, 1) })).body.now).toBe('2031-01-01T00:00:00.000Z');
    expect((await control(gitlab, '/clock', 'POST', { set: '2032-02-02T10:00:00+02:00', advance: 90_000 })).body.now).toBe('2032-02-02T08:01:30.000Z');
    expect((await control(gitlab, '/clock', 'POST', { set: '9999-12-31T23:59:59.999Z' })).status).toBe(200);
    const instance = await control(gitlab, '/instance', 'PUT', {
      tier: 'ultimate',
      offering: 'hosted',
      settings: { max_personal_access_token_lifetime: null, default_group_visibility: 'internal', rate_limits: { 'GET /projects/:id': { limit: 1, period_seconds: 60 } } },
    });
    expect(instance.status).toBe(200);
    expect(gitlab.state.instance).toMatchObject({ tier: 'ultimate', offering: 'hosted', settings: { default_group_visibility: 'internal' } });
    expect((await api(gitlab, '/projects/1', { headers: ALICE })).status).toBe(200);
    expect((await api(gitlab, '/projects/1', { headers: ALICE })).status).toBe(429);
    const fault = await control(gitlab, '/faults', 'POST', { method: 'get', path: '/user', status: 503, body: { message: 'down' }, times: 1, latencyMs: 0 });
    expect(fault.status).toBe(201);
    const down = await api(gitlab, '/user', { headers: ALICE });
    expect([down.status, await down.json()]).toEqual([503, { message: 'down' }]);
  });
});

describe('the clock refuses a time it cannot render', () => {
  it('set, freeze, advance and a new clock throw RangeError outside 1970..9999, and change nothing', () => {
    const before = gitlab.clock.now();
    expect(() => gitlab.clock.set(1e20)).toThrow(RangeError);
    expect(() => gitlab.clock.set(-1)).toThrow(RangeError);
    expect(() => gitlab.clock.set('10000-01-01T00:00:00Z')).toThrow(RangeError);
    expect(() => gitlab.clock.freeze(8.64e15)).toThrow(RangeError);
    expect(() => gitlab.clock.advance('3000000d')).toThrow(RangeError);
    expect(() => gitlab.clock.advance({} as never)).toThrow(RangeError);
    expect(() => new Clock({ now: 1e20 })).toThrow(RangeError);
    expect(gitlab.clock.now()).toBe(before);
    expect(gitlab.clock.frozen).toBe(true);
  });

  it('its last millisecond is 9999-12-31T23:59:59.999Z', () => {
    gitlab.clock.set('9999-12-31T23:59:59.999Z');
    expect(() => gitlab.clock.advance(1)).toThrow(RangeError);
    expect(new Date(gitlab.clock.now()).toISOString()).toBe('9999-12-31T23:59:59.999Z');
  });
});

describe('reset restores the clock as it was created', () => {
  it('a frozen clock: its start time, frozen', async () => {
    gitlab.clock.set('2040-05-05T00:00:00Z').unfreeze();
    gitlab.reset();
    expect(gitlab.clock.frozen).toBe(true);
    expect(new Date(gitlab.clock.now()).toISOString()).toBe(START);
  });

  it('through the control API too, after a refused input', async () => {
    await control(gitlab, '/clock', 'POST', { set: '2050-01-01T00:00:00Z', freeze: false });
    expect((await control(gitlab, '/clock', 'POST', { set: 1e20 })).status).toBe(400);
    expect((await control(gitlab, '/reset', 'POST')).status).toBe(204);
    expect((await control(gitlab, '/clock')).body).toMatchObject({ now: START, frozen: true });
    await stillServes(gitlab);
  });

  it('a running clock: running, at its start distance from real time', async () => {
    const live = await createEmulator({ fixture, clock: { now: START } });
    const created = Date.now();
    live.clock.freeze('2045-01-01T00:00:00Z');
    live.reset();
    expect(live.clock.frozen).toBe(false);
    const drift = live.clock.now() - Date.parse(START) - (Date.now() - created);
    expect(Math.abs(drift)).toBeLessThan(1_000);
  });
});

describe('a control token', () => {
  it('when set, every control request needs it, by Bearer or X-Emulator-Token (401 otherwise)', async () => {
    const e = await createEmulator({ fixture, controlToken: 's3cret' });
    const missing = await control(e, '/seed', 'POST', { users: [{ username: 'mallory', admin: true, tokens: [{ token: 'm' }] }] });
    expect(missing.status).toBe(401);
    expect(missing.body.message).toMatch(/needs its token/);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await control(e, '/clock')).status).toBe(401);
    expect((await control(e, '/reset', 'POST', undefined, { Authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await control(e, '/reset', 'POST', undefined, { 'X-Emulator-Token': 's3cre' })).status).toBe(401);
    expect((await api(e, '/user', { headers: { 'PRIVATE-TOKEN': 'm' } })).status).toBe(401); // mallory was not made
    expect((await control(e, '/clock', 'GET', undefined, { Authorization: 'Bearer s3cret' })).status).toBe(200);
    expect((await control(e, '/clock', 'GET', undefined, { 'X-Emulator-Token': 's3cret' })).status).toBe(200);
    // The REST API reads GitLab's credentials as ever.
    expect((await api(e, '/user', { headers: ALICE })).status).toBe(200);
  });

  it('must be a non-empty string', async () => {
    await expect(createEmulator({ fixture, controlToken: '' })).rejects.toThrow(/controlToken must be a non-empty string/);
  });
});

describe('a control write reads JSON only', () => {
  it.each([
    ['text/plain', '{"users":[{"username":"mallory","admin":true,"tokens":[{"token":"m"}]}]}'],
    ['application/x-www-form-urlencoded', 'users[][username]=mallory&users[][admin]=true&users[][tokens][][token]=m'],
    ['text/plain;charset=UTF-8', ''],
  ])('a %s POST to /seed is 415 and seeds nothing', async (type, body) => {
    const state = gitlab.state;
    const res = await gitlab.handle(new Request(`${ORIGIN}/-/emulator/seed`, { method: 'POST', headers: { 'Content-Type': type }, body })).then(answer);
    expect(res.status).toBe(415);
    expect(res.body.message).toMatch(/reads JSON bodies only/);
    expect(gitlab.state).toBe(state);
  });

  it('a multipart POST to /sessions is 415', async () => {
    const form = new FormData();
    form.set('username', 'root');
    const res = await gitlab.handle(new Request(`${ORIGIN}/-/emulator/sessions`, { method: 'POST', body: form }));
    expect(res.status).toBe(415);
  });

  it('a write without a body needs no Content-Type; application/*+json is JSON', async () => {
    expect((await control(gitlab, '/reset', 'POST')).status).toBe(204);
    const res = await gitlab.handle(new Request(`${ORIGIN}/-/emulator/clock`, { method: 'POST', headers: { 'Content-Type': 'application/merge-patch+json' }, body: '{"advance":"1h"}' }));
    expect(res.status).toBe(200);
  });

  it('in-process callers are not checked for Origin: only the node door knows the browser’s facts', async () => {
    expect((await control(gitlab, '/clock', 'POST', { advance: '1m' }, { Origin: 'http://localhost:5173' })).status).toBe(200);
  });
});

describe('over HTTP, the control API answers only this machine’s own clients', () => {
  let server: Server;
  afterEach(() => server?.close());

  /** A raw request: node:http lets the test forge Host and send any Origin. */
  function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: string; port?: number; host?: string } = {}): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: options.host ?? '127.0.0.1', port: options.port ?? server.port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
          const json = res.headers['content-type']?.startsWith('application/json');
          resolve({ status: res.statusCode!, body: json ? JSON.parse(text) : text === '' ? undefined : text, headers });
        });
      });
      req.on('error', reject);
      req.end(options.body);
    });
  }

  it('the same-origin JSON requests of a test or a tool pass', async () => {
    server = await gitlab.listen({ port: 0 });
    const clock = await fetch(`${server.url}/-/emulator/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: server.url }, body: '{"advance":"1h"}' });
    expect(clock.status).toBe(200);
    expect((await raw('/-/emulator/clock', { headers: { Host: `localhost:${server.port}`, Origin: `http://localhost:${server.port}` } })).status).toBe(200);
    expect((await raw('/-/emulator/clock', { headers: { Host: `[::1]:${server.port}` } })).status).toBe(200);
    expect((await raw('/-/emulator/clock', { headers: { Host: '127.0.0.1' } })).status).toBe(200);
  });

  it('a request with another site’s Origin is 403 and changes nothing; the REST API is unchanged', async () => {
    server = await gitlab.listen({ port: 0 });
    const state = gitlab.state;
    for (const origin of ['http://evil.example', `http://127.0.0.1:${server.port + 1}`, 'null', `https://127.0.0.1:${server.port}`]) {
      const res = await raw('/-/emulator/sessions', { method: 'POST', headers: { Origin: origin, 'Content-Type': 'application/json' }, body: '{"username":"root"}' });
      expect(res.status, origin).toBe(403);
      expect(res.body.message).toMatch(/refuses cross-origin requests/);
    }
    const text = await raw('/-/emulator/seed', { method: 'POST', headers: { Origin: 'http://evil.example', 'Content-Type': 'text/plain' }, body: '{"users":[{"username":"m"}]}' });
    expect(text.status).toBe(403);
    expect(gitlab.state).toBe(state);
    expect((await raw('/api/v4/projects/1', { headers: { Origin: 'http://evil.example' } })).status).toBe(200);
  });

  it('a text/plain POST or a form from a page that sends no Origin is 415', async () => {
    server = await gitlab.listen({ port: 0 });
    const state = gitlab.state;
    const plain = await fetch(`${server.url}/-/emulator/seed`, { method: 'POST', body: JSON.stringify({ users: [{ username: 'mallory', admin: true }] }) });
    expect(plain.status).toBe(415);
    const form = await raw('/-/emulator/reset', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': '0' } });
    expect(form.status).toBe(415);
    const untyped = await raw('/-/emulator/sessions', { method: 'POST', headers: { 'Content-Length': '13' }, body: 'username=root' });
    expect(untyped.status).toBe(415);
    expect(gitlab.state).toBe(state);
  });

  it('a forged Host (DNS rebinding) is 403 on the control API, and the REST API is unchanged', async () => {
    server = await gitlab.listen({ port: 0 });
    for (const host of [`evil.example:${server.port}`, 'evil.example', `localhost.evil.example:${server.port}`, `127.0.0.1.nip.io:${server.port}`]) {
      const res = await raw('/-/emulator/journal', { headers: { Host: host } });
      expect(res.status, host).toBe(403);
      expect(res.body.message).toMatch(/addressed to this machine/);
    }
    // A Host node or hono cannot read is refused before the emulator sees it.
    for (const host of ['user@127.0.0.1', 'a b']) expect((await raw('/-/emulator/journal', { headers: { Host: host } })).status, host).toBe(400);
    const state = gitlab.state;
    expect((await raw('/-/emulator/reset', { method: 'POST', headers: { Host: `evil.example:${server.port}` } })).status).toBe(403);
    expect(gitlab.state).toBe(state);
    expect((await raw('/api/v4/projects/1', { headers: { Host: `evil.example:${server.port}` } })).status).toBe(200);
  });

  it('reads a path that starts with // as a path, and an absolute request target as a proxy sends it', async () => {
    server = await gitlab.listen({ port: 0 });
    // Not the host `evil.example`: the path `//evil.example/...`, which no route matches.
    const doubled = await raw('//evil.example/api/v4/projects/1');
    expect(doubled.status).toBe(404);
    const absolute = await raw(`http://127.0.0.1:${server.port}/api/v4/projects/1`);
    expect(absolute.status).toBe(200);
    expect((absolute.body as { web_url: string }).web_url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/`));
  });

  it('the URLs the emulator was told it lives at are its own', async () => {
    const e = await createEmulator({ fixture, externalUrl: 'https://gitlab.test' });
    server = await e.listen({ port: 0 });
    expect((await raw('/-/emulator/clock', { headers: { Host: 'gitlab.test', Origin: 'https://gitlab.test' } })).status).toBe(200);
    expect((await raw('/-/emulator/clock', { headers: { Host: 'gitlab.test', Origin: 'https://other.test' } })).status).toBe(403);
    expect((await raw('/-/emulator/clock', { headers: { Host: 'other.test' } })).status).toBe(403);
  });

  it('bound to every address, any IP address is this machine, a DNS name is not', async () => {
    server = await gitlab.listen({ port: 0, host: '0.0.0.0' });
    expect((await raw('/-/emulator/clock', { headers: { Host: `10.1.2.3:${server.port}` } })).status).toBe(200);
    expect((await raw('/-/emulator/clock', { headers: { Host: `127.0.0.1:${server.port}` } })).status).toBe(200);
    expect((await raw('/-/emulator/clock', { headers: { Host: `rebound.example:${server.port}` } })).status).toBe(403);
  });

  it('with a control token, the server asks for it too', async () => {
    const e = await createEmulator({ fixture, controlToken: 'tok' });
    server = await e.listen({ port: 0 });
    expect((await fetch(`${server.url}/-/emulator/clock`)).status).toBe(401);
    expect((await fetch(`${server.url}/-/emulator/clock`, { headers: { Authorization: 'Bearer tok' } })).status).toBe(200);
    // A foreign Origin is refused before the token is looked at.
    expect((await raw('/-/emulator/clock', { headers: { Authorization: 'Bearer tok', Origin: 'http://evil.example' } })).status).toBe(403);
  });
});

describe('the command line', () => {

  function serve(args: string[]) {
    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const m = /^listening on (\S+)$/m.exec(stdout);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`exited: ${stderr}`)));
    });
    return { child, exited, url, stderr: () => stderr };
  }

  it('--control-token guards the control API; a loopback host gets no warning', async () => {
    const p = serve(['--control-token', 'cli-secret']);
    const url = await p.url;
    expect((await fetch(`${url}/-/emulator/clock`)).status).toBe(401);
    expect((await fetch(`${url}/-/emulator/clock`, { headers: { 'X-Emulator-Token': 'cli-secret' } })).status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.stderr()).toBe('');
  });

  it('warns on stderr when --host is not loopback, naming --control-token when it is not set', async () => {
    const p = serve(['--host', '0.0.0.0']);
    const url = (await p.url).replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${url}/-/emulator/clock`)).status).toBe(200);
    p.child.kill('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.stderr()).toMatch(/^gitlab-emulator: warning: --host 0\.0\.0\.0 is not a loopback address: .*set --control-token/m);
  });

  it('refuses an empty --control-token', async () => {
    const p = serve(['--control-token', '']);
    p.url.catch(() => {});
    expect(await p.exited).toBe(2);
    expect(p.stderr()).toMatch(/--control-token must be a non-empty token/);
  });
});
