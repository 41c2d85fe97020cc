// GraphQL epics of a group at GitLab's tier, compared with REST's list for the same world.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ORIGIN, TEAM, apiCall } from './support/world.js';

const fixture = (tier: 'free' | 'premium'): Fixture => ({
  instance: { tier },
  users: TEAM,
  groups: [
    { path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'developer' }], epics: [{ title: 'Plan', author: 'dev' }, { title: 'Hidden plan', author: 'dev', confidential: true }] },
    { path: 'sub', parent: 'acme', visibility: 'public', epics: [{ title: 'Sub plan', author: 'root', state: 'closed' }] },
  ],
});

async function data(emulator: Awaited<ReturnType<typeof createEmulator>>, query: string, token?: string): Promise<any> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers['PRIVATE-TOKEN'] = token;
  const body = (await (await emulator.handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers, body: JSON.stringify({ query }) }))).json()) as any;
  expect(body.errors).toBeUndefined();
  return body.data;
}

describe('Group.epics', () => {
  it('lists the epics each caller may see, with descendant groups, as REST does', async () => {
    const e = await createEmulator({ fixture: fixture('premium') });
    for (const token of ['dev-token', 'outsider-token']) {
      const d = await data(e, '{ group(fullPath: "acme") { epics { count nodes { iid title state confidential webUrl author { username } group { fullPath } } } } }', token);
      const r = (await (await apiCall(e, '/groups/acme/epics?include_descendant_groups=true', { token })).json()) as any[];
      expect(d.group.epics.nodes.map((x: any) => [x.iid, x.title, x.state, x.confidential, x.webUrl, x.group.fullPath])).toEqual(
        r.map((x) => [String(x.iid), x.title, x.state, x.confidential, x.web_url, x.references.full.split('&')[0]]),
      );
    }
    const one = await data(e, '{ group(fullPath: "acme") { epic(iid: "1") { title reference(full: true) } } }', 'dev-token');
    expect(one.group.epic).toEqual({ title: 'Plan', reference: 'acme&1' });
    const closed = await data(e, '{ group(fullPath: "acme") { epics(state: closed) { nodes { title } } } }', 'dev-token');
    expect(closed.group.epics.nodes).toEqual([{ title: 'Sub plan' }]);
  });

  it('is null below Premium, where REST has no epics', async () => {
    const e = await createEmulator({ fixture: fixture('free') });
    expect((await apiCall(e, '/groups/acme/epics', { token: 'dev-token' })).status).toBe(404);
    expect(await data(e, '{ group(fullPath: "acme") { epics { nodes { title } } } }', 'dev-token')).toEqual({ group: { epics: null } });
  });
});
