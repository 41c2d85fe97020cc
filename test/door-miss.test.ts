// The node door on a cache miss (each request a new query string) and on a hit: for every kind
// of caller, the same status, headers and bytes as `emulator.handle()` gives; conditional
// requests answered 304 on either path; a write seen by the next miss and the next hit; and a
// query's plain text read as its %-encoded form is.
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-sudo', scopes: ['api', 'sudo'] }, { token: 'root-api', scopes: ['api'] }] },
    {
      username: 'alice',
      tokens: [
        { token: 'alice-api', scopes: ['api'] },
        { token: 'alice-impersonation', scopes: ['api'], kind: 'impersonation' },
      ],
    },
    { username: 'eve', tokens: [{ token: 'eve-api', scopes: ['api'] }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [
    { namespace: 'acme', path: 'website', visibility: 'public', creator: 'alice', description: 'a website' },
    {
      namespace: 'acme',
      path: 'secrets',
      visibility: 'private',
      creator: 'alice',
      tokens: [{ token: 'project-token', scopes: ['api'], access_level: 'maintainer' }],
      jobs: [{ name: 'build', user: 'alice', token: 'job-token-build' }],
    },
  ],
};

const CALLERS: Record<string, Record<string, string>> = {
  anonymous: {},
  user: { 'PRIVATE-TOKEN': 'alice-api' },
  outsider: { 'PRIVATE-TOKEN': 'eve-api' },
  admin: { 'PRIVATE-TOKEN': 'root-api' },
  'job token': { 'JOB-TOKEN': 'job-token-build' },
  sudo: { 'PRIVATE-TOKEN': 'root-sudo', Sudo: 'alice' },
  impersonation: { 'PRIVATE-TOKEN': 'alice-impersonation' },
  'project token': { 'PRIVATE-TOKEN': 'project-token' },
  'unknown token': { 'PRIVATE-TOKEN': 'nobody' },
};

interface Wire {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function get(server: Server, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Wire> {
  return new Promise((resolve, reject) => {
    const u = new URL(server.url);
    const req = httpRequest({ host: u.hostname, port: u.port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (!['date', 'connection', 'keep-alive'].includes(k)) h[k] = String(v);
        resolve({ status: res.statusCode!, headers: h, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const NOW = '2030-01-01T12:00:00.000Z';

/** The same request through `emulator.handle()`, as the server would write it (by default on a new emulator: nothing cached). */
async function handled(gitlab: Emulator | undefined, server: Server, path: string, headers: Record<string, string>, method = 'GET'): Promise<Wire> {
  const emulator = gitlab ?? (await createEmulator({ fixture, clock: { now: NOW, frozen: true } }));
  const res = await emulator.handle(new Request(server.url + path, { method, headers }));
  const body = Buffer.from(await res.arrayBuffer()).toString('utf8');
  const h: Record<string, string> = {};
  res.headers.forEach((v, k) => (h[k] = v));
  if (res.status !== 204 && res.status !== 304) h['content-length'] ??= String(Buffer.byteLength(body));
  return { status: res.status, headers: h, body };
}

let gitlab: Emulator;
let server: Server;
let serial = 0;
beforeAll(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
  server = await gitlab.listen({ port: 0 });
});
afterAll(() => server.close());

const miss = (path: string) => `${path}${path.includes('?') ? '&' : '?'}_=${++serial}`;

describe('a cache miss through the node door', () => {
  const PATHS = ['/api/v4/projects/acme%2Fwebsite', '/api/v4/projects/acme%2Fsecrets', '/api/v4/projects/1?statistics=true', '/api/v4/projects?per_page=1'];
  for (const [kind, headers] of Object.entries(CALLERS)) {
    it(`answers ${kind} as the whole way does, missed or hit`, async () => {
      for (const path of PATHS) {
        const target = miss(path);
        const first = await get(server, target, headers);
        const again = await get(server, target, headers); // the answer cache's
        const atOnce = await get(server, target, headers); // the door's, at once
        const reference = await handled(undefined, server, target, headers);
        for (const w of [first, again, atOnce]) expect(w).toEqual(reference);
        if (first.status === 200) {
          expect(first.headers).toMatchObject({
            'cache-control': 'max-age=0, private, must-revalidate',
            'x-content-type-options': 'nosniff',
            'x-frame-options': 'SAMEORIGIN',
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(first.body)),
          });
          expect(first.headers.etag).toMatch(/^W\/"[0-9a-f]+"$/);
        }
        const expected = kind === 'unknown token' ? 401 : path.includes('secrets') && !['user', 'admin', 'sudo', 'impersonation', 'project token'].includes(kind) ? 404 : 200;
        expect(first.status).toBe(expected);
        const otherTarget = miss(path);
        const other = await get(server, otherTarget, headers); // the same parameters but the cache-buster: may share the answer
        expect(other).toEqual(await handled(undefined, server, otherTarget, headers));
        if (path.includes('per_page') && other.status === 200) expect(other.headers.link).toContain(`_=${serial}`); // a page's links repeat the query as sent
      }
    });
  }

  it('shares an answer between cache-busted requests only when their declared parameters and credentials match', async () => {
    const targets = [
      ['/api/v4/projects/acme%2Fsecrets?private_token=alice-api', {}],
      ['/api/v4/projects/acme%2Fsecrets?private_token=eve-api', {}],
      ['/api/v4/projects/acme%2Fsecrets?private_token=root-sudo&sudo=alice', {}],
      ['/api/v4/projects/acme%2Fsecrets?private_token=root-sudo&sudo=eve', {}],
      ['/api/v4/projects/acme%2Fsecrets', { 'PRIVATE-TOKEN': 'root-sudo', Sudo: 'eve' }],
      ['/api/v4/projects/acme%2Fsecrets?access_token=alice-api', {}],
      ['/api/v4/projects/acme%2Fsecrets?job_token=job-token-build', {}],
      ['/api/v4/projects/acme%2Fwebsite?license=true', CALLERS.user!],
      ['/api/v4/projects/acme%2Fwebsite?license=false', CALLERS.user!],
      ['/api/v4/projects/acme%2Fwebsite?statistics=yes', CALLERS.user!],
      ['/api/v4/projects/acme%2Fwebsite?_=%zz', CALLERS.user!],
      ['/api/v4/projects/acme%2Fwebsite?x=%00', CALLERS.user!],
    ] as const;
    for (let round = 0; round < 2; round++) {
      for (const [path, headers] of targets) {
        const target = miss(path);
        expect(await get(server, target, headers), `${target} ${JSON.stringify(headers)}`).toEqual(await handled(undefined, server, target, headers));
      }
    }
    const secrets = (q: string) => get(server, miss(`/api/v4/projects/acme%2Fsecrets?${q}`));
    expect((await secrets('private_token=alice-api')).status).toBe(200);
    expect((await secrets('private_token=eve-api')).status).toBe(404);
    expect((await secrets('private_token=root-sudo&sudo=eve')).status).toBe(404);
    expect((await secrets('private_token=root-sudo&sudo=alice')).status).toBe(200);
  });

  it('answers a request from the same world with the host it was sent to', async () => {
    const path = miss('/api/v4/projects/acme%2Fwebsite');
    const a = await get(server, path, { ...CALLERS.user!, Host: 'one.example:1234' });
    const b = await get(server, miss('/api/v4/projects/acme%2Fwebsite'), { ...CALLERS.user!, Host: 'two.example:1234' });
    expect(JSON.parse(a.body).web_url).toBe('http://one.example:1234/acme/website');
    expect(JSON.parse(b.body).web_url).toBe('http://two.example:1234/acme/website');
  });

  it('answers a conditional request 304 on a miss and on a hit, and the whole answer once the ETag is stale', async () => {
    const headers = CALLERS.user!;
    const path = '/api/v4/projects/acme%2Fwebsite';
    const { headers: h } = await get(server, miss(path), headers);
    const etag = h.etag!;
    expect(etag).toMatch(/^W\/"/);
    const target = miss(path);
    for (let i = 0; i < 3; i++) {
      const r = await get(server, target, { ...headers, 'If-None-Match': etag });
      expect(r.status).toBe(304);
      expect(r.body).toBe('');
      expect(r.headers.etag).toBe(etag);
    }
    const head = await get(server, miss(path), headers, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers.etag).toBe(etag);
    expect(await get(server, miss(path), { ...headers, 'If-None-Match': 'W/"other"' })).toMatchObject({ status: 200 });

    const cached = miss(path);
    expect((await get(server, cached, headers)).headers.etag).toBe(etag);
    expect((await get(server, cached, headers)).headers.etag).toBe(etag); // now answered at once
    const put = await get(server, `/api/v4/projects/acme%2Fwebsite?description=${encodeURIComponent('changed ✓')}`, headers, 'PUT');
    expect(put.status).toBe(200);
    for (const target of [cached, miss(path)]) {
      const r = await get(server, target, headers);
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).description).toBe('changed ✓');
      expect(r.headers.etag).not.toBe(etag);
      expect(r).toEqual(await handled(gitlab, server, target, headers));
      expect((await get(server, target, { ...headers, 'If-None-Match': etag })).status).toBe(200);
    }
  });

  it('reads a query value without escapes as its %-encoded form, and refuses a NUL or a broken escape', async () => {
    const headers = CALLERS.admin!;
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9._~-]{0,12}$/), fc.constantFrom('search', 'order_by', 'visibility', 'x'), async (value, name) => {
        const plain = await get(server, `/api/v4/projects?${name}=${value}`, headers);
        const escaped = await get(server, `/api/v4/projects?${name}=${[...value].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join('')}`, headers);
        expect(escaped.status).toBe(plain.status);
        expect(escaped.body).toBe(plain.body);
      }),
      { numRuns: 40 },
    );
    expect((await get(server, '/api/v4/projects?search=web+site', headers)).body).toBe((await get(server, '/api/v4/projects?search=web%20site', headers)).body);
    expect((await get(server, '/api/v4/projects?search=a%00', headers)).status).toBe(400);
    expect((await get(server, '/api/v4/projects?search=%zz', headers)).status).toBe(400);
    expect((await get(server, '/api/v4/projects?%00=1', headers)).status).toBe(400);
    const nested = await get(server, '/api/v4/projects?search[a]=1', headers);
    expect(nested.status).toBe(400); // a hash where a string is declared
  });
});
