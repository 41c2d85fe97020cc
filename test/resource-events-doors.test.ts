// Resource events through the two network doors: @gitbeaker/rest against the node server
// (IssueStateEvents, IssueLabelEvents, IssueMilestoneEvents, MergeRequestLabelEvents; the
// weight events at the higher tier), and plain fetch through the MSW handler set.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture = (tier: 'free' | 'premium'): Fixture => ({
  instance: { tier },
  users: [
    { username: 'dev', name: 'Dee Veloper', tokens: [{ token: 'dev-token' }] },
    { username: 'gus', name: 'Gus Guest', tokens: [{ token: 'guest-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }, { user: 'gus', access_level: 'guest' }] }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'public',
    repository: { files: { 'README.md': '# App\n' }, commits: [{ branch: 'fix', message: 'Fix it', files: { 'fix.txt': 'fixed\n' } }] },
    labels: [{ name: 'bug' }, { name: 'ux' }],
    milestones: [{ title: 'v1' }],
    issues: [{ title: 'Crash on start', author: 'gus' }],
    merge_requests: [{ title: 'Fix it', source_branch: 'fix', author: 'dev' }],
  }],
});

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('reads state, label, milestone and weight events of issues and merge requests', async () => {
    const emulator = await createEmulator({ fixture: fixture('premium'), clock: { now: '2026-03-04T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'dev-token' });
      const project = 'acme/app';
      const milestone = (await api.ProjectMilestones.all(project))[0]!;
      await api.Issues.edit(project, 1, { addLabels: 'bug,ux', milestoneId: milestone.id, stateEvent: 'close', weight: 2 });
      await api.Issues.edit(project, 1, { removeLabels: 'ux', stateEvent: 'reopen' });
      await api.MergeRequests.edit(project, 1, { addLabels: 'bug', stateEvent: 'close' });

      const states = await api.IssueStateEvents.all(project, 1);
      expect(states.map((e) => e.state)).toEqual(['closed', 'reopened']);
      expect(states[0]).toMatchObject({ resource_type: 'Issue', user: { username: 'dev' }, created_at: '2026-03-04T12:00:00.000Z' });
      expect(await api.IssueStateEvents.show(project, 1, states[1]!.id)).toEqual(states[1]);
      const labels = await api.IssueLabelEvents.all(project, 1);
      expect(labels.map((e) => `${e.action} ${(e.label as { name: string }).name}`)).toEqual(['add bug', 'add ux', 'remove ux']);
      const milestones = await api.IssueMilestoneEvents.all(project, 1);
      expect(milestones).toEqual([expect.objectContaining({ action: 'add', state: 'closed', milestone: expect.objectContaining({ title: 'v1' }) })]);
      // gitbeaker's IssueWeightEvents reads the state events' URL; the weight events are read by fetch.
      const weights = await (await fetch(`${server.url}/api/v4/projects/acme%2Fapp/issues/1/resource_weight_events`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } })).json();
      expect(weights.map((e: { weight: number }) => e.weight)).toEqual([2]);
      expect((await api.MergeRequestLabelEvents.all(project, 1)).map((e) => e.resource_type)).toEqual(['MergeRequest']);
      const paged = await api.IssueLabelEvents.all(project, 1, { perPage: 1, maxPages: 1 });
      expect(paged).toHaveLength(1);
      await expect(api.IssueLabelEvents.show(project, 1, 999)).rejects.toThrow();
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door', () => {
  const door = mswDoor();

  it('serves resource events to fetch, with GitLab’s 401 and 404', async () => {
    const emulator = await createEmulator({ fixture: fixture('free'), clock: { now: '2026-03-04T12:00:00Z', frozen: true } });
    const api = door.serve(emulator);
    const send = async (path: string, method = 'GET', body?: unknown, token = 'dev-token') => {
      const res = await api(`/projects/acme%2Fapp${path}`, token, method, body);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    expect((await send('/issues/1', 'PUT', { state_event: 'close', labels: 'bug' })).status).toBe(200);
    expect((await send('/issues/1/resource_state_events')).body.map((e: { state: string }) => e.state)).toEqual(['closed']);
    expect((await send('/issues/1/resource_label_events', 'GET', undefined, 'guest-token')).body).toHaveLength(1);
    expect((await send('/issues/1/resource_state_events', 'GET', undefined, 'nobody')).status).toBe(401);
    expect((await send('/issues/7/resource_label_events')).body).toEqual({ message: '404 Issue Not Found' });
    expect((await send('/issues/1/resource_weight_events')).status).toBe(404);
  });
});
