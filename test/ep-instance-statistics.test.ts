// GET /application/statistics (lib/api/statistics.rb): the world's counts, delimited, to administrators.
import { describe, expect, it } from 'vitest';
import { withDelimiter } from '../src/families/statistics/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({
  users: TEAM,
  groups: [ACME],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', members: TEAM_MEMBERS, issues: [{ title: 'One' }, { title: 'Two' }] }],
}, '2026-05-04T10:00:00Z');

describe('GET /application/statistics', () => {
  it('counts the world, and follows it', async () => {
    const body = await (await apiCall(world(), '/application/statistics', { token: 'root-token' })).json();
    expect(body).toMatchObject({ forks: '0', issues: '2', merge_requests: '0', snippets: '0', users: String(TEAM.length), projects: '1', groups: '1', active_users: String(TEAM.length) });
    expect(Object.keys(body)).toEqual(['forks', 'issues', 'merge_requests', 'notes', 'snippets', 'ssh_keys', 'milestones', 'users', 'projects', 'groups', 'active_users']);
    await apiCall(world(), '/projects/acme%2Fapp/issues', { method: 'POST', token: 'dev-token', json: { title: 'Three' } });
    expect((await (await apiCall(world(), '/application/statistics', { token: 'root-token' })).json()).issues).toBe('3');
  });

  it('is for administrators; counts are delimited as Rails writes them', async () => {
    expect((await apiCall(world(), '/application/statistics', { token: 'dev-token' })).status).toBe(403);
    expect([0, 999, 1000, 1234567].map(withDelimiter)).toEqual(['0', '999', '1,000', '1,234,567']);
  });
});
