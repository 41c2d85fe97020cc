// Descendant groups, namespace existence and suggestions, milestone update and delete
// (lib/api/groups.rb, namespaces.rb, milestone_responses.rb).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [
    { path: 'acme', name: 'Acme', visibility: 'public', members: TEAM_MEMBERS, milestones: [{ title: 'Q1' }] },
    { path: 'web', parent: 'acme', visibility: 'public' },
    { path: 'ui', parent: 'acme/web', visibility: 'public' },
    { path: 'secret', parent: 'acme', visibility: 'private' },
    { path: 'acme1', visibility: 'public' },
    { path: 'other', visibility: 'public' },
  ],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', milestones: [{ title: 'v1' }, { title: 'v2', due_date: '2024-06-01' }] }],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
const call = (path: string, init: { method?: string; json?: unknown; token?: string } = {}) => apiCall(world(), path, { token: 'maintainer-token', ...init });
const body = async (path: string, token = 'maintainer-token') => (await call(path, { token })).json() as Promise<any>;

describe('GET /groups/:id/descendant_groups', () => {
  it('lists every group below, at any depth, that the caller may see', async () => {
    expect((await body('/groups/acme/descendant_groups')).map((g: { full_path: string }) => g.full_path).sort()).toEqual(['acme/secret', 'acme/web', 'acme/web/ui']);
    expect((await body('/groups/acme/descendant_groups', 'outsider-token')).map((g: { full_path: string }) => g.full_path).sort()).toEqual(['acme/web', 'acme/web/ui']);
    expect((await body('/groups/acme/descendant_groups?search=ui')).map((g: { full_path: string }) => g.full_path)).toEqual(['acme/web/ui']);
    expect((await call('/groups/nope/descendant_groups')).status).toBe(404);
  });
});

describe('GET /namespaces/:id/exists', () => {
  it('says whether the path is taken at the top level or under a parent, with a free suggestion', async () => {
    expect(await body('/namespaces/acme/exists')).toEqual({ exists: true, suggests: ['acme2'] });
    expect(await body('/namespaces/ACME/exists')).toEqual({ exists: true, suggests: ['ACME2'] });
    expect(await body('/namespaces/fresh/exists')).toEqual({ exists: false, suggests: [] });
    expect(await body('/namespaces/mai/exists')).toEqual({ exists: true, suggests: ['mai1'] });
    const acme = (await body('/groups/acme')) as { id: number };
    expect(await body(`/namespaces/web/exists?parent_id=${acme.id}`)).toEqual({ exists: true, suggests: ['web1'] });
    expect(await body(`/namespaces/other/exists?parent_id=${acme.id}`)).toEqual({ exists: false, suggests: [] });
    expect((await apiCall(world(), '/namespaces/acme/exists')).status).toBe(401);
  });
});

describe('PUT and DELETE milestones', () => {
  const milestones = async () => (await body('/projects/acme%2Fapp/milestones')) as { id: number; title: string; state: string }[];

  it('updates the attributes sent and the state, keeping titles unique', async () => {
    const v1 = (await milestones()).find((m) => m.title === 'v1')!;
    let res = await call(`/projects/acme%2Fapp/milestones/${v1.id}`, { method: 'PUT', json: { title: ' v1.0 ', state_event: 'close', due_date: '2024-05-01' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: v1.id, title: 'v1.0', state: 'closed', due_date: '2024-05-01', updated_at: '2024-03-01T10:00:00.000Z' });
    res = await call(`/projects/acme%2Fapp/milestones/${v1.id}`, { method: 'PUT', json: { title: 'v2' } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Failed to update milestone {:title=>["already being used for another group or project milestone."]}' });
    res = await call(`/projects/acme%2Fapp/milestones/${v1.id}`, { method: 'PUT', json: { title: 'Q1' } });
    expect(res.status).toBe(400);
    res = await call(`/projects/acme%2Fapp/milestones/${v1.id}`, { method: 'PUT', json: {} });
    expect(await res.json()).toEqual({ error: 'title, description, start_date, due_date, state_event are missing, at least one parameter must be provided' });
    // The old title is free again; the new one is taken.
    const made = await call('/projects/acme%2Fapp/milestones', { method: 'POST', json: { title: 'v1' } });
    expect(made.status).toBe(201);
    expect((await call('/projects/acme%2Fapp/milestones', { method: 'POST', json: { title: 'v1.0' } })).status).toBe(400);
    res = await call(`/projects/acme%2Fapp/milestones/${v1.id}`, { method: 'PUT', json: { state_event: 'activate' } });
    expect(await res.json()).toMatchObject({ state: 'active' });
  });

  it('deletes a project or group milestone, freeing its title', async () => {
    const v2 = (await milestones()).find((m) => m.title === 'v2')!;
    expect((await call(`/projects/acme%2Fapp/milestones/${v2.id}`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
    expect((await milestones()).map((m) => m.title)).toEqual(['v1']);
    expect((await call(`/projects/acme%2Fapp/milestones/${v2.id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await call('/projects/acme%2Fapp/milestones', { method: 'POST', json: { title: 'v2' } })).status).toBe(201);
    const [q1] = (await body('/groups/acme/milestones')) as { id: number }[];
    expect((await call(`/groups/acme/milestones/${q1!.id}`, { method: 'DELETE', token: 'guest-token' })).status).toBe(403);
    expect((await call(`/groups/acme/milestones/${q1!.id}`, { method: 'PUT', json: { description: 'First quarter' } })).status).toBe(200);
    expect((await call(`/groups/acme/milestones/${q1!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await body('/groups/acme/milestones')).toEqual([]);
  });
});
