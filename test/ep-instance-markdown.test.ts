// POST /markdown (lib/api/markdown.rb): text rendered as GitLab renders it, to signed-in callers,
// in the context of a project the caller may read.
import { describe, expect, it } from 'vitest';
import { TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'private', members: TEAM_MEMBERS }],
  projects: [{ path: 'app', namespace: 'acme', visibility: 'private' }],
}, '2026-05-04T10:00:00Z');
const post = (json: unknown, token: string | undefined = 'dev-token') => apiCall(world(), '/markdown', { method: 'POST', token, json });

describe('POST /markdown', () => {
  it('renders the text as HTML with source positions', async () => {
    const res = await post({ text: 'foo *bar*' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ html: '<p data-sourcepos="1:1-1:9" dir="auto">foo <em data-sourcepos="1:5-1:9">bar</em></p>' });
  });

  it('in a project the caller reads; another is 404 Project Not Found', async () => {
    expect((await post({ text: 'foo', gfm: true, project: 'acme/app' })).status).toBe(201);
    let res = await post({ text: 'foo', project: 'acme/app' }, 'outsider-token');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Project Not Found' }]);
    res = await post({ text: 'foo', project: 'acme/nope' });
    expect(res.status).toBe(404);
  });

  it('needs a signed-in caller and the text', async () => {
    expect((await apiCall(world(), '/markdown', { method: 'POST', json: { text: 'foo' } })).status).toBe(401);
    const res = await post({});
    expect([res.status, await res.json()]).toEqual([400, { message: '400 Bad request - "text" not given' }]);
  });
});
