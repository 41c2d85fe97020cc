// CI/CD variables of projects, groups and the instance (lib/api/ci/variables.rb,
// group_variables.rb, admin/ci/variables.rb, spec/requests/api/ci/variables_spec.rb), following
// the variables checklist of the reference line by line.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, apiCall, seededWorld, TEAM, teamProject } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME, { path: 'ops', visibility: 'private', members: [{ user: 'mai', access_level: 'owner' }, { user: 'dev', access_level: 'maintainer' }] }],
  projects: [
    teamProject({
      variables: [
        { key: 'PLAIN', value: 'plain value' },
        { key: 'SECRET', value: 'hidden-value-1', masked_and_hidden: true },
        { key: 'DB', value: 'staging-db', environment_scope: 'staging' },
        { key: 'DB', value: 'production-db', environment_scope: 'production' },
      ],
    }),
  ],
};

const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}

describe('project variables: list', () => {
  it('lists every variable in id order with the entity in GitLab\'s field order', async () => {
    const { status, body, res } = await call('GET', `${APP}/variables`, 'maintainer-token');
    expect(status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    expect(body.map((v: { key: string }) => v.key)).toEqual(['PLAIN', 'SECRET', 'DB', 'DB']);
    expect(Object.keys(body[0])).toEqual(['variable_type', 'key', 'value', 'hidden', 'protected', 'masked', 'raw', 'environment_scope', 'description']);
  });

  it('is 403 for a developer and 401 for an anonymous caller, even on a private project', async () => {
    expect((await call('GET', `${APP}/variables`, 'dev-token')).body).toEqual({ message: '403 Forbidden' });
    expect((await call('GET', `${APP}/variables`)).status).toBe(401);
    expect((await call('GET', `${APP}/variables`, 'outsider-token')).status).toBe(404);
  });
});

describe('project variables: get', () => {
  it('answers a hidden variable with a null value, a plain one with its defaults', async () => {
    expect((await call('GET', `${APP}/variables/SECRET`, 'maintainer-token')).body).toEqual({
      variable_type: 'env_var', key: 'SECRET', value: null, hidden: true, protected: false, masked: true, raw: false, environment_scope: '*', description: null,
    });
    expect((await call('GET', `${APP}/variables/PLAIN`, 'maintainer-token')).body).toEqual({
      variable_type: 'env_var', key: 'PLAIN', value: 'plain value', hidden: false, protected: false, masked: false, raw: false, environment_scope: '*', description: null,
    });
  });

  it('is 404 for an unknown key, 409 for a key in two scopes, and picks one by filter[environment_scope]', async () => {
    expect(await call('GET', `${APP}/variables/NOPE`, 'maintainer-token')).toMatchObject({ status: 404, body: { message: '404 Variable Not Found' } });
    expect(await call('GET', `${APP}/variables/DB`, 'maintainer-token')).toMatchObject({
      status: 409,
      body: { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" },
    });
    const one = await call('GET', `${APP}/variables/DB?filter[environment_scope]=production`, 'maintainer-token');
    expect(one.body).toMatchObject({ key: 'DB', value: 'production-db', environment_scope: 'production' });
    expect((await call('GET', `${APP}/variables/DB?filter%5Benvironment_scope%5D=staging`, 'maintainer-token')).body.value).toBe('staging-db');
  });

  it('is 404 for a wrong filter, even for a lone variable; the filter matches exactly, without wildcards', async () => {
    expect((await call('GET', `${APP}/variables/PLAIN?filter[environment_scope]=production`, 'maintainer-token')).status).toBe(404);
    expect((await call('GET', `${APP}/variables/DB?filter[environment_scope]=*`, 'maintainer-token')).status).toBe(404);
    expect((await call('GET', `${APP}/variables/PLAIN?filter[environment_scope]=*`, 'maintainer-token')).status).toBe(200);
  });
});

describe('project variables: create', () => {
  it('creates with protected, masked and raw', async () => {
    const r = await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'TOKEN', value: 'abc$def{ghi}', protected: true, masked: true, raw: true });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      variable_type: 'env_var', key: 'TOKEN', value: 'abc$def{ghi}', hidden: false, protected: true, masked: true, raw: true, environment_scope: '*', description: null,
    });
  });

  it('refuses a masked value that is not maskable, by GitLab\'s raw and expanded rules', async () => {
    expect((await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'M1', value: 'has space', masked: true, raw: true })).body).toEqual({ message: { value: ['is invalid'] } });
    expect((await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'M2', value: 'short', masked: true })).body).toEqual({ message: { value: ['is invalid'] } });
    expect((await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'M3', value: 'with$dollar', masked: true })).status).toBe(400);
    expect((await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'M4', value: 'with$dollar', masked: true, raw: true })).status).toBe(201);
  });

  it('masked_and_hidden answers a null value, hidden and masked', async () => {
    const r = await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'HID', value: 'some-secret-1', masked_and_hidden: true });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ key: 'HID', value: null, hidden: true, masked: true });
    expect((await call('GET', `${APP}/variables/HID`, 'maintainer-token')).body.value).toBeNull();
  });

  it('stores a file variable, its description, and a scope verbatim; the same key in another scope is allowed', async () => {
    const r = await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'CERT', value: 'pem', variable_type: 'file', description: 'The cert', environment_scope: 'review/*' });
    expect(r.body).toMatchObject({ variable_type: 'file', description: 'The cert', environment_scope: 'review/*' });
    expect((await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'CERT', value: 'pem2' })).status).toBe(201);
  });

  it('refuses the same key in the same scope with the key in parentheses', async () => {
    const r = await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'PLAIN', value: 'again' });
    expect(r).toMatchObject({ status: 400, body: { message: { key: ['(PLAIN) has already been taken'] } } });
    const scoped = await call('POST', `${APP}/variables`, 'maintainer-token', { key: 'DB', value: 'again', environment_scope: 'staging' });
    expect(scoped.body).toEqual({ message: { key: ['(DB) has already been taken'] } });
  });

  it('checks the key, the scope, the description and the type with GitLab\'s messages', async () => {
    const post = (json: unknown) => call('POST', `${APP}/variables`, 'maintainer-token', json);
    expect((await post({ key: 'BAD-KEY', value: 'x' })).body).toEqual({ message: { key: ["can contain only letters, digits and '_'."] } });
    expect((await post({ key: '  ', value: 'x' })).body).toEqual({ message: { key: ["can't be blank", "can contain only letters, digits and '_'."] } });
    expect((await post({ key: 'K'.repeat(256), value: 'x' })).body).toEqual({ message: { key: ['is too long (maximum is 255 characters)'] } });
    expect((await post({ key: '  STRIPPED ', value: 'x' })).body.key).toBe('STRIPPED');
    expect((await post({ key: 'S1', value: 'x', environment_scope: 'a&b' })).body).toEqual({
      message: { environment_scope: ["can contain only letters, digits, '-', '_', '/', '$', '{', '}', '.', '*' and spaces"] },
    });
    expect((await post({ key: 'S2', value: 'x', environment_scope: '  ' })).body).toEqual({ message: { environment_scope: ["can't be blank"] } });
    expect((await post({ key: 'D1', value: 'x', description: 'd'.repeat(256) })).body).toEqual({ message: { description: ['is too long (maximum is 255 characters)'] } });
    expect((await post({ key: 'T1', value: 'x', variable_type: 'foo' })).body).toEqual({ error: 'variable_type does not have a valid value' });
    expect((await post({ value: 'x' })).status).toBe(400);
  });

  it('honours the plan limit kept in the world', async () => {
    const emulator = await createEmulator({ fixture: { ...FIXTURE, ci_limits: { project_ci_variables: 1 }, projects: [teamProject()] } });
    const post = (key: string) => apiCall(emulator, `${APP}/variables`, { method: 'POST', token: 'maintainer-token', json: { key, value: 'v' } });
    expect((await post('ONE')).status).toBe(201);
    const r = await post('TWO');
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ message: { base: ['Maximum number of project ci variables (1) exceeded'] } });
  });

  it('is 403 for a developer and 401 for an anonymous caller; a refused create changes nothing', async () => {
    expect((await call('POST', `${APP}/variables`, 'dev-token', { key: 'X', value: 'y' })).status).toBe(403);
    expect((await call('POST', `${APP}/variables`, undefined, { key: 'X', value: 'y' })).status).toBe(401);
    expect((await call('GET', `${APP}/variables`, 'maintainer-token')).body).toHaveLength(4);
  });
});

describe('project variables: update', () => {
  it('updates value, protected, variable_type and description, never the key', async () => {
    const r = await call('PUT', `${APP}/variables/PLAIN`, 'maintainer-token', { key: 'RENAMED', value: 'new', protected: true, variable_type: 'file', description: 'now' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ key: 'PLAIN', value: 'new', protected: true, variable_type: 'file', description: 'now' });
  });

  it('refuses to change masked on a hidden variable; a plain one can become masked', async () => {
    expect((await call('PUT', `${APP}/variables/SECRET`, 'maintainer-token', { value: 'another-secret', masked: false })).body).toEqual({
      message: { base: ['The visibility setting cannot be changed for masked and hidden variables.'] },
    });
    expect((await call('PUT', `${APP}/variables/SECRET`, 'maintainer-token', { value: 'another-secret' })).body.value).toBeNull();
    expect((await call('PUT', `${APP}/variables/PLAIN`, 'maintainer-token', { value: 'now-maskable', masked: true })).body.masked).toBe(true);
  });

  it('with a filter changes only that scope; without it two matches are 409; an unknown key is 404', async () => {
    const r = await call('PUT', `${APP}/variables/DB`, 'maintainer-token', { value: 'prod-2', filter: { environment_scope: 'production' } });
    expect(r.body).toMatchObject({ value: 'prod-2', environment_scope: 'production' });
    expect((await call('GET', `${APP}/variables/DB?filter[environment_scope]=staging`, 'maintainer-token')).body.value).toBe('staging-db');
    expect((await call('PUT', `${APP}/variables/DB`, 'maintainer-token', { value: 'x' })).status).toBe(409);
    expect((await call('PUT', `${APP}/variables/NOPE`, 'maintainer-token', { value: 'x' })).status).toBe(404);
  });

  it('moving a variable into a scope that holds its key is the duplicate error', async () => {
    const r = await call('PUT', `${APP}/variables/DB?filter[environment_scope]=staging`, 'maintainer-token', { value: 'x', environment_scope: 'production' });
    expect(r.body).toEqual({ message: { key: ['(DB) has already been taken'] } });
  });
});

describe('project variables: delete', () => {
  it('deletes with 204; with a filter only that scope', async () => {
    expect((await call('DELETE', `${APP}/variables/DB?filter[environment_scope]=staging`, 'maintainer-token')).status).toBe(204);
    expect((await call('GET', `${APP}/variables/DB`, 'maintainer-token')).body.environment_scope).toBe('production');
    expect((await call('DELETE', `${APP}/variables/PLAIN`, 'maintainer-token')).status).toBe(204);
    expect((await call('GET', `${APP}/variables/PLAIN`, 'maintainer-token')).status).toBe(404);
  });

  it('is 409 for two matches, 404 for none, 403 for a developer, 401 anonymous', async () => {
    expect((await call('DELETE', `${APP}/variables/DB`, 'maintainer-token')).status).toBe(409);
    expect((await call('DELETE', `${APP}/variables/NOPE`, 'maintainer-token')).status).toBe(404);
    expect((await call('DELETE', `${APP}/variables/PLAIN`, 'dev-token')).status).toBe(403);
    expect((await call('DELETE', `${APP}/variables/PLAIN`)).status).toBe(401);
  });

  it('keys named like object properties are data', async () => {
    for (const key of ['__proto__', 'constructor']) {
      expect((await call('GET', `${APP}/variables/${key}`, 'maintainer-token')).status).toBe(404);
      expect((await call('POST', `${APP}/variables`, 'maintainer-token', { key, value: 'v' })).status).toBe(201);
      expect((await call('GET', `${APP}/variables/${key}`, 'maintainer-token')).body.key).toBe(key);
    }
  });
});

describe('group variables', () => {
  it('share the rules; owners only', async () => {
    const G = '/groups/ops';
    expect((await call('POST', `${G}/variables`, 'maintainer-token', { key: 'G', value: 'one', environment_scope: 'production' })).status).toBe(201);
    expect((await call('POST', `${G}/variables`, 'maintainer-token', { key: 'G', value: 'two' })).status).toBe(201);
    expect((await call('POST', `${G}/variables`, 'maintainer-token', { key: 'G', value: 'three' })).body).toEqual({ message: { key: ['(G) has already been taken'] } });
    expect((await call('GET', `${G}/variables/G`, 'maintainer-token')).status).toBe(409);
    expect((await call('GET', `${G}/variables/G?filter[environment_scope]=production`, 'maintainer-token')).body.value).toBe('one');
    expect((await call('GET', `${G}/variables`, 'maintainer-token')).body).toHaveLength(2);
    expect((await call('GET', `${G}/variables`, 'dev-token')).status).toBe(403);
    expect((await call('GET', `${G}/variables`)).status).toBe(401);
    expect((await call('DELETE', `${G}/variables/G?filter[environment_scope]=*`, 'maintainer-token')).status).toBe(204);
  });
});

describe('instance variables', () => {
  it('are for administrators, without scopes, hidden or environment_scope', async () => {
    const A = '/admin/ci/variables';
    const r = await call('POST', A, 'root-token', { key: 'INST', value: 'v', environment_scope: 'production' });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({ variable_type: 'env_var', key: 'INST', value: 'v', protected: false, masked: false, raw: false, description: null });
    expect((await call('POST', A, 'root-token', { key: 'INST', value: 'w' })).body).toEqual({ message: { key: ['(INST) has already been taken'] } });
    expect((await call('PUT', `${A}/INST`, 'root-token', { protected: true })).body.protected).toBe(true);
    expect((await call('GET', `${A}/NOPE`, 'root-token')).body).toEqual({ message: '404 InstanceVariable Not Found' });
    expect((await call('GET', A, 'maintainer-token')).status).toBe(403);
    expect((await call('GET', A)).status).toBe(401);
    expect((await call('DELETE', `${A}/INST`, 'root-token')).status).toBe(204);
    expect((await call('GET', A, 'root-token')).body).toEqual([]);
  });
});
