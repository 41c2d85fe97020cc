// Generic packages (lib/api/generic_packages.rb), the package lists of projects and groups, and
// the instance's feature flags (lib/api/features.rb).
import { describe, expect, it } from 'vitest';
import { ACME, ORIGIN, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({
  users: TEAM,
  groups: [ACME],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', members: TEAM_MEMBERS }],
}, '2026-05-04T10:00:00Z');
const FILE = '/projects/acme%2Fapp/packages/generic/hello-world/v1.0.0/hello.tar.gz';
const put = (path: string, body: string, token = 'dev-token') =>
  world().handle(new Request(`${ORIGIN}/api/v4${path}`, { method: 'PUT', body, headers: { 'PRIVATE-TOKEN': token, 'Content-Type': 'application/octet-stream' } }));

describe('generic packages', () => {
  it('an upload makes the package; the file downloads as sent; a second file joins it', async () => {
    let res = await put(FILE, 'package content');
    expect([res.status, await res.json()]).toEqual([201, { message: '201 Created' }]);
    res = await put('/projects/acme%2Fapp/packages/generic/hello-world/v1.0.0/hello2.tar.gz?select=package_file', 'more');
    expect(await res.json()).toMatchObject({ file_name: 'hello2.tar.gz', size: 4, file_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    res = await apiCall(world(), FILE, { token: 'reporter-token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(await res.text()).toBe('package content');
    const list = await (await apiCall(world(), '/projects/acme%2Fapp/packages', { token: 'dev-token' })).json();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ name: 'hello-world', version: 'v1.0.0', package_type: 'generic', status: 'default', _links: { web_path: `/acme/app/-/packages/${list[0].id}` } });
    const files = await (await apiCall(world(), `/projects/acme%2Fapp/packages/${list[0].id}/package_files`, { token: 'dev-token' })).json();
    expect(files.map((f: any) => f.file_name)).toEqual(['hello.tar.gz', 'hello2.tar.gz']);
    const grouped = await (await apiCall(world(), '/groups/acme/packages', { token: 'dev-token' })).json();
    expect(grouped[0]).toMatchObject({ project_id: list[0]._links && expect.any(Number), project_path: 'acme/app' });
    expect((await apiCall(world(), `/projects/acme%2Fapp/packages/${list[0].id}`, { method: 'DELETE', token: 'dev-token' })).status).toBe(204);
    expect((await apiCall(world(), FILE, { token: 'dev-token' })).status).toBe(404);
  });

  it('refuses reporters, bad names, and outsiders', async () => {
    expect((await put(FILE, 'x', 'reporter-token')).status).toBe(403);
    const res = await put('/projects/acme%2Fapp/packages/generic/hello..world/v1/a.txt', 'x');
    expect([res.status, await res.json()]).toEqual([400, { error: 'package_name is invalid' }]);
    expect((await put(FILE, 'x', 'outsider-token')).status).toBe(404);
    expect(await (await apiCall(world(), '/projects/acme%2Fapp/packages', { token: 'dev-token' })).json()).toEqual([]);
    expect(await (await apiCall(world(), '/projects/acme%2Fapp/packages/protection/rules', { token: 'maintainer-token' })).json()).toEqual([]);
  });
});

describe('instance feature flags', () => {
  it('administrators set, list and delete them', async () => {
    let res = await apiCall(world(), '/features/packages_protected_packages', { method: 'POST', token: 'root-token', json: { value: true } });
    expect([res.status, await res.json()]).toEqual([201, { name: 'packages_protected_packages', state: 'on', gates: [{ key: 'boolean', value: true }], definition: null }]);
    res = await apiCall(world(), '/features/half', { method: 'POST', token: 'root-token', json: { value: 50 } });
    expect((await res.json()).state).toBe('conditional');
    expect((await (await apiCall(world(), '/features', { token: 'root-token' })).json()).map((f: any) => f.name)).toEqual(['half', 'packages_protected_packages']);
    expect((await apiCall(world(), '/features/half', { method: 'DELETE', token: 'root-token' })).status).toBe(204);
    expect((await apiCall(world(), '/features/x', { method: 'POST', token: 'dev-token', json: { value: true } })).status).toBe(403);
    // python-gitlab's path for it has a double slash, which GitLab's router takes.
    expect((await apiCall(world(), '/features//x', { method: 'POST', token: 'root-token', json: { value: false } })).status).toBe(201);
    expect((await apiCall(world(), '/features/x', { method: 'POST', token: 'root-token', json: { value: 'maybe' } })).status).toBe(400);
  });
});
