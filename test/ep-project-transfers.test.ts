// Transfers (lib/api/projects.rb, groups.rb; Projects:: and Groups::TransferService): an owner
// moves a project to another namespace and a group under another parent, with GitLab's checks;
// what moves is never more visible than its new parent, and the old paths still lead to it.
import { describe, expect, it } from 'vitest';
import { TEAM, apiCall, seededWorld } from './support/world.js';

const world = seededWorld(
  {
    users: TEAM,
    groups: [
      { path: 'acme', visibility: 'public', members: [{ user: 'mai', access_level: 'owner' }] },
      { path: 'sub', parent: 'acme', visibility: 'public' },
      { path: 'closed', visibility: 'private', members: [{ user: 'mai', access_level: 'owner' }] },
      { path: 'theirs', visibility: 'public', members: [{ user: 'mai', access_level: 'developer' }] },
    ],
    projects: [
      { namespace: 'acme', path: 'app', visibility: 'public', creator: 'root' },
      { namespace: 'closed', path: 'app', visibility: 'private', creator: 'root' },
      { namespace: 'acme/sub', path: 'deep', visibility: 'public', creator: 'root' },
    ],
  },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'maintainer-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];

describe('project transfer', () => {
  it('an owner moves a project into a group they own: its namespace, path and visibility follow; the old path still reaches it', async () => {
    const before = await (await call('/projects/acme%2Fsub%2Fdeep')).json();
    const res = await call('/projects/acme%2Fsub%2Fdeep/transfer', { method: 'PUT', json: { namespace: 'closed' } });
    expect(res.status).toBe(200);
    const moved = await res.json();
    expect(moved).toMatchObject({ id: before.id, path_with_namespace: 'closed/deep', namespace: { path: 'closed' }, visibility: 'private' });
    expect((await (await call(`/projects/${before.id}`)).json()).path_with_namespace).toBe('closed/deep');
    expect((await call('/projects/closed%2Fdeep')).status).toBe(200);
    const back = await (await call(`/projects/${before.id}/transfer`, { method: 'PUT', json: { namespace: 'mai' } })).json();
    expect(back.path_with_namespace).toBe('mai/deep');
  });

  it('refuses the same namespace, one the owner may not create in, a clash; an unknown namespace is 404; a non-owner 403', async () => {
    expect(await body(await call('/projects/acme%2Fapp/transfer', { method: 'PUT', json: { namespace: 'acme' } })))
      .toEqual([400, { message: 'Failed to transfer project {:new_namespace=>["Project is already in this namespace."]}' }]);
    expect(await body(await call('/projects/acme%2Fapp/transfer', { method: 'PUT', json: { namespace: 'theirs' } })))
      .toEqual([400, { message: 'Failed to transfer project {:new_namespace=>["You don\'t have permission to transfer projects into that namespace."]}' }]);
    expect(await body(await call('/projects/acme%2Fapp/transfer', { method: 'PUT', json: { namespace: 'closed' } })))
      .toEqual([400, { message: 'Failed to transfer project {:new_namespace=>["Project with same name or path in target namespace already exists"]}' }]);
    expect(await body(await call('/projects/acme%2Fapp/transfer', { method: 'PUT', json: { namespace: 'nowhere' } }))).toEqual([404, { message: '404 Namespace Not Found' }]);
    expect((await call('/projects/acme%2Fapp/transfer', { method: 'PUT', token: 'dev-token', json: { namespace: 'closed' } })).status).toBe(403);
    expect((await (await call('/projects/acme%2Fapp')).json()).path_with_namespace).toBe('acme/app');
  });

  it('lists where a project may go', async () => {
    const list = await (await call('/projects/acme%2Fapp/transfer_locations')).json();
    expect(list.map((g: any) => g.full_path)).toEqual(['closed', 'acme/sub']);
    expect((await (await call('/projects/acme%2Fapp/transfer_locations?search=clo')).json()).map((g: any) => g.full_path)).toEqual(['closed']);
  });
});

describe('group transfer', () => {
  it('an owner moves a group under another and back to the top; paths below follow', async () => {
    let res = await call('/groups/acme%2Fsub/transfer', { method: 'POST', json: { group_id: (await (await call('/groups/closed')).json()).id } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ full_path: 'closed/sub', visibility: 'private' });
    expect((await (await call('/projects/closed%2Fsub%2Fdeep', { token: 'root-token' })).json()).visibility).toBe('private');
    res = await call('/groups/closed%2Fsub/transfer', { method: 'POST', token: 'root-token' });
    expect(await res.json()).toMatchObject({ full_path: 'sub', parent_id: null });
    expect((await call('/projects/sub%2Fdeep', { token: 'root-token' })).status).toBe(200);
  });

  it('refuses GitLab\'s cases with its messages', async () => {
    const id = async (p: string) => (await (await call(`/groups/${encodeURIComponent(p)}`, { token: 'root-token' })).json()).id;
    expect(await body(await call('/groups/acme/transfer', { method: 'POST', token: 'root-token' }))).toEqual([400, { message: 'Transfer failed: Group is already a root group.' }]);
    expect(await body(await call('/groups/acme%2Fsub/transfer', { method: 'POST', json: { group_id: await id('acme') } }))).toEqual([400, { message: 'Transfer failed: Group is already associated to the parent group.' }]);
    expect(await body(await call('/groups/acme/transfer', { method: 'POST', json: { group_id: await id('theirs') } }))).toEqual([400, { message: "Transfer failed: You don't have enough permissions." }]);
    expect(await body(await call('/groups/acme/transfer', { method: 'POST', json: { group_id: await id('acme/sub') } }))).toEqual([400, { message: 'Transfer failed: Cannot transfer group to one of its subgroup.' }]);
    expect(await body(await call('/groups/acme/transfer', { method: 'POST', json: { group_id: 9999 } }))).toEqual([404, { message: '404 Group Not Found' }]);
    expect((await call('/groups/theirs/transfer', { method: 'POST', json: { group_id: await id('acme') } })).status).toBe(403);
  });

  it('lists where a group may go: not itself, below it, nor its parent', async () => {
    expect((await (await call('/groups/acme%2Fsub/transfer_locations')).json()).map((g: any) => g.full_path)).toEqual(['closed']);
  });
});
