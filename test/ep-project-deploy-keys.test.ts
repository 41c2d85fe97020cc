// Deploy keys (lib/api/deploy_keys.rb) and the keys API (lib/api/keys.rb): administrators add
// instance keys; a project's maintainers add, enable, change and remove its keys; a key shared by
// projects stays until the last removes it; administrators find any key by id or fingerprint.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const KEY1 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIN4jrPk163LGu4FSEdDcmYHOHj1zjF4F55duewU3DjXc one@example';
const KEY1_SHA = 'SHA256:tdDrBRpnaLgCeU4b20uDPVan0ZgFVxURSRCwIwtxKak';
const KEY1_MD5 = '39:a6:4a:cd:9e:37:64:66:83:66:b6:e7:3f:46:38:43';
const KEY2 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBO8HAt3fz+lSfFl+mMQz56ZF5wPcvc7qxWmKUT0vfRQ two@example';
const KEY2_SHA = 'SHA256:Y0ZpxgmzXy6Wec6K+osr8ntMwV4jSpDCeHCI3ju0glg';

const world = seededWorld(
  { users: TEAM, groups: [ACME], projects: [teamProject(), teamProject({ path: 'other' }), teamProject({ path: 'mine', members: [{ user: 'dev', access_level: 'maintainer' }] })] },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';
const OTHER = '/projects/acme%2Fother';

describe('deploy keys of a project', () => {
  it('a maintainer adds one: the key, its fingerprints and can_push; it lists, reads, and is 201 again as it is', async () => {
    const res = await call(`${APP}/deploy_keys`, { method: 'POST', token: 'maintainer-token', json: { title: 'ci', key: `  ${KEY1}\n`, can_push: true } });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made).toEqual({
      id: 1, title: 'ci', created_at: '2026-05-04T10:00:00.000Z', expires_at: null, key: KEY1, usage_type: 'auth_and_signing',
      fingerprint: KEY1_MD5, fingerprint_sha256: KEY1_SHA, can_push: true,
    });
    expect((await (await call(`${APP}/deploy_keys`)).json()).map((k: any) => k.id)).toEqual([1]);
    expect(await body(await call(`${APP}/deploy_keys/1`))).toEqual([200, made]);
    expect(await body(await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'again', key: KEY1 } }))).toEqual([201, made]);
    expect(await body(await call(`${APP}/deploy_keys/2`))).toEqual([404, { message: '404 Not found' }]);
  });

  it('answers 404 to whom cannot see the project, 403 to a developer, 401 anonymous', async () => {
    expect(await body(await call(`${APP}/deploy_keys`, { token: 'outsider-token' }))).toEqual([404, { message: '404 Project Not Found' }]);
    expect((await call(`${APP}/deploy_keys`, { token: 'dev-token' })).status).toBe(403);
    expect((await apiCall(world(), `${APP}/deploy_keys`)).status).toBe(401);
  });

  it('refuses a bad key, a blank title, an expired key, and a key another user holds; nothing is made', async () => {
    let res = await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'x', key: 'not a key' } });
    expect(await body(res)).toEqual([400, { message: {
      'deploy_key.key': ['type is forbidden. Must be RSA, DSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK'], 'deploy_key.fingerprint_sha256': ['cannot be generated'],
    } }]);
    res = await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: ' ', key: KEY1, expires_at: '2020-01-01T00:00:00Z' } });
    expect(await body(res)).toEqual([400, { message: { 'deploy_key.title': ["can't be blank"], 'deploy_key.key': ['has expired'] } }]);
    res = await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'x' } });
    expect(await body(res)).toEqual([400, { message: '400 Bad request - "key" not given' }]);
    expect((await call('/user/keys', { method: 'POST', token: 'dev-token', json: { title: 'laptop', key: KEY2 } })).status).toBe(201);
    res = await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'x', key: KEY2 } });
    expect(await body(res)).toEqual([400, { message: { 'deploy_key.fingerprint_sha256': ['has already been taken'] } }]);
    expect(await (await call(`${APP}/deploy_keys`)).json()).toEqual([]);
    expect(await (await call('/deploy_keys')).json()).toEqual([]);
  });

  it('enables a key of another project the caller maintains, and a public key; not one it cannot reach', async () => {
    await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'ci', key: KEY1 } });
    // dev maintains acme/mine only: acme/app's key is out of reach.
    expect(await body(await call('/projects/acme%2Fmine/deploy_keys/1/enable', { method: 'POST', token: 'dev-token' }))).toEqual([404, { message: '404 Deploy key Not Found' }]);
    const res = await call(`${OTHER}/deploy_keys/1/enable`, { method: 'POST', token: 'maintainer-token' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ id: 1, title: 'ci', fingerprint_sha256: KEY1_SHA });
    expect((await call(`${OTHER}/deploy_keys/1/enable`, { method: 'POST' })).status).toBe(201);
    expect((await (await call(`${OTHER}/deploy_keys`)).json()).map((k: any) => [k.id, k.can_push])).toEqual([[1, false]]);
    await call('/deploy_keys', { method: 'POST', json: { title: 'public', key: KEY2 } });
    expect((await call('/projects/acme%2Fmine/deploy_keys/2/enable', { method: 'POST', token: 'dev-token' })).status).toBe(201);
    expect(await body(await call(`${APP}/deploy_keys/99/enable`, { method: 'POST' }))).toEqual([404, { message: '404 Deploy key Not Found' }]);
  });

  it('a key added by the same material in a second project the caller maintains is joined, not made again', async () => {
    await call(`${APP}/deploy_keys`, { method: 'POST', token: 'maintainer-token', json: { title: 'ci', key: KEY1 } });
    const res = await call(`${OTHER}/deploy_keys`, { method: 'POST', token: 'maintainer-token', json: { title: 'other title', key: KEY1, can_push: true } });
    expect(await res.json()).toMatchObject({ id: 1, title: 'ci', can_push: true });
  });

  it('changes the title and can_push; needs one of them', async () => {
    await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'ci', key: KEY1 } });
    let res = await call(`${APP}/deploy_keys/1`, { method: 'PUT', json: { title: 'deploy', can_push: true } });
    expect(await res.json()).toMatchObject({ id: 1, title: 'deploy', can_push: true });
    res = await call(`${APP}/deploy_keys/1`, { method: 'PUT', json: {} });
    expect(await body(res)).toEqual([400, { error: 'title, can_push are missing, at least one parameter must be provided' }]);
  });

  it('removing a key from one project keeps it for the others; from the last, it is gone', async () => {
    await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'ci', key: KEY1 } });
    await call(`${OTHER}/deploy_keys/1/enable`, { method: 'POST' });
    expect((await call(`${APP}/deploy_keys/1`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${APP}/deploy_keys/1`, { method: 'DELETE' }))).toEqual([404, { message: '404 Deploy key Not Found' }]);
    expect((await (await call('/deploy_keys')).json()).map((k: any) => k.id)).toEqual([1]);
    expect((await call(`${OTHER}/deploy_keys/1`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await call('/deploy_keys')).json()).toEqual([]);
  });
});

describe('instance deploy keys', () => {
  it('an administrator adds a public key and lists every key with the projects it opens', async () => {
    const res = await call('/deploy_keys', { method: 'POST', json: { title: 'fleet', key: KEY2 } });
    expect(await body(res)).toEqual([201, {
      id: 1, title: 'fleet', created_at: '2026-05-04T10:00:00.000Z', expires_at: null, key: KEY2, usage_type: 'auth_and_signing',
      fingerprint: expect.stringMatching(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/), fingerprint_sha256: KEY2_SHA,
    }]);
    await call(`${APP}/deploy_keys/1/enable`, { method: 'POST', token: 'maintainer-token' });
    await call(`${OTHER}/deploy_keys`, { method: 'POST', json: { title: 'ci', key: KEY1, can_push: true } });
    const list = await (await call('/deploy_keys')).json();
    expect(list.map((k: any) => [k.id, k.projects_with_readonly_access.map((p: any) => p.path_with_namespace), k.projects_with_write_access.map((p: any) => p.path_with_namespace)])).toEqual([
      [1, ['acme/app'], []],
      [2, [], ['acme/other']],
    ]);
    expect((await (await call('/deploy_keys?public=true')).json()).map((k: any) => k.id)).toEqual([1]);
  });

  it('is for administrators only', async () => {
    expect((await call('/deploy_keys', { token: 'maintainer-token' })).status).toBe(403);
    expect((await call('/deploy_keys', { method: 'POST', token: 'maintainer-token', json: { title: 'x', key: KEY1 } })).status).toBe(403);
    expect((await apiCall(world(), '/deploy_keys')).status).toBe(401);
  });
});

describe('keys by id and fingerprint', () => {
  it('finds a user key by id and by SHA-256 or MD5 fingerprint, with its user', async () => {
    const made = await (await call('/user/keys', { method: 'POST', token: 'dev-token', json: { title: 'laptop', key: KEY1 } })).json();
    const byId = await (await call(`/keys/${made.id}`)).json();
    expect(byId).toMatchObject({ id: made.id, title: 'laptop', key: KEY1, user: { username: 'dev' } });
    expect(await (await call(`/keys?fingerprint=${encodeURIComponent(KEY1_SHA)}`)).json()).toEqual(byId);
    expect(await (await call(`/keys?fingerprint=${KEY1_MD5}`)).json()).toEqual(byId);
  });

  it('finds a deploy key by fingerprint, with the projects it is enabled in', async () => {
    await call(`${APP}/deploy_keys`, { method: 'POST', token: 'maintainer-token', json: { title: 'ci', key: KEY2 } });
    const found = await (await call(`/keys?fingerprint=${encodeURIComponent(KEY2_SHA)}`)).json();
    expect(found).toMatchObject({ id: 1, title: 'ci', key: KEY2, fingerprint_sha256: KEY2_SHA, user: { username: 'mai' } });
    expect(found.deploy_keys_projects).toEqual([
      { id: 1, deploy_key_id: 1, project_id: expect.any(Number), created_at: '2026-05-04T10:00:00.000Z', updated_at: '2026-05-04T10:00:00.000Z', can_push: false },
    ]);
    expect(await (await call('/keys/1')).json()).toMatchObject({ id: 1, title: 'ci' });
  });

  it('answers GitLab\'s errors: unknown id, unknown or malformed fingerprint, non-administrators', async () => {
    expect(await body(await call('/keys/42'))).toEqual([404, { message: '404 Not found' }]);
    expect(await body(await call(`/keys?fingerprint=${encodeURIComponent(KEY1_SHA)}`))).toEqual([404, { message: '404 Key Not Found' }]);
    expect(await body(await call('/keys?fingerprint=nonsense'))).toEqual([400, { message: 'Failed to return the key' }]);
    expect(await body(await call('/keys'))).toEqual([400, { message: '400 Bad request - "fingerprint" not given' }]);
    expect((await call('/keys/1', { token: 'dev-token' })).status).toBe(403);
  });

  it('user keys and deploy keys share one id space', async () => {
    await call('/user/keys', { method: 'POST', token: 'dev-token', json: { title: 'laptop', key: KEY1 } });
    const made = await (await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'ci', key: KEY2 } })).json();
    expect(made.id).toBe(2);
  });
});

describe('a deleted project', () => {
  it('takes the keys only it had with it, and leaves the shared ones to the others', async () => {
    await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'ci', key: KEY1 } });
    await call(`${APP}/deploy_keys`, { method: 'POST', json: { title: 'shared', key: KEY2 } });
    await call(`${OTHER}/deploy_keys/2/enable`, { method: 'POST' });
    expect((await call(APP, { method: 'DELETE' })).status).toBe(202);
    world().runUntilIdle();
    expect((await call(APP)).status).toBe(404);
    expect((await (await call('/deploy_keys')).json()).map((k: any) => [k.id, k.projects_with_readonly_access.map((p: any) => p.path)])).toEqual([[2, ['other']]]);
  });
});
