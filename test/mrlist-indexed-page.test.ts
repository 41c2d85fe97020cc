// The project's merge request list by label, state, order and page, read from the per-chunk
// index, against a plain model of every merge request sorted and filtered, while merge requests
// change labels and states between reads (each read after a write sees the write). The project
// holds more merge requests than one chunk, and a group label shares a title with a project
// label (a chunk holding both is read the slow way; either way the answer is the model's).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';

const N = 150;
const API = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp/merge_requests';

interface Row { id: number; iid: number; title: string; state: string; labels: string[]; created_at: string; updated_at: string; merged_at: string | null }

let e: Emulator;
const call = (method: string, url: string) => e.handle(new Request(url, { method, headers: { 'PRIVATE-TOKEN': 'root' } }));

beforeAll(async () => {
  e = await createEmulator({
    fixture: {
      users: [{ username: 'root', admin: true, tokens: [{ token: 'root' }] }],
      groups: [{ path: 'acme', labels: [{ name: 'shared' }] }],
      projects: [{
        namespace: 'acme', path: 'app', creator: 'root',
        repository: { files: { 'a.txt': 'a\n' }, branches: Object.fromEntries(Array.from({ length: N }, (_, i) => [`b${i}`, 'main'])) },
        labels: [{ name: 'bug' }, { name: 'ui' }, { name: 'twin' }],
        merge_requests: Array.from({ length: N }, (_, i) => ({
          title: `${['alpha', 'Beta', 'beta', 'gamma'][i % 4]} ${i % 9}`, source_branch: `b${i}`, author: 'root',
          created_at: `2026-03-${String(1 + ((i * 7) % 11)).padStart(2, '0')}T00:00:00Z`,
          labels: [...(i % 3 === 0 ? ['bug'] : []), ...(i % 5 === 0 ? ['ui'] : []), ...(i % 6 === 0 ? ['shared'] : i % 4 === 0 ? ['twin'] : [])],
          ...(i % 4 === 1 ? { state: 'closed' as const } : i % 7 === 3 ? { state: 'merged' as const } : {}),
        })),
      }],
    },
  });
  // The project's `twin` takes the group label's title: `shared` now names two labels.
  const res = await call('PUT', 'https://gitlab.example.com/api/v4/projects/acme%2Fapp/labels/twin?new_name=shared');
  expect(res.status).toBe(200);
});

async function everyRow(): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 1; ; page++) {
    const res = await call('GET', `${API}?per_page=100&page=${page}`);
    const got = (await res.json()) as Row[];
    rows.push(...got);
    if (got.length < 100) return rows;
  }
}

function model(rows: Row[], q: { orderBy: string; sort: 'asc' | 'desc'; state: string; label: string | null }): Row[] {
  const key = (r: Row) => (q.orderBy === 'title' ? r.title.toLowerCase() : q.orderBy === 'updated_at' ? r.updated_at : q.orderBy === 'merged_at' ? r.merged_at : r.created_at);
  return rows
    .filter((r) => (q.state === 'all' || r.state === q.state) && (q.label === null || r.labels.includes(q.label.trim())))
    .sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      if (ka !== kb) {
        if (ka === null) return 1;
        if (kb === null) return -1;
        return (ka < kb ? -1 : 1) * (q.sort === 'asc' ? 1 : -1);
      }
      return b.id - a.id;
    });
}

const query = fc.record({
  orderBy: fc.constantFrom('created_at', 'updated_at', 'title', 'merged_at'),
  sort: fc.constantFrom('asc' as const, 'desc' as const),
  state: fc.constantFrom('all', 'opened', 'closed', 'merged', 'locked'),
  label: fc.constantFrom(null, 'bug', 'ui', ' bug', 'shared', 'nothing'),
  page: fc.integer({ min: 1, max: 9 }),
  perPage: fc.integer({ min: 1, max: 30 }),
});

const write = fc.record({
  iid: fc.integer({ min: 1, max: N }),
  add: fc.subarray(['bug', 'ui', 'shared']),
  remove: fc.subarray(['bug', 'ui', 'shared']),
  event: fc.constantFrom(null, 'close', 'reopen'),
});

describe('the merge request list by label, state, order and page', () => {
  it('reads as the model does, before and after merge requests change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(write, { maxLength: 3 }), fc.array(query, { minLength: 1, maxLength: 4 }), async (writes, queries) => {
        for (const w of writes) {
          const params = new URLSearchParams();
          if (w.add.length) params.set('add_labels', w.add.join(','));
          if (w.remove.length) params.set('remove_labels', w.remove.join(','));
          if (w.event) params.set('state_event', w.event);
          if ([...params.keys()].length === 0) params.set('title', `Edited ${w.iid}`);
          const res = await call('PUT', `${API}/${w.iid}?${params}`);
          expect(res.status).toBe(200);
        }
        const rows = await everyRow();
        expect(rows).toHaveLength(N);
        for (const q of queries) {
          const qs = new URLSearchParams({ order_by: q.orderBy, sort: q.sort, state: q.state, page: String(q.page), per_page: String(q.perPage) });
          if (q.label !== null) qs.set('labels', q.label);
          const res = await call('GET', `${API}?${qs}`);
          expect(res.status).toBe(200);
          const expected = model(rows, q);
          expect(((await res.json()) as Row[]).map((r) => r.iid)).toEqual(expected.slice((q.page - 1) * q.perPage, q.page * q.perPage).map((r) => r.iid));
          expect(res.headers.get('x-total')).toBe(String(expected.length));
          expect(res.headers.get('x-total-pages')).toBe(String(Math.max(1, Math.ceil(expected.length / q.perPage))));
          expect(res.headers.get('x-next-page')).toBe(q.page * q.perPage < expected.length ? String(q.page + 1) : '');
        }
      }),
      { numRuns: 60 },
    );
  });
});
