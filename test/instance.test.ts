// The instance: version, metadata, application settings, and the small GraphQL endpoint.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { GITLAB_VERSION } from '../src/families/instance/index.js';
import { ACME, ORIGIN, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  instance: { tier: 'ultimate' },
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ name: 'App', description: 'The app' }), { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root' }],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');

const gql = async (query: unknown, token?: string, extra: Record<string, unknown> = {}) => {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, ...extra }) }));
  expect(res.status).toBe(200);
  return res.json() as Promise<any>;
};

describe('GET /version and /metadata', () => {
  it('names the imitated release and the edition of the tier', async () => {
    const expected = {
      version: `${GITLAB_VERSION}-ee`,
      revision: 'emulator',
      kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
      enterprise: true,
    };
    expect(await (await apiCall(world(), '/version', { token: 'dev-token' })).json()).toEqual(expected);
    expect(await (await apiCall(world(), '/metadata', { token: 'dev-token' })).json()).toEqual(expected);
    expect((await apiCall(world(), '/version')).status).toBe(401);
    const free = await createEmulator({ fixture: { ...FIXTURE, instance: { tier: 'free' } } });
    expect(await (await apiCall(free, '/metadata', { token: 'dev-token' })).json()).toMatchObject({ version: GITLAB_VERSION, enterprise: false });
  });
});

describe('GET /application/settings', () => {
  it('answers administrators with the world settings', async () => {
    const res = await apiCall(world(), '/application/settings', { token: 'root-token' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 1, default_project_visibility: 'private', signup_enabled: true, max_personal_access_token_lifetime: null });
    expect((await apiCall(world(), '/application/settings', { token: 'dev-token' })).status).toBe(403);
  });
});

describe('POST /api/graphql', () => {
  it('answers __typename, currentUser, project(fullPath) and metadata', async () => {
    expect(await gql('{ __typename }')).toEqual({ data: { __typename: 'Query' } });
    expect(await gql('query { currentUser { id username } }')).toEqual({ data: { currentUser: null } });
    expect(await gql('query Me { me: currentUser { id username __typename } }', 'dev-token')).toEqual({
      data: { me: { id: expect.stringMatching(/^gid:\/\/gitlab\/User\/\d+$/), username: 'dev', __typename: 'UserCore' } },
    });
    const q = 'query($path: ID!) { project(fullPath: $path) { id name fullPath description visibility webUrl } }';
    expect(await gql(q, 'dev-token', { variables: { path: 'acme/app' } })).toEqual({
      data: { project: { id: expect.stringMatching(/^gid:\/\/gitlab\/Project\/\d+$/), name: 'App', fullPath: 'acme/app', description: 'The app', visibility: 'private', webUrl: `${ORIGIN}/acme/app` } },
    });
    expect(await gql(q, 'outsider-token', { variables: { path: 'acme/app' } })).toEqual({ data: { project: null } });
    expect(await gql('{ project(fullPath: "acme/site") { name } metadata { version enterprise } }', 'dev-token')).toEqual({
      data: { project: { name: 'site' }, metadata: { version: `${GITLAB_VERSION}-ee`, enterprise: true } },
    });
  });

  it('answers a query sent with GET', async () => {
    const res = await world().handle(new Request(`${ORIGIN}/api/graphql?query=${encodeURIComponent('{ currentUser { username } }')}`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(await res.json()).toEqual({ data: { currentUser: { username: 'dev' } } });
  });

  it("answers graphql-ruby's error envelope for what it does not know", async () => {
    expect(await gql('{ nope { id } }')).toEqual({
      errors: [{
        message: "Field 'nope' doesn't exist on type 'Query'",
        locations: [{ line: 1, column: 3 }],
        path: ['query', 'nope'],
        extensions: { code: 'undefinedField', typeName: 'Query', fieldName: 'nope' },
      }],
    });
    expect(await gql('{ currentUser }')).toMatchObject({ errors: [{ extensions: { code: 'selectionMismatch' } }] });
    expect(await gql('{ currentUser { ')).toEqual({ errors: [{ message: 'Parse error on "" (EOF) at [1, 17]', locations: [{ line: 1, column: 17 }] }] });
    expect(await gql('')).toEqual({ errors: [{ message: 'No query string was present' }] });
    const deep = `{ ${'a { '.repeat(100_000)}b${' }'.repeat(100_000)} }`;
    expect(await gql(deep)).toEqual({ errors: [{ message: 'Query has depth of 100001, which exceeds max depth of 15' }] });
  });
});
