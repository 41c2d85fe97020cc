// What the fast paths keep: an answer served from the answer cache (rendered once and shared)
// is the same answer, header for header and byte for byte, as the one that filled the cache,
// through the server and through handle(); conditional and HEAD requests are still answered
// as such; and nothing one request is answered with leaks into another's.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';

const TOKEN = 'glpat-emulator-root-token';
const AUTH = { 'PRIVATE-TOKEN': TOKEN };

interface Wire {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
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

describe('answers from the answer cache, through the server', () => {
  let gitlab: Emulator;
  let server: Server;
  beforeAll(async () => {
    gitlab = await createEmulator();
    server = await gitlab.listen({ port: 0 });
  });
  afterAll(() => server.close());

  it.each([
    ['a project', '/api/v4/projects/1', AUTH],
    ['a page of projects', '/api/v4/projects?per_page=20', AUTH],
    ['a raw file, anonymous', '/api/v4/projects/acme%2Fwebsite/repository/files/README.md/raw?ref=main', {}],
    ['a 404', '/api/v4/projects/999', AUTH],
  ])('%s: the same status, headers and bytes, with its length, every time', async (_name, path, headers) => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(server.url + path, headers));
    const [first, ...rest] = answers;
    expect(Number(first!.headers['content-length'])).toBe(first!.body.byteLength);
    for (const a of rest) {
      expect(a.status).toBe(first!.status);
      expect(withoutDate(a.headers)).toEqual(withoutDate(first!.headers));
      expect(a.body.equals(first!.body)).toBe(true);
    }
  });

  it('answers If-None-Match with 304 after the answer is cached, and a stale tag with the body', async () => {
    const path = `${server.url}/api/v4/projects/1`;
    await get(path, AUTH);
    const cached = await get(path, AUTH);
    const etag = cached.headers.etag as string;
    expect(etag).toMatch(/^W\/"/);
    const again = await get(path, { ...AUTH, 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.byteLength).toBe(0);
    const stale = await get(path, { ...AUTH, 'If-None-Match': 'W/"other"' });
    expect(stale.status).toBe(200);
    expect(stale.body.equals(cached.body)).toBe(true);
    // and the plain request after them is still the whole answer
    const plain = await get(path, AUTH);
    expect(plain.status).toBe(200);
    expect(plain.body.equals(cached.body)).toBe(true);
  });

  it('answers HEAD with the headers and no body, before and after GET fills the cache', async () => {
    const path = `${server.url}/api/v4/projects/1`;
    const head1 = await get(path, AUTH, 'HEAD');
    await get(path, AUTH);
    const head2 = await get(path, AUTH, 'HEAD');
    const head3 = await get(path, AUTH, 'HEAD');
    for (const h of [head1, head2, head3]) {
      expect(h.status).toBe(200);
      expect(h.body.byteLength).toBe(0);
      expect(h.headers.etag).toBe(head1.headers.etag);
    }
  });

  it('does not answer one caller with what another was answered', async () => {
    const path = `${server.url}/api/v4/user`;
    const root = await get(path, AUTH);
    const alice = await get(path, { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token' });
    const anonymous = await get(path);
    expect(JSON.parse(root.body.toString()).username).toBe('root');
    expect(JSON.parse(alice.body.toString()).username).toBe('alice');
    expect(anonymous.status).toBe(401);
    expect(JSON.parse((await get(path, AUTH)).body.toString()).username).toBe('root');
  });

  it('answers from the new world once the world changes', async () => {
    const path = `${server.url}/api/v4/projects/1`;
    const before = JSON.parse((await get(path, AUTH)).body.toString());
    await get(path, AUTH);
    const res = await fetch(`${server.url}/api/v4/projects/1`, { method: 'PUT', headers: { ...AUTH, 'Content-Type': 'application/json' }, body: JSON.stringify({ description: 'changed' }) });
    expect(res.status).toBe(200);
    const after = JSON.parse((await get(path, AUTH)).body.toString());
    expect(before.description).not.toBe('changed');
    expect(after.description).toBe('changed');
  });
});

describe('answers from the answer cache, through handle()', () => {
  it('a cached answer has the same status, headers and body as the first', async () => {
    const gitlab = await createEmulator();
    const ask = async () => {
      const res = await gitlab.handle(new Request('https://gitlab.example.com/api/v4/projects/1', { headers: AUTH }));
      return { status: res.status, headers: [...res.headers], body: await res.text() };
    };
    const first = await ask();
    const second = await ask();
    const third = await ask();
    expect(second).toEqual(first);
    expect(third).toEqual(first);
  });

  it('a body read from one cached answer leaves the next whole', async () => {
    const gitlab = await createEmulator();
    const url = 'https://gitlab.example.com/api/v4/projects?per_page=20';
    const a = await gitlab.handle(new Request(url, { headers: AUTH }));
    const b = await gitlab.handle(new Request(url, { headers: AUTH }));
    const bytes = new Uint8Array(await b.arrayBuffer());
    bytes.fill(0);
    const c = await gitlab.handle(new Request(url, { headers: AUTH }));
    expect(await c.text()).toBe(await a.text());
  });
});

describe('a cached answer and the rate limits', () => {
  it('a request refused by a rate limit is answered 429 through the server, though its answer is cached', async () => {
    const gitlab = await createEmulator();
    const server = await gitlab.listen({ port: 0 });
    try {
      gitlab.configure({ settings: { rate_limits: { 'GET /projects/:id': { limit: 3, period_seconds: 60 } } } });
      for (let i = 0; i < 3; i++) expect((await get(`${server.url}/api/v4/projects/1`, AUTH)).status).toBe(200);
      const limited = await get(`${server.url}/api/v4/projects/1`, AUTH);
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBeDefined();
      expect(JSON.parse(limited.body.toString())).toEqual({ message: { error: 'This endpoint has been requested too many times. Try again later.' } });
      gitlab.clock.advance('61s');
      expect((await get(`${server.url}/api/v4/projects/1`, AUTH)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});
