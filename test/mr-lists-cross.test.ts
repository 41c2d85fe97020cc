// The group, instance and milestone merge request lists in any filter, order and page, against
// a plain model that reads every merge request of every project the caller may read, filters
// them and sorts them (nulls last, ties newest id first).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';

const API = 'https://gitlab.example.com/api/v4';
const PROJECTS = ['acme/app', 'acme/lib', 'acme/sub/tool', 'other/pub', 'other/secret'];
/** What `dev` may read: all but the private project of a group it is not in. */
const DEV_READS = new Set(['acme/app', 'acme/lib', 'acme/sub/tool', 'other/pub']);
const TITLES = ['alpha', 'Beta', 'beta', 'gamma', 'Delta'];

interface Row {
  id: number; iid: number; project_id: number; title: string; state: string; created_at: string; updated_at: string; merged_at: string | null;
  labels: string[]; milestone: { title: string } | null; author: { username: string }; assignees: { username: string }[];
}

let e: Emulator;
const rows = new Map<string, Row[]>();
let users: Record<string, number>;
let groupMilestones: Record<string, number>;
let projectMilestone: number;

const get = (path: string, token = 'dev') => e.handle(new Request(`${API}${path}`, { headers: { 'PRIVATE-TOKEN': token } }));

function mergeRequests(path: string, n: number, seed: number) {
  const [ns] = path.split('/');
  const labels = ['bug', 'feature', 'docs'];
  return Array.from({ length: n }, (_, i) => {
    const k = i * 7 + seed;
    const milestones = ns === 'acme' ? [undefined, 'v1', 'v2', ...(path === 'acme/app' ? ['p1'] : [])] : [undefined];
    return {
      title: `${TITLES[k % TITLES.length]} ${k % 3}`, source_branch: `b${i}`, author: k % 3 === 0 ? 'ops' : 'dev',
      assignees: k % 4 === 0 ? ['dev'] : k % 4 === 1 ? ['ops'] : k % 4 === 2 ? ['dev', 'ops'] : [],
      labels: labels.filter((_, j) => ((k >> j) & 1) === 1),
      milestone: milestones[k % milestones.length],
      // Ties across projects and out of iid order.
      created_at: `2026-01-${String(1 + ((k * 5) % 9)).padStart(2, '0')}T00:00:00Z`,
      ...(k % 5 === 1 ? { state: 'closed' as const } : k % 6 === 2 ? { state: 'merged' as const } : {}),
    };
  });
}

async function refresh() {
  for (const path of PROJECTS) {
    const res = await get(`/projects/${encodeURIComponent(path)}/merge_requests?per_page=100`, 'root');
    rows.set(path, (await res.json()) as Row[]);
  }
}

beforeAll(async () => {
  e = await createEmulator({
    fixture: {
      users: [{ username: 'root', admin: true, tokens: [{ token: 'root' }] }, { username: 'dev', tokens: [{ token: 'dev' }] }, { username: 'ops', tokens: [{ token: 'ops' }] }],
      groups: [
        { path: 'acme', visibility: 'private', members: [{ user: 'dev', access_level: 'developer' }, { user: 'ops', access_level: 'developer' }], labels: [{ name: 'bug' }], milestones: [{ title: 'v1' }, { title: 'v2' }] },
        { path: 'sub', parent: 'acme', visibility: 'private' },
        { path: 'other', visibility: 'public', members: [{ user: 'ops', access_level: 'maintainer' }] },
      ],
      projects: PROJECTS.map((path, n) => {
        const parts = path.split('/');
        const count = 14 + n * 3;
        return {
          namespace: parts.slice(0, -1).join('/'), path: parts.at(-1)!, visibility: path === 'other/pub' ? 'public' as const : 'private' as const,
          repository: { files: { 'a.txt': 'a\n' }, branches: Object.fromEntries(Array.from({ length: count }, (_, i) => [`b${i}`, 'main'])) },
          // A project label of the group label's title, which a label filter matches too.
          labels: path === 'acme/lib' ? [{ name: 'bug' }, { name: 'feature' }, { name: 'docs' }] : [{ name: 'feature' }, { name: 'docs' }],
          milestones: path === 'acme/app' ? [{ title: 'p1' }] : [],
          merge_requests: mergeRequests(path, count, n),
        };
      }),
    },
  });
  // Some edited later, so that updated_at differs from created_at and between projects.
  for (const [n, path] of PROJECTS.entries()) {
    for (const iid of [2, 5, 9].map((x) => x + n)) {
      e.clock.advance(60_000 * (1 + ((iid * 3) % 4)));
      const res = await e.handle(new Request(`${API}/projects/${encodeURIComponent(path)}/merge_requests/${iid}`, {
        method: 'PUT', headers: { 'PRIVATE-TOKEN': 'root', 'Content-Type': 'application/json' }, body: JSON.stringify({ title: `edited ${iid}` }),
      }));
      expect(res.status).toBe(200);
    }
  }
  await refresh();
  users = {};
  for (const u of ['dev', 'ops']) users[u] = ((await (await get(`/users?username=${u}`, 'root')).json()) as { id: number }[])[0]!.id;
  groupMilestones = Object.fromEntries(((await (await get('/groups/acme/milestones', 'root')).json()) as { id: number; title: string }[]).map((m) => [m.title, m.id]));
  projectMilestone = ((await (await get('/projects/acme%2Fapp/milestones', 'root')).json()) as { id: number }[])[0]!.id;
});

interface Ask { state?: string; orderBy?: string; sort?: 'asc' | 'desc'; labels?: string; scope?: string; milestone?: string; authorId?: 'dev' | 'ops'; page: number; perPage: number }

function query(a: Ask): string {
  const q = new URLSearchParams();
  if (a.state) q.set('state', a.state);
  if (a.orderBy) q.set('order_by', a.orderBy);
  if (a.sort) q.set('sort', a.sort);
  if (a.labels !== undefined) q.set('labels', a.labels);
  if (a.scope) q.set('scope', a.scope);
  if (a.milestone) q.set('milestone', a.milestone);
  if (a.authorId) q.set('author_id', String(users[a.authorId]));
  q.set('page', String(a.page));
  q.set('per_page', String(a.perPage));
  return q.toString();
}

/** The model: filter every merge request of the projects, then sort by the key asked. */
function model(projects: string[], a: Ask, user: string, defaultScope: string): Row[] {
  const scope = (a.scope ?? defaultScope).replace(/-/g, '_');
  const names = a.labels === undefined ? [] : a.labels.split(',').map((l) => l.trim());
  const lower = names.map((n) => n.toLowerCase());
  const list = projects.flatMap((p) => rows.get(p)!).filter((r) => {
    if (a.state && a.state !== 'all' && r.state !== a.state) return false;
    if (scope === 'created_by_me' && r.author.username !== user) return false;
    if (scope === 'assigned_to_me' && !r.assignees.some((x) => x.username === user)) return false;
    if (names.length) {
      if (lower.includes('none') ? r.labels.length > 0 : lower.includes('any') ? r.labels.length === 0 : !names.every((n) => r.labels.includes(n))) return false;
    }
    if (a.milestone) {
      const m = a.milestone.toLowerCase();
      if (m === 'none' ? r.milestone !== null : m === 'any' ? r.milestone === null : r.milestone?.title !== a.milestone) return false;
    }
    if (a.authorId && r.author.username !== a.authorId) return false;
    return true;
  });
  const orderBy = a.orderBy ?? 'created_at';
  const dir = a.sort === 'asc' ? 1 : -1;
  const key = (r: Row) => (orderBy === 'title' ? r.title.toLowerCase() : orderBy === 'updated_at' ? r.updated_at : orderBy === 'merged_at' ? r.merged_at : r.created_at);
  return list.sort((x, y) => {
    const kx = key(x);
    const ky = key(y);
    if (kx !== ky) {
      if (kx === null) return 1;
      if (ky === null) return -1;
      return (kx < ky ? -1 : 1) * dir;
    }
    return y.id - x.id;
  });
}

const ask = (scopes: (string | undefined)[]) => fc.record({
  state: fc.constantFrom(undefined, 'all', 'opened', 'closed', 'merged'),
  orderBy: fc.constantFrom(undefined, 'created_at', 'updated_at', 'title', 'merged_at'),
  sort: fc.constantFrom(undefined, 'asc' as const, 'desc' as const),
  labels: fc.constantFrom(undefined, 'bug', 'feature', 'docs', ' bug ', 'bug,feature', 'bug,bug', 'none', 'any', 'nope'),
  scope: fc.constantFrom(...scopes),
  milestone: fc.constantFrom(undefined, undefined, 'v1', 'p1', 'none', 'any'),
  authorId: fc.constantFrom(undefined, undefined, undefined, 'dev' as const, 'ops' as const),
  page: fc.integer({ min: 1, max: 6 }),
  perPage: fc.integer({ min: 1, max: 30 }),
}, { requiredKeys: ['page', 'perPage'] });

async function check(path: string, a: Ask, expected: Row[], user = 'dev') {
  const res = await get(`${path}?${query(a)}`, user);
  expect(res.status).toBe(200);
  const got = ((await res.json()) as Row[]).map((r) => r.id);
  expect(got).toEqual(expected.slice((a.page - 1) * a.perPage, a.page * a.perPage).map((r) => r.id));
  expect(res.headers.get('x-total')).toBe(String(expected.length));
  expect(res.headers.get('x-total-pages')).toBe(String(Math.max(1, Math.ceil(expected.length / a.perPage))));
}

describe('the merge request lists across projects, against a model', () => {
  it('fixture holds what the model needs', () => {
    expect([...rows.values()].flat()).toHaveLength(PROJECTS.reduce((n, _, i) => n + 14 + i * 3, 0));
    expect(Object.keys(groupMilestones).sort()).toEqual(['v1', 'v2']);
  });

  it('a group list (its subgroups too) reads as the model does', async () => {
    const within = PROJECTS.filter((p) => p.startsWith('acme/'));
    await fc.assert(fc.asyncProperty(ask([undefined, 'all', 'created_by_me', 'assigned_to_me', 'created-by-me']), fc.constantFrom('dev', 'ops'), async (a, user) => {
      await check('/groups/acme/merge_requests', a, model(within, a, user, 'all'), user);
    }), { numRuns: 250 });
  });

  it('the instance list reads as the model does, for each caller', async () => {
    await fc.assert(fc.asyncProperty(ask([undefined, 'all', 'created_by_me', 'assigned_to_me', 'assigned-to-me']), fc.constantFrom('dev', 'ops', 'root'), async (a, user) => {
      // ops is a member of `other`, root an administrator: both read every project.
      const readable = user === 'dev' ? PROJECTS.filter((p) => DEV_READS.has(p)) : PROJECTS;
      await check('/merge_requests', a, model(readable, a, user, 'created_by_me'), user);
    }), { numRuns: 250 });
  });

  it('an anonymous caller lists the public projects\' merge requests with scope=all, and must sign in for its own', async () => {
    await fc.assert(fc.asyncProperty(ask(['all']), async (asked) => {
      const a = { ...asked, scope: 'all' };
      const res = await e.handle(new Request(`${API}/merge_requests?${query(a)}`));
      const expected = model(['other/pub'], a, '', 'all');
      expect(((await res.json()) as Row[]).map((r) => r.id)).toEqual(expected.slice((a.page - 1) * a.perPage, a.page * a.perPage).map((r) => r.id));
      expect(res.headers.get('x-total')).toBe(String(expected.length));
    }), { numRuns: 60 });
    expect((await e.handle(new Request(`${API}/merge_requests?scope=created_by_me`))).status).toBe(401);
  });

  it('a project\'s list with the same filters reads as the model does', async () => {
    await fc.assert(fc.asyncProperty(ask([undefined, 'all', 'created_by_me', 'assigned_to_me']), fc.constantFrom('acme/app', 'acme/lib', 'other/pub'), async (a, path) => {
      await check(`/projects/${encodeURIComponent(path)}/merge_requests`, a, model([path], a, 'dev', 'all'));
    }), { numRuns: 150 });
  });

  it('the milestone lists read as the model does', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom('v1', 'v2', 'p1'), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 20 }), async (title, page, perPage) => {
      const a: Ask = { milestone: title, page, perPage };
      const path = title === 'p1' ? `/projects/acme%2Fapp/milestones/${projectMilestone}/merge_requests` : `/groups/acme/milestones/${groupMilestones[title]}/merge_requests`;
      // A group milestone's list holds the merge requests of the group's own projects.
      const projects = title === 'p1' ? ['acme/app'] : ['acme/app', 'acme/lib'];
      const res = await get(`${path}?page=${page}&per_page=${perPage}`);
      expect(res.status).toBe(200);
      const expected = model(projects, a, 'dev', 'all');
      expect(((await res.json()) as Row[]).map((r) => r.id)).toEqual(expected.slice((page - 1) * perPage, page * perPage).map((r) => r.id));
      expect(res.headers.get('x-total')).toBe(String(expected.length));
    }), { numRuns: 80 });
  });

  it('a list in a world changed between reads follows the change', async () => {
    const before = await (await get('/groups/acme/merge_requests?labels=docs&per_page=100')).json() as Row[];
    const target = rows.get('acme/lib')!.find((r) => !r.labels.includes('docs'))!;
    const res = await e.handle(new Request(`${API}/projects/acme%2Flib/merge_requests/${target.iid}`, {
      method: 'PUT', headers: { 'PRIVATE-TOKEN': 'root', 'Content-Type': 'application/json' }, body: JSON.stringify({ add_labels: 'docs' }),
    }));
    expect(res.status).toBe(200);
    const after = await (await get('/groups/acme/merge_requests?labels=docs&per_page=100')).json() as Row[];
    expect(after.map((r) => r.id)).toContain(target.id);
    expect(after).toHaveLength(before.length + 1);
    const newest = await (await get('/groups/acme/merge_requests?labels=docs&order_by=updated_at&per_page=1')).json() as Row[];
    expect(newest.map((r) => r.id)).toEqual([target.id]);
  });

  it('after any edits (labels, assignees, milestone, state, a label renamed), the lists read as the model does', async () => {
    const edit = fc.record({
      project: fc.constantFrom(...PROJECTS), pick: fc.nat(),
      change: fc.constantFrom<Record<string, unknown>>(
        { add_labels: 'docs' }, { remove_labels: 'bug' }, { labels: 'feature,bug' }, { assignee_ids: [] }, { state_event: 'close' }, { title: 'Zeta' }, { milestone_id: 'v2' }, { milestone_id: 0 },
      ),
    });
    await fc.assert(fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 3 }), ask([undefined, 'all', 'created_by_me', 'assigned_to_me']), fc.boolean(), async (edits, a, renamed) => {
      for (const { project, pick, change } of edits) {
        const list = rows.get(project)!;
        const target = list[pick % list.length]!;
        e.clock.advance(60_000);
        const body = { ...change, ...(change.assignee_ids ? { assignee_ids: [users.ops] } : {}), ...(change.milestone_id === 'v2' ? { milestone_id: project.startsWith('acme/') ? groupMilestones.v2 : 0 } : {}) };
        const res = await e.handle(new Request(`${API}/projects/${encodeURIComponent(project)}/merge_requests/${target.iid}`, {
          method: 'PUT', headers: { 'PRIVATE-TOKEN': 'root', 'Content-Type': 'application/json' }, body: JSON.stringify(body),
        }));
        expect(res.status).toBe(200);
      }
      if (renamed) {
        // The group's label `bug` renamed, or back: a filter by title follows the title.
        const rename = (from: string, to: string) => e.handle(new Request(`${API}/groups/acme/labels/${from}`, {
          method: 'PUT', headers: { 'PRIVATE-TOKEN': 'root', 'Content-Type': 'application/json' }, body: JSON.stringify({ new_name: to }),
        }));
        let res = await rename('bug', 'bugx');
        if (res.status === 404) res = await rename('bugx', 'bug');
        expect(res.status).toBe(200);
      }
      await refresh();
      await check('/groups/acme/merge_requests', a, model(PROJECTS.filter((p) => p.startsWith('acme/')), a, 'dev', 'all'));
      await check('/merge_requests', a, model(PROJECTS.filter((p) => DEV_READS.has(p)), a, 'dev', 'created_by_me'));
    }), { numRuns: 40 });
  });
});
