// The higher tiers: epics and iterations as group data, and the Issue entity's and the lists'
// EE fields and filters (ee/lib/api/epics.rb, iterations.rb, EE::API::Entities::Issue*).
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';

const fixture = (tier: 'free' | 'premium' | 'ultimate'): Fixture => ({
  instance: { tier },
  users: TEAM,
  groups: [{
    ...ACME, members: TEAM_MEMBERS,
    labels: [{ name: 'roadmap' }],
    epics: [
      { title: 'Platform', author: 'mai', labels: ['roadmap'], start_date: '2024-01-01', due_date: '2024-06-30' },
      { title: 'Login', author: 'dev', parent: 'Platform' },
      { title: 'Hush', author: 'mai', confidential: true },
    ],
    iterations: [
      { title: 'Sprint 1', start_date: '2024-02-19', due_date: '2024-03-03' },
      { title: 'Sprint 2', start_date: '2024-03-04', due_date: '2024-03-17' },
      { title: 'Sprint 3', start_date: '2024-03-18', due_date: '2024-03-31' },
    ],
  }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'public', creator: 'root',
    issues: [
      { title: 'Weighted', author: 'dev', weight: 3, epic: 'Login', iteration: 'Sprint 2', health_status: 'at_risk' },
      { title: 'Light', author: 'dev', weight: 1, iteration: 'Sprint 1' },
      { title: 'Plain', author: 'dev' },
    ],
  }],
});

async function call(emulator: ReturnType<ReturnType<typeof seededWorld>> | Awaited<ReturnType<typeof createEmulator>>, method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(emulator, path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const titles = (list: { title: string }[]) => list.map((i) => i.title);
const APP = '/projects/acme%2Fapp';

describe('premium', () => {
  const world = seededWorld(fixture('premium'), NOW);

  it('lists, gets and creates epics of a group', async () => {
    const list = await call(world(), 'GET', '/groups/acme/epics', 'guest-token');
    expect(titles(list.body)).toEqual(['Login', 'Platform']);
    expect(titles((await call(world(), 'GET', '/groups/acme/epics', 'reporter-token')).body)).toEqual(['Hush', 'Login', 'Platform']);
    const login = list.body[0];
    expect(login).toMatchObject({ iid: 2, parent_iid: 1, color: '#1068bf', references: { short: '&2', full: 'acme&2' }, web_url: 'https://gitlab.example.com/groups/acme/-/epics/2' });
    const platform = (await call(world(), 'GET', '/groups/acme/epics/1', 'guest-token')).body;
    expect(platform).toMatchObject({ title: 'Platform', labels: ['roadmap'], start_date: '2024-01-01', due_date: '2024-06-30', end_date: '2024-06-30', state: 'opened' });
    expect((await call(world(), 'GET', '/groups/acme/epics/3', 'guest-token')).body).toEqual({ message: '404 Not found' });
    const made = await call(world(), 'POST', '/groups/acme/epics', 'dev-token', { title: 'New', labels: 'roadmap,fresh', parent_id: platform.id });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ iid: 4, labels: ['fresh', 'roadmap'], parent_id: platform.id });
    expect((await call(world(), 'POST', '/groups/acme/epics', 'guest-token', { title: 'No' })).status).toBe(403);
  });

  it('lists iterations with their state from the clock', async () => {
    const { body } = await call(world(), 'GET', '/groups/acme/iterations', 'guest-token');
    expect(body.map((i: { title: string; state: number }) => [i.title, i.state])).toEqual([['Sprint 1', 3], ['Sprint 2', 2], ['Sprint 3', 1]]);
    expect(titles((await call(world(), 'GET', '/groups/acme/iterations?state=current', 'guest-token')).body)).toEqual(['Sprint 2']);
    expect(titles((await call(world(), 'GET', `${APP}/iterations?state=opened`, 'guest-token')).body)).toEqual(['Sprint 2', 'Sprint 3']);
  });

  it('renders weight, epic and iteration on issues, and filters by them', async () => {
    const issue = (await call(world(), 'GET', `${APP}/issues/1`, 'guest-token')).body;
    expect(issue).toMatchObject({ weight: 3, epic_iid: 2, epic: { iid: 2, title: 'Login', group_id: expect.any(Number) }, iteration: { title: 'Sprint 2', state: 2 }, blocking_issues_count: 0 });
    expect(issue).not.toHaveProperty('health_status');
    const list = async (q: string) => titles((await call(world(), 'GET', `${APP}/issues?${q}`, 'guest-token')).body);
    expect(await list('weight=1')).toEqual(['Light']);
    expect(await list('weight=None')).toEqual(['Plain']);
    expect(await list('epic_id=Any')).toEqual(['Weighted']);
    expect(await list('iteration_id=Current')).toEqual(['Weighted']);
    expect(await list('iteration_title=Sprint 1')).toEqual(['Light']);
    expect(await list('not[weight]=3')).toEqual(['Plain', 'Light']);
    expect(await list('order_by=weight&sort=asc')).toEqual(['Light', 'Weighted', 'Plain']);
    expect((await call(world(), 'GET', `${APP}/issues?weight=heavy`, 'guest-token')).body).toEqual({ error: 'weight does not have a valid value' });
  });

  it('links issues: blocks counts in blocking_issues_count, and the links list shows the type from each side', async () => {
    const made = await call(world(), 'POST', `${APP}/issues/1/links`, 'dev-token', { target_project_id: 'acme/app', target_issue_iid: '2', link_type: 'blocks' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ source_issue: { iid: 1 }, target_issue: { iid: 2 }, link_type: 'blocks' });
    expect((await call(world(), 'GET', `${APP}/issues/1`, 'guest-token')).body.blocking_issues_count).toBe(1);
    const fromTarget = (await call(world(), 'GET', `${APP}/issues/2/links`, 'guest-token')).body;
    expect(fromTarget).toEqual([expect.objectContaining({ iid: 1, link_type: 'is_blocked_by', issue_link_id: expect.any(Number), link_created_at: NOW })]);
    expect((await call(world(), 'POST', `${APP}/issues/2/links`, 'dev-token', { target_project_id: 'acme/app', target_issue_iid: '1' })).body).toEqual({ message: 'Issue(s) already assigned' });
    expect((await call(world(), 'POST', `${APP}/issues/2/links`, 'dev-token', { target_project_id: 'acme/app', target_issue_iid: '99' })).status).toBe(404);
    await call(world(), 'PUT', `${APP}/issues/2`, 'dev-token', { state_event: 'close' });
    expect((await call(world(), 'GET', `${APP}/issues/1`, 'guest-token')).body.blocking_issues_count).toBe(0);
    const removed = await call(world(), 'DELETE', `${APP}/issues/2/links/${fromTarget[0].issue_link_id}`, 'dev-token');
    expect(removed.body.link_type).toBe('blocks');
    expect((await call(world(), 'GET', `${APP}/issues/1/links`, 'guest-token')).body).toEqual([]);
  });

  it('sets an epic and a weight through the API; only weight is enough for an edit', async () => {
    const epics = (await call(world(), 'GET', '/groups/acme/epics', 'dev-token')).body as { id: number; title: string }[];
    const platform = epics.find((e) => e.title === 'Platform')!;
    const made = await call(world(), 'POST', `${APP}/issues`, 'dev-token', { title: 'In an epic', epic_id: platform.id, weight: 5 });
    expect(made.body).toMatchObject({ epic_iid: 1, weight: 5 });
    expect((await call(world(), 'PUT', `${APP}/issues/${made.body.iid}`, 'dev-token', { weight: 8 })).body.weight).toBe(8);
    expect((await call(world(), 'PUT', `${APP}/issues/${made.body.iid}`, 'dev-token', { epic_iid: 2 })).body.epic_iid).toBe(2);
    expect((await call(world(), 'POST', `${APP}/issues`, 'dev-token', { title: 'x', epic_id: 999 })).body).toEqual({ message: '404 Epic Not Found' });
  });
});

describe('ultimate and free', () => {
  it('ultimate adds health_status and its filter on /issues', async () => {
    const emulator = await createEmulator({ fixture: fixture('ultimate'), clock: { now: NOW, frozen: true } });
    expect((await call(emulator, 'GET', `${APP}/issues/1`, 'guest-token')).body.health_status).toBe('at_risk');
    expect(titles((await call(emulator, 'GET', '/issues?scope=all&health_status=at_risk', 'guest-token')).body)).toEqual(['Weighted']);
  });

  it('the free tier has no epics, iterations or EE fields, and ignores their filters', async () => {
    const emulator = await createEmulator({ fixture: fixture('free'), clock: { now: NOW, frozen: true } });
    expect((await call(emulator, 'GET', '/groups/acme/epics', 'guest-token')).status).toBe(404);
    expect((await call(emulator, 'GET', '/groups/acme/iterations', 'guest-token')).status).toBe(404);
    const issue = (await call(emulator, 'GET', `${APP}/issues/1`, 'guest-token')).body;
    for (const key of ['weight', 'epic', 'epic_iid', 'iteration', 'health_status', 'blocking_issues_count']) expect(issue).not.toHaveProperty(key);
    expect(titles((await call(emulator, 'GET', `${APP}/issues?weight=1`, 'guest-token')).body)).toEqual(['Plain', 'Light', 'Weighted']);
    expect((await call(emulator, 'PUT', `${APP}/issues/1`, 'dev-token', { weight: 2 })).status).toBe(400);
    expect((await call(emulator, 'POST', `${APP}/issues/1/links`, 'dev-token', { target_project_id: 'acme/app', target_issue_iid: '2', link_type: 'blocks' })).body).toEqual({ message: 'Blocked issues not available for current license' });
    expect((await call(emulator, 'POST', `${APP}/issues/1/links`, 'dev-token', { target_project_id: 'acme/app', target_issue_iid: '2' })).status).toBe(201);
  });
});
