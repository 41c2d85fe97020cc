// Keyset pages send the next page in `Link` and, with the same value, the deprecated `Links`
// (Gitlab::Pagination::Keyset::HeaderBuilder).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    { namespace: 'acme', path: 'a', visibility: 'public', repository: { files: { x: 'x' }, tags: { v1: 'main', v2: 'main', v3: 'main' } } },
    { namespace: 'acme', path: 'b', visibility: 'public' },
    { namespace: 'acme', path: 'c', visibility: 'public' },
  ],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');

describe('Links on keyset pages', () => {
  it('equals Link for projects and tags, and is absent on the last page', async () => {
    for (const path of ['/projects?pagination=keyset&order_by=id&sort=asc&per_page=2', '/projects/acme%2Fa/repository/tags?pagination=keyset&per_page=2']) {
      const res = await apiCall(world(), path, { token: 'root-token' });
      expect(res.status).toBe(200);
      expect(res.headers.get('link')).toContain('rel="next"');
      expect(res.headers.get('links')).toBe(res.headers.get('link'));
    }
    const last = await apiCall(world(), '/projects/acme%2Fa/repository/tags?pagination=keyset&per_page=5', { token: 'root-token' });
    expect(last.headers.get('links')).toBeNull();
    expect((await apiCall(world(), '/projects?per_page=1', { token: 'root-token' })).headers.get('links')).toBeNull();
  });
});
