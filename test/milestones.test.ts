// Project and group milestones (lib/api/project_milestones.rb, group_milestones.rb,
// milestone_responses.rb, app/finders/milestones_finder.rb).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'pla', tokens: [{ token: 'planner-token' }] },
    { username: 'dev', tokens: [{ token: 'dev-token' }] },
    { username: 'gus', tokens: [{ token: 'guest-token' }] },
    { username: 'out', tokens: [{ token: 'outsider-token' }] },
  ],
  groups: [
    { path: 'acme', visibility: 'public', members: [{ user: 'pla', access_level: 'planner' }], milestones: [{ title: 'Q1', due_date: '2024-03-31' }] },
    { path: 'team', parent: 'acme', visibility: 'public', milestones: [{ title: 'Sprint 1' }] },
  ],
  projects: [
    {
      namespace: 'acme/team',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: [
        { user: 'dev', access_level: 'developer' },
        { user: 'gus', access_level: 'guest' },
      ],
      milestones: [
        { title: '1.0', description: 'First version', due_date: '2024-02-01', start_date: '2024-01-01', state: 'closed' },
        { title: '1.1', due_date: '2024-04-01' },
        { title: '2.0', description: 'Later' },
        { title: 'backlog' },
      ],
    },
  ],
};

const world = seededWorld(FIXTURE, NOW);

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  return { status: res.status, body: await res.json(), res };
}

const APP = '/projects/acme%2Fteam%2Fapp';
const titles = (list: { title: string }[]) => list.map((m) => m.title);

describe('GET /projects/:id/milestones', () => {
  it('lists by due date (nulls last), then newest, with the Milestone entity', async () => {
    const { status, body, res } = await call('GET', `${APP}/milestones`, 'guest-token');
    expect(status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    expect(titles(body)).toEqual(['1.0', '1.1', 'backlog', '2.0']);
    expect(body[0]).toEqual({
      id: expect.any(Number),
      iid: 1,
      project_id: expect.any(Number),
      title: '1.0',
      description: 'First version',
      state: 'closed',
      created_at: NOW,
      updated_at: NOW,
      due_date: '2024-02-01',
      start_date: '2024-01-01',
      expired: true,
      web_url: 'https://gitlab.example.com/acme/team/app/-/milestones/1',
    });
    expect(body[1].expired).toBe(false);
    expect(body[2]).toMatchObject({ description: null, due_date: null, expired: false });
  });

  it('filters by state, iids (array or comma list), title, search and update time', async () => {
    const list = async (q: string) => titles((await call('GET', `${APP}/milestones?${q}`, 'dev-token')).body);
    expect(await list('state=active')).toEqual(['1.1', 'backlog', '2.0']);
    expect(await list('state=closed')).toEqual(['1.0']);
    expect(await list('iids[]=2&iids[]=3')).toEqual(['1.1', '2.0']);
    expect(await list('iids=1,4')).toEqual(['1.0', 'backlog']);
    expect(await list('title=1.1')).toEqual(['1.1']);
    expect(await list('title=1')).toEqual([]);
    expect(await list('search=VERSION')).toEqual(['1.0']);
    expect(await list('search=late')).toEqual(['2.0']);
    expect(await list('updated_before=2024-01-01T00:00:00Z')).toEqual([]);
    expect(await list('updated_after=2024-01-01T00:00:00Z')).toHaveLength(4);
    expect((await call('GET', `${APP}/milestones?state=open`, 'dev-token')).body).toEqual({ error: 'state does not have a valid value' });
  });

  it('includes the milestones of the group and its ancestors when asked', async () => {
    const list = async (q: string) => titles((await call('GET', `${APP}/milestones?${q}`, 'dev-token')).body);
    // Due dates first (1.0 in February, Q1 in March, 1.1 in April), then the undated ones, newest first.
    expect(await list('include_ancestors=true')).toEqual(['1.0', 'Q1', '1.1', 'backlog', '2.0', 'Sprint 1']);
    expect(await list('include_parent_milestones=true')).toHaveLength(6);
    expect((await call('GET', `${APP}/milestones?include_ancestors=true&include_parent_milestones=true`, 'dev-token')).body).toEqual({
      error: 'include_ancestors, include_parent_milestones are mutually exclusive',
    });
  });

  it('needs a signed-in reader: 401 anonymous, 404 outsiders', async () => {
    expect(await call('GET', `${APP}/milestones`)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await call('GET', `${APP}/milestones`, 'outsider-token')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
  });
});

describe('GET /projects/:id/milestones/:milestone_id', () => {
  it('gets one by id; an unknown one is 404 Not found', async () => {
    const first = (await call('GET', `${APP}/milestones?iids=2`, 'dev-token')).body[0];
    expect((await call('GET', `${APP}/milestones/${first.id}`, 'dev-token')).body).toEqual(first);
    expect(await call('GET', `${APP}/milestones/99999`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });
});

describe('POST /projects/:id/milestones', () => {
  it('creates a milestone (201) with the next iid', async () => {
    const r = await call('POST', `${APP}/milestones`, 'dev-token', { title: '  3.0 ', description: 'Big', due_date: '2024-09-01', start_date: '2024-07-01' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ iid: 5, title: '3.0', description: 'Big', state: 'active', due_date: '2024-09-01', start_date: '2024-07-01', expired: false });
    expect(titles((await call('GET', `${APP}/milestones?title=3.0`, 'dev-token')).body)).toEqual(['3.0']);
  });

  it('keeps titles unique across the project and its group, and checks the dates', async () => {
    const post = (json: object) => call('POST', `${APP}/milestones`, 'dev-token', json);
    expect(await post({ title: '1.0' })).toMatchObject({
      status: 400,
      body: { message: 'Failed to create milestone {:title=>["already being used for another group or project milestone."]}' },
    });
    expect((await post({ title: 'Sprint 1' })).status).toBe(400);
    expect((await post({ title: 'Q1' })).status).toBe(201); // an ancestor's title is free
    expect(await post({ title: '' })).toMatchObject({ status: 400, body: { message: `Failed to create milestone {:title=>["can't be blank"]}` } });
    expect(await post({ title: 'x', start_date: '2024-05-01', due_date: '2024-05-01' })).toMatchObject({
      status: 400,
      body: { message: 'Failed to create milestone {:due_date=>["must be greater than start date"]}' },
    });
    expect((await post({ title: 'y', due_date: 'not a date' })).body).toMatchObject({ due_date: null });
    expect(await post({})).toMatchObject({ status: 400, body: { message: '400 Bad request - "title" not given' } });
  });

  it('needs planner or above', async () => {
    expect(await call('POST', `${APP}/milestones`, 'guest-token', { title: 'x' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('POST', `${APP}/milestones`, 'planner-token', { title: 'x' })).status).toBe(201);
    expect((await call('POST', `${APP}/milestones`, undefined, { title: 'x' })).status).toBe(401);
  });
});

describe('group milestones', () => {
  it('lists, gets and creates them', async () => {
    const list = await call('GET', '/groups/acme%2Fteam/milestones', 'outsider-token');
    expect(titles(list.body)).toEqual(['Sprint 1']);
    expect(list.body[0]).toMatchObject({ group_id: expect.any(Number), web_url: 'https://gitlab.example.com/groups/acme/team/-/milestones/1' });
    expect(list.body[0].project_id).toBeUndefined();
    expect(titles((await call('GET', '/groups/acme%2Fteam/milestones?include_ancestors=true', 'outsider-token')).body)).toEqual(['Q1', 'Sprint 1']);
    expect(titles((await call('GET', '/groups/acme/milestones?include_descendants=true', 'root-token')).body)).toHaveLength(6);
    expect((await call('GET', `/groups/acme%2Fteam/milestones/${list.body[0].id}`, 'outsider-token')).body.title).toBe('Sprint 1');
    expect((await call('GET', '/groups/acme%2Fteam/milestones/99999', 'outsider-token')).status).toBe(404);
    expect((await call('POST', '/groups/acme%2Fteam/milestones', 'outsider-token', { title: 'x' })).status).toBe(403);
    const made = await call('POST', '/groups/acme%2Fteam/milestones', 'planner-token', { title: 'Sprint 2' });
    expect(made).toMatchObject({ status: 201, body: { iid: 2, title: 'Sprint 2' } });
    expect((await call('POST', '/groups/acme%2Fteam/milestones', 'planner-token', { title: '1.1' })).status).toBe(400); // a project's title
    expect((await call('POST', '/groups/acme/milestones', 'planner-token', { title: '1.1' })).status).toBe(201); // not a direct project of acme
  });
});
