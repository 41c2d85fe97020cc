// Project integrations (lib/api/integrations.rb) at /integrations and the older /services.
import { describe, expect, it } from 'vitest';
import { TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({ users: TEAM, projects: [{ namespace: 'mai', path: 'app', visibility: 'private', members: TEAM_MEMBERS }] }, '2026-05-04T10:00:00Z');
const call = (path: string, method = 'GET', json?: unknown, token = 'maintainer-token') => apiCall(world(), `/projects/mai%2Fapp${path}`, { method, token, json });

describe('project integrations', () => {
  it('a PUT sets one up, active; GET shows it without its secrets; the list has the active ones', async () => {
    expect(await (await call('/integrations')).json()).toEqual([]);
    let res = await call('/integrations/asana', 'PUT', { api_key: 'foo', restrict_to_branch: 'main' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ title: 'Asana', slug: 'asana', active: true, push_events: true, inherited: false, properties: { restrict_to_branch: 'main' } });
    expect(body.properties).not.toHaveProperty('api_key');
    res = await call('/services/asana');
    expect(await res.json()).toEqual(body);
    const list = await (await call('/services')).json();
    expect(list.map((i: any) => i.slug)).toEqual(['asana']);
    expect(list[0]).not.toHaveProperty('properties');
    res = await call('/integrations/emails-on-push', 'PUT', { recipients: 'email@example.com', push_events: false });
    expect(await res.json()).toMatchObject({ active: true, push_events: false, properties: { recipients: 'email@example.com', disable_diffs: null } });
  });

  it('DELETE disables one and clears its settings; a disabled one still reads, inactive', async () => {
    await call('/integrations/asana', 'PUT', { api_key: 'foo', restrict_to_branch: 'main' });
    expect((await call('/integrations/asana', 'DELETE')).status).toBe(204);
    expect(await (await call('/integrations')).json()).toEqual([]);
    expect(await (await call('/integrations/asana')).json()).toMatchObject({ active: false, properties: { restrict_to_branch: null } });
  });

  it('refuses a missing required field, an unknown slug, one never set up, and non-maintainers', async () => {
    let res = await call('/integrations/asana', 'PUT', {});
    expect([res.status, await res.json()]).toEqual([400, { message: '400 Bad request - "api_key" not given' }]);
    res = await call('/integrations/jira');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Integration Not Found' }]);
    res = await call('/integrations/nope');
    expect([res.status, await res.json()]).toEqual([400, { error: 'slug does not have a valid value' }]);
    expect((await call('/integrations', 'GET', undefined, 'dev-token')).status).toBe(403);
    expect((await call('/integrations', 'GET', undefined, 'outsider-token')).status).toBe(404);
  });
});
