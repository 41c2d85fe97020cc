// The project's merge request list in any order, state and page (MergeRequestsFinder's sort,
// nulls last and ties newest id first), against a plain model of the same order: one world
// whose merge requests were created out of iid order (every one read and sorted), one created
// in order with ties and gaps (the page read in iid order, stopping at its end).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';

const N = 60;
const TITLES = ['alpha', 'Beta', 'beta', 'gamma', 'Delta'];

interface Row { id: number; iid: number; title: string; state: string; created_at: string; updated_at: string; merged_at: string | null }

let e: Emulator;
let all: Row[];
beforeAll(async () => {
  e = await createEmulator({
    fixture: {
      users: [{ username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', members: [{ user: 'dev', access_level: 'maintainer' }] }],
      projects: [{
        namespace: 'acme', path: 'app',
        repository: { files: { 'a.txt': 'a\n' }, branches: Object.fromEntries(Array.from({ length: N }, (_, i) => [`b${i}`, 'main'])) },
        // Creation times with ties and out of iid order, as fixtures may give them.
        merge_requests: Array.from({ length: N }, (_, i) => ({
          title: `${TITLES[i % TITLES.length]} ${i % 7}`, source_branch: `b${i}`, author: 'dev', created_at: `2026-01-${String(1 + ((i * 7) % 5)).padStart(2, '0')}T00:00:00Z`,
        })),
      }],
    },
  });
  const res = await e.handle(new Request('https://gitlab.example.com/api/v4/projects/acme%2Fapp/merge_requests?per_page=100', { headers: { 'PRIVATE-TOKEN': 'dev' } }));
  all = (await res.json()) as Row[];
});

/** The model: every merge request sorted by the key asked, nulls last, ties by id descending. */
function model(orderBy: string, sort: 'asc' | 'desc'): number[] {
  const key = (r: Row) => (orderBy === 'title' ? r.title.toLowerCase() : orderBy === 'updated_at' ? r.updated_at : orderBy === 'merged_at' ? r.merged_at : r.created_at);
  return [...all].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    if (ka !== kb) {
      if (ka === null) return 1;
      if (kb === null) return -1;
      return (ka < kb ? -1 : 1) * (sort === 'asc' ? 1 : -1);
    }
    return b.id - a.id;
  }).map((r) => r.iid);
}

describe('the merge request list, in order, page by page', () => {
  it('any order and page reads as the model does', async () => {
    expect(all).toHaveLength(N);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('created_at', 'updated_at', 'title', 'merged_at'), fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 25 }),
        async (orderBy, sort, page, perPage) => {
          const res = await e.handle(new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fapp/merge_requests?order_by=${orderBy}&sort=${sort}&page=${page}&per_page=${perPage}`, { headers: { 'PRIVATE-TOKEN': 'dev' } }));
          const got = ((await res.json()) as Row[]).map((r) => r.iid);
          expect(got).toEqual(model(orderBy, sort).slice((page - 1) * perPage, page * perPage));
          expect(res.headers.get('x-total')).toBe(String(N));
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('the merge request list of merge requests created in order', () => {
  const M = 40;
  let w: Emulator;
  let rows: Row[];
  beforeAll(async () => {
    w = await createEmulator({
      fixture: {
        users: [{ username: 'root', admin: true, tokens: [{ token: 'root' }] }],
        groups: [{ path: 'acme' }],
        projects: [{
          namespace: 'acme', path: 'app', creator: 'root',
          repository: { files: { 'a.txt': 'a\n' }, branches: Object.fromEntries(Array.from({ length: M }, (_, i) => [`b${i}`, 'main'])) },
          // In iid order, four at a time at one creation time; some closed or merged.
          merge_requests: Array.from({ length: M }, (_, i) => ({
            title: `Change ${i}`, source_branch: `b${i}`, author: 'root', created_at: `2026-02-${String(1 + Math.floor(i / 4)).padStart(2, '0')}T00:00:00Z`,
            ...(i % 5 === 1 ? { state: 'closed' as const } : i % 7 === 3 ? { state: 'merged' as const } : {}),
          })),
        }],
      },
    });
    const api = (method: string, path: string) => w.handle(new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fapp/merge_requests${path}`, { method, headers: { 'PRIVATE-TOKEN': 'root' } }));
    for (const iid of [3, 4, 17, 40]) expect((await api('DELETE', `/${iid}`)).status).toBe(204);
    rows = [];
    for (let iid = 1; iid <= M; iid++) {
      const res = await api('GET', `/${iid}`);
      if (res.status === 200) rows.push((await res.json()) as Row);
    }
  });

  it('any state, direction and page reads as the model does', async () => {
    expect(rows).toHaveLength(M - 4);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('all', 'opened', 'closed', 'merged', 'locked'), fc.constantFrom('asc' as const, 'desc' as const),
        fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 15 }),
        async (state, sort, page, perPage) => {
          const res = await w.handle(new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fapp/merge_requests?state=${state}&sort=${sort}&page=${page}&per_page=${perPage}`, { headers: { 'PRIVATE-TOKEN': 'root' } }));
          const matching = rows.filter((r) => state === 'all' || r.state === state);
          const expected = [...matching].sort((a, b) => (a.created_at !== b.created_at ? (a.created_at < b.created_at ? -1 : 1) * (sort === 'asc' ? 1 : -1) : b.id - a.id));
          expect(((await res.json()) as Row[]).map((r) => r.iid)).toEqual(expected.slice((page - 1) * perPage, page * perPage).map((r) => r.iid));
          expect(res.headers.get('x-total')).toBe(String(matching.length));
          expect(res.headers.get('x-total-pages')).toBe(String(Math.max(1, Math.ceil(matching.length / perPage))));
        },
      ),
      { numRuns: 200 },
    );
  });
});
