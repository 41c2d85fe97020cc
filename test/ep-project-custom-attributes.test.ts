// Custom attributes (lib/api/custom_attributes_endpoints.rb) of users, projects and groups:
// administrators set, read, list and delete them; anyone else is refused.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld({ users: TEAM, groups: [{ ...ACME, members: TEAM_MEMBERS }], projects: [teamProject()] }, '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];

describe.each([
  ['project', '/projects/acme%2Fapp', '404 Project Not Found', '/projects/acme%2Fnope'],
  ['group', '/groups/acme', '404 Group Not Found', '/groups/nope'],
  ['user', '/users/dev', '404 User Not Found', '/users/nobody'],
])('custom attributes of a %s', (_kind, base, missing, nowhere) => {
  it('an administrator sets, reads, lists, changes and deletes them', async () => {
    expect(await (await call(`${base}/custom_attributes`)).json()).toEqual([]);
    expect(await body(await call(`${base}/custom_attributes/key`, { method: 'PUT', json: { value: 'value1' } }))).toEqual([200, { key: 'key', value: 'value1' }]);
    await call(`${base}/custom_attributes/__proto__`, { method: 'PUT', json: { value: 'odd' } });
    expect(await body(await call(`${base}/custom_attributes/key`, { method: 'PUT', json: { value: 'value2' } }))).toEqual([200, { key: 'key', value: 'value2' }]);
    expect(await body(await call(`${base}/custom_attributes/key`))).toEqual([200, { key: 'key', value: 'value2' }]);
    expect(await (await call(`${base}/custom_attributes`)).json()).toEqual([{ key: '__proto__', value: 'odd' }, { key: 'key', value: 'value2' }]);
    expect((await call(`${base}/custom_attributes/key`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${base}/custom_attributes/key`))).toEqual([404, { message: '404 Not Found' }]);
    expect(await body(await call(`${base}/custom_attributes/key`, { method: 'DELETE' }))).toEqual([404, { message: '404 Not Found' }]);
  });

  it('refuses anyone else, and a missing value; an unknown resource is 404', async () => {
    expect((await call(`${base}/custom_attributes`, { token: 'maintainer-token' })).status).toBe(403);
    expect((await call(`${base}/custom_attributes/k`, { method: 'PUT', token: 'maintainer-token', json: { value: 'v' } })).status).toBe(403);
    expect((await apiCall(world(), `${base}/custom_attributes`)).status).toBe(401);
    expect(await body(await call(`${base}/custom_attributes/k`, { method: 'PUT', json: {} }))).toEqual([400, { message: '400 Bad request - "value" not given' }]);
    expect(await body(await call(`${nowhere}/custom_attributes`))).toEqual([404, { message: missing }]);
    expect(await (await call(`${base}/custom_attributes`)).json()).toEqual([]);
  });
});

describe('the lists\' custom_attributes filter', () => {
  it('finds the projects and groups carrying every pair, for administrators; others are not filtered', async () => {
    await call('/projects/acme%2Fapp/custom_attributes/team', { method: 'PUT', json: { value: 'blue' } });
    await call('/groups/acme/custom_attributes/team', { method: 'PUT', json: { value: 'blue' } });
    const names = async (path: string, token = 'root-token') => (await (await call(path, { token })).json()).map((x: any) => x.full_path ?? x.path_with_namespace);
    expect(await names('/projects?custom_attributes[team]=blue')).toEqual(['acme/app']);
    expect(await names('/projects?custom_attributes[team]=red')).toEqual([]);
    expect(await names('/groups?custom_attributes[team]=blue')).toEqual(['acme']);
    expect(await names('/groups?custom_attributes[team]=blue&custom_attributes[other]=x')).toEqual([]);
    expect(await names('/projects?custom_attributes[team]=red', 'maintainer-token')).toEqual(['acme/app']);
  });
});

describe('a user\'s custom attributes', () => {
  it('are those the users API filters and shows', async () => {
    await call('/users/dev/custom_attributes/team', { method: 'PUT', json: { value: 'blue' } });
    const found = await (await call('/users?custom_attributes[team]=blue&with_custom_attributes=true')).json();
    expect(found.map((u: any) => [u.username, u.custom_attributes])).toEqual([['dev', [{ key: 'team', value: 'blue' }]]]);
  });
});
