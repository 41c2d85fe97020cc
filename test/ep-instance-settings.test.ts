// PUT /application/settings (lib/api/settings.rb): administrators change the settings GET shows;
// what other families obey takes effect, bad values are GitLab's 400s and change nothing.
import { describe, expect, it } from 'vitest';
import { TEAM, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({ users: TEAM }, '2026-05-04T10:00:00Z');
const put = (json: unknown, token = 'root-token') => apiCall(world(), '/application/settings', { method: 'PUT', token, json });
const read = async () => (await apiCall(world(), '/application/settings', { token: 'root-token' })).json();

describe('PUT /application/settings', () => {
  it('changes what it is given and answers the whole settings; GET shows them', async () => {
    expect((await read()).default_projects_limit).toBe(100000);
    const res = await put({ default_projects_limit: 42, throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 1 });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ default_projects_limit: 42, throttle_authenticated_api_enabled: true, throttle_authenticated_api_requests_per_period: 1, signup_enabled: true });
    expect(await read()).toEqual(body);
  });

  it('a setting other families obey takes effect: new projects are public by default', async () => {
    expect((await put({ default_project_visibility: 'public' })).status).toBe(200);
    const p = await apiCall(world(), '/projects', { method: 'POST', token: 'dev-token', json: { name: 'p' } });
    expect((await p.json()).visibility).toBe('public');
  });

  it('refuses others, nothing given, bad types and values, and changes nothing', async () => {
    expect((await put({ default_projects_limit: 1 }, 'dev-token')).status).toBe(403);
    let res = await put({});
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/are missing, at least one parameter must be provided$/);
    res = await put({ default_projects_limit: 'many' });
    expect([res.status, await res.json()]).toEqual([400, { error: 'default_projects_limit is invalid' }]);
    res = await put({ default_project_visibility: 'secret' });
    expect([res.status, await res.json()]).toEqual([400, { error: 'default_project_visibility does not have a valid value' }]);
    res = await put({ default_projects_limit: 5, throttle_authenticated_api_period_in_seconds: 0 });
    expect([res.status, await res.json()]).toEqual([400, { message: { throttle_authenticated_api_period_in_seconds: ['must be greater than 0'] } }]);
    expect((await read()).default_projects_limit).toBe(100000);
  });
});
