// The user list's filters, visibility and order against a plain model, for random worlds,
// callers and filter combinations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type FixtureUser } from '../src/index.js';

const ORIGIN = 'https://gitlab.example.com';
const STATES = ['active', 'blocked', 'deactivated', 'banned'] as const;
const TYPES = ['human', 'human', 'project_bot', 'alert_bot'] as const;
const NAMES = ['Ann', 'Anna', 'Bob', 'bobby', 'Cat', 'Ann Bob', 'u1'];

interface ModelUser {
  id: number;
  username: string;
  name: string;
  state: (typeof STATES)[number];
  admin: boolean;
  external: boolean;
  type: (typeof TYPES)[number];
  twoFactor: boolean;
}

const userArb = fc.record({
  name: fc.constantFrom(...NAMES),
  state: fc.constantFrom(...STATES),
  admin: fc.boolean(),
  external: fc.boolean(),
  type: fc.constantFrom(...TYPES),
  twoFactor: fc.boolean(),
});

const filtersArb = fc.record(
  {
    username: fc.constantFrom('u1', 'U2', 'nobody', 'caller'),
    search: fc.constantFrom('ann', 'bob', 'u1', 'BOB', 'x', 'an'),
    active: fc.boolean(),
    blocked: fc.boolean(),
    external: fc.boolean(),
    exclude_external: fc.boolean(),
    exclude_internal: fc.boolean(),
    without_project_bots: fc.boolean(),
    admins: fc.boolean(),
    two_factor: fc.constantFrom('enabled', 'disabled'),
    order_by: fc.constantFrom('id', 'name', 'username'),
    sort: fc.constantFrom('asc', 'desc'),
  },
  { requiredKeys: [] },
);

type Filters = { username?: string; search?: string; active?: boolean; blocked?: boolean; external?: boolean; exclude_external?: boolean; exclude_internal?: boolean; without_project_bots?: boolean; admins?: boolean; two_factor?: string; order_by?: string; sort?: string };

const INTERNAL = new Set(['alert_bot']);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** GET /users as the reference and the spec describe it, written plainly. */
function model(users: ModelUser[], caller: 'anonymous' | 'user' | 'admin', f: Filters): number | string[] {
  if (caller === 'anonymous' && !f.username) return 403;
  const readsAll = caller === 'admin';
  let list = users.filter((u) => readsAll || (u.state !== 'blocked' && u.state !== 'banned'));
  if (f.username) list = list.filter((u) => u.username.toLowerCase() === f.username!.toLowerCase());
  const q = f.search?.toLowerCase();
  if (q) list = list.filter((u) => u.name.toLowerCase().includes(q) || u.username.toLowerCase().includes(q));
  if (f.admins && readsAll) list = list.filter((u) => u.admin);
  if (f.blocked) list = list.filter((u) => u.state === 'blocked');
  if (f.active) list = list.filter((u) => u.state === 'active' && !INTERNAL.has(u.type));
  if (f.external) list = list.filter((u) => u.external);
  if (f.exclude_external) list = list.filter((u) => !u.external);
  if (readsAll && f.two_factor) list = list.filter((u) => u.twoFactor === (f.two_factor === 'enabled'));
  if (f.exclude_internal) list = list.filter((u) => !INTERNAL.has(u.type));
  if (f.without_project_bots) list = list.filter((u) => u.type !== 'project_bot');
  if (readsAll) {
    const by = f.order_by ?? 'id';
    const dir = f.sort === 'asc' ? 1 : -1;
    const key = (u: ModelUser) => (by === 'name' ? u.name : by === 'username' ? u.username : '');
    list.sort((a, b) => (cmp(key(a), key(b)) || a.id - b.id) * dir);
  } else if (q) {
    const rank = (u: ModelUser) => (u.username.toLowerCase() === q ? 1 : u.name.toLowerCase() === q ? 2 : 3);
    list.sort((a, b) => rank(a) - rank(b) || cmp(a.name, b.name) || a.id - b.id);
  } else list.sort((a, b) => b.id - a.id);
  return list.map((u) => u.username);
}

describe('GET /users against a plain model', () => {
  it('agrees for random worlds, callers and filters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(userArb, { maxLength: 12 }), fc.constantFrom('anonymous', 'user', 'admin'), filtersArb, async (generated, caller, filters) => {
        const fixtureUsers: FixtureUser[] = [
          { username: 'boss', name: 'Boss', admin: true, tokens: [{ token: 'boss-token' }] },
          { username: 'caller', name: 'Caller', tokens: [{ token: 'caller-token' }] },
          ...generated.map((g, i) => ({
            username: `u${i + 1}`,
            name: g.name,
            state: g.state,
            admin: g.admin,
            external: g.external,
            user_type: g.type,
            two_factor_enabled: g.twoFactor,
          })),
        ];
        const emulator = await createEmulator({ fixture: { users: fixtureUsers }, clock: { now: '2024-03-01T12:00:00Z', frozen: true } });
        const modelUsers: ModelUser[] = fixtureUsers.map((u, i) => ({
          id: i + 1,
          username: u.username,
          name: u.name ?? u.username,
          state: (u.state ?? 'active') as ModelUser['state'],
          admin: u.admin ?? false,
          external: u.external ?? false,
          type: (u.user_type ?? 'human') as ModelUser['type'],
          twoFactor: u.two_factor_enabled ?? false,
        }));
        const query = new URLSearchParams({ per_page: '100' });
        for (const [k, v] of Object.entries(filters)) query.set(k, String(v));
        const headers: Record<string, string> = caller === 'anonymous' ? {} : { 'PRIVATE-TOKEN': caller === 'admin' ? 'boss-token' : 'caller-token' };
        const res = await emulator.handle(new Request(`${ORIGIN}/api/v4/users?${query}`, { headers }));
        const expected = model(modelUsers, caller, filters);
        if (typeof expected === 'number') expect(res.status).toBe(expected);
        else expect((await res.json()).map((u: { username: string }) => u.username)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });
});
