// Bad input across every route: random methods, ids, broken percent-encodings, names from a
// hostile alphabet (non-Latin-1, emoji, CR/LF, lone surrogates, JavaScript's own property
// names, encoded slashes, dot segments), random bodies, query strings and credentials.
// Whatever arrives, the answer is never a 500, always comes, is journaled, and a request that
// fails changes nothing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/families/registry.js';
import { createEmulator, type Emulator, type Fixture, type Snapshot } from '../src/index.js';

const ORIGIN = 'https://gitlab.example.com';
/** A run that has not answered within this long is taken to hang (each takes about a millisecond). */
const HANG_MS = 10_000;

const NOW = '2030-01-01T00:00:00Z';

const fixture: Fixture = {
  users: [
    // Active today and tokens just used: the first request of a day records the caller's
    // activity, and a token's use is recorded every ten minutes, both changes of the world.
    { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'], last_used_at: NOW }], last_activity_on: '2030-01-01' },
    { username: 'alice', tokens: [{ token: 'alice-token', last_used_at: NOW }, { token: 'alice-read', scopes: ['read_api'], last_used_at: NOW }], last_activity_on: '2030-01-01' },
    { username: 'carol', external: true, tokens: [{ token: 'carol-token', last_used_at: NOW }], last_activity_on: '2030-01-01' },
  ],
  groups: [
    { path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] },
    { path: 'team', parent: 'acme', visibility: 'private' },
  ],
  projects: [
    {
      namespace: 'acme',
      path: 'website',
      visibility: 'public',
      topics: ['web'],
      repository: { files: { 'README.md': '# site\n', '日本/🎉.txt': 'x\n' }, branches: { '日本': 'main', constructor: 'main' }, tags: { 'v1': 'main', toString: 'main' } },
    },
    { namespace: 'acme/team', path: 'tools', visibility: 'private' },
    { namespace: 'alice', path: 'mine', visibility: 'internal' },
  ],
};

let gitlab: Emulator;
let seeded: Snapshot;

beforeAll(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: NOW, frozen: true }, journalLimit: 5 });
  seeded = gitlab.snapshot();
});

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const UNDECODABLE = ['%', '%E0%A4%A', '%zz', '%C3%28', '%ED%A0%80', '%00', '%2', '%%'];

/** Names that broke emulators: outside Latin-1, emoji, controls, lone surrogates, Object.prototype's own names, slashes and dots. */
const HOSTILE = ['日本', '🎉', 'a\r\nb', '\ud800x', 'x\udfff', '__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'a/b', '..', '../README.md', 'README.md', '日本/🎉.txt', 'main'];
/** A hostile name as a path segment: percent-encoded (a lone surrogate has no UTF-8 form, so its bytes are given raw). */
const hostileSegment = fc.constantFrom(...HOSTILE).map((n) => n.replace(/[\ud800-\udfff]/g, '').length < n.length ? '%ED%A0%80' + encodeURIComponent(n.replace(/[\ud800-\udfff]/g, '')) : encodeURIComponent(n));

/** A path segment: known ids and paths, odd numbers, text with or without broken encodings. */
const segment = fc.oneof(
  fc.constantFrom('1', '2', '3', '4', '5', 'acme', 'acme%2Fwebsite', 'acme%2Fteam', 'acme%2Fteam%2Ftools', 'alice', 'alice%2Fmine', 'root'),
  fc.constantFrom('0', '-1', '007', '9007199254740993', '1e3', '1.5', ' ', '%20', '..', '.', '%2E%2E', 'ACME%2FWEBSITE'),
  fc.constantFrom(...UNDECODABLE),
  fc.string({ maxLength: 12, unit: 'grapheme' }).map(encodeURIComponent),
  fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom(...UNDECODABLE)).map(([a, b]) => encodeURIComponent(a) + b),
  hostileSegment,
  hostileSegment,
);

/** A path matching a declared route, its parameters filled with random segments. */
const routePath = fc
  .tuple(fc.constantFrom(...ROUTES), fc.array(segment, { minLength: 4, maxLength: 4 }), fc.boolean())
  .map(([route, segs, slash]) => {
    let i = 0;
    const path = route.path.replace(/:[a-z_]+/g, () => segs[i++ % segs.length]!);
    return { method: route.method as string, path: path + (slash ? '/' : ''), params: Object.keys(route.params ?? {}) };
  });

/** Any path under /api/v4, including ones no route has. */
const anyPath = fc.array(segment, { minLength: 0, maxLength: 4 }).map((segs) => ({ method: 'GET', path: `/${segs.join('/')}`, params: [] as string[] }));

const scalar = fc.oneof(
  fc.string({ maxLength: 10, unit: 'grapheme' }),
  fc.constantFrom(...HOSTILE),
  fc.constantFrom('', 'true', 'True', 'TrUe', '0', '1', '-1', 'private', 'public', 'internal', 'id', 'asc', 'desc', 'keyset', 'name', '2030-01-01', '2030-01-01T00:00:00+01:00', 'a,b'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), scalar, { maxKeys: 3 }));

/** A query string: pairs for declared names and random ones, or raw text with brackets and broken escapes. */
function queryFor(params: string[]) {
  const name = fc.constantFrom(...params, 'page', 'per_page', 'sudo', 'private_token', 'id');
  // Declared names also come shaped as arrays and hashes: `name[]=`, `name[k]=`, `name[][k]=`.
  const key = fc.oneof(name, fc.tuple(name, fc.constantFrom('[]', '[x]', '[][x]', '[toString]')).map(([k, s]) => k + s), fc.string({ maxLength: 6 }));
  const pair = fc.tuple(key, fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('1', 'true', 'TrUe', '-5', '999999999999999999999', 'x'))).map(
    ([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`,
  );
  const raw = fc.oneof(
    fc.constantFrom('a[]=1&a[]=2', 'a[b]=1&a[c]=2', 'a[][b]=1&a[][b]=2', 'a=1&a[]=2', 'a[]=1&a[b]=2', 'x[[[=1', '[]=1', 'a[=1', '&&=&', '=', 'a'),
    fc.constantFrom(...UNDECODABLE).map((u) => `search=${u}`),
    fc.string({ maxLength: 20 }),
  );
  return fc.array(fc.oneof(pair, pair, raw), { maxLength: 5 }).map((parts) => (parts.length ? `?${parts.join('&')}` : ''));
}

function bodyFor(params: string[]) {
  const jsonObject = fc.dictionary(fc.oneof(fc.constantFrom(...params, 'sudo', 'id'), fc.constantFrom(...HOSTILE), fc.string({ maxLength: 5 })), value, { maxKeys: 5 });
  return fc.oneof(
    fc.constant(undefined),
    jsonObject.map((o) => ({ type: 'application/json', text: JSON.stringify(o) })),
    fc.jsonValue().map((v) => ({ type: 'application/json', text: JSON.stringify(v) })),
    fc.string({ maxLength: 20 }).map((text) => ({ type: 'application/json', text })),
    queryFor(params).map((q) => ({ type: 'application/x-www-form-urlencoded', text: q.slice(1) })),
    fc.string({ maxLength: 20 }).map((text) => ({ type: 'multipart/form-data; boundary=xyz', text })),
    jsonObject.map((o) => ({ type: 'multipart/form-data', form: o })),
    fc.string({ maxLength: 20 }).map((text) => ({ type: 'text/plain', text })),
  );
}

const headers = fc.record(
  {
    'PRIVATE-TOKEN': fc.constantFrom('root-token', 'alice-token', 'alice-read', 'carol-token', 'garbage', ''),
    Authorization: fc.constantFrom('Bearer root-token', 'Bearer nope', 'Basic Z2l0bGFiLWNpLXRva2VuOng=', 'Basic %%%', 'Bearer'),
    Sudo: fc.oneof(fc.constantFrom('alice', 'ALICE', '2', 'nobody', '-1', ''), fc.string({ maxLength: 6 })),
    Cookie: fc.constantFrom('_gitlab_session=%E0%A4%A', '_gitlab_session=', '_gitlab_session', 'a=b; _service_session=%zz'),
    'If-None-Match': fc.constantFrom('*', 'W/"x"', ''),
    'If-Unmodified-Since': fc.constantFrom('yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', 'Tue, 01 Jan 2030 00:00:00 GMT'),
    'JOB-TOKEN': fc.constantFrom('job', ''),
  },
  { requiredKeys: [] },
);

const requestArb = fc
  .tuple(fc.oneof(routePath, routePath, routePath, anyPath), fc.option(fc.constantFrom(...METHODS), { nil: undefined }))
  .chain(([target, method]) =>
    fc.record({
      method: fc.constant(method ?? target.method),
      path: fc.constant(target.path),
      query: queryFor(target.params),
      body: bodyFor(target.params),
      headers,
    }),
  );

type Fuzzed = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function build(r: Fuzzed): Request {
  const h = new Headers();
  for (const [k, v] of Object.entries(r.headers)) h.set(k, v as string);
  const init: RequestInit = { method: r.method, headers: h };
  if (r.body && r.method !== 'GET' && r.method !== 'HEAD') {
    if ('form' in r.body && r.body.form) {
      const form = new FormData();
      for (const [k, v] of Object.entries(r.body.form)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v) ?? '');
      init.body = form;
    } else if ('text' in r.body) {
      h.set('Content-Type', r.body.type);
      init.body = r.body.text;
    }
  }
  return new Request(`${ORIGIN}/api/v4${r.path}${r.query}`, init);
}

async function attempt(r: Fuzzed) {
  gitlab.restore(seeded);
  gitlab.runUntilIdle();
  const before = gitlab.state;
  const seq = gitlab.journal.last()?.seq ?? 0;
  const res = await gitlab.handle(build(r));
  await res.arrayBuffer();
  const entry = gitlab.journal.last();
  return { res, before, after: gitlab.state, entry: entry && entry.seq > seq ? entry : undefined };
}

describe('bad input', () => {
  it('is never answered with a 500, and a failed request changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const { res, before, after, entry } = await attempt(r);
        expect(res.status, `${r.method} ${r.path}${r.query}`).not.toBe(500);
        expect(entry?.error).toBeUndefined();
        expect(entry?.status, 'every answer is journaled').toBe(res.status);
        if (res.status < 200 || res.status > 299) expect(after).toBe(before);
      }),
      { numRuns: 1500, timeout: HANG_MS },
    );
  });

  it('an undecodable percent-encoding in a path parameter is 404, never an exception', async () => {
    for (const route of ROUTES.filter((r) => r.path.includes(':'))) {
      for (const bad of UNDECODABLE) {
        const path = route.path.replace(/:[a-z_]+/g, bad);
        const res = await gitlab.handle(new Request(`${ORIGIN}/api/v4${path}`, { method: route.method, headers: { 'PRIVATE-TOKEN': 'root-token' } }));
        expect([400, 404], `${route.method} ${path}`).toContain(res.status);
      }
    }
  });

  // GitLab's own read-time work is the exception (a merge request's read starts its mergeability
  // check, GET .../merge_ref writes the merge ref); this world has no merge requests for it.
  it('reads never change the world', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb.filter((r) => r.method === 'GET' || r.method === 'HEAD'), async (r) => {
        const { before, after } = await attempt(r);
        expect(after).toBe(before);
      }),
      { numRuns: 300, timeout: HANG_MS },
    );
  });
});
