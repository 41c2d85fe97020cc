// GET /users?search= over a table of several chunk groups (thousands of users), against a plain
// model, with renames and new users between searches: what a search remembers per chunk and
// per group of chunks must follow every write.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { createToken, createUser } from '../src/families/users/index.js';
import { tvalues } from '../src/store/table.js';

const BASE = 'https://gitlab.example.com/api/v4';
const WORDS = ['Ann', 'Bob', 'Zephyr', 'Quill', 'Ödön', 'İrem', 'team'];
const QUERIES = ['zep', 'zephyr', 'ann', 'ANN BOB', 'quill', 'ödö', 'irem', 'i̇re', 'm12', 'm4500', 'bo', 'x', 'team', 'nobody here', 'm8191', 'Viewer', 'xylo', 'wump'];

interface Row {
  id: number;
  name: string;
  username: string;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function expected(rows: Map<number, Row>, raw: string): number[] {
  const q = raw.replace(/^@/, '').toLowerCase();
  const hits = [...rows.values()].filter((r) => r.name.toLowerCase().includes(q) || r.username.toLowerCase().includes(q));
  const rank = (r: Row) => (r.username.toLowerCase() === q ? 1 : r.name.toLowerCase() === q ? 2 : 3);
  return hits.sort((a, b) => rank(a) - rank(b) || cmp(a.name, b.name) || a.id - b.id).map((r) => r.id);
}

async function world(n: number): Promise<{ e: Emulator; rows: Map<number, Row> }> {
  const e = await createEmulator({ clock: { now: '2024-03-01T12:00:00Z', frozen: true } });
  const state = e.store.update((d) => {
    const viewer = createUser(d, { username: 'viewer', name: 'Viewer' }, 0);
    createToken(d, viewer.id, { token: 'viewer-token' }, 0);
    const admin = createUser(d, { username: 'boss', name: 'Boss', admin: true }, 0);
    createToken(d, admin.id, { token: 'boss-token' }, 0);
    for (let i = 0; i < n; i++) createUser(d, { username: `m${i}`, name: `${WORDS[i % 7]} ${WORDS[(i * 3) % 5]} ${i % 13 === 0 ? WORDS[4] : ''}`.trim() }, 0);
  });
  const rows = new Map<number, Row>();
  for (const u of tvalues(state.users)) if (u.state === 'active') rows.set(u.id, { id: u.id, name: u.name, username: u.username });
  return { e, rows };
}

async function search(e: Emulator, q: string): Promise<{ ids: number[]; total: string | null }> {
  const ids: number[] = [];
  let total: string | null = null;
  for (let page = 1; ; page++) {
    const res = await e.handle(new Request(`${BASE}/users?search=${encodeURIComponent(q)}&per_page=100&page=${page}`, { headers: { 'PRIVATE-TOKEN': 'viewer-token' } }));
    expect(res.status).toBe(200);
    total ??= res.headers.get('x-total');
    const body = (await res.json()) as { id: number }[];
    ids.push(...body.map((u) => u.id));
    if (body.length < 100 || page >= 3) return { ids, total };
  }
}

const actionArb = fc.oneof(
  fc.record({ kind: fc.constant('search' as const), q: fc.constantFrom(...QUERIES) }),
  fc.record({ kind: fc.constant('rename' as const), pick: fc.nat(), name: fc.constantFrom('Zephyrine Quill', 'Ann', 'quill', 'Bob İrem', 'Plain', 'Xylophone') }),
  fc.record({ kind: fc.constant('create' as const), name: fc.constantFrom('Zephyr New', 'Ödön', 'Nobody Here', 'Wumpus') }),
);

describe('user search over thousands of users', () => {
  it('matches the model across chunk groups, through renames and new users', async () => {
    const { e, rows } = await world(9_000);
    let made = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(actionArb, { minLength: 3, maxLength: 12 }), async (actions) => {
        for (const a of actions) {
          if (a.kind === 'search') {
            const want = expected(rows, a.q);
            const got = await search(e, a.q);
            expect(got.ids).toEqual(want.slice(0, got.ids.length));
            expect(got.ids.length).toBe(Math.min(want.length, 300));
            expect(got.total).toBe(String(want.length));
          } else if (a.kind === 'rename') {
            const ids = [...rows.keys()];
            const id = ids[a.pick % ids.length]!;
            const res = await e.handle(
              new Request(`${BASE}/users/${id}`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': 'boss-token', 'content-type': 'application/json' }, body: JSON.stringify({ name: a.name }) }),
            );
            expect(res.status).toBe(200);
            rows.get(id)!.name = a.name;
          } else {
            const username = `new${made++}`;
            const res = await e.handle(
              new Request(`${BASE}/users`, {
                method: 'POST',
                headers: { 'PRIVATE-TOKEN': 'boss-token', 'content-type': 'application/json' },
                body: JSON.stringify({ name: a.name, username, email: `${username}@example.com`, password: 'a-long-password-1', skip_confirmation: true }),
              }),
            );
            expect(res.status).toBe(201);
            const u = (await res.json()) as { id: number };
            rows.set(u.id, { id: u.id, name: a.name, username });
          }
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
