// Branches (lib/api/branches.rb, spec/requests/api/branches_spec.rb).
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { ACME, apiCall, TEAM, teamProject, type CallInit } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'README.md': '# App\n' },
        branches: { 'feature/login': 'main', 'ends-with.json': 'main', release: 'main' },
        commits: [
          { branch: 'feature/login', message: 'Login form', files: { 'login.rb': 'form\n' }, date: '2024-02-02T00:00:00Z' },
          { message: 'Main moves on', files: { 'main.rb': 'x\n' }, date: '2024-02-01T00:00:00Z' },
        ],
        protected_branches: { release: { push_access_level: 'maintainer', merge_access_level: 'developer' } },
      },
    }),
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', repository: { files: { 'index.html': 'hi\n' } } },
    { namespace: 'acme', path: 'empty', visibility: 'private', creator: 'root', members: [{ user: 'dev', access_level: 'developer' }] },
  ],
};

let e: Emulator;
const setup = async () => (e = await createEmulator({ fixture: FIXTURE, clock: { now: '2024-01-05T00:00:00Z', frozen: true } }));

const api = (path: string, init?: CallInit) => apiCall(e, path, init);

const BRANCHES = '/projects/acme%2Fapp/repository/branches';
const names = (list: { name: string }[]) => list.map((b) => b.name);

describe('GET /projects/:id/repository/branches', () => {
  it('lists branches by name with the Branch entity', async () => {
    await setup();
    const res = await api(BRANCHES, { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('4');
    const list = await res.json();
    expect(names(list)).toEqual(['ends-with.json', 'feature/login', 'main', 'release']);
    const main = list.find((b: { name: string }) => b.name === 'main');
    expect(Object.keys(main)).toEqual(['name', 'commit', 'merged', 'protected', 'developers_can_push', 'developers_can_merge', 'can_push', 'default', 'web_url']);
    expect(main).toMatchObject({ default: true, merged: false, protected: false, can_push: true, web_url: 'https://gitlab.example.com/acme/app/-/tree/main' });
    expect(main.commit).toMatchObject({ title: 'Main moves on', id: e.git('acme/app').refs().branches.main });
    const release = list.find((b: { name: string }) => b.name === 'release');
    expect(release).toMatchObject({ merged: true, protected: true, developers_can_push: false, developers_can_merge: true, can_push: false });
    expect(list.find((b: { name: string }) => b.name === 'feature/login')).toMatchObject({
      merged: false,
      web_url: 'https://gitlab.example.com/acme/app/-/tree/feature/login',
    });
  });

  it('searches (^ begins, $ ends, any case), filters by regex, sorts and paginates', async () => {
    await setup();
    const get = async (q: string) => (await (await api(`${BRANCHES}?${q}`, { token: 'dev-token' })).json()) as { name: string }[];
    expect(names(await get('search=LOGIN'))).toEqual(['feature/login']);
    expect(names(await get('search=%5Ere'))).toEqual(['release']);
    expect(names(await get('search=json%24'))).toEqual(['ends-with.json']);
    expect(names(await get('regex=%5E(main%7Crelease)%24'))).toEqual(['main', 'release']);
    expect(names(await get('sort=updated_desc'))[0]).toBe('feature/login');
    const page = await api(`${BRANCHES}?per_page=3&page=2`, { token: 'dev-token' });
    expect(names(await page.json())).toEqual(['release']);
    expect(page.headers.get('x-prev-page')).toBe('1');
    const bad = await api(`${BRANCHES}?regex=(oops`, { token: 'dev-token' });
    expect([bad.status, await bad.json()]).toEqual([400, { message: 'Regex is invalid' }]);
    expect((await api(`${BRANCHES}?sort=sideways`, { token: 'dev-token' })).status).toBe(400);
  });

  it('is public for public projects, 404 to strangers of private ones, 403 to guests', async () => {
    await setup();
    const pub = await api('/projects/acme%2Fsite/repository/branches');
    expect(pub.status).toBe(200);
    expect((await pub.json())[0]).toMatchObject({ name: 'main', can_push: false });
    expect(await (await api(BRANCHES)).json()).toEqual({ message: '404 Project Not Found' });
    const guest = await api(BRANCHES, { token: 'guest-token' });
    expect([guest.status, await guest.json()]).toEqual([403, { message: '403 Forbidden' }]);
  });
});

describe('GET and HEAD /projects/:id/repository/branches/:branch', () => {
  it('answers one branch, with encoded slashes and dots in its name', async () => {
    await setup();
    const res = await api(`${BRANCHES}/feature%2Flogin`, { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: 'feature/login', default: false });
    expect((await (await api(`${BRANCHES}/ends-with.json`, { token: 'dev-token' })).json()).name).toBe('ends-with.json');
    expect((await api(`${BRANCHES}/feature/login`, { token: 'dev-token' })).status).toBe(404);
  });

  it('is 404 Branch Not Found for an unknown branch and 400 for an invalid name', async () => {
    await setup();
    let res = await api(`${BRANCHES}/unknown`, { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Branch Not Found' }]);
    res = await api(`${BRANCHES}/branch*`, { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([400, { message: 'The branch refname is invalid' }]);
  });

  it('HEAD answers 204 or 404 with no body, also after a GET of the same URL', async () => {
    await setup();
    expect((await api(`${BRANCHES}/main`, { token: 'dev-token' })).status).toBe(200);
    const yes = await api(`${BRANCHES}/main`, { method: 'HEAD', token: 'dev-token' });
    expect([yes.status, await yes.text()]).toEqual([204, '']);
    const no = await api(`${BRANCHES}/unknown`, { method: 'HEAD', token: 'dev-token' });
    expect([no.status, await no.text()]).toEqual([404, '']);
  });
});

describe('POST /projects/:id/repository/branches', () => {
  it('creates a branch from a branch, a sha or HEAD~1', async () => {
    await setup();
    const mainSha = e.git('acme/app').refs().branches.main!;
    let res = await api(BRANCHES, { method: 'POST', token: 'dev-token', json: { branch: 'feature1', ref: mainSha } });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'feature1', commit: { id: mainSha }, merged: false, default: false });
    res = await api(BRANCHES, { method: 'POST', token: 'dev-token', json: { branch: 'older', ref: 'main~1' } });
    expect((await res.json()).commit.title).toBe('Initial commit');
    expect(e.git('acme/app').refs().branches.feature1).toBe(mainSha);
  });

  it("answers GitLab's 400s", async () => {
    await setup();
    const post = async (json: Record<string, unknown>) => {
      const res = await api(BRANCHES, { method: 'POST', token: 'dev-token', json });
      return [res.status, await res.json()];
    };
    expect(await post({ branch: 'new design', ref: 'main' })).toEqual([400, { message: 'Branch name is invalid' }]);
    expect(await post({ branch: 'release', ref: 'main' })).toEqual([400, { message: 'Branch already exists' }]);
    expect(await post({ branch: 'new_design3', ref: 'foo' })).toEqual([400, { message: "Failed to create branch 'new_design3': invalid reference name 'foo'" }]);
    expect(await post({ branch: 'feature', ref: 'main' })).toEqual([
      400, { message: "Failed to create branch 'feature': Branch name conflicts with existing branch hierarchy." },
    ]);
    expect(await post({ branch: '', ref: 'main' })).toEqual([400, { error: 'branch is empty' }]);
  });

  it('first commits an empty README.md to an empty repository', async () => {
    await setup();
    const res = await api('/projects/acme%2Fempty/repository/branches', { method: 'POST', token: 'dev-token', json: { branch: 'topic', ref: 'main' } });
    expect(res.status).toBe(201);
    const g = e.git('acme/empty');
    expect(Object.keys(g.refs().branches).sort()).toEqual(['main', 'topic']);
    expect(await g.readText('README.md', 'topic')).toBe('');
    expect((await g.log('main'))[0]!.commit.message).toBe('Add README.md');
  });

  it('needs push access', async () => {
    await setup();
    const res = await api(BRANCHES, { method: 'POST', token: 'guest-token', json: { branch: 'x', ref: 'main' } });
    expect([res.status, await res.json()]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api('/projects/acme%2Fsite/repository/branches', { method: 'POST', json: { branch: 'x', ref: 'main' } })).status).toBe(403);
  });
});

describe('DELETE /projects/:id/repository/branches/:branch', () => {
  it('deletes a branch with 204, keeping its commits readable by sha', async () => {
    await setup();
    const sha = e.git('acme/app').refs().branches['feature/login']!;
    const res = await api(`${BRANCHES}/feature%2Flogin`, { method: 'DELETE', token: 'dev-token' });
    expect([res.status, await res.text()]).toEqual([204, '']);
    expect(e.git('acme/app').refs().branches['feature/login']).toBeUndefined();
    expect((await api(`/projects/acme%2Fapp/repository/commits/${sha}`, { token: 'dev-token' })).status).toBe(200);
  });

  it('refuses the default branch, protected branches to developers, unknown and invalid names', async () => {
    await setup();
    const del = async (name: string, token = 'dev-token') => {
      const res = await api(`${BRANCHES}/${name}`, { method: 'DELETE', token });
      return [res.status, await res.json()];
    };
    expect(await del('main')).toEqual([400, { message: 'The default branch of a project cannot be deleted.' }]);
    expect(await del('release')).toEqual([
      400, { message: 'You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.' },
    ]);
    expect((await api(`${BRANCHES}/release`, { method: 'DELETE', token: 'maintainer-token' })).status).toBe(204);
    expect(await del('foobar')).toEqual([404, { message: '404 Branch Not Found' }]);
    expect(await del('branch*')).toEqual([400, { message: 'The branch refname is invalid' }]);
    expect(await del('ends-with.json', 'guest-token')).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('answers 412 when the branch changed after If-Unmodified-Since', async () => {
    await setup();
    const res = await api(`${BRANCHES}/feature%2Flogin`, { method: 'DELETE', token: 'dev-token', headers: { 'If-Unmodified-Since': 'Thu, 01 Feb 2024 00:00:00 GMT' } });
    expect([res.status, await res.json()]).toEqual([412, { message: '412 Precondition Failed' }]);
  });
});

describe('snapshots include the refs', () => {
  it('restore brings back a deleted branch with no git work', async () => {
    await setup();
    const snap = e.snapshot();
    await api(`${BRANCHES}/feature%2Flogin`, { method: 'DELETE', token: 'dev-token' });
    await api('/projects/acme%2Fapp/repository/files/new%2Etxt', { method: 'POST', token: 'dev-token', json: { branch: 'main', content: 'x', commit_message: 'new' } });
    e.restore(snap);
    expect(e.git('acme/app').refs().branches['feature/login']).toBeDefined();
    expect(await e.git('acme/app').readText('new.txt')).toBeNull();
    expect(names(await (await api(BRANCHES, { token: 'dev-token' })).json())).toContain('feature/login');
  });

  it('a fork shares the objects but not the refs', async () => {
    await setup();
    const other = e.fork();
    await api('/projects/acme%2Fapp/repository/files/only-here%2Etxt', { method: 'POST', token: 'dev-token', json: { branch: 'main', content: 'x', commit_message: 'here' } });
    expect(await e.git('acme/app').readText('only-here.txt')).toBe('x');
    expect(await other.git('acme/app').readText('only-here.txt')).toBeNull();
    expect(await other.git('acme/app').readText('README.md')).toBe('# App\n');
  });
});
