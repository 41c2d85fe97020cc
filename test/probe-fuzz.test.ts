// The route-wide fuzz of core-fuzz.test.ts with what a second hostile probe sent: numbers beyond
// every range (a date's, an integer's, a duration's), JSON nulls and wrongly shaped values where
// GitLab expects an object, a list or a string, and long adversarial text (runs that make a
// backtracking scanner retry from every position). Whatever arrives: never a 500, every answer
// journaled, a failed request changes nothing, and each answer comes (the run's timeout is a
// hang, not a speed limit: bench/probe-scans.ts times the scanners).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../src/families/registry.js';
import { createEmulator, type Emulator, type Fixture, type Snapshot } from '../src/index.js';

const ORIGIN = 'https://gitlab.example.com';
const NOW = '2030-01-01T00:00:00Z';
const HANG_MS = 60_000;

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api', 'sudo'], last_used_at: NOW }], last_activity_on: '2030-01-01' },
    { username: 'alice', tokens: [{ token: 'alice-token', last_used_at: NOW }], last_activity_on: '2030-01-01' },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'developer' }] }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'public', creator: 'root',
    repository: { files: { 'README.md': '# app\n' }, branches: { fix: 'main' } },
    issues: [{ title: 'One' }],
    merge_requests: [{ title: 'MR', source_branch: 'fix' }],
    snippets: [{ title: 'S', author: 'root', files: [{ path: 's.txt', content: 's' }] }],
  }],
};

let gitlab: Emulator;
let seeded: Snapshot;

beforeAll(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: NOW, frozen: true }, journalLimit: 5 });
  seeded = gitlab.snapshot();
});

/** Numbers past every range the routes read: a Date's, a safe integer's, int4's, a float's. */
const HUGE = [9007199254740992, 1e308, -1e308, 8.64e15 + 1, 2147483648, -2147483649, 1e21, Number.MAX_VALUE, 5e-324, -0];
const HUGE_TEXT = ['9'.repeat(400), `${'9'.repeat(400)}w`, '1e308', '-1e308', '9007199254740993', '99999-12-31', '+275760-09-13T00:00:00Z', `${'9'.repeat(40)}s`];

/** Runs that backtracking expressions rescan from every position, and references after them. */
const UNITS = ['a', 'a/', '_', '.', '-', '1', ' ', '\n', '\t', '@', '@a', '~', '%', '!', '#', '&', '`', '*', '[', '](', '<', ':', 'http://', 'https://a', '/-/issues/', '\n/', '```\n', '>>>\n', '- [ ] ', 'closes ', 'a#', '/estimate 1\n', '[timecategory:'];
const TAILS = ['', '#1', ' x', '\n', ' Closes #1', '\n/close', 'x@a.b'];
const longText = fc.tuple(fc.constantFrom(...UNITS), fc.constantFrom(...TAILS), fc.integer({ min: 1000, max: 20_000 })).map(([u, t, n]) => u.repeat(Math.ceil(n / u.length)) + t);

/** What stands where a route expects an object, a list or a string. */
const MISSHAPEN = fc.constantFrom<unknown>(null, [], {}, [null], [[]], [{}], { '': null }, { __proto__: null }, 'null', true, 0, '', [1, 'a', null]);

const value = fc.oneof(fc.constantFrom(...HUGE), fc.constantFrom(...HUGE_TEXT), MISSHAPEN, longText, fc.constant(null));

/** Writes above all: the routes that take user text and numbers. */
const WRITES = ROUTES.filter((r) => r.method !== 'GET');
const SEGMENTS = ['1', '2', 'acme', 'acme%2Fapp', 'root', 'main', 'fix', '9007199254740993', '1e308'];

/** A path parameter as the world has it: the project, group or user of the fixture, the first record, the main branch. */
function known(route: string, param: string): string {
  if (param === 'id') return route.startsWith('/groups') ? 'acme' : route.startsWith('/users') ? '2' : route.startsWith('/projects') ? 'acme%2Fapp' : '1';
  if (/branch|ref|sha|tag/.test(param)) return 'main';
  if (param === 'key') return 'K';
  return '1';
}

const requestArb = fc.tuple(fc.constantFrom(...WRITES), fc.array(fc.constantFrom(...SEGMENTS), { minLength: 4, maxLength: 4 }), fc.constantFrom('root-token', 'alice-token'), fc.boolean())
  .chain(([route, segs, token, real]) => {
    let i = 0;
    // Mostly the world's own ids, so the request reaches its handler; sometimes odd ones.
    const path = route.path.replace(/:([a-z_]+)(\{[^}]*\})?/g, (_m, name: string) => (real || i === 0 ? known(route.path, name) : segs[i % segs.length]!) + ((i++, '')));
    const names = Object.keys(route.params ?? {});
    const keys = names.length ? fc.constantFrom(...names) : fc.constantFrom('title', 'description', 'body', 'content', 'name');
    return fc.record({
      method: fc.constant(route.method),
      path: fc.constant(path),
      token: fc.constant(token),
      body: fc.dictionary(keys, value, { minKeys: 1, maxKeys: 4 }),
    });
  });

async function attempt(r: { method: string; path: string; token: string; body: Record<string, unknown> }) {
  gitlab.restore(seeded);
  gitlab.runUntilIdle();
  const before = gitlab.state;
  const seq = gitlab.journal.last()?.seq ?? 0;
  const res = await gitlab.handle(new Request(`${ORIGIN}/api/v4${r.path}`, {
    method: r.method, headers: { 'PRIVATE-TOKEN': r.token, 'Content-Type': 'application/json' }, body: JSON.stringify(r.body),
  }));
  const text = await res.text();
  const entry = gitlab.journal.last();
  return { res, text, before, after: gitlab.state, entry: entry && entry.seq > seq ? entry : undefined };
}

describe('what a hostile probe sends', () => {
  it('huge numbers, misshapen values and long adversarial text are never a 500, and a failure changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(requestArb, async (r) => {
        const { res, text, before, after, entry } = await attempt(r);
        const where = `${r.method} ${r.path} ${JSON.stringify(r.body).slice(0, 200)}`;
        expect(res.status, where).not.toBe(500);
        expect(entry?.error, where).toBeUndefined();
        expect(entry?.status, 'every answer is journaled').toBe(res.status);
        expect(text, 'nothing renders a number no JSON holds').not.toMatch(/Infinity|NaN|Invalid Date/);
        if (res.status < 200 || res.status > 299) expect(after, where).toBe(before);
      }),
      { numRuns: 1000, timeout: HANG_MS },
    );
  }, 600_000);

  it('each parameter of each write, alone hostile among plausible others, is never a 500', async () => {
    const HOSTILE = [1e308, 9007199254740992, -1e308, null, {}, [null], `${'9'.repeat(400)}w`];
    const failures: string[] = [];
    for (const route of WRITES) {
      const params = Object.entries(route.params ?? {}) as [string, { options: { required: boolean } }][];
      const path = route.path.replace(/:([a-z_]+)(\{[^}]*\})?/g, (_m, name: string) => known(route.path, name));
      if (/:/.test(path)) continue;
      // Required parameters get a value most types read ('1': an id, a title, true); the one under test a hostile one.
      const base = Object.fromEntries(params.filter(([, p]) => p.options.required).map(([k]) => [k, '1']));
      for (const [name] of params) {
        for (const v of HOSTILE) {
          const r = { method: route.method, path, token: 'root-token', body: { ...base, [name]: v } };
          const { res, before, after, entry } = await attempt(r);
          if (res.status === 500 || entry?.error || ((res.status < 200 || res.status > 299) && after !== before)) failures.push(`${res.status} ${r.method} ${path} ${JSON.stringify(r.body).slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('every text field of the everyday writes takes long adversarial text and keeps it whole', async () => {
    const P = '/projects/acme%2Fapp';
    const writes: [string, string, (t: string) => Record<string, unknown>, (b: any, t: string) => unknown][] = [
      ['POST', `${P}/issues`, (t) => ({ title: 'q', description: t }), (b, t) => expect(b.description.trim()).toBe(t.trim())],
      ['PUT', `${P}/merge_requests/1`, (t) => ({ description: t }), (b, t) => expect(b.description.trim()).toBe(t.trim())],
      ['POST', `${P}/issues/1/notes`, (t) => ({ body: `x ${t}` }), (b, t) => expect(b.body.trim()).toBe(`x ${t}`.trim())],
      ['POST', `${P}/wikis`, (t) => ({ title: 'w', content: t }), (b, t) => expect(b.content.trim()).toBe(t.trim())],
      ['POST', `${P}/repository/commits`, (t) => ({ branch: 'main', commit_message: `m ${t}`, actions: [{ action: 'create', file_path: 'n.txt', content: 'x' }] }), (b) => expect(b.message).toMatch(/^m /)],
    ];
    for (const unit of UNITS) {
      const text = unit.repeat(Math.ceil(30_000 / unit.length));
      for (const [method, path, body, check] of writes) {
        gitlab.restore(seeded);
        const res = await gitlab.handle(new Request(`${ORIGIN}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: JSON.stringify(body(text)) }));
        const b = await res.json();
        expect([200, 201], `${method} ${path} ${JSON.stringify(unit)}`).toContain(res.status);
        // Blank text is GitLab's to drop, and quick actions leave the text.
        if (text.trim() !== '' && !unit.startsWith('/estimate')) check(b, text);
      }
    }
  }, 600_000);
});
