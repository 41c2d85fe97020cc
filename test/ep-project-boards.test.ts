// Issue boards (lib/api/boards.rb, group_boards.rb): Reporters make, rename and delete boards and
// place label lists on them; whoever reads the issues reads them; a group has boards from Premium.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';
import type { Fixture } from '../src/index.js';

const fixture = (tier: 'free' | 'ultimate'): Fixture => ({
  instance: { tier },
  users: TEAM,
  groups: [{ ...ACME, members: TEAM_MEMBERS, labels: [{ name: 'group-label', color: '#ff0000' }] } as never],
  projects: [teamProject({ labels: [{ name: 'todo', color: '#00ff00' }, { name: 'doing', color: '#0000ff' }] } as never), { namespace: 'root', path: 'elsewhere', creator: 'root', labels: [{ name: 'foreign', color: '#000000' }] } as never],
});
const world = seededWorld(fixture('ultimate'), '2026-05-04T10:00:00Z');
const freeWorld = seededWorld(fixture('free'), '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}, e = world()) => apiCall(e, path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

async function labelId(path: string, name: string, e = world()): Promise<number> {
  const list = await (await call(`${path}/labels`, {}, e)).json();
  return list.find((l: any) => l.name === name).id;
}

describe('project boards', () => {
  it('a reporter makes one; it lists, reads, renames and deletes', async () => {
    expect(await (await call(`${APP}/boards`)).json()).toEqual([]);
    const res = await call(`${APP}/boards`, { method: 'POST', token: 'reporter-token', json: { name: 'testboard' } });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made).toMatchObject({ id: 1, name: 'testboard', hide_backlog_list: false, hide_closed_list: false, lists: [], group: null, project: { path_with_namespace: 'acme/app' } });
    expect(await body(await call(`${APP}/boards/1`))).toEqual([200, made]);
    expect((await call(`${APP}/boards/1`, { token: 'guest-token' })).status).toBe(200);
    const renamed = await (await call(`${APP}/boards/1`, { method: 'PUT', json: { name: 'renamed', hide_closed_list: true } })).json();
    expect(renamed).toMatchObject({ name: 'renamed', hide_closed_list: true });
    expect((await call(`${APP}/boards/1`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${APP}/boards/1`))).toEqual([404, { message: '404 Not found' }]);
  });

  it('a guest reads but does not change; an outsider of the private project sees nothing; anonymous is 401', async () => {
    await call(`${APP}/boards`, { method: 'POST', json: { name: 'b' } });
    expect((await call(`${APP}/boards`, { method: 'POST', token: 'guest-token', json: { name: 'x' } })).status).toBe(403);
    expect((await call(`${APP}/boards`, { token: 'outsider-token' })).status).toBe(404);
    expect((await apiCall(world(), `${APP}/boards`)).status).toBe(401);
    expect(await body(await call(`${APP}/boards`, { method: 'POST', json: { name: ' ' } }))).toEqual([400, { message: { name: ["can't be blank"] } }]);
  });

  it('a project has several boards at the free tier too', async () => {
    await call(`${APP}/boards`, { method: 'POST', json: { name: 'one' } }, freeWorld());
    expect((await call(`${APP}/boards`, { method: 'POST', json: { name: 'two' } }, freeWorld())).status).toBe(201);
    const list = await (await call(`${APP}/boards`, {}, freeWorld())).json();
    expect(list.map((b: any) => b.name)).toEqual(['one', 'two']);
    expect(Object.keys(list[0])).toEqual(['id', 'name', 'hide_backlog_list', 'hide_closed_list', 'project', 'lists', 'group']);
  });
});

describe('board lists', () => {
  it('places label lists (the project\'s and its group\'s) after the last, moves and removes them', async () => {
    await call(`${APP}/boards`, { method: 'POST', json: { name: 'b' } });
    const todo = await labelId(APP, 'todo');
    const doing = await labelId(APP, 'doing');
    const groupLabel = await labelId('/groups/acme', 'group-label');
    for (const id of [todo, doing, groupLabel]) expect((await call(`${APP}/boards/1/lists`, { method: 'POST', token: 'reporter-token', json: { label_id: id } })).status).toBe(201);
    const names = async () => (await (await call(`${APP}/boards/1/lists`)).json()).map((l: any) => [l.label.name, l.position]);
    expect(await names()).toEqual([['todo', 0], ['doing', 1], ['group-label', 2]]);
    const lists = await (await call(`${APP}/boards/1/lists`)).json();
    expect(lists[0]).toMatchObject({ id: 3, label: { id: todo, name: 'todo', color: '#00ff00' }, position: 0, max_issue_count: 0 });
    let res = await call(`${APP}/boards/1/lists/${lists[2].id}`, { method: 'PUT', json: { position: 0 } });
    expect(await res.json()).toMatchObject({ label: { name: 'group-label' }, position: 0 });
    expect(await names()).toEqual([['group-label', 0], ['todo', 1], ['doing', 2]]);
    res = await call(`${APP}/boards/1/lists/${lists[2].id}`, { method: 'PUT', json: { position: 9 } });
    expect(await body(res)).toEqual([400, { error: 'List could not be moved!' }]);
    expect((await call(`${APP}/boards/1/lists/${lists[0].id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await names()).toEqual([['group-label', 0], ['doing', 1]]);
    expect((await (await call(`${APP}/boards/1`)).json()).lists.map((l: any) => l.label.name)).toEqual(['group-label', 'doing']);
  });

  it('refuses a label the project cannot use, or one already listed; an unknown list is 404', async () => {
    await call(`${APP}/boards`, { method: 'POST', json: { name: 'b' } });
    const foreign = await labelId('/projects/root%2Felsewhere', 'foreign');
    expect(await body(await call(`${APP}/boards/1/lists`, { method: 'POST', json: { label_id: foreign } }))).toEqual([400, { error: 'Label not found' }]);
    const todo = await labelId(APP, 'todo');
    await call(`${APP}/boards/1/lists`, { method: 'POST', json: { label_id: todo } });
    expect(await body(await call(`${APP}/boards/1/lists`, { method: 'POST', json: { label_id: todo } }))).toEqual([400, { error: 'Label has already been taken' }]);
    expect(await body(await call(`${APP}/boards/1/lists/99`))).toEqual([404, { message: '404 Not found' }]);
    expect(await body(await call(`${APP}/boards/7/lists`))).toEqual([404, { message: '404 Not found' }]);
  });
});

describe('group boards', () => {
  it('a reporter of the group makes, reads and deletes them from Premium', async () => {
    expect(await (await call('/groups/acme/boards')).json()).toEqual([]);
    const res = await call('/groups/acme/boards', { method: 'POST', token: 'reporter-token', json: { name: 'testboard' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ id: 1, name: 'testboard', project: null, group: { id: expect.any(Number), name: 'acme', web_url: 'https://gitlab.example.com/groups/acme' } });
    expect((await call('/groups/acme/boards/1', { token: 'guest-token' })).status).toBe(200);
    expect((await call('/groups/acme/boards', { method: 'POST', token: 'guest-token', json: { name: 'x' } })).status).toBe(403);
    expect((await call('/groups/acme/boards/1', { method: 'DELETE' })).status).toBe(204);
  });

  it('at the free tier a group makes no boards', async () => {
    expect((await call('/groups/acme/boards', { method: 'POST', json: { name: 'x' } }, freeWorld())).status).toBe(403);
  });
});
