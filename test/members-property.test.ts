// A property: `GET /projects/:id/members/all` and `GET /groups/:id/members/all` agree with a
// plain model of a random group hierarchy with shares, expiries and membership states, for
// every caller.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';

const NOW = '2026-03-01T12:00:00Z';
const TODAY = '2026-03-01';
const USERS = ['u0', 'u1', 'u2', 'u3', 'u4'];
const GROUP_LEVELS = [5, 10, 20, 30, 40, 50];
const PROJECT_LEVELS = [10, 20, 30, 40, 50];
const EXPIRIES = [null, '2026-02-01', TODAY, '2026-12-31'];

interface M { user: number; level: number; expires: string | null; awaiting: boolean }
interface Share { group: number; access: number; expires: string | null }
interface G { parent: number | null; visibility: 'public' | 'private'; members: M[]; shares: Share[] }
interface World { groups: G[]; projectGroup: number; projectMembers: M[]; projectShares: Share[] }

const member = (levels: number[]) =>
  fc.record({ user: fc.integer({ min: 0, max: USERS.length - 1 }), level: fc.constantFrom(...levels), expires: fc.constantFrom(...EXPIRIES), awaiting: fc.boolean() });
const uniqueMembers = (levels: number[]) => fc.uniqueArray(member(levels), { selector: (m) => m.user, maxLength: 4 });
const share = (groups: number) => fc.record({ group: fc.integer({ min: 0, max: groups - 1 }), access: fc.constantFrom(10, 20, 30, 40), expires: fc.constantFrom(null, '2026-02-01', '2026-12-31') });

const worldArb: fc.Arbitrary<World> = fc.integer({ min: 2, max: 5 }).chain((n) =>
  fc.record({
    groups: fc.tuple(
      ...Array.from({ length: n }, (_, i) =>
        fc.record({
          // group 0 is public and the top of the project's chain; others hang anywhere earlier or at the top
          parent: i === 0 ? fc.constant(null) : fc.option(fc.integer({ min: 0, max: i - 1 }), { nil: null }),
          visibility: i === 0 ? fc.constant('public' as const) : fc.constantFrom('public' as const, 'private' as const),
          members: uniqueMembers(GROUP_LEVELS),
          shares: fc.uniqueArray(share(n), { selector: (s) => s.group, maxLength: 2 }),
        }),
      ),
    ),
    projectGroup: fc.integer({ min: 0, max: n - 1 }),
    projectMembers: uniqueMembers(PROJECT_LEVELS),
    projectShares: fc.uniqueArray(share(n), { selector: (s) => s.group, maxLength: 2 }),
  }),
).map((w) => {
  // Public groups under private ones are not allowed: a group is at most as visible as its parent.
  const groups = w.groups.map((g) => ({ ...g }));
  for (const g of groups) if (g.parent !== null && groups[g.parent]!.visibility === 'private') g.visibility = 'private';
  // The project's group must be public (the project is public, and so readable by every caller).
  let top = w.projectGroup;
  while (groups[top]!.visibility !== 'public') top = groups[top]!.parent ?? 0;
  const chain = (i: number) => { const out: number[] = []; for (let x: number | null = i; x !== null; x = groups[x]!.parent) out.push(x); return out; };
  for (const g of groups) g.shares = g.shares.filter((s) => s.group !== groups.indexOf(g));
  // A project is never shared with its own group or an ancestor of it.
  const projectShares = w.projectShares.filter((s) => !chain(top).includes(s.group));
  return { ...w, groups, projectGroup: top, projectShares };
});

const path = (w: World, i: number): string => {
  const g = w.groups[i]!;
  return g.parent === null ? `g${i}` : `${path(w, g.parent)}/g${i}`;
};

function fixtureOf(w: World): Fixture {
  const fm = (m: M) => ({ user: USERS[m.user]!, access_level: m.level, expires_at: m.expires, ...(m.awaiting ? { state: 'awaiting' as const } : {}) });
  const fs = (s: Share) => ({ group: path(w, s.group), group_access: s.access, ...(s.expires ? { expires_at: s.expires } : {}) });
  // Groups in an order where parents come first.
  const order: number[] = [];
  const visit = (i: number) => { if (order.includes(i)) return; const p = w.groups[i]!.parent; if (p !== null) visit(p); order.push(i); };
  w.groups.forEach((_, i) => visit(i));
  return {
    instance: { tier: 'premium' },
    users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }, ...USERS.map((u) => ({ username: u, tokens: [{ token: `${u}-token` }] }))],
    groups: order.map((i) => {
      const g = w.groups[i]!;
      const parent = g.parent === null ? undefined : path(w, g.parent);
      return { path: `g${i}`, ...(parent ? { parent } : {}), visibility: g.visibility, members: g.members.map(fm), shared_with_groups: g.shares.map(fs) };
    }),
    projects: [{ namespace: path(w, w.projectGroup), path: 'p', visibility: 'public', creator: 'root', members: w.projectMembers.map(fm), shared_with_groups: w.projectShares.map(fs) }],
  };
}

// ---- the plain model ----
const active = (m: M) => !(m.expires !== null && m.expires <= TODAY);
const grants = (m: M) => active(m) && !m.awaiting;
const live = (s: Share) => !(s.expires !== null && s.expires <= TODAY);

function chainOf(w: World, i: number): number[] {
  const out: number[] = [];
  for (let x: number | null = i; x !== null; x = w.groups[x]!.parent) out.push(x);
  return out;
}

/** The caller's level in a group: memberships of the group and its ancestors, and shares into them (direct members of the invited group). */
function groupLevel(w: World, caller: number, g: number): number {
  let level = 0;
  for (const a of chainOf(w, g)) {
    for (const m of w.groups[a]!.members) if (m.user === caller && grants(m)) level = Math.max(level, m.level);
    for (const s of w.groups[a]!.shares) {
      if (!live(s)) continue;
      for (const m of w.groups[s.group]!.members) if (m.user === caller && grants(m) && m.level > 5) level = Math.max(level, Math.min(s.access, m.level));
    }
  }
  return level;
}

/** Whether the caller may list the members of an invited group. */
function sees(w: World, caller: number | 'admin', memberOfSource: boolean, g: number): boolean {
  if (caller === 'admin' || memberOfSource || w.groups[g]!.visibility === 'public') return true;
  // A private group: the caller reads it with a role in it (Guest and up), or as a member of a
  // group below it; and then lists its members if they have any level in it.
  const level = groupLevel(w, caller, g);
  const below = w.groups.some((d, i) => i !== g && chainOf(w, i).includes(g) && d.members.some((m) => m.user === caller && grants(m)));
  return (level >= 10 || below) && level > 0;
}

function modelAll(w: World, caller: number | 'admin', source: { project: true } | { group: number }): Map<string, number> {
  const out = new Map<string, number>();
  const offer = (m: M, level: number) => out.set(USERS[m.user]!, Math.max(out.get(USERS[m.user]!) ?? 0, level));
  const isProject = 'project' in source;
  const direct = isProject ? w.projectMembers : w.groups[source.group]!.members;
  const memberOfSource = caller !== 'admin' && direct.some((m) => m.user === caller && grants(m));
  for (const m of direct) if (active(m)) offer(m, m.level);
  const invite = (s: Share, withParents: boolean) => {
    if (!live(s) || !sees(w, caller, memberOfSource, s.group)) return;
    for (const g of withParents ? chainOf(w, s.group) : [s.group]) for (const m of w.groups[g]!.members) if (active(m) && m.level > 5) offer(m, Math.min(s.access, m.level));
  };
  if (isProject) for (const s of w.projectShares) invite(s, true);
  const chain = isProject ? chainOf(w, w.projectGroup) : chainOf(w, source.group);
  for (const g of chain) {
    if (isProject || g !== source.group) for (const m of w.groups[g]!.members) if (active(m) && m.level > 5) offer(m, m.level);
    for (const s of w.groups[g]!.shares) invite(s, false);
  }
  return out;
}

describe('members `/all` against a plain model', () => {
  it('agrees for every caller, on the project and on its group', async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (w) => {
        const emulator = await createEmulator({ fixture: fixtureOf(w), clock: { now: NOW, frozen: true } });
        const get = async (url: string, token: string) => {
          const res = await emulator.handle(new Request(`https://gitlab.example.com/api/v4${url}?per_page=100`, { headers: { 'PRIVATE-TOKEN': token } }));
          expect(res.status).toBe(200);
          const list = (await res.json()) as { username: string; access_level: number }[];
          return new Map(list.map((m) => [m.username, m.access_level]));
        };
        const project = encodeURIComponent(`${path(w, w.projectGroup)}/p`);
        const group = encodeURIComponent(path(w, w.projectGroup));
        for (const caller of [...USERS.map((_, i) => i), 'admin' as const]) {
          const token = caller === 'admin' ? 'root-token' : `${USERS[caller]}-token`;
          expect(await get(`/projects/${project}/members/all`, token)).toEqual(modelAll(w, caller, { project: true }));
          expect(await get(`/groups/${group}/members/all`, token)).toEqual(modelAll(w, caller, { group: w.projectGroup }));
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe('a page of direct members, read off the ordered index', () => {
  it('is the page of the full list, expired members left out, with the same totals', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 600 }),
        fc.array(fc.integer({ min: 0, max: 599 }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 100 }),
        async (n, expiring, page, perPage) => {
          const dead = new Set(expiring.filter((i) => i < n));
          const users = Array.from({ length: n }, (_, i) => ({ username: `m${i}` }));
          const emulator = await createEmulator({
            fixture: {
              users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }, ...users],
              groups: [{ path: 'acme', visibility: 'public' }],
              projects: [{ namespace: 'acme', path: 'big', visibility: 'public', creator: 'root', members: users.map((u, i) => ({ user: u.username, access_level: 30, expires_at: dead.has(i) ? '2026-02-01' : null })) }],
            },
            clock: { now: NOW, frozen: true },
          });
          const get = async (query: string) => {
            const res = await emulator.handle(new Request(`https://gitlab.example.com/api/v4/projects/acme%2Fbig/members?${query}`, { headers: { 'PRIVATE-TOKEN': 'root-token' } }));
            return { names: ((await res.json()) as { username: string }[]).map((m) => m.username), total: res.headers.get('x-total'), next: res.headers.get('x-next-page') };
          };
          const live = users.map((u) => u.username).filter((_, i) => !dead.has(i));
          const fast = await get(`page=${page}&per_page=${perPage}`);
          expect(fast.names).toEqual(live.slice((page - 1) * perPage, page * perPage));
          expect(fast.total).toBe(String(live.length));
          // the same page through the filtered path (skip_users of nobody is a filter)
          expect(await get(`page=${page}&per_page=${perPage}&skip_users[]=999999`)).toEqual(fast);
        },
      ),
      { numRuns: 12 },
    );
  });
});
