// The inspector's data, as the control API serves it: the page for a browser, the world in brief,
// a repository, and each journaled request with the records it changed.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { worldDiff } from '../src/surfaces/inspector.js';
import { emptyTable, tset } from '../src/store/table.js';
import { ORIGIN } from './support/world.js';

const call = (e: { handle(r: Request): Promise<Response> }, method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) =>
  e.handle(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    }),
  );

describe('the inspector', () => {
  it('serves the page to a browser and JSON otherwise; the page needs no control token, the JSON does', async () => {
    const e = await createEmulator({ controlToken: 's3cret' });
    const page = await call(e, 'GET', '/-/emulator/', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>gitlab-emulator inspector</title>');
    expect((await call(e, 'GET', '/-/emulator', { headers: { Accept: 'application/json' } })).status).toBe(401);
    const json = await call(e, 'GET', '/-/emulator', { headers: { Accept: 'application/json', 'X-Emulator-Token': 's3cret' } });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await json.json()) as { endpoints: string[] }).endpoints).toContain('journal');
    expect((await call(e, 'GET', '/-/emulator/world')).status).toBe(401);
  });

  it('lists the world: users, groups, projects and scheduled tasks', async () => {
    const e = await createEmulator({ clock: { now: Date.parse('2026-01-01T00:00:00Z'), frozen: true } });
    expect((await call(e, 'DELETE', '/api/v4/projects/acme%2Fsecrets', { headers: { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' } })).status).toBe(202);
    const world = (await (await call(e, 'GET', '/-/emulator/world')).json()) as {
      instance: unknown;
      users: { username: string }[];
      groups: { full_path: string }[];
      projects: { path_with_namespace: string; pending_delete: boolean }[];
      tasks: { kind: string; at: string }[];
    };
    expect(world.instance).toEqual({ tier: 'ultimate', offering: 'self-managed' });
    expect(world.users.map((u) => u.username)).toEqual(['root', 'alice']);
    expect(world.groups.map((g) => g.full_path)).toEqual(['acme']);
    expect(world.projects.map((p) => [p.path_with_namespace, p.pending_delete])).toEqual([
      ['acme/website', false],
      ['acme/secrets', true],
    ]);
    expect(world.tasks).toHaveLength(1);
    expect(world.tasks[0]!.at).toBe('2026-01-01T00:00:00.000Z');
  });

  it("shows a repository: branches, tags, the tree and the commits; 404 for a project that is not there", async () => {
    const e = await createEmulator();
    const repo = (await (await call(e, 'GET', '/-/emulator/projects/1/repository')).json()) as Record<string, unknown>;
    expect(repo).toMatchObject({ path_with_namespace: 'acme/website', empty: false, head: 'main', tree: ['README.md'], commit_count: 1 });
    expect(Object.keys(repo.tags as object)).toEqual(['v1.0.0']);
    expect((repo.commits as { title: string }[])[0]!.title).toBe('Initial commit');
    expect(((await (await call(e, 'GET', '/-/emulator/projects/2/repository')).json()) as { empty: boolean }).empty).toBe(true);
    expect((await call(e, 'GET', '/-/emulator/projects/99/repository')).status).toBe(404);
    expect((await call(e, 'GET', '/-/emulator/projects/x/repository')).status).toBe(404);
  });

  it('shows a request with the records it changed; a failed request changed none', async () => {
    const e = await createEmulator();
    const token = { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token' };
    const created = await call(e, 'POST', '/api/v4/projects', { headers: token, body: { name: 'New' } });
    expect(created.status).toBe(201);
    const id = ((await created.json()) as { id: number }).id;
    const failed = await call(e, 'POST', '/api/v4/projects', { headers: token, body: { name: 'New' } });
    expect(failed.status).toBe(400);
    const [first, second] = e.journal.entries();
    const one = (await (await call(e, 'GET', `/-/emulator/journal/${first!.seq}`)).json()) as { status: number; changes: { path: string; op: string; after?: { path?: string } }[]; before?: unknown };
    expect(one.status).toBe(201);
    expect(one.before).toBeUndefined();
    expect(one.changes).toContainEqual(expect.objectContaining({ path: `projects/${id}`, op: 'added', after: expect.objectContaining({ name: 'New' }) }));
    expect(one.changes.find((c) => c.path === `paths/alice/new`)).toMatchObject({ op: 'added' });
    const two = (await (await call(e, 'GET', `/-/emulator/journal/${second!.seq}`)).json()) as { changes: unknown[] };
    expect(two.changes).toEqual([]);
    expect((await call(e, 'GET', '/-/emulator/journal/999')).status).toBe(404);
  });

  it('diffs worlds record by record, whatever their keys, and stops at a limit', () => {
    const table = (entries: [string, unknown][]) => {
      const t = emptyTable<unknown>();
      for (const [k, v] of entries) tset(t, k, v);
      return t;
    };
    const instance = { tier: 'free' };
    const a = { users: table([['1', { id: 1 }], ['__proto__', { id: 2 }]]), instance };
    const b = { users: table([['1', { id: 1, name: 'x' }], ['constructor', { id: 3 }]]), instance };
    expect(worldDiff(a, b).changes).toEqual([
      { path: 'users/1', op: 'changed', before: { id: 1 }, after: { id: 1, name: 'x' } },
      { path: 'users/__proto__', op: 'removed', before: { id: 2 } },
      { path: 'users/constructor', op: 'added', after: { id: 3 } },
    ]);
    expect(worldDiff(a, b, 1)).toMatchObject({ truncated: true, changes: [{ path: 'users/1' }] });
    expect(worldDiff(a, a).changes).toEqual([]);
  });
});
