// A cached answer that the node door answers at once, by the request as sent (no URL parse,
// no routing, no await): the same answer, journal entry and log line as the whole way, and
// every rule that could change the answer (faults, rate limits, timed work, a new world, the
// control API's guard, conditional requests) still applies.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';

const TOKEN = 'glpat-emulator-root-token';
const AUTH = { 'PRIVATE-TOKEN': TOKEN };

interface Wire {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET', path?: string): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = httpRequest({ host: u.hostname, port: u.port, path: path ?? u.pathname + u.search, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const withoutDate = (h: Wire['headers']) => {
  const { date: _date, ...rest } = h;
  return rest;
};

let gitlab: Emulator;
let server: Server | undefined;
const lines: string[] = [];
async function start(): Promise<void> {
  lines.length = 0;
  gitlab = await createEmulator({ log: (line) => lines.push(line) });
  server = await gitlab.listen({ port: 0 });
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a cached answer answered at once through the server', () => {
  it('journals and logs every request as the whole way does, a filtered credential in the query included', async () => {
    await start();
    const path = `/api/v4/projects/1?private_token=${TOKEN}&statistics=false`;
    const answers: Wire[] = [];
    for (let i = 0; i < 5; i++) answers.push(await get(server!.url + path));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(withoutDate(a.headers)).toEqual(withoutDate(answers[0]!.headers));
      expect(a.body.equals(answers[0]!.body)).toBe(true);
    }
    const entries = gitlab.journal.entries().slice(-5);
    expect(entries).toHaveLength(5);
    for (const e of entries) {
      expect(e).toMatchObject({
        method: 'GET',
        path: '/api/v4/projects/1',
        query: '?private_token=[FILTERED]&statistics=false',
        status: 200,
        user: 'root',
        route: 'GET /projects/:id',
      });
    }
    for (const e of entries.slice(-3)) expect(e.before).toBe(e.after); // the first read marks the user's activity
    const seqs = entries.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(5);
    expect(lines.slice(-5)).toHaveLength(5);
    for (const line of lines.slice(-5)) expect(line).toMatch(/^GET +\/api\/v4\/projects\/1\?private_token=\S+&statistics=false 200 root /);
  });

  it('answers HEAD at once with its headers and no body', async () => {
    await start();
    const url = `${server!.url}/api/v4/projects/1`;
    const heads: Wire[] = [];
    for (let i = 0; i < 4; i++) heads.push(await get(url, AUTH, 'HEAD'));
    const full = await get(url, AUTH);
    for (const h of heads) {
      expect(h.status).toBe(200);
      expect(h.body.byteLength).toBe(0);
      expect(h.headers.etag).toBe(full.headers.etag);
    }
  });

  it('a conditional request is still answered 304 once plain ones are answered at once', async () => {
    await start();
    const url = `${server!.url}/api/v4/projects/1`;
    for (let i = 0; i < 3; i++) await get(url, AUTH);
    const etag = (await get(url, AUTH)).headers.etag as string;
    expect((await get(url, { ...AUTH, 'If-None-Match': etag })).status).toBe(304);
    expect((await get(url, AUTH)).status).toBe(200);
  });

  it('keeps each caller to their own answer: the same target with another credential, or none', async () => {
    await start();
    const url = `${server!.url}/api/v4/user`;
    for (let i = 0; i < 3; i++) {
      expect(JSON.parse((await get(url, AUTH)).body.toString()).username).toBe('root');
      expect(JSON.parse((await get(url, { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token' })).body.toString()).username).toBe('alice');
      expect(JSON.parse((await get(url, { Authorization: `Bearer ${TOKEN}` })).body.toString()).username).toBe('root');
      expect((await get(url)).status).toBe(401);
      expect((await get(url, { 'PRIVATE-TOKEN': TOKEN, Sudo: 'alice' })).status).toBe(200);
    }
    expect(JSON.parse((await get(url, { 'PRIVATE-TOKEN': TOKEN, Sudo: 'alice' })).body.toString()).username).toBe('alice');
    const sudo = gitlab.journal.entries().at(-1)!;
    expect(sudo.user).toBe('alice');
  });

  it('a fault rule added once the answer is cached still applies, and is used up as it says', async () => {
    await start();
    const url = `${server!.url}/api/v4/projects/1`;
    for (let i = 0; i < 3; i++) expect((await get(url, AUTH)).status).toBe(200);
    gitlab.faults.add({ method: 'GET', path: '/projects/1', status: 503, body: { message: '503 Service Unavailable' }, times: 1 });
    expect((await get(url, AUTH)).status).toBe(503);
    expect((await get(url, AUTH)).status).toBe(200);
    expect(gitlab.faults.list()).toEqual([]);
  });

  it('a rate limit on the route, set once the answer is cached, refuses with 429', async () => {
    await start();
    const url = `${server!.url}/api/v4/projects/1`;
    for (let i = 0; i < 3; i++) expect((await get(url, AUTH)).status).toBe(200);
    gitlab.configure({ settings: { rate_limits: { 'GET /projects/:id': { limit: 2, period_seconds: 60 } } } });
    expect((await get(url, AUTH)).status).toBe(200);
    expect((await get(url, AUTH)).status).toBe(200);
    expect((await get(url, AUTH)).status).toBe(429);
  });

  it('answers from the new world once a write changed it', async () => {
    await start();
    const url = `${server!.url}/api/v4/projects/1`;
    for (let i = 0; i < 3; i++) await get(url, AUTH);
    const res = await fetch(url, { method: 'PUT', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify({ description: 'changed at once' }) });
    expect(res.status).toBe(200);
    expect(JSON.parse((await get(url, AUTH)).body.toString()).description).toBe('changed at once');
  });

  it('the control API, reached by a path that is cached, still refuses a foreign Host', async () => {
    await start();
    const target = '/api/v4/../../-/emulator/journal';
    const own: Wire[] = [];
    for (let i = 0; i < 3; i++) own.push(await get(server!.url, {}, 'GET', target));
    for (let i = 0; i < 3; i++) {
      const foreign = await get(server!.url, { Host: 'evil.example' }, 'GET', target);
      expect(foreign.status).toBe(403);
    }
    expect(own.every((o) => o.status === own[0]!.status)).toBe(true);
  });

  it('past the cache bound, every target is still answered its own answer', async () => {
    await start();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 300; i++) {
        const a = await get(`${server!.url}/api/v4/${i % 2 ? 'user' : 'projects/1'}?n=${i}`, AUTH);
        expect(a.status).toBe(200);
        const json = JSON.parse(a.body.toString());
        if (i % 2) expect(json.username).toBe('root');
        else expect([json.id, json.path_with_namespace]).toEqual([1, 'acme/website']);
      }
    }
    const last = gitlab.journal.entries().at(-1)!;
    expect(last).toMatchObject({ path: '/api/v4/user', query: '?n=299', status: 200, user: 'root' });
  });

  it('a new day on the clock takes the whole way again, and the answer stays right', async () => {
    await start();
    const url = `${server!.url}/api/v4/projects/1`;
    for (let i = 0; i < 3; i++) expect((await get(url, AUTH)).status).toBe(200);
    gitlab.clock.advance('1d');
    for (let i = 0; i < 3; i++) expect(JSON.parse((await get(url, AUTH)).body.toString()).id).toBe(1);
    expect(gitlab.journal.entries().at(-1)).toMatchObject({ path: '/api/v4/projects/1', status: 200, route: 'GET /projects/:id' });
  });

  it('a request whose Host no URL holds is answered 400, however often the same target was answered', async () => {
    await start();
    for (let i = 0; i < 3; i++) expect((await get(`${server!.url}/api/v4/projects/1`, AUTH)).status).toBe(200);
    expect((await get(server!.url, { ...AUTH, Host: 'bad host' }, 'GET', '/api/v4/projects/1')).status).toBe(400);
  });
});

describe('the journal filters credentials out of a query string, however they are spelled', () => {
  it.each([
    ['?a=1&b=two', '?a=1&b=two'],
    ['?ToKeN=x&a=1', '?ToKeN=[FILTERED]&a=1'],
    ['?%74oken=x', '?%74oken=[FILTERED]'],
    ['?private%5Ftoken=x&per_page=2', '?private%5Ftoken=[FILTERED]&per_page=2'],
    ['?a=%20&tokens=1', '?a=%20&tokens=1'],
    ['?job_token=', '?job_token=[FILTERED]'],
  ])('%s', async (query, kept) => {
    const g = await createEmulator();
    await g.handle(new Request(`https://gitlab.example.com/api/v4/projects/1${query}`, { headers: AUTH }));
    expect(g.journal.entries().at(-1)!.query).toBe(kept);
  });
});
