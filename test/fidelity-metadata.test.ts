// GET /version and GET /metadata (lib/api/metadata.rb): both run the metadata GraphQL query, so
// both answer its whole body, to any signed-in caller, a `read_user` token included.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld, teamWithTokens } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const FIXTURE: Fixture = { users: teamWithTokens('dev', [{ token: 'dev-read-user', scopes: ['read_user'] }, { token: 'dev-registry', scopes: ['read_registry'] }]) };
const world = seededWorld(FIXTURE, NOW);

async function call(path: string, token?: string) {
  const res = await apiCall(world(), path, { token });
  return { status: res.status, body: await res.json() };
}

describe('/version and /metadata', () => {
  it.each(['/version', '/metadata'])('%s answers the metadata query', async (path) => {
    const got = await call(path, 'dev-read-user');
    expect(got).toEqual({
      status: 200,
      body: {
        version: expect.stringMatching(/^\d+\.\d+\.\d+(-ee)?$/), revision: expect.any(String),
        kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null }, enterprise: expect.any(Boolean),
      },
    });
    expect(got.body).toEqual((await call(path === '/version' ? '/metadata' : '/version', 'dev-token')).body);
  });

  it('needs a signed-in caller with a scope that reads them', async () => {
    expect((await call('/version')).status).toBe(401);
    expect((await call('/metadata', 'dev-registry')).status).toBe(403);
  });
});
