// Deploy tokens (lib/api/deploy_tokens.rb): a project's maintainers and a group's owners make
// and delete them (a group's maintainers read them), administrators list the instance's; the
// token is shown once, the username defaults to gitlab+deploy-token-<id>.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld(
  { users: TEAM, groups: [{ ...ACME, members: [{ user: 'out', access_level: 'owner' }, ...TEAM_MEMBERS] }], projects: [teamProject()] },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

describe('project deploy tokens', () => {
  it('a maintainer makes one: the token once, the scopes in GitLab\'s order, the date at midnight', async () => {
    const res = await call(`${APP}/deploy_tokens`, {
      method: 'POST', token: 'maintainer-token', json: { name: 'foo', username: 'bar', expires_at: '2026-06-01', scopes: ['read_registry', 'read_repository'] },
    });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made).toEqual({
      id: 1, name: 'foo', username: 'bar', expires_at: '2026-06-01T00:00:00.000Z', scopes: ['read_repository', 'read_registry'],
      revoked: false, expired: false, token: expect.stringMatching(/^gldt-[0-9a-f]{20}$/),
    });
    const { token: _, ...shown } = made;
    expect(await body(await call(`${APP}/deploy_tokens/1`, { token: 'maintainer-token' }))).toEqual([200, shown]);
    expect(await (await call(`${APP}/deploy_tokens`)).json()).toEqual([shown]);
    expect(await (await call('/deploy_tokens')).json()).toEqual([shown]);
  });

  it('a default username, comma-separated scopes, no expiry; expired and active follow the clock', async () => {
    await call(`${APP}/deploy_tokens`, { method: 'POST', json: { name: 'ci', scopes: 'read_repository,write_registry' } });
    await call(`${APP}/deploy_tokens`, { method: 'POST', json: { name: 'short', scopes: ['read_registry'], expires_at: '2026-05-05T00:00:00Z' } });
    const list = await (await call(`${APP}/deploy_tokens`)).json();
    expect(list.map((t: any) => [t.username, t.scopes, t.expires_at, t.expired])).toEqual([
      ['gitlab+deploy-token-1', ['read_repository', 'write_registry'], null, false],
      ['gitlab+deploy-token-2', ['read_registry'], '2026-05-05T00:00:00.000Z', false],
    ]);
    world().clock.set('2026-05-06T00:00:00Z');
    expect((await (await call(`${APP}/deploy_tokens?active=true`)).json()).map((t: any) => t.id)).toEqual([1]);
    expect((await (await call(`${APP}/deploy_tokens?active=false`)).json()).map((t: any) => [t.id, t.expired])).toEqual([[2, true]]);
  });

  it('refuses bad input with GitLab\'s answers and makes nothing', async () => {
    expect(await body(await call(`${APP}/deploy_tokens`, { method: 'POST', json: { name: 'x', scopes: ['api'] } }))).toEqual([400, { error: 'scopes does not have a valid value' }]);
    expect(await body(await call(`${APP}/deploy_tokens`, { method: 'POST', json: { name: 'x' } }))).toEqual([400, { message: '400 Bad request - "scopes" not given' }]);
    expect(await body(await call(`${APP}/deploy_tokens`, { method: 'POST', json: { name: 'x', scopes: ['read_repository'], username: 'a b' } })))
      .toEqual([400, { message: "Username can contain only letters, digits, '_', '-', '+', and '.'" }]);
    expect(await (await call('/deploy_tokens')).json()).toEqual([]);
  });

  it('deletes one; an unknown one or another project\'s is 404 Not found', async () => {
    await call(`${APP}/deploy_tokens`, { method: 'POST', json: { name: 'x', scopes: ['read_repository'] } });
    await call('/groups/acme/deploy_tokens', { method: 'POST', json: { name: 'g', scopes: ['read_repository'] } });
    expect(await body(await call(`${APP}/deploy_tokens/2`))).toEqual([404, { message: '404 Not found' }]);
    expect((await call(`${APP}/deploy_tokens/1`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${APP}/deploy_tokens/1`, { method: 'DELETE' }))).toEqual([404, { message: '404 Not found' }]);
  });

  it('is for maintainers: 403 for a developer, 404 for an outsider', async () => {
    expect((await call(`${APP}/deploy_tokens`, { token: 'dev-token' })).status).toBe(403);
    expect((await call(`${APP}/deploy_tokens`, { method: 'POST', token: 'dev-token', json: { name: 'x', scopes: ['read_repository'] } })).status).toBe(403);
    expect((await call('/deploy_tokens', { token: 'maintainer-token' })).status).toBe(403);
  });
});

describe('group deploy tokens', () => {
  it('an owner makes and deletes them; a maintainer reads them but makes none', async () => {
    const res = await call('/groups/acme/deploy_tokens', { method: 'POST', token: 'outsider-token', json: { name: 'foo', scopes: ['read_registry'] } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ id: 1, name: 'foo', username: 'gitlab+deploy-token-1', scopes: ['read_registry'] });
    expect((await (await call('/groups/acme/deploy_tokens', { token: 'maintainer-token' })).json()).map((t: any) => t.name)).toEqual(['foo']);
    expect((await call('/groups/acme/deploy_tokens/1', { token: 'maintainer-token' })).status).toBe(200);
    expect((await call('/groups/acme/deploy_tokens', { method: 'POST', token: 'maintainer-token', json: { name: 'x', scopes: ['read_registry'] } })).status).toBe(403);
    expect((await call('/groups/acme/deploy_tokens/1', { method: 'DELETE', token: 'maintainer-token' })).status).toBe(403);
    expect((await call('/groups/acme/deploy_tokens', { token: 'dev-token' })).status).toBe(403);
    expect((await call('/groups/acme/deploy_tokens/1', { method: 'DELETE', token: 'outsider-token' })).status).toBe(204);
    expect(await (await call('/deploy_tokens')).json()).toEqual([]);
  });

  it('a deleted project takes its tokens with it', async () => {
    await call(`${APP}/deploy_tokens`, { method: 'POST', json: { name: 'x', scopes: ['read_repository'] } });
    await call(APP, { method: 'DELETE' });
    world().runUntilIdle();
    expect(await (await call('/deploy_tokens')).json()).toEqual([]);
  });
});
