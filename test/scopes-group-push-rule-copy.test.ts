// A project created under a group starts with a copy of the push rule of the nearest group up its
// ancestry that has one (EE Projects::CreateService#create_predefined_push_rule,
// Group#predefined_push_rule), at Premium; the copy is the project's own from then on.
import { describe, expect, it } from 'vitest';
import { TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';
import type { Fixture } from '../src/index.js';

const fixture: Fixture = {
  instance: { tier: 'premium' },
  users: TEAM,
  groups: [
    { path: 'acme', visibility: 'private', members: [{ user: 'mai', access_level: 'owner' }, ...TEAM_MEMBERS.slice(1)] },
    { path: 'sub', parent: 'acme', visibility: 'private' },
    { path: 'plain', visibility: 'private', members: [{ user: 'mai', access_level: 'owner' }] },
  ],
  projects: [{ namespace: 'plain', path: 'origin', creator: 'root', repository: { files: { 'README.md': '# Origin\n' } } }],
};
const premium = seededWorld(fixture, '2026-05-04T10:00:00Z');
type Init = { method?: string; token?: string; json?: unknown };

function setup(e = premium()) {
  const call = (path: string, init: Init = {}) => apiCall(e, path, { token: 'maintainer-token', ...init });
  const idOf = async (path: string) => (await (await call(path)).json()).id as number;
  const create = async (namespace: string, path: string, extra: Record<string, unknown> = {}) => {
    const res = await call('/projects', { method: 'POST', json: { path, namespace_id: await idOf(`/groups/${encodeURIComponent(namespace)}`), ...extra } });
    expect(res.status).toBe(201);
    return (await res.json()).id as number;
  };
  return { e, call, idOf, create };
}

const RULE = { commit_message_regex: '^(feat|fix): ', branch_name_regex: '^(main|feature/.*)$', deny_delete_tag: true, max_file_size: 5 };

describe('a group push rule copied to new projects', () => {
  it('gives a project made in the group a copy, made now, with its own id', async () => {
    const { e, call, create } = setup();
    const group = await (await call('/groups/acme/push_rule', { method: 'POST', json: RULE })).json();
    e.clock.advance(60_000);
    const id = await create('acme', 'app');
    const res = await call(`/projects/${id}/push_rule`);
    expect(res.status).toBe(200);
    const copy = await res.json();
    const { id: _g, created_at: _c, ...fields } = group;
    expect(copy).toEqual({ ...fields, id: expect.any(Number), project_id: id, created_at: '2026-05-04T10:01:00.000Z' });
    expect(copy.id).not.toBe(group.id);
  });

  it('takes the nearest group that has one: the subgroup\'s own, else its parent\'s', async () => {
    const { call, create } = setup();
    await call('/groups/acme/push_rule', { method: 'POST', json: RULE });
    const inherited = await create('acme/sub', 'deep');
    expect(await (await call(`/projects/${inherited}/push_rule`)).json()).toMatchObject({ commit_message_regex: '^(feat|fix): ', max_file_size: 5 });
    expect((await call('/groups/acme%2Fsub/push_rule', { method: 'POST', token: 'root-token', json: { max_file_size: 7 } })).status).toBe(201);
    const own = await create('acme/sub', 'deeper');
    expect(await (await call(`/projects/${own}/push_rule`)).json()).toMatchObject({ commit_message_regex: null, max_file_size: 7, deny_delete_tag: false });
  });

  it('is a copy: changing or deleting the group\'s rule later leaves the project\'s as it was', async () => {
    const { call, create } = setup();
    await call('/groups/acme/push_rule', { method: 'POST', json: RULE });
    const id = await create('acme', 'app');
    const before = await (await call(`/projects/${id}/push_rule`)).json();
    expect((await call('/groups/acme/push_rule', { method: 'PUT', json: { commit_message_regex: '', max_file_size: 100 } })).status).toBe(200);
    expect(await (await call(`/projects/${id}/push_rule`)).json()).toEqual(before);
    expect((await call('/groups/acme/push_rule', { method: 'DELETE' })).status).toBe(204);
    expect(await (await call(`/projects/${id}/push_rule`)).json()).toEqual(before);
    // And the project's own changes stay its own.
    expect((await call(`/projects/${id}/push_rule`, { method: 'PUT', json: { deny_delete_tag: false } })).status).toBe(200);
    expect(await (await call('/groups/acme/push_rule')).json()).toBeNull();
  });

  it('leaves projects that already existed, and projects outside the group, without one', async () => {
    const { call, create } = setup();
    const earlier = await create('acme', 'earlier');
    await call('/groups/acme/push_rule', { method: 'POST', json: RULE });
    expect(await (await call(`/projects/${earlier}/push_rule`)).json()).toBeNull();
    const elsewhere = await create('plain', 'elsewhere');
    expect(await (await call(`/projects/${elsewhere}/push_rule`)).json()).toBeNull();
    const mine = await call('/projects', { method: 'POST', json: { path: 'mine' } });
    expect(await (await call(`/projects/${(await mine.json()).id}/push_rule`)).json()).toBeNull();
  });

  it('copies to a fork made in the group, and not to a project moved into it', async () => {
    const { call, create, idOf } = setup();
    await call('/groups/acme/push_rule', { method: 'POST', json: RULE });
    const fork = await call('/projects/plain%2Forigin/fork', { method: 'POST', json: { namespace_path: 'acme' } });
    expect(fork.status).toBe(201);
    expect(await (await call(`/projects/${(await fork.json()).id}/push_rule`)).json()).toMatchObject({ commit_message_regex: '^(feat|fix): ' });
    const moved = await create('plain', 'moved');
    const transfer = await call(`/projects/${moved}/transfer`, { method: 'PUT', json: { namespace: await idOf('/groups/acme') } });
    expect(transfer.status).toBe(200);
    expect(await (await call(`/projects/${moved}/push_rule`)).json()).toBeNull();
  });

  it('refuses what the copied rule refuses: a commit through the API with another message, a branch off the pattern', async () => {
    const { call, create } = setup();
    await call('/groups/acme/push_rule', { method: 'POST', json: RULE });
    const id = await create('acme', 'app', { initialize_with_readme: true });
    const commit = (message: string, branch = 'main') => call(`/projects/${id}/repository/commits`, {
      method: 'POST', json: { branch, start_branch: 'main', commit_message: message, actions: [{ action: 'create', file_path: `f-${message.length}-${branch.length}.txt`, content: 'x' }] },
    });
    const refused = await commit('update stuff');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: "Commit message does not follow the pattern '^(feat|fix): '" });
    expect((await commit('feat: stuff')).status).toBe(201);
    const branch = await commit('feat: more', 'topic');
    expect(branch.status).toBe(400);
    expect(await branch.json()).toEqual({ message: "Branch name does not follow the pattern '^(main|feature/.*)$'" });
    expect((await commit('feat: more', 'feature/x')).status).toBe(201);
  });

  it('copies nothing below Premium', async () => {
    const { e, call, create } = setup();
    expect((await call('/groups/acme/push_rule', { method: 'POST', json: RULE })).status).toBe(201);
    e.configure({ tier: 'free' });
    const id = await create('acme', 'app');
    expect((await call(`/projects/${id}/push_rule`)).status).toBe(404);
    e.configure({ tier: 'premium' });
    expect(await (await call(`/projects/${id}/push_rule`)).json()).toBeNull();
    expect((await call(`/projects/${id}/repository/commits`, {
      method: 'POST', json: { branch: 'topic', commit_message: 'anything', actions: [{ action: 'create', file_path: 'a.txt', content: 'x' }] },
    })).status).toBe(201);
  });
});
