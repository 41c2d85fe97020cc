// Pagination (spec: Limits; reference 0.7): offset pages with GitLab's headers and Link,
// counts dropped past 10,000 rows, keyset pages of GET /projects. Properties over any list
// size and any page request.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type FixtureProject, type Server } from '../src/index.js';

const ORIGIN = 'https://gitlab.example.com';
const ROOT = { 'PRIVATE-TOKEN': 'root-token' };

function world(size: number, extra: Partial<FixtureProject> = {}): Fixture {
  return {
    users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }],
    groups: [{ path: 'big', visibility: 'public' }],
    projects: Array.from({ length: size }, (_, i) => ({ namespace: 'big', path: `p${i}`, visibility: 'public' as const, ...extra })),
  };
}

const worlds = new Map<number, Promise<Emulator>>();
function emulatorWith(size: number): Promise<Emulator> {
  let e = worlds.get(size);
  if (!e) worlds.set(size, (e = createEmulator({ fixture: world(size), clock: { now: '2030-01-01T00:00:00Z', frozen: true } })));
  return e;
}

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function get(e: Emulator, url: string, headers: Record<string, string> = ROOT): Promise<Answer> {
  const res = await e.handle(new Request(url, { headers }));
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

interface LinkEntry {
  rel: string;
  url: URL;
  /** The query as written, `key=value` pieces in order. */
  pieces: string[];
}

function links(headers: Headers): LinkEntry[] {
  const header = headers.get('link');
  if (!header) return [];
  return header.split(', ').map((part) => {
    const m = /^<([^>]*)>; rel="([a-z]+)"$/.exec(part);
    expect(m, part).not.toBeNull();
    const url = new URL(m![1]!);
    return { rel: m![2]!, url, pieces: url.search.slice(1).split('&') };
  });
}

/** Ruby's CGI.unescape: `+` is a space. */
const cgiUnescape = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));

function pieceMap(pieces: string[]): Map<string, string> {
  return new Map(pieces.map((p) => p.split('=').map(cgiUnescape) as [string, string]));
}

const DECLARED = new Set([
  'order_by', 'sort', 'archived', 'visibility', 'search', 'search_namespaces', 'owned', 'starred', 'membership', 'simple',
  'statistics', 'with_issues_enabled', 'with_merge_requests_enabled', 'min_access_level', 'id_after', 'id_before',
  'last_activity_after', 'last_activity_before', 'updated_after', 'updated_before', 'topic', 'pagination', 'page', 'per_page',
  'private_token', 'access_token', 'sudo', 'job_token',
]);

describe('offset pagination', () => {
  it('for any list and any page request, pages, headers and links are right', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 250 }),
        fc.option(fc.integer({ min: -2, max: 30 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 150 }), { nil: undefined }),
        fc.dictionary(
          fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/).filter((k) => !DECLARED.has(k)),
          fc.string({ maxLength: 8, unit: 'grapheme' }),
          { maxKeys: 3 },
        ),
        async (size, page, perPage, extra) => {
          const e = await emulatorWith(size);
          const query = new URLSearchParams({ order_by: 'id', sort: 'asc', ...extra });
          if (page !== undefined) query.set('page', String(page));
          if (perPage !== undefined) query.set('per_page', String(perPage));
          const res = await get(e, `${ORIGIN}/api/v4/projects?${query}`);
          expect(res.status).toBe(200);

          const pp = Math.min(perPage ?? 20, 100);
          const current = Math.max(1, page ?? 1);
          const totalPages = Math.max(1, Math.ceil(size / pp));
          const ids: number[] = res.body.map((p: { id: number }) => p.id);
          expect(ids.length).toBe(Math.max(0, Math.min(pp, size - (current - 1) * pp)));
          expect(res.headers.get('x-total')).toBe(String(size));
          expect(res.headers.get('x-total-pages')).toBe(String(totalPages));
          expect(res.headers.get('x-page')).toBe(String(current));
          expect(res.headers.get('x-per-page')).toBe(String(pp));
          const inRange = current <= totalPages;
          expect(res.headers.get('x-next-page')).toBe(current < totalPages ? String(current + 1) : '');
          expect(res.headers.get('x-prev-page')).toBe(current > 1 && inRange ? String(current - 1) : '');

          const ls = links(res.headers);
          const rels = ls.map((l) => l.rel);
          const expected = [
            ...(current > 1 && inRange ? ['prev'] : []),
            ...(current < totalPages ? ['next'] : []),
            'first',
            'last',
          ];
          expect(rels).toEqual(expected);
          for (const l of ls) {
            expect(l.url.origin + l.url.pathname).toBe(`${ORIGIN}/api/v4/projects`);
            expect([...l.pieces].sort()).toEqual(l.pieces); // sorted as Rails' to_query sorts
            const values = pieceMap(l.pieces);
            for (const [k, v] of Object.entries(extra)) expect(values.get(k)).toBe(v);
            expect(values.get('order_by')).toBe('id');
            expect(values.get('sort')).toBe('asc');
            expect(values.get('per_page')).toBe(String(perPage ?? 20)); // as requested, not clamped
            expect(values.get('owned')).toBe('false'); // declared defaults are carried too
          }
          const pageOf = (rel: string) => pieceMap(ls.find((l) => l.rel === rel)!.pieces).get('page');
          expect(pageOf('first')).toBe('1');
          expect(pageOf('last')).toBe(String(totalPages));
          if (rels.includes('next')) expect(pageOf('next')).toBe(String(current + 1));
          if (rels.includes('prev')) expect(pageOf('prev')).toBe(String(current - 1));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('following rel="next" from the first page visits every item exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 250 }), fc.integer({ min: 1, max: 120 }), async (size, perPage) => {
        const e = await emulatorWith(size);
        const seen: number[] = [];
        let url: string | undefined = `${ORIGIN}/api/v4/projects?order_by=id&sort=desc&per_page=${perPage}`;
        let guard = 0;
        while (url && guard++ < 300) {
          const res = await get(e, url);
          seen.push(...res.body.map((p: { id: number }) => p.id));
          url = links(res.headers).find((l) => l.rel === 'next')?.url.href;
        }
        const all = (await get(e, `${ORIGIN}/api/v4/projects?order_by=id&sort=desc&per_page=100&page=1`)).headers.get('x-total');
        expect(String(seen.length)).toBe(all);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen).toEqual([...seen].sort((a, b) => b - a));
      }),
      { numRuns: 40 },
    );
  });

  it('an empty list has X-Total 0, one page, and first and last links to page 1', async () => {
    const e = await emulatorWith(0);
    const res = await get(e, `${ORIGIN}/api/v4/projects`);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
    expect(res.headers.get('x-total-pages')).toBe('1');
    expect(links(res.headers).map((l) => [l.rel, pieceMap(l.pieces).get('page')])).toEqual([['first', '1'], ['last', '1']]);
  });

  it('the pieces are sorted as strings, as Rails sorts them, not by key', async () => {
    const e = await emulatorWith(1);
    // "sort1=x" sorts before "sort=desc" because "1" comes before "="; by key it would be after.
    const res = await get(e, `${ORIGIN}/api/v4/projects?sort1=x&a-b=1&a=2`);
    const pieces = links(res.headers)[0]!.pieces;
    expect(pieces.indexOf('sort1=x')).toBeLessThan(pieces.indexOf('sort=desc'));
    expect(pieces.indexOf('a-b=1')).toBeLessThan(pieces.indexOf('a=2'));
  });

  it('values are CGI-escaped, and arrays repeat k[] in their order', async () => {
    const e = await emulatorWith(1);
    const res = await get(e, `${ORIGIN}/api/v4/projects?q=a%20b%2Fc%3A%7E*&empty[]=&list[]=y&list[]=x`);
    const pieces = links(res.headers)[0]!.pieces;
    expect(pieces).toContain('q=a+b%2Fc%3A~%2A');
    expect(pieces.join('&')).toContain('list%5B%5D=y&list%5B%5D=x');
    expect(pieces).toContain('empty%5B%5D=');
  });

  it('per_page=0 is 400, a value not allowed', async () => {
    const e = await emulatorWith(1);
    const res = await get(e, `${ORIGIN}/api/v4/projects?per_page=0`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'per_page has a value not allowed' });
  });

  it('a non-integer page is 400', async () => {
    const e = await emulatorWith(1);
    for (const [k, v] of [['page', 'abc'], ['per_page', '1.5']]) {
      const res = await get(e, `${ORIGIN}/api/v4/projects?${k}=${v}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: `${k} is invalid` });
    }
  });

  it('links start at the origin the client used, or at the external URL when one is set', async () => {
    const e = await emulatorWith(3);
    const other = await get(e, 'http://localhost:9999/api/v4/projects?per_page=1');
    expect(links(other.headers).every((l) => l.url.origin === 'http://localhost:9999')).toBe(true);
    const configured = await createEmulator({ fixture: world(3), externalUrl: 'https://git.example.org/' });
    const res = await get(configured, 'http://127.0.0.1:1234/api/v4/projects?per_page=1');
    expect(res.headers.get('link')!.startsWith('<https://git.example.org/api/v4/projects?')).toBe(true);
  });

  describe('through the node server', () => {
    let server: Server;
    beforeAll(async () => {
      server = await (await emulatorWith(5)).listen({ port: 0 });
    });
    afterAll(() => server.close());

    it('links start with the server\'s own origin, and following them works', async () => {
      let url: string | undefined = `${server.url}/api/v4/projects?per_page=2&order_by=id&sort=asc`;
      const seen: number[] = [];
      while (url) {
        const res: Response = await fetch(url, { headers: ROOT });
        const link = res.headers.get('link')!;
        expect(link.startsWith(`<http://127.0.0.1:${server.port}/api/v4/projects?`)).toBe(true);
        seen.push(...((await res.json()) as { id: number }[]).map((p) => p.id));
        url = links(res.headers).find((l) => l.rel === 'next')?.url.href;
      }
      expect(seen).toHaveLength(5);
    });
  });
});

describe('past 10,000 rows', () => {
  let big: Emulator;
  beforeAll(async () => {
    // 10,001 projects, one of them private: anonymous callers see exactly 10,000.
    const fixture = world(10_001);
    fixture.projects![0]!.visibility = 'private';
    big = await createEmulator({ fixture });
  });

  it('X-Total, X-Total-Pages and rel="last" are dropped; next and prev still work', async () => {
    const res = await get(big, `${ORIGIN}/api/v4/projects?page=2&per_page=100`);
    expect(res.body).toHaveLength(100);
    expect(res.headers.has('x-total')).toBe(false);
    expect(res.headers.has('x-total-pages')).toBe(false);
    expect(res.headers.get('x-next-page')).toBe('3');
    expect(res.headers.get('x-prev-page')).toBe('1');
    expect(links(res.headers).map((l) => l.rel)).toEqual(['prev', 'next', 'first']);
  });

  it('at exactly 10,000 rows the counts are still given', async () => {
    const res = await get(big, `${ORIGIN}/api/v4/projects?per_page=100`, {});
    expect(res.headers.get('x-total')).toBe('10000');
    expect(res.headers.get('x-total-pages')).toBe('100');
    expect(links(res.headers).map((l) => l.rel)).toEqual(['next', 'first', 'last']);
  });
});

describe('keyset pagination of GET /projects', () => {
  it('walks every project with id_after (asc) or id_before (desc), ending on an empty page without Link', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 25 }),
        fc.constantFrom('asc', 'desc'),
        async (size, perPage, sort) => {
          const e = await emulatorWith(size);
          let url: string | undefined = `${ORIGIN}/api/v4/projects?pagination=keyset&order_by=id&sort=${sort}&per_page=${perPage}`;
          const seen: number[] = [];
          let lastPageEmpty = false;
          for (let guard = 0; url && guard < 100; guard++) {
            const res = await get(e, url);
            expect(res.status).toBe(200);
            expect(res.headers.has('x-total')).toBe(false);
            expect(res.headers.has('x-page')).toBe(false);
            const ids: number[] = res.body.map((p: { id: number }) => p.id);
            expect(ids.length).toBeLessThanOrEqual(perPage);
            seen.push(...ids);
            const ls = links(res.headers);
            if (ids.length === 0) {
              expect(res.headers.has('link')).toBe(false);
              lastPageEmpty = true;
              url = undefined;
            } else {
              expect(ls.map((l) => l.rel)).toEqual(['next']);
              const values = pieceMap(ls[0]!.pieces);
              expect(values.get(sort === 'asc' ? 'id_after' : 'id_before')).toBe(String(ids[ids.length - 1]));
              expect(values.get(sort === 'asc' ? 'id_before' : 'id_after')).toBeUndefined();
              expect(values.get('pagination')).toBe('keyset');
              url = ls[0]!.url.href;
            }
          }
          expect(lastPageEmpty).toBe(true);
          expect(seen).toHaveLength(size);
          expect(seen).toEqual([...seen].sort((a, b) => (sort === 'asc' ? a - b : b - a)));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('is 405 for any order but id', async () => {
    const e = await emulatorWith(3);
    for (const q of ['pagination=keyset&order_by=name', 'pagination=keyset']) {
      const res = await get(e, `${ORIGIN}/api/v4/projects?${q}`);
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ error: 'Keyset pagination is not yet available for this type of request' });
    }
  });
});

describe('the maximum offset', () => {
  const deep = 'page=2501&per_page=20'; // offset 50,020, past the default limit of 50,000

  it('refuses deep offsets of anonymous group lists with 405, naming the type', async () => {
    const e = await createEmulator();
    const res = await e.handle(new Request(`https://gitlab.example.com/api/v4/groups?${deep}`));
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({
      error:
        'Offset pagination has a maximum allowed offset of 50000 for requests that return objects of type Group. Remaining records can be retrieved using keyset pagination.',
    });
  });

  it('leaves project lists and signed-in group lists alone, as current GitLab does', async () => {
    const e = await createEmulator();
    const projects = await e.handle(new Request(`https://gitlab.example.com/api/v4/projects?${deep}`));
    expect(projects.status).toBe(200);
    expect(await projects.json()).toEqual([]);
    const groups = await e.handle(
      new Request(`https://gitlab.example.com/api/v4/groups?${deep}`, { headers: { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token' } }),
    );
    expect(groups.status).toBe(200);
  });
});
