// Feature flags and user lists (lib/api/feature_flags.rb, feature_flags_user_lists.rb).
import { describe, expect, it } from 'vitest';
import { TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({ users: TEAM, projects: [{ namespace: 'mai', path: 'app', visibility: 'private', members: TEAM_MEMBERS }] }, '2026-05-04T10:00:00Z');
const call = (path: string, method = 'GET', json?: unknown, token = 'dev-token') => apiCall(world(), `/projects/mai%2Fapp${path}`, { method, token, json });

describe('feature flags', () => {
  it('are made active with their strategies, listed, read, renamed and deleted', async () => {
    let res = await call('/feature_flags', 'POST', { name: 'test_flag', version: 'new_version_flag', strategies: [{ name: 'userWithId', parameters: { userIds: 'user1' } }] });
    expect(res.status).toBe(201);
    const flag = await res.json();
    expect(flag).toMatchObject({ name: 'test_flag', active: true, version: 'new_version_flag', scopes: [], strategies: [{ name: 'userWithId', parameters: { userIds: 'user1' }, scopes: [], user_list: null }] });
    expect((await (await call('/feature_flags')).json()).map((f: any) => f.name)).toEqual(['test_flag']);
    res = await call('/feature_flags/test_flag', 'PUT', { active: false, name: 'renamed_flag' });
    expect(await res.json()).toMatchObject({ name: 'renamed_flag', active: false });
    expect((await call('/feature_flags/test_flag')).status).toBe(404);
    expect(await (await call('/feature_flags?scope=disabled')).json()).toHaveLength(1);
    res = await call('/feature_flags/renamed_flag', 'DELETE');
    expect([res.status, (await res.json()).name]).toEqual([200, 'renamed_flag']);
    expect((await call('/feature_flags/renamed_flag')).status).toBe(404);
  });

  it('drop a strategy or a scope with _destroy', async () => {
    await call('/feature_flags', 'POST', { name: 'f' });
    let body = await (await call('/feature_flags/f', 'PUT', { strategies: [{ name: 'default', parameters: {}, scopes: [{ environment_scope: '*' }, { environment_scope: 'production' }] }, { name: 'userWithId', parameters: { userIds: 'a,b' } }] })).json();
    expect(body.strategies).toHaveLength(2);
    const [first, second] = body.strategies;
    body = await (await call('/feature_flags/f', 'PUT', { strategies: [{ id: second.id, _destroy: true }, { id: first.id, scopes: [{ id: first.scopes[1].id, _destroy: true }] }] })).json();
    expect(body.strategies.map((s: any) => [s.name, s.scopes.map((x: any) => x.environment_scope)])).toEqual([['default', ['*']]]);
  });

  it('refuse a taken or bad name, bad parameters, and reporters', async () => {
    await call('/feature_flags', 'POST', { name: 'f' });
    let res = await call('/feature_flags', 'POST', { name: 'f' });
    expect([res.status, await res.json()]).toEqual([400, { message: ['Name has already been taken'] }]);
    res = await call('/feature_flags', 'POST', { name: 'Bad Name' });
    expect(res.status).toBe(400);
    res = await call('/feature_flags', 'POST', { name: 'g', strategies: [{ name: 'userWithId', parameters: {} }] });
    expect([res.status, await res.json()]).toEqual([400, { message: ['Strategies parameters are invalid'] }]);
    expect((await call('/feature_flags', 'GET', undefined, 'reporter-token')).status).toBe(403);
    expect((await (await call('/feature_flags')).json())).toHaveLength(1);
  });
});

describe('feature flag user lists', () => {
  it('are made, searched, read, changed, and deleted unless a strategy uses them', async () => {
    let res = await call('/feature_flags_user_lists', 'POST', { name: 'testers', user_xids: '1,2' });
    expect(res.status).toBe(201);
    const list = await res.json();
    expect(list).toMatchObject({ iid: 1, name: 'testers', user_xids: '1,2', path: '/mai/app/-/feature_flags_user_lists/1', edit_path: '/mai/app/-/feature_flags_user_lists/1/edit' });
    expect((await (await call('/feature_flags_user_lists?search=test')).json()).map((l: any) => l.iid)).toEqual([1]);
    expect(await (await call('/feature_flags_user_lists?search=nope')).json()).toEqual([]);
    res = await call('/feature_flags_user_lists/1', 'PUT', { name: 'renamed' });
    expect((await res.json()).name).toBe('renamed');
    await call('/feature_flags', 'POST', { name: 'f', strategies: [{ name: 'gitlabUserList', parameters: {}, user_list_id: list.id }] });
    res = await call('/feature_flags_user_lists/1', 'DELETE');
    expect([res.status, await res.json()]).toEqual([409, { message: 'User list is associated with a strategy' }]);
    await call('/feature_flags/f', 'DELETE');
    expect((await call('/feature_flags_user_lists/1', 'DELETE')).status).toBe(204);
    expect((await call('/feature_flags_user_lists/1')).status).toBe(404);
    res = await call('/feature_flags_user_lists', 'POST', { name: 'x', user_xids: 'a, b' });
    expect(res.status).toBe(400);
  });
});
