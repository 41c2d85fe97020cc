// Stars (star, unstar, starrers), housekeeping, a project's storage and its groups
// (lib/api/projects.rb).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld(
  {
    users: TEAM,
    groups: [{ ...ACME, members: TEAM_MEMBERS }, { path: 'sub', parent: 'acme', visibility: 'public' }, { path: 'friends', visibility: 'private' }],
    projects: [teamProject({ visibility: 'public' }), { namespace: 'acme/sub', path: 'deep', visibility: 'public', creator: 'root' }],
  },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

describe('stars', () => {
  it('a user stars a project once (304 the second time) and unstars it; star_count follows', async () => {
    let res = await call(`${APP}/star`, { method: 'POST', token: 'dev-token' });
    expect(res.status).toBe(201);
    expect((await res.json()).star_count).toBe(1);
    expect((await call(`${APP}/star`, { method: 'POST', token: 'dev-token' })).status).toBe(304);
    res = await call(`${APP}/star`, { method: 'POST', token: 'outsider-token' });
    expect((await res.json()).star_count).toBe(2);
    expect((await (await call(APP)).json()).star_count).toBe(2);
    res = await call(`${APP}/unstar`, { method: 'POST', token: 'dev-token' });
    expect([res.status, (await res.json()).star_count]).toEqual([201, 1]);
    expect((await call(`${APP}/unstar`, { method: 'POST', token: 'dev-token' })).status).toBe(304);
    expect((await apiCall(world(), `${APP}/star`, { method: 'POST' })).status).toBe(401);
  });

  it('are what the projects list\'s starred=true reads', async () => {
    expect(await (await call('/projects?starred=true', { token: 'dev-token' })).json()).toEqual([]);
    await call(`${APP}/star`, { method: 'POST', token: 'dev-token' });
    expect((await (await call('/projects?starred=true', { token: 'dev-token' })).json()).map((p: any) => p.path_with_namespace)).toEqual(['acme/app']);
    expect(await (await call('/projects?starred=true', { token: 'outsider-token' })).json()).toEqual([]);
  });

  it('lists the starrers, newest first, searchable', async () => {
    await call(`${APP}/star`, { method: 'POST', token: 'dev-token' });
    world().clock.set('2026-05-05T10:00:00Z');
    await call(`${APP}/star`, { method: 'POST', token: 'outsider-token' });
    const list = await (await apiCall(world(), `${APP}/starrers`)).json();
    expect(list.map((s: any) => [s.user.username, s.starred_since])).toEqual([['out', '2026-05-05T10:00:00.000Z'], ['dev', '2026-05-04T10:00:00.000Z']]);
    expect((await (await apiCall(world(), `${APP}/starrers?search=dee`)).json()).map((s: any) => s.user.username)).toEqual(['dev']);
  });
});

describe('housekeeping', () => {
  it('a maintainer starts it; again within a day is 409; a developer may not', async () => {
    expect((await call(`${APP}/housekeeping`, { method: 'POST', token: 'maintainer-token' })).status).toBe(201);
    expect(await body(await call(`${APP}/housekeeping`, { method: 'POST', json: { task: 'prune' } })))
      .toEqual([409, { message: 'Somebody already triggered housekeeping for this resource within the past 1440 minutes' }]);
    world().clock.set('2026-05-05T10:00:01Z');
    expect((await call(`${APP}/housekeeping`, { method: 'POST' })).status).toBe(201);
    expect((await call(`${APP}/housekeeping`, { method: 'POST', token: 'dev-token' })).status).toBe(403);
    expect(await body(await call(`${APP}/housekeeping`, { method: 'POST', json: { task: 'nope' } }))).toEqual([400, { error: 'task does not have a valid value' }]);
  });
});

describe('storage', () => {
  it('shows an administrator the shard and the hashed path', async () => {
    const project = await (await call(APP)).json();
    const hex = createHash('sha256').update(String(project.id)).digest('hex');
    expect(await body(await call(`${APP}/storage`))).toEqual([200, {
      project_id: project.id, disk_path: `@hashed/${hex.slice(0, 2)}/${hex.slice(2, 4)}/${hex}`, created_at: project.created_at, repository_storage: 'default',
    }]);
    expect((await call(`${APP}/storage`, { token: 'maintainer-token' })).status).toBe(403);
  });
});

describe('a project\'s groups', () => {
  it('are its hierarchy\'s groups, and with with_shared those it is shared with', async () => {
    const ids = async (path: string) => (await (await call(path)).json()).id;
    const [acme, sub, friends] = [await ids('/groups/acme'), await ids('/groups/acme%2Fsub'), await ids('/groups/friends')];
    expect((await (await call('/projects/acme%2Fsub%2Fdeep/groups')).json()).map((g: any) => g.id)).toEqual([acme, sub]);
    const one = (await (await call('/projects/acme%2Fsub%2Fdeep/groups')).json())[1];
    expect(one).toEqual({ id: sub, web_url: 'https://gitlab.example.com/groups/acme/sub', name: 'sub', avatar_url: null, full_name: 'acme / sub', full_path: 'acme/sub' });
    expect((await call('/projects/acme%2Fsub%2Fdeep/share', { method: 'POST', json: { group_id: friends, group_access: 30 } })).status).toBe(201);
    expect((await (await call('/projects/acme%2Fsub%2Fdeep/groups?with_shared=true')).json()).map((g: any) => g.id)).toEqual([acme, sub, friends]);
    expect((await (await call('/projects/acme%2Fsub%2Fdeep/groups?with_shared=true&shared_min_access_level=40')).json()).map((g: any) => g.id)).toEqual([acme, sub]);
    expect((await (await call(`/projects/acme%2Fsub%2Fdeep/groups?with_shared=true&skip_groups[]=${acme}&search=fri`)).json()).map((g: any) => g.id)).toEqual([friends]);
  });
});
