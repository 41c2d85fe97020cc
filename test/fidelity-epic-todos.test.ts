// To-dos on epics (ee/lib/api/todos.rb's `POST /groups/:id/epics/:epic_iid/todo`, TodoService#mark_todo):
// a to-do of the group, listed in GET /todos with its group instead of a project.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, jsonCall } from './support/world.js';

const FIXTURE = {
  instance: { tier: 'premium' as const },
  users: TEAM,
  groups: [{ ...ACME, visibility: 'private' as const, members: TEAM_MEMBERS }],
};
const NOW = '2026-05-04T10:00:00.000Z';
const world = seededWorld(FIXTURE, NOW);

const call = (path: string, method = 'GET', json?: unknown, token = 'dev-token') => jsonCall(world(), path, { method, token, json });

describe('epic to-dos', () => {
  it('marks an epic as a to-do once, listed with its group until done', async () => {
    const epic = (await call('/groups/acme/epics', 'POST', { title: 'Roadmap' })).body;
    const todo = await call(`/groups/acme/epics/${epic.iid}/todo`, 'POST');
    expect(todo.status).toBe(201);
    expect(todo.body).toMatchObject({
      action_name: 'marked', target_type: 'Epic', state: 'pending', body: 'Roadmap',
      target: { id: epic.id, iid: epic.iid, title: 'Roadmap' }, target_url: 'https://gitlab.example.com/groups/acme/-/epics/1',
      group: { id: epic.group_id, full_path: 'acme' }, author: { username: 'dev' },
    });
    expect(todo.body).not.toHaveProperty('project');
    expect((await call(`/groups/acme/epics/${epic.iid}/todo`, 'POST')).status).toBe(304);
    expect((await call('/todos')).body.map((t: { id: number }) => t.id)).toEqual([todo.body.id]);
    expect((await call('/todos?type=Epic')).body).toHaveLength(1);
    expect((await call('/todos?type=Issue')).body).toEqual([]);
    expect((await call(`/todos/${todo.body.id}/mark_as_done`, 'POST')).body).toMatchObject({ state: 'done' });
    expect((await call('/todos')).body).toEqual([]);
  });

  it('an unknown epic or an unseen group answers 404; a signed-out caller 401', async () => {
    expect((await call('/groups/acme/epics/9/todo', 'POST')).status).toBe(404);
    (await call('/groups/acme/epics', 'POST', { title: 'Roadmap' }));
    expect((await call('/groups/acme/epics/1/todo', 'POST', undefined, 'outsider-token')).status).toBe(404);
    const res = await apiCall(world(), '/groups/acme/epics/1/todo', { method: 'POST' });
    expect(res.status).toBe(401);
  });

  it('mentions in a new or edited description give to-dos to those who may read the epic', async () => {
    const epic = (await call('/groups/acme/epics', 'POST', { title: 'Plan', description: '@mai, please look; cc @rep and @out' })).body;
    const mai = (await call('/todos', 'GET', undefined, 'maintainer-token')).body;
    expect(mai).toEqual([expect.objectContaining({ action_name: 'directly_addressed', target_type: 'Epic', author: expect.objectContaining({ username: 'dev' }) })]);
    expect((await call('/todos', 'GET', undefined, 'reporter-token')).body.map((t: { action_name: string }) => t.action_name)).toEqual(['mentioned']);
    // The outsider cannot read the private group's epic.
    expect((await call('/todos', 'GET', undefined, 'outsider-token')).body).toEqual([]);
    // An edit gives to-dos only to the newly mentioned.
    await call(`/groups/acme/epics/${epic.iid}`, 'PUT', { description: '@mai, please look; cc @rep and @gus' });
    expect((await call('/todos', 'GET', undefined, 'reporter-token')).body).toHaveLength(1);
    expect((await call('/todos', 'GET', undefined, 'guest-token')).body.map((t: { action_name: string }) => t.action_name)).toEqual(['mentioned']);
  });
});
