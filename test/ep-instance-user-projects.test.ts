// GET /users/:user_id/projects: the projects of a user's namespace the caller may see.
import { describe, expect, it } from 'vitest';
import { TEAM, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({
  users: TEAM,
  projects: [
    { namespace: 'dev', path: 'open', visibility: 'public' },
    { namespace: 'dev', path: 'hidden', visibility: 'private' },
    { namespace: 'rep', path: 'other', visibility: 'public' },
  ],
}, '2026-05-04T10:00:00Z');

describe('GET /users/:user_id/projects', () => {
  it('lists the user\'s own projects the caller may see, by id or username', async () => {
    const own = await (await apiCall(world(), '/users/dev/projects', { token: 'dev-token' })).json();
    expect(own.map((p: any) => p.path).sort()).toEqual(['hidden', 'open']);
    const seen = await (await apiCall(world(), '/users/dev/projects?order_by=id&sort=asc')).json();
    expect(seen.map((p: any) => p.path)).toEqual(['open']);
    const gus = await (await apiCall(world(), '/users/gus/projects', { token: 'guest-token' })).json();
    expect(gus).toEqual([]);
  });

  it('an unknown user is 404 User Not Found', async () => {
    const res = await apiCall(world(), '/users/nobody/projects', { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([404, { message: '404 User Not Found' }]);
  });
});
