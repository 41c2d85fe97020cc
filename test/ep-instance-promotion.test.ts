// Label and milestone promotion (Labels::PromoteService, Milestones::PromoteService) and the
// deprecated collection forms of label update and delete that python-gitlab sends.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({
  users: TEAM,
  groups: [{ ...ACME, members: TEAM_MEMBERS }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private',
      labels: [{ name: 'bug', color: '#FF0000', description: 'A bug' }],
      milestones: [{ title: 'v1', description: 'First' }],
      issues: [{ title: 'One', labels: ['bug'], milestone: 'v1' }],
    },
    { namespace: 'acme', path: 'web', visibility: 'private', labels: [{ name: 'bug', color: '#00FF00' }], milestones: [{ title: 'v1' }], issues: [{ title: 'Two', labels: ['bug'], milestone: 'v1' }] },
    { namespace: 'dev', path: 'mine', visibility: 'private', labels: [{ name: 'solo', color: '#000000' }] },
  ],
}, '2026-05-04T10:00:00Z');
const call = (path: string, method = 'GET', json?: unknown, token = 'maintainer-token') => apiCall(world(), path, { method, token, json });

describe('label promotion', () => {
  it('makes the group\'s label and merges every project label of that title into it', async () => {
    const res = await call('/projects/acme%2Fapp/labels/bug/promote', 'PUT');
    expect(res.status).toBe(200);
    const label = await res.json();
    expect(label).toMatchObject({ name: 'bug', color: '#FF0000', description: 'A bug' });
    expect(label).not.toHaveProperty('is_project_label');
    const groupLabels = await (await call('/groups/acme/labels')).json();
    expect(groupLabels.map((l: any) => [l.id, l.name])).toEqual([[label.id, 'bug']]);
    // Both projects' issues now carry the group label; the project labels are gone.
    for (const p of ['app', 'web']) {
      const issues = await (await call(`/projects/acme%2F${p}/issues?labels=bug`)).json();
      expect(issues).toHaveLength(1);
      const own = await (await call(`/projects/acme%2F${p}/labels?include_ancestor_groups=false`)).json();
      expect(own).toEqual([]);
    }
  });

  it('needs a project in a group and a label of the project', async () => {
    let res = await call('/projects/dev%2Fmine/labels/solo/promote', 'PUT', undefined, 'dev-token');
    expect([res.status, await res.json()]).toEqual([400, { message: 'Failed to promote project label to group label' }]);
    res = await call('/projects/acme%2Fapp/labels/nope/promote', 'PUT');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Label Not Found' }]);
    expect((await call('/projects/acme%2Fapp/labels/bug/promote', 'PUT', undefined, 'guest-token')).status).toBe(403);
  });
});

describe('the deprecated label forms', () => {
  it('update and delete a label named in the body', async () => {
    let res = await call('/projects/acme%2Fapp/labels', 'PUT', { name: 'bug', new_name: 'Label:that requires:encoding' });
    expect([res.status, (await res.json()).name]).toEqual([200, 'Label:that requires:encoding']);
    res = await call('/projects/acme%2Fapp/labels/Label%3Athat%20requires%3Aencoding');
    expect(res.status).toBe(200);
    res = await call('/groups/acme/labels', 'POST', { name: 'g', color: '#111111' });
    res = await call('/groups/acme/labels', 'PUT', { name: 'g', description: 'baz' });
    expect((await res.json()).description).toBe('baz');
    res = await call('/projects/acme%2Fapp/labels', 'PUT', { new_name: 'x' });
    expect([res.status, await res.json()]).toEqual([400, { error: 'label_id, name are missing, exactly one parameter must be provided' }]);
    expect((await call('/groups/acme/labels', 'DELETE', { name: 'g' })).status).toBe(204);
    expect((await call('/groups/acme/labels/g')).status).toBe(404);
  });
});

describe('milestone promotion', () => {
  it('makes the group\'s milestone and moves the issues of every milestone of that title', async () => {
    const [m] = await (await call('/projects/acme%2Fapp/milestones')).json();
    const res = await call(`/projects/acme%2Fapp/milestones/${m.id}/promote`, 'POST');
    expect([res.status, await res.json()]).toEqual([200, 200]);
    const groupMilestones = await (await call('/groups/acme/milestones')).json();
    expect(groupMilestones.map((g: any) => [g.title, g.description])).toEqual([['v1', 'First']]);
    for (const p of ['app', 'web']) {
      expect(await (await call(`/projects/acme%2F${p}/milestones?include_ancestors=false`)).json()).toEqual([]);
      const [issue] = await (await call(`/projects/acme%2F${p}/issues`)).json();
      expect(issue.milestone).toMatchObject({ id: groupMilestones[0].id, group_id: expect.any(Number) });
    }
    const again = await call('/projects/acme%2Fweb/milestones', 'POST', { title: 'v1' });
    expect(again.status).toBe(400);
  });

  it('refuses an unknown milestone, and callers who cannot admin both', async () => {
    const [m] = await (await call('/projects/acme%2Fapp/milestones')).json();
    const res = await call('/projects/acme%2Fapp/milestones/9999/promote', 'POST');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Not found' }]);
    expect((await call(`/projects/acme%2Fapp/milestones/${m.id}/promote`, 'POST', undefined, 'guest-token')).status).toBe(403);
  });
});
