// Names such as `constructor` and `__proto__` are names like any other in the neighbours'
// maps: protections, GraphQL fields and aliases, upload file names, namespaces, statuses.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ repository: { files: { 'README.md': 'hi\n' } } })],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
const call = (path: string, init: { method?: string; json?: unknown; body?: BodyInit; token?: string } = {}) =>
  apiCall(world(), path, { token: 'maintainer-token', ...init });

describe('user-chosen names', () => {
  it('protects branches and tags named constructor and __proto__', async () => {
    for (const name of ['constructor', '__proto__', 'toString']) {
      expect((await call('/projects/acme%2Fapp/protected_branches/' + name)).status).toBe(404);
      expect((await call('/projects/acme%2Fapp/protected_branches', { method: 'POST', json: { name } })).status).toBe(201);
      expect((await call('/projects/acme%2Fapp/protected_tags', { method: 'POST', json: { name } })).status).toBe(201);
    }
    expect(((await (await call('/projects/acme%2Fapp/protected_branches')).json()) as { name: string }[]).map((p) => p.name)).toEqual(['constructor', '__proto__', 'toString']);
    expect((await call('/projects/acme%2Fapp/protected_branches/__proto__', { method: 'DELETE' })).status).toBe(204);
  });

  it('answers GraphQL fields and aliases of those names', async () => {
    const gql = async (query: string, variables?: unknown) =>
      (await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'PRIVATE-TOKEN': 'dev-token' }, body: JSON.stringify({ query, variables }) }))).json();
    expect(await gql('{ constructor }')).toMatchObject({ errors: [{ extensions: { code: 'undefinedField', fieldName: 'constructor' } }] });
    expect(JSON.stringify(await gql('{ __proto__: currentUser { username } }'))).toBe('{"data":{"__proto__":{"username":"dev"}}}');
    expect(await gql('query($constructor: ID!) { project(fullPath: $constructor) { name } }', { constructor: 'x', toString: 'y' })).toEqual({ data: { project: null } });
  });

  it('uploads a file whose extension is constructor, and asks whether namespace constructor exists', async () => {
    const form = new FormData();
    form.append('file', new Blob(['x']), 'a.constructor');
    const res = await call('/projects/acme%2Fapp/uploads', { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const { full_path } = (await res.json()) as { full_path: string };
    const served = await world().handle(new Request(`${ORIGIN}${full_path}`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(served.headers.get('content-type')).toBe('application/octet-stream');
    expect(await (await call('/namespaces/constructor/exists')).json()).toEqual({ exists: false, suggests: [] });
    expect(await (await call('/namespaces/__proto__/exists')).json()).toEqual({ exists: false, suggests: [] });
  });

  it('commits files named constructor and __proto__, and posts statuses named so', async () => {
    const res = await call('/projects/acme%2Fapp/repository/commits', {
      method: 'POST',
      json: { branch: 'main', commit_message: 'Odd names', actions: [{ action: 'create', file_path: 'constructor' }, { action: 'create', file_path: '__proto__/toString' }] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(await world().git('acme/app').files('main')).sort()).toEqual(['README.md', '__proto__/toString', 'constructor']);
    const sha = (await res.json()) as { id: string };
    for (const name of ['constructor', '__proto__']) {
      expect((await call(`/projects/acme%2Fapp/statuses/${sha.id}`, { method: 'POST', json: { state: 'success', name } })).status).toBe(201);
    }
    expect(((await (await call(`/projects/acme%2Fapp/repository/commits/${sha.id}/statuses`)).json()) as unknown[]).length).toBe(2);
  });
});
