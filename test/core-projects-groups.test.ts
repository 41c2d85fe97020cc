// Projects, groups, namespaces and the current user (lib/api/projects.rb, groups.rb,
// namespaces.rb, users.rb): the everyday flow a client needs to set up a world, with
// GitLab's visibility rules, filters and validation errors.
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type SeedHandles } from '../src/index.js';
import { pendingTasks, updateProject } from './support/world.js';

const BASE = 'https://gitlab.example.com/api/v4';
const as = (user: string) => ({ 'PRIVATE-TOKEN': `${user}-token` });
const ANON = {};

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'alice', name: 'Alice', tokens: [{ token: 'alice-token' }] },
    { username: 'bob', tokens: [{ token: 'bob-token' }] },
    { username: 'dave', tokens: [{ token: 'dave-token' }] },
    { username: 'eve', tokens: [{ token: 'eve-token' }] },
    { username: 'carol', external: true, tokens: [{ token: 'carol-token' }] },
  ],
  groups: [
    { path: 'acme', name: 'Acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] },
    { path: 'team', name: 'Team', parent: 'acme', visibility: 'private', members: [{ user: 'bob', access_level: 'maintainer' }] },
    { path: 'internal-group', visibility: 'internal' },
  ],
  projects: [
    { namespace: 'acme', path: 'website', name: 'Website', visibility: 'public', topics: ['web', 'frontend'], description: 'The public site' },
    { namespace: 'acme', path: 'intranet', name: 'Intranet', visibility: 'internal', topics: ['web'], members: [{ user: 'carol', access_level: 'reporter' }] },
    { namespace: 'acme', path: 'secrets', name: 'Secrets', visibility: 'private', members: [{ user: 'eve', access_level: 'guest' }] },
    { namespace: 'acme/team', path: 'tools', name: 'Tools', visibility: 'private', members: [{ user: 'dave', access_level: 'developer' }] },
    { namespace: 'alice', path: 'personal', name: 'Personal', visibility: 'private' },
    { namespace: 'internal-group', path: 'handbook', name: 'Handbook', visibility: 'internal' },
  ],
};

let gitlab: Emulator;
let seeded: SeedHandles;

beforeEach(async () => {
  gitlab = await createEmulator({ fixture: {}, clock: { now: '2030-01-01T00:00:00.000Z', frozen: true } });
  seeded = await gitlab.seed(fixture);
});

async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await gitlab.handle(new Request(`${BASE}${path}`, init));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === '' ? undefined : JSON.parse(text)) as any };
}

const get = (path: string, headers: Record<string, string>) => call('GET', path, headers);
const enc = encodeURIComponent;

async function projectPaths(headers: Record<string, string>, query = '') {
  const res = await get(`/projects?per_page=100${query}`, headers);
  expect(res.status).toBe(200);
  return (res.body as { path_with_namespace: string }[]).map((p) => p.path_with_namespace);
}

async function groupPaths(headers: Record<string, string>, query = '') {
  const res = await get(`/groups?per_page=100${query}`, headers);
  expect(res.status).toBe(200);
  return (res.body as { full_path: string }[]).map((g) => g.full_path);
}

const sorted = (list: string[]) => [...list].sort();

describe('projects', () => {
  it('are created in the caller\'s own namespace by default, private, owned by the caller', async () => {
    const res = await call('POST', '/projects', as('alice'), { name: 'My Tool', description: 'A tool' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'My Tool',
      path: 'my-tool',
      path_with_namespace: 'alice/my-tool',
      name_with_namespace: 'Alice / My Tool',
      description: 'A tool',
      visibility: 'private',
      namespace: { path: 'alice', kind: 'user', full_path: 'alice' },
      owner: { username: 'alice' },
      creator_id: seeded.users.alice!.id,
      empty_repo: true,
      archived: false,
      web_url: 'https://gitlab.example.com/alice/my-tool',
    });
    expect(res.body._links.self).toBe(`${BASE}/projects/${res.body.id}`);
    expect(res.body).not.toHaveProperty('permissions');
  });

  it('are created in a group through namespace_id, without an owner field', async () => {
    const res = await call('POST', '/projects', as('alice'), { path: 'blog', namespace_id: seeded.groups.acme!.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'blog', path_with_namespace: 'acme/blog', namespace: { kind: 'group', full_path: 'acme' } });
    expect(res.body).not.toHaveProperty('owner');
  });

  it('a namespace the caller cannot create in is 400 namespace is not valid', async () => {
    for (const ns of [seeded.groups.acme!.id, seeded.users.alice!.id + 1000]) {
      const res = await call('POST', '/projects', as('dave'), { name: 'Intruder', namespace_id: ns });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { namespace: ['is not valid'] } });
    }
  });

  it('asking for more visibility than the group allows is silently lowered on create', async () => {
    const res = await call('POST', '/projects', as('alice'), { name: 'Loud', namespace_id: seeded.groups['acme/team']!.id, visibility: 'public' });
    expect(res.status).toBe(201);
    expect(res.body.visibility).toBe('private');
  });

  it('derive the path from the name: the name itself when it is a valid path, else parameterized', async () => {
    const cases: [string, string][] = [['My.Project', 'My.Project'], ['Foo Bar', 'foo-bar'], ['Ünïcode  Name', 'unicode-name'], ['Under_score', 'Under_score']];
    for (const [name, path] of cases) {
      const res = await call('POST', '/projects', as('alice'), { name });
      expect(res.status, name).toBe(201);
      expect(res.body.path).toBe(path);
    }
  });

  it('derive the name from the path when only the path is given', async () => {
    const res = await call('POST', '/projects', as('alice'), { path: 'only-path' });
    expect(res.body).toMatchObject({ name: 'only-path', path: 'only-path' });
  });

  it('are read by id or by URL-encoded full path, with the caller\'s permissions', async () => {
    const byId = await get(`/projects/${seeded.projects['acme/website']!.id}`, as('alice'));
    const byPath = await get('/projects/acme%2Fwebsite', as('alice'));
    expect(byId.status).toBe(200);
    expect(byPath.body).toEqual(byId.body);
    expect(byId.body.permissions).toEqual({ project_access: null, group_access: { access_level: 50, notification_level: 3 } });
    const byPathUpper = await get('/projects/ACME%2FWebsite', as('alice'));
    expect(byPathUpper.body.id).toBe(byId.body.id);
  });

  it('a path without a namespace is never found', async () => {
    expect((await get('/projects/website', as('root'))).body).toEqual({ message: '404 Project Not Found' });
  });

  it('anonymous callers get the basic details only', async () => {
    const res = await get('/projects/acme%2Fwebsite', ANON);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path_with_namespace: 'acme/website', visibility: 'public', default_branch: 'main' });
    expect(res.body).not.toHaveProperty('permissions');
    expect(res.body).not.toHaveProperty('_links');
  });

  it('are edited by a maintainer; renaming needs an owner', async () => {
    const tools = '/projects/acme%2Fteam%2Ftools';
    const edit = await call('PUT', tools, as('bob'), { description: 'Shared tools', topics: ['ops'] });
    expect(edit.status).toBe(200);
    expect(edit.body).toMatchObject({ description: 'Shared tools', topics: ['ops'] });
    expect((await call('PUT', tools, as('bob'), { name: 'Renamed' })).status).toBe(403);
    expect((await call('PUT', tools, as('dave'), { description: 'x' })).status).toBe(403);
    const renamed = await call('PUT', tools, as('alice'), { name: 'Renamed', path: 'renamed' });
    expect(renamed.body).toMatchObject({ name: 'Renamed', path_with_namespace: 'acme/team/renamed' });
    expect((await get(tools, as('alice'))).status).toBe(404);
    expect((await get('/projects/acme%2Fteam%2Frenamed', as('alice'))).status).toBe(200);
  });

  it('an edit with no attribute is 400', async () => {
    const res = await call('PUT', '/projects/acme%2Fwebsite', as('alice'), {});
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/are missing, at least one parameter must be provided$/);
  });

  it('an edit raising visibility above the group\'s is 400 on visibility_level', async () => {
    const res = await call('PUT', '/projects/acme%2Fteam%2Ftools', as('alice'), { visibility: 'public' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { visibility_level: ['public is not allowed in a private group.'] } });
  });

  it('are deleted: 202 at once, hidden at once, gone (and the path free) when the background job has run', async () => {
    const path = '/projects/acme%2Fwebsite';
    expect((await call('DELETE', path, as('bob'))).status).toBe(403);
    const res = await call('DELETE', path, as('alice'));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: '202 Accepted' });
    expect((await get(path, as('root'))).status).toBe(404);
    expect(await projectPaths(as('root'))).not.toContain('acme/website');
    gitlab.runUntilIdle();
    expect(pendingTasks(gitlab)).toEqual([]);
    const again = await call('POST', '/projects', as('alice'), { name: 'Website', path: 'website', namespace_id: seeded.groups.acme!.id });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(seeded.projects['acme/website']!.id);
  });

  it('the background job of a delete runs when the clock reaches it', async () => {
    await call('DELETE', '/projects/acme%2Fsecrets', as('alice'));
    expect(gitlab.runUntilIdle()).toBe(1);
    expect(gitlab.runUntilIdle()).toBe(0);
  });
});

describe('project validation', () => {
  it('a name or path taken in the namespace is 400 on both', async () => {
    const res = await call('POST', '/projects', as('alice'), { name: 'Website', path: 'website', namespace_id: seeded.groups.acme!.id });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
  });

  it('the same name in another namespace is fine', async () => {
    expect((await call('POST', '/projects', as('alice'), { name: 'Website' })).status).toBe(201);
  });

  it('a name in the wrong format is 400 with GitLab\'s message', async () => {
    const res = await call('POST', '/projects', as('alice'), { name: '-starts with a dash', path: 'ok-path' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: { name: ["can contain only letters, digits, emoji, '_', '.', '+', dashes, or spaces. It must start with a letter, digit, emoji, or '_'."] },
    });
  });

  it('a path in the wrong format gets every message that applies', async () => {
    const PATH = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";
    const OCI =
      "can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'.";
    const dash = await call('POST', '/projects', as('alice'), { name: 'Dash', path: '-dash' });
    expect(dash.body).toEqual({ message: { path: [PATH, OCI] } });
    const underscore = await call('POST', '/projects', as('alice'), { name: 'Under', path: '_under' });
    expect(underscore.body).toEqual({ message: { path: [OCI] } });
  });

  it('neither name nor path is 400 in Grape\'s envelope', async () => {
    const res = await call('POST', '/projects', as('alice'), { description: 'nameless' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
  });
});

describe('who sees which project', () => {
  it('anonymous callers see public projects only', async () => {
    expect(sorted(await projectPaths(ANON))).toEqual(['acme/website']);
    for (const p of ['acme/intranet', 'acme/secrets', 'internal-group/handbook']) {
      const res = await get(`/projects/${enc(p)}`, ANON);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Project Not Found' });
    }
  });

  it('signed-in users also see internal projects, and private ones they are members of', async () => {
    expect(sorted(await projectPaths(as('eve')))).toEqual(['acme/intranet', 'acme/secrets', 'acme/website', 'internal-group/handbook']);
    expect((await get('/projects/acme%2Fsecrets', as('dave'))).status).toBe(404);
  });

  it('external users see public projects and their own memberships, not other internal ones', async () => {
    expect(sorted(await projectPaths(as('carol')))).toEqual(['acme/intranet', 'acme/website']);
    expect((await get('/projects/internal-group%2Fhandbook', as('carol'))).status).toBe(404);
  });

  it('members of a group see the private projects of its subgroups', async () => {
    expect(await projectPaths(as('alice'))).toContain('acme/team/tools');
  });

  it('admins see everything', async () => {
    expect(await projectPaths(as('root'))).toHaveLength(6);
  });
});

describe('project list filters', () => {
  it('search matches name, path and description', async () => {
    expect(sorted(await projectPaths(as('root'), '&search=web'))).toEqual(['acme/website']);
    expect(sorted(await projectPaths(as('root'), '&search=PUBLIC%20SITE'))).toEqual(['acme/website']);
    expect(await projectPaths(as('root'), '&search=team')).toEqual([]);
    expect(await projectPaths(as('root'), '&search=team&search_namespaces=true')).toEqual(['acme/team/tools']);
  });

  it('visibility', async () => {
    expect(sorted(await projectPaths(as('root'), '&visibility=internal'))).toEqual(['acme/intranet', 'internal-group/handbook']);
  });

  it('owned, membership and min_access_level', async () => {
    expect(await projectPaths(as('alice'), '&owned=true')).toContain('alice/personal');
    expect(await projectPaths(as('alice'), '&owned=true')).not.toContain('internal-group/handbook');
    expect(sorted(await projectPaths(as('dave'), '&membership=true'))).toEqual(['acme/team/tools']);
    expect(await projectPaths(as('bob'), '&min_access_level=40')).toEqual(['acme/team/tools']);
    expect(await projectPaths(as('eve'), '&min_access_level=20')).toEqual([]);
    expect(await projectPaths(ANON, '&membership=true')).toEqual([]);
  });

  it('archived', async () => {
    updateProject(gitlab, 'acme/intranet', (p) => void (p.archived = true));
    expect(await projectPaths(as('root'), '&archived=true')).toEqual(['acme/intranet']);
    expect(await projectPaths(as('root'), '&archived=false')).not.toContain('acme/intranet');
    expect(await projectPaths(as('root'))).toHaveLength(6);
  });

  it('topic: every listed topic must be present', async () => {
    expect(sorted(await projectPaths(as('root'), '&topic=web'))).toEqual(['acme/intranet', 'acme/website']);
    expect(await projectPaths(as('root'), '&topic=web,frontend')).toEqual(['acme/website']);
    expect(await projectPaths(as('root'), '&topic=none')).toEqual([]);
  });

  it('order_by and sort; by default newest first', async () => {
    const byId = await projectPaths(as('root'));
    expect(byId[0]).toBe('internal-group/handbook');
    expect(byId[byId.length - 1]).toBe('acme/website');
    const byName = await projectPaths(as('root'), '&order_by=name&sort=asc');
    expect(byName).toEqual(['internal-group/handbook', 'acme/intranet', 'alice/personal', 'acme/secrets', 'acme/team/tools', 'acme/website']);
    const byPathDesc = await projectPaths(as('root'), '&order_by=path&sort=desc');
    expect(byPathDesc[0]).toBe('acme/website');
  });

  it('an unknown order_by is 400', async () => {
    const res = await get('/projects?order_by=stars', as('root'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('updated_after needs order_by=updated_at', async () => {
    const res = await get('/projects?updated_after=2029-01-01', as('root'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: '400 Bad request - `updated_at` filter and `updated_at` sorting must be paired' });
  });
});

describe('groups', () => {
  it('are created with the caller as Owner, private by default', async () => {
    const res = await call('POST', '/groups', as('dave'), { name: 'Dave Corp', path: 'dave-corp' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Dave Corp',
      path: 'dave-corp',
      full_path: 'dave-corp',
      full_name: 'Dave Corp',
      parent_id: null,
      visibility: 'private',
      web_url: 'https://gitlab.example.com/groups/dave-corp',
      shared_with_groups: [],
    });
    expect(res.body).not.toHaveProperty('projects');
    expect(await groupPaths(as('dave'), '&owned=true')).toEqual(['dave-corp']);
  });

  it('subgroups nest their path and name under the parent', async () => {
    const res = await call('POST', '/groups', as('alice'), { name: 'Labs', path: 'labs', parent_id: seeded.groups.acme!.id, visibility: 'public' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ full_path: 'acme/labs', full_name: 'Acme / Labs', parent_id: seeded.groups.acme!.id });
    const deeper = await call('POST', '/groups', as('alice'), { name: 'Deep', path: 'deep', parent_id: res.body.id });
    expect(deeper.body).toMatchObject({ full_path: 'acme/labs/deep', full_name: 'Acme / Labs / Deep' });
    const subs = await get(`/groups/${seeded.groups.acme!.id}/subgroups`, as('alice'));
    expect(subs.body.map((g: { full_path: string }) => g.full_path)).toEqual(['acme/labs', 'acme/team']);
  });

  it('a subgroup needs the right role in the parent: 403, or 404 when the parent is hidden', async () => {
    const forbidden = await call('POST', '/groups', as('dave'), { name: 'Nope', path: 'nope', parent_id: seeded.groups.acme!.id });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ message: '403 Forbidden' });
    const hidden = await call('POST', '/groups', as('eve'), { name: 'Nope', path: 'nope', parent_id: seeded.groups['acme/team']!.id });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Group Not Found' });
    const maintainer = await call('POST', '/groups', as('bob'), { name: 'Bob sub', path: 'bob-sub', parent_id: seeded.groups['acme/team']!.id });
    expect(maintainer.status).toBe(201);
  });

  it('a failed save is 400 "Failed to save group" with the errors as Ruby prints them', async () => {
    const taken = await call('POST', '/groups', as('alice'), { name: 'Another Acme', path: 'acme' });
    expect(taken.status).toBe(400);
    expect(taken.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
    const sibling = await call('POST', '/groups', as('alice'), { name: 'Team', path: 'team-two', parent_id: seeded.groups.acme!.id });
    expect(sibling.body).toEqual({ message: 'Failed to save group {:name=>["has already been taken"]}' });
    const loud = await call('POST', '/groups', as('alice'), { name: 'Loud', path: 'loud', parent_id: seeded.groups['acme/team']!.id, visibility: 'public' });
    expect(loud.body).toEqual({
      message: 'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}',
    });
    const badName = await call('POST', '/groups', as('alice'), { name: 'Bad!Name', path: 'bad-name' });
    expect(badName.body).toEqual({
      message:
        'Failed to save group {:name=>["can contain only letters, digits, emoji, \'_\', \'.\', dash, space, parenthesis. It must start with letter, digit, emoji or \'_\'."]}',
    });
    const reserved = await call('POST', '/groups', as('alice'), { name: 'Api', path: 'api' });
    expect(reserved.body).toEqual({ message: 'Failed to save group {:path=>["api is a reserved name"]}' });
  });

  it('top-level groups may share a name', async () => {
    const res = await call('POST', '/groups', as('alice'), { name: 'Acme', path: 'acme-two' });
    expect(res.status).toBe(201);
  });

  it('are read with their projects, only those the caller may see', async () => {
    const asEve = await get('/groups/acme', as('eve'));
    expect(asEve.status).toBe(200);
    expect(asEve.body.projects.map((p: { path: string }) => p.path).sort()).toEqual(['intranet', 'secrets', 'website']);
    const anonymous = await get('/groups/acme', ANON);
    expect(anonymous.body.projects.map((p: { path: string }) => p.path)).toEqual(['website']);
    const without = await get('/groups/acme?with_projects=false', ANON);
    expect(without.body).not.toHaveProperty('projects');
  });

  it('a private group is 404 to those who may not see it, and visible to members of what is inside', async () => {
    expect((await get('/groups/acme%2Fteam', ANON)).body).toEqual({ message: '404 Group Not Found' });
    expect((await get('/groups/acme%2Fteam', as('eve'))).status).toBe(404);
    expect((await get('/groups/acme%2Fteam', as('dave'))).status).toBe(200); // a member of a project inside
    expect((await get('/groups/acme%2Fteam', as('alice'))).status).toBe(200); // inherited from acme
  });

  it('list: a regular user sees the groups they belong to and their ancestors; all_available adds the visible rest', async () => {
    expect(await groupPaths(as('bob'))).toEqual(['acme', 'acme/team']);
    expect(await groupPaths(as('bob'), '&all_available=true')).toEqual(['acme', 'internal-group', 'acme/team']);
    expect(await groupPaths(as('eve'))).toEqual([]);
    expect(await groupPaths(ANON)).toEqual(['acme']);
    expect(await groupPaths(as('root'))).toEqual(['acme', 'internal-group', 'acme/team']);
  });

  it('list filters: search, visibility, top_level_only, min_access_level, order_by and sort', async () => {
    expect(await groupPaths(as('root'), '&search=tea')).toEqual(['acme/team']);
    expect(await groupPaths(as('root'), '&visibility=internal')).toEqual(['internal-group']);
    expect(await groupPaths(as('root'), '&top_level_only=true')).toEqual(['acme', 'internal-group']);
    expect(await groupPaths(as('bob'), '&min_access_level=40')).toEqual(['acme/team']);
    expect(await groupPaths(as('root'), '&order_by=id&sort=desc')).toEqual(['internal-group', 'acme/team', 'acme']);
  });

  it('are edited by an Owner; a new path moves the subgroups and projects below', async () => {
    expect((await call('PUT', '/groups/acme', as('bob'), { description: 'x' })).status).toBe(403);
    const res = await call('PUT', '/groups/acme', as('alice'), { path: 'acme-inc', name: 'Acme Inc', description: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: 'acme-inc', full_path: 'acme-inc', name: 'Acme Inc', description: 'Renamed' });
    expect(res.body.projects.map((p: { path_with_namespace: string }) => p.path_with_namespace).sort()).toEqual([
      'acme-inc/intranet', 'acme-inc/secrets', 'acme-inc/website',
    ]);
    expect((await get('/groups/acme-inc%2Fteam', as('alice'))).body.full_name).toBe('Acme Inc / Team');
    expect((await get('/projects/acme-inc%2Fteam%2Ftools', as('alice'))).status).toBe(200);
    expect((await get('/projects/acme%2Fwebsite', as('alice'))).status).toBe(404);
    expect((await call('POST', '/groups', as('alice'), { name: 'Acme', path: 'acme' })).status).toBe(201);
  });

  it('an edit that breaks a rule is 400 with each property and its errors', async () => {
    const lower = await call('PUT', '/groups/acme', as('alice'), { visibility: 'private' });
    expect(lower.status).toBe(400);
    expect(lower.body).toEqual({ message: { visibility_level: ['private is not allowed since this group contains projects with higher visibility.'] } });
    await call('POST', '/groups', as('alice'), { name: 'Labs', path: 'labs', parent_id: seeded.groups.acme!.id, visibility: 'public' });
    const clash = await call('PUT', '/groups/acme%2Flabs', as('alice'), { name: 'Team', path: 'team' });
    expect(clash.body).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
    const badPath = await call('PUT', '/groups/acme%2Flabs', as('alice'), { path: 'x' });
    expect(badPath.body).toEqual({ message: { path: ['is too short (minimum is 2 characters)'] } });
    const same = await call('PUT', '/groups/acme%2Flabs', as('alice'), { name: 'Labs', path: 'labs', description: 'same' });
    expect(same.status).toBe(200);
  });

  it('are deleted with their subgroups and projects once the background job has run', async () => {
    expect((await call('DELETE', '/groups/acme', as('bob'))).status).toBe(403);
    const res = await call('DELETE', '/groups/acme', as('alice'));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: '202 Accepted' });
    expect((await get('/groups/acme', as('root'))).status).toBe(404);
    gitlab.runUntilIdle();
    expect(await groupPaths(as('root'))).toEqual(['internal-group']);
    expect(sorted(await projectPaths(as('root')))).toEqual(['alice/personal', 'internal-group/handbook']);
    expect((await call('POST', '/groups', as('alice'), { name: 'Acme', path: 'acme' })).status).toBe(201);
  });
});

describe('namespaces', () => {
  it('need a signed-in user', async () => {
    expect((await get('/namespaces', ANON)).status).toBe(401);
  });

  it('list the caller\'s own namespace and the groups they belong to', async () => {
    const res = await get('/namespaces', as('bob'));
    expect(res.body.map((n: { full_path: string; kind: string }) => [n.full_path, n.kind])).toEqual([
      ['bob', 'user'],
      ['acme/team', 'group'],
    ]);
  });

  it('are read by id or full path; owners of a group see its counts', async () => {
    const group = await get('/namespaces/acme', as('alice'));
    expect(group.body).toMatchObject({ id: seeded.groups.acme!.id, kind: 'group', full_path: 'acme', projects_count: 3 });
    const user = await get('/namespaces/alice', as('root'));
    expect(user.status).toBe(200);
  });

  it('someone else\'s namespace is 404', async () => {
    const res = await get('/namespaces/alice', as('dave'));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: '404 Namespace Not Found' });
  });
});

describe('GET /user', () => {
  it('is the caller, with private fields and no admin fields for a regular user', async () => {
    const res = await get('/user', as('alice'));
    expect(res.body).toMatchObject({ id: seeded.users.alice!.id, username: 'alice', name: 'Alice', email: 'alice@example.com', can_create_group: true, external: false });
    expect(res.body).not.toHaveProperty('is_admin');
  });

  it('tells an administrator so', async () => {
    expect((await get('/user', as('root'))).body).toMatchObject({ username: 'root', is_admin: true });
  });

  it('is 401 without credentials', async () => {
    expect((await get('/user', ANON)).body).toEqual({ message: '401 Unauthorized' });
  });
});

describe('project names', () => {
  it('are unique in a namespace as GitLab checks them: case-sensitively, while paths are not', async () => {
    const e = await createEmulator();
    const post = (body: object) =>
      e.handle(
        new Request('https://gitlab.example.com/api/v4/projects', {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': 'glpat-emulator-alice-token', 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }),
      );
    expect((await post({ name: 'Tools', path: 'tools-a' })).status).toBe(201);
    expect((await post({ name: 'tools', path: 'tools-b' })).status).toBe(201);
    const dup = await post({ name: 'Tools', path: 'tools-c' });
    expect(dup.status).toBe(400);
    expect(await dup.json()).toEqual({ message: { name: ['has already been taken'] } });
    const path = await post({ name: 'Other', path: 'TOOLS-A' });
    expect((await path.json()).message.path).toContain('has already been taken');
  });
});
