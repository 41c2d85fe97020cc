// Authentication (spec: Authentication; reference 0.5): every way a caller proves who it is,
// scopes, expiry and revocation on the clock, blocked users, sudo, and anonymous callers.
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';

const BASE = 'https://gitlab.example.com/api/v4';
const NOW = '2030-01-01T12:00:00.000Z';

const fixture: Fixture = {
  users: [
    {
      username: 'root',
      admin: true,
      tokens: [
        { token: 'root-sudo', scopes: ['api', 'sudo'] },
        { token: 'root-api', scopes: ['api'] },
        { token: 'root-oauth', scopes: ['api', 'sudo'], kind: 'oauth' },
      ],
    },
    {
      username: 'alice',
      tokens: [
        { token: 'alice-api', scopes: ['api'] },
        { token: 'alice-read-api', scopes: ['read_api'] },
        { token: 'alice-read-user', scopes: ['read_user'] },
        { token: 'alice-sudo', scopes: ['api', 'sudo'] },
        { token: 'alice-expiring', scopes: ['api'], expires_at: '2030-01-10' },
        { token: 'alice-revoked', scopes: ['api'], revoked: true },
        { token: 'alice-revoked-expired', scopes: ['api'], revoked: true, expires_at: '2029-12-31' },
        { token: 'alice-read-impersonation', scopes: ['read_api'], kind: 'impersonation' },
        { token: 'alice-oauth', scopes: ['api'], kind: 'oauth' },
        { token: 'alice-impersonation', scopes: ['api'], kind: 'impersonation' },
      ],
    },
    { username: 'Eve.Smith', tokens: [{ token: 'eve-api' }] },
    { username: 'blocked', state: 'blocked', tokens: [{ token: 'blocked-api' }, { token: 'blocked-read', scopes: ['read_api'] }] },
    { username: 'banned', state: 'banned', tokens: [{ token: 'banned-api' }] },
    { username: 'pending', state: 'blocked_pending_approval', tokens: [{ token: 'pending-api' }] },
    { username: 'deactivated', state: 'deactivated', tokens: [{ token: 'deactivated-api' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [
    { namespace: 'acme', path: 'website', visibility: 'public', creator: 'alice' },
    { namespace: 'acme', path: 'intranet', visibility: 'internal', creator: 'alice' },
    {
      namespace: 'acme',
      path: 'secrets',
      visibility: 'private',
      creator: 'alice',
      tokens: [{ token: 'project-token', scopes: ['api'], access_level: 'maintainer' }],
      jobs: [{ name: 'build', user: 'alice', token: 'job-token-build' }],
    },
  ],
};

let gitlab: Emulator;

beforeEach(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
});

async function call(path: string, init: RequestInit = {}) {
  const res = await gitlab.handle(new Request(`${BASE}${path}`, init));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
}

const withHeaders = (headers: Record<string, string>, init: RequestInit = {}) => ({ ...init, headers });
const whoAmI = async (init: RequestInit = {}, query = '') => {
  const res = await call(`/user${query}`, init);
  return res.status === 200 ? (res.body.username as string) : res.status;
};
const projectPaths = async (init: RequestInit = {}) => {
  const res = await call('/projects?per_page=100', init);
  expect(res.status).toBe(200);
  return (res.body as { path_with_namespace: string }[]).map((p) => p.path_with_namespace).sort();
};

const INSUFFICIENT = 'The request requires higher privileges than provided by the access token.';

describe('personal access tokens', () => {
  it('are read from the PRIVATE-TOKEN header in any letter case', async () => {
    for (const name of ['PRIVATE-TOKEN', 'private-token', 'Private-Token', 'pRiVaTe-ToKeN']) {
      expect(await whoAmI(withHeaders({ [name]: 'alice-api' }))).toBe('alice');
    }
  });

  it('are read from the private_token parameter, which shadows the header', async () => {
    expect(await whoAmI({}, '?private_token=alice-api')).toBe('alice');
    expect(await whoAmI(withHeaders({ 'PRIVATE-TOKEN': 'root-api' }), '?private_token=alice-api')).toBe('alice');
  });

  it('are accepted as an Authorization Bearer value', async () => {
    expect(await whoAmI(withHeaders({ Authorization: 'Bearer alice-api' }))).toBe('alice');
    expect(await whoAmI(withHeaders({ authorization: 'bearer alice-api' }))).toBe('alice');
  });

  it('are accepted in the access_token parameter, retried as a personal token', async () => {
    expect(await whoAmI({}, '?access_token=alice-api')).toBe('alice');
  });
});

describe('OAuth tokens', () => {
  it('are accepted as Authorization: Bearer', async () => {
    expect(await whoAmI(withHeaders({ Authorization: 'Bearer alice-oauth' }))).toBe('alice');
  });

  it('are accepted in the access_token parameter', async () => {
    expect(await whoAmI({}, '?access_token=alice-oauth')).toBe('alice');
  });

  it('are not personal tokens: PRIVATE-TOKEN with an OAuth token is 401', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-oauth' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('impersonation tokens', () => {
  it('work like a personal token', async () => {
    expect(await whoAmI(withHeaders({ 'PRIVATE-TOKEN': 'alice-impersonation' }))).toBe('alice');
    expect(await whoAmI({}, '?private_token=alice-impersonation')).toBe('alice');
  });

  it('are refused while impersonation is disabled', async () => {
    gitlab.configure({ settings: { impersonation_enabled: false } });
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-impersonation' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      error: 'invalid_token',
      error_description: 'Token is an impersonation token but impersonation was disabled.',
    });
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    // Other personal tokens are unaffected.
    expect(await whoAmI(withHeaders({ 'PRIVATE-TOKEN': 'alice-api' }))).toBe('alice');
  });
});

describe('project access tokens', () => {
  it('act as the project bot, a member of the project', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'project-token' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ bot: true });
    expect(res.body.username).toMatch(/^project_\d+_bot_1$/);
    const project = await call('/projects/acme%2Fsecrets', withHeaders({ 'PRIVATE-TOKEN': 'project-token' }));
    expect(project.status).toBe(200);
    expect(project.body.permissions.project_access).toEqual({ access_level: 40, notification_level: 3 });
  });
});

describe('CI job tokens', () => {
  // No core route allows job tokens: there the token is not looked at and the caller is anonymous.
  it('are not seen on a route that does not allow them, in the JOB-TOKEN header', async () => {
    const hidden = await call('/projects/acme%2Fsecrets', withHeaders({ 'JOB-TOKEN': 'job-token-build' }));
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
    const user = await call('/user', withHeaders({ 'JOB-TOKEN': 'job-token-build' }));
    expect(user.status).toBe(401);
    expect(await projectPaths(withHeaders({ 'JOB-TOKEN': 'job-token-build' }))).toEqual(['acme/website']);
  });

  it('are not seen on a route that does not allow them, in the job_token parameter', async () => {
    expect((await call('/projects/acme%2Fsecrets?job_token=job-token-build')).status).toBe(404);
    expect((await call('/user?job_token=job-token-build')).status).toBe(401);
  });
});

describe('the session cookie', () => {
  it('signs the user in on reads', async () => {
    const cookie = gitlab.signIn('alice');
    expect(await whoAmI(withHeaders({ Cookie: `_gitlab_session=${cookie}` }))).toBe('alice');
    expect(await whoAmI(withHeaders({ Cookie: `theme=dark; _service_session=${cookie}` }))).toBe('alice');
  });

  it('is not used for a write without a CSRF token', async () => {
    const cookie = gitlab.signIn('alice');
    const init = { method: 'POST', headers: { Cookie: `_gitlab_session=${cookie}`, 'Content-Type': 'application/json' }, body: '{"name":"x1"}' };
    expect((await call('/projects', init)).status).toBe(401);
    const csrf = { ...init, headers: { ...init.headers, 'X-CSRF-Token': 'token' } };
    expect((await call('/projects', csrf)).status).toBe(201);
  });

  it('that is unknown leaves the caller anonymous', async () => {
    expect(await whoAmI(withHeaders({ Cookie: '_gitlab_session=nope' }))).toBe(401);
  });

  it('that is not decodable leaves the caller anonymous', async () => {
    expect(await whoAmI(withHeaders({ Cookie: '_gitlab_session=%E0%A4%A' }))).toBe(401);
  });
});

describe('scopes', () => {
  it('read_api reads', async () => {
    expect(await projectPaths(withHeaders({ 'PRIVATE-TOKEN': 'alice-read-api' }))).toContain('acme/secrets');
    expect(await whoAmI(withHeaders({ 'PRIVATE-TOKEN': 'alice-read-api' }))).toBe('alice');
  });

  it('read_api is not enough to write: 403 insufficient_scope', async () => {
    const res = await call('/projects', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'alice-read-api', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'nope' }),
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'api read_api' });
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  });

  it('a scope the route does not list is insufficient, and the body names the route scopes', async () => {
    const list = await call('/projects', withHeaders({ 'PRIVATE-TOKEN': 'alice-read-user' }));
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'api read_api' });
    expect(await whoAmI(withHeaders({ 'PRIVATE-TOKEN': 'alice-read-user' }))).toBe('alice');
  });
});

describe('expiry and revocation', () => {
  const EXPIRED = { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' };

  it('a token works until the start of its expiry day, then is 401 invalid_token', async () => {
    gitlab.clock.set('2030-01-09T23:59:59Z');
    expect(await whoAmI(withHeaders({ 'PRIVATE-TOKEN': 'alice-expiring' }))).toBe('alice');
    gitlab.clock.set('2030-01-10T00:00:00Z');
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-expiring' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(EXPIRED);
  });

  it('an expired token is refused on a public route too', async () => {
    gitlab.clock.advance('30d');
    const res = await call('/projects/acme%2Fwebsite', withHeaders({ 'PRIVATE-TOKEN': 'alice-expiring' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual(EXPIRED);
  });

  it('a revoked token is 401 invalid_token', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-revoked' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid_token', error_description: 'Token was revoked. You have to re-authorize from the user.' });
  });
});

describe('the order of token checks', () => {
  // AccessTokenValidationService: expired, revoked, scopes, impersonation; the owner comes after.
  it('an expired token that is also revoked is reported as expired', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-revoked-expired' }));
    expect(res.body.error_description).toMatch(/^Token is expired/);
  });

  it('a scope too narrow is reported before disabled impersonation', async () => {
    gitlab.configure({ settings: { impersonation_enabled: false } });
    const res = await call('/projects', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'alice-read-impersonation', 'Content-Type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });

  it('a scope too narrow is reported before a blocked account', async () => {
    const res = await call('/projects', {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'blocked-read', 'Content-Type': 'application/json' },
      body: '{"name":"x"}',
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('insufficient_scope');
  });
});

describe('users who may not use the API', () => {
  it('a blocked user is 403', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'blocked-api' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
  });

  it('a banned user is blocked too', async () => {
    expect((await call('/projects', withHeaders({ 'PRIVATE-TOKEN': 'banned-api' }))).body).toEqual({
      message: '403 Forbidden - Your account has been blocked.',
    });
  });

  it('a user pending approval is 403 with the reason', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'pending-api' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Your account is pending approval from your administrator and hence blocked.' });
  });

  it('a deactivated user is 403 and told where to reactivate', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'deactivated-api' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message:
        '403 Forbidden - Your account has been deactivated by your administrator. Please log back in from a web browser to reactivate your account at https://gitlab.example.com',
    });
  });
});

describe('sudo', () => {
  const admin = { 'PRIVATE-TOKEN': 'root-sudo' };

  it('an admin acts as another user by username, in the parameter or the Sudo header', async () => {
    expect(await whoAmI(withHeaders(admin), '?sudo=alice')).toBe('alice');
    expect(await whoAmI(withHeaders({ ...admin, Sudo: 'alice' }))).toBe('alice');
  });

  it('the username is matched case-insensitively', async () => {
    expect(await whoAmI(withHeaders({ ...admin, Sudo: 'ALICE' }))).toBe('alice');
    expect(await whoAmI(withHeaders(admin), '?sudo=eve.smith')).toBe('Eve.Smith');
  });

  it('an admin acts as another user by id', async () => {
    const id = String((await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-api' }))).body.id);
    expect(await whoAmI(withHeaders({ ...admin, Sudo: id }))).toBe('alice');
    expect(await whoAmI(withHeaders(admin), `?sudo=${id}`)).toBe('alice');
  });

  it('an OAuth token with the sudo scope may use sudo', async () => {
    expect(await whoAmI(withHeaders({ Authorization: 'Bearer root-oauth', Sudo: 'alice' }))).toBe('alice');
  });

  it('the request runs with the permissions of the target, and is journaled as the target', async () => {
    expect(await projectPaths(withHeaders({ ...admin, Sudo: 'Eve.Smith' }))).toEqual(['acme/intranet', 'acme/website']);
    expect(gitlab.journal.last()?.user).toBe('Eve.Smith');
  });

  it('without credentials is 401', async () => {
    const res = await call('/user?sudo=alice');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('by a user who is not an admin is 403 must be admin', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-sudo', Sudo: 'root' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
  });

  it('with a token lacking the sudo scope is 403 insufficient_scope naming sudo', async () => {
    const res = await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'root-api', Sudo: 'alice' }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'insufficient_scope', error_description: INSUFFICIENT, scope: 'sudo' });
  });

  it('through a session cookie is 403: a token is required', async () => {
    const cookie = gitlab.signIn('root');
    const res = await call('/user?sudo=alice', withHeaders({ Cookie: `_gitlab_session=${cookie}` }));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Must be authenticated using an OAuth or personal access token to use sudo' });
  });

  it('to an unknown user is 404 naming the value as sent', async () => {
    const byName = await call('/user', withHeaders({ ...admin, Sudo: 'Nobody' }));
    expect(byName.status).toBe(404);
    expect(byName.body).toEqual({ message: "404 User with ID or username 'Nobody' Not Found" });
    const byId = await call('/user?sudo=99999', withHeaders(admin));
    expect(byId.body).toEqual({ message: "404 User with ID or username '99999' Not Found" });
  });

  it('a numeric sudo value in a JSON body names a user by id', async () => {
    const alice = (await call('/user', withHeaders({ 'PRIVATE-TOKEN': 'alice-api' }))).body.id as number;
    const res = await call('/projects', {
      method: 'POST',
      headers: { ...admin, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Made by sudo', sudo: alice }),
    });
    expect(res.status).toBe(201);
    expect(res.body.namespace.path).toBe('alice');
  });
});

describe('callers without credentials', () => {
  it('see public data only', async () => {
    expect(await projectPaths()).toEqual(['acme/website']);
    expect((await call('/projects/acme%2Fwebsite')).status).toBe(200);
    expect((await call('/projects/acme%2Fintranet')).status).toBe(404);
    expect((await call('/projects/acme%2Fsecrets')).status).toBe(404);
  });

  it('are 401 where a user is required', async () => {
    const res = await call('/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: '401 Unauthorized' });
  });

  it('signed-in users see internal projects too', async () => {
    expect(await projectPaths(withHeaders({ 'PRIVATE-TOKEN': 'eve-api' }))).toEqual(['acme/intranet', 'acme/website']);
  });
});

describe('a token that matches nothing', () => {
  it('is 401 even on a public route', async () => {
    const variants: Record<string, string>[] = [{ 'PRIVATE-TOKEN': 'garbage' }, { Authorization: 'Bearer garbage' }];
    for (const headers of variants) {
      const list = await call('/projects', withHeaders(headers));
      expect(list.status).toBe(401);
      expect(list.body).toEqual({ message: '401 Unauthorized' });
      expect((await call('/projects/acme%2Fwebsite', withHeaders(headers))).status).toBe(401);
    }
    expect((await call('/projects?private_token=garbage')).status).toBe(401);
    expect((await call('/projects?access_token=garbage')).status).toBe(401);
  });
});
