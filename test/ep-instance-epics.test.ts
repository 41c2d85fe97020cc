// An epic's update (Epics::UpdateService) and its issues (ee/lib/api/epic_issues.rb), at the
// Premium tier.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const FIXTURE = {
  instance: { tier: 'premium' as const },
  users: TEAM,
  groups: [{ ...ACME, members: TEAM_MEMBERS }],
  projects: [
    { namespace: 'acme', path: 'app', visibility: 'private' as const, issues: [{ title: 'One' }, { title: 'Two' }] },
    { namespace: 'dev', path: 'mine', visibility: 'private' as const, issues: [{ title: 'Mine' }] },
  ],
};
const world = seededWorld(FIXTURE, '2026-05-04T10:00:00Z');
const call = (path: string, method = 'GET', json?: unknown, token = 'dev-token') => apiCall(world(), path, { method, token, json });

async function newEpic(title = 'Test epic') {
  return (await call('/groups/acme/epics', 'POST', { title })).json();
}

describe('PUT /groups/:id/epics/:epic_iid', () => {
  it('changes the title and the labels, made as the group\'s where missing', async () => {
    const epic = await newEpic();
    const res = await call(`/groups/acme/epics/${epic.iid}`, 'PUT', { title: 'Fixed title', labels: 'label1,label2' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: 'Fixed title', labels: ['label1', 'label2'] });
    const got = await (await call(`/groups/acme/epics/${epic.iid}`)).json();
    expect(got).toMatchObject({ title: 'Fixed title', labels: ['label1', 'label2'] });
    const more = await (await call(`/groups/acme/epics/${epic.iid}`, 'PUT', { add_labels: 'x', remove_labels: 'label1', state_event: 'close' })).json();
    expect(more).toMatchObject({ labels: ['label2', 'x'], state: 'closed' });
  });

  it('needs something to change, a planner, and an epic that exists', async () => {
    const epic = await newEpic();
    let res = await call(`/groups/acme/epics/${epic.iid}`, 'PUT', {});
    expect(res.status).toBe(400);
    res = await call(`/groups/acme/epics/${epic.iid}`, 'PUT', { title: 'x' }, 'guest-token');
    expect(res.status).toBe(403);
    res = await call('/groups/acme/epics/99', 'PUT', { title: 'x' });
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Not found' }]);
    res = await call(`/groups/acme/epics/${epic.iid}`, 'PUT', { title: '  ' });
    expect(res.status).toBe(400);
    expect((await (await call(`/groups/acme/epics/${epic.iid}`)).json()).title).toBe('Test epic');
  });
});

describe('an epic\'s issues', () => {
  it('adds an issue of the group, lists it, and takes it off', async () => {
    const epic = await newEpic();
    const [issue] = await (await call('/projects/acme%2Fapp/issues?search=One')).json();
    expect(await (await call(`/groups/acme/epics/${epic.iid}/issues`)).json()).toEqual([]);
    const res = await call(`/groups/acme/epics/${epic.iid}/issues/${issue.id}`, 'POST');
    expect(res.status).toBe(201);
    const link = await res.json();
    expect(link).toMatchObject({ id: issue.id, epic: { iid: epic.iid }, issue: { id: issue.id } });
    const list = await (await call(`/groups/acme/epics/${epic.iid}/issues`)).json();
    expect(list.map((i: any) => [i.id, i.epic_issue_id])).toEqual([[issue.id, issue.id]]);
    expect((await (await call(`/projects/acme%2Fapp/issues/${issue.iid}`)).json()).epic_iid).toBe(epic.iid);
    let again = await call(`/groups/acme/epics/${epic.iid}/issues/${issue.id}`, 'POST');
    expect([again.status, await again.json()]).toEqual([409, { message: 'Issue(s) already assigned' }]);
    expect((await call(`/groups/acme/epics/${epic.iid}/issues/${link.id}`, 'DELETE')).status).toBe(200);
    expect(await (await call(`/groups/acme/epics/${epic.iid}/issues`)).json()).toEqual([]);
    again = await call(`/groups/acme/epics/${epic.iid}/issues/${link.id}`, 'DELETE');
    expect(again.status).toBe(404);
  });

  it('takes an issue of another namespace, refuses one unseen or unknown, and is not in the Free tier', async () => {
    const epic = await newEpic();
    const [mine] = await (await call('/projects/dev%2Fmine/issues')).json();
    let res = await call(`/groups/acme/epics/${epic.iid}/issues/${mine.id}`, 'POST', undefined, 'maintainer-token');
    expect([res.status, await res.json()]).toEqual([404, { message: 'No matching issue found. Make sure that you are adding a valid issue URL.' }]);
    res = await call(`/groups/acme/epics/${epic.iid}/issues/${mine.id}`, 'POST');
    expect(res.status).toBe(201);
    res = await call(`/groups/acme/epics/${epic.iid}/issues/99999`, 'POST');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Not found' }]);
    const free = await createEmulator({ fixture: { ...FIXTURE, instance: { tier: 'free' } } });
    expect((await apiCall(free, '/groups/acme/epics/1/issues', { token: 'dev-token' })).status).toBe(404);
  });
});
