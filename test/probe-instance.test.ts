// The instance as a probe saw it: a new project's default branch protected as
// `default_branch_protection` says (Projects::ProtectDefaultBranchService, and an empty
// repository's first push as ProtectedBranch.protected? guards it), and the GitLab release
// `/version` and `/metadata` report, from a fixture or the command line.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { parseCommandLine } from '../src/transports/cli-options.js';
import { apiCall } from './support/world.js';

const fixture = (settings: Record<string, unknown> = {}, instance: Record<string, unknown> = {}): Fixture => ({
  instance: { ...instance, settings },
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'mai', tokens: [{ token: 'mai-token' }] },
    { username: 'dev', tokens: [{ token: 'dev-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'mai', access_level: 'maintainer' }, { user: 'dev', access_level: 'developer' }] }],
});

async function call(e: Emulator, method: string, path: string, token: string, json?: unknown) {
  const res = await apiCall(e, path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text) };
}

const commit = (branch: string, path = 'a.txt') => ({ branch, commit_message: 'c', actions: [{ action: 'create', file_path: path, content: 'x' }] });
const acme = (name: string) => `/projects/acme%2F${name}`;
/** Creates a project in the group acme as its maintainer. */
async function newProject(e: Emulator, name: string, extra: Record<string, unknown> = {}) {
  const group = (await call(e, 'GET', '/groups/acme', 'mai-token')).body;
  return call(e, 'POST', '/projects', 'mai-token', { name, namespace_id: group.id, ...extra });
}

describe('default_branch_protection', () => {
  it('at GitLab’s default (2), a new project’s default branch is protected for maintainers: a developer cannot push to main', async () => {
    const e = await createEmulator({ fixture: fixture() });
    expect((await call(e, 'GET', '/application/settings', 'root-token')).body.default_branch_protection).toBe(2);
    const made = await newProject(e, 'app', { initialize_with_readme: true });
    expect(made.status).toBe(201);
    const protections = (await call(e, 'GET', acme('app/protected_branches'), 'mai-token')).body;
    expect(protections).toMatchObject([{ name: 'main', push_access_levels: [{ access_level: 40 }], merge_access_levels: [{ access_level: 40 }], allow_force_push: false }]);
    expect((await call(e, 'POST', acme('app/repository/commits'), 'dev-token', commit('main'))).status).toBe(403);
    expect((await call(e, 'POST', acme('app/repository/commits'), 'dev-token', { ...commit('feature'), start_branch: 'main' })).status).toBe(201);
    expect((await call(e, 'POST', acme('app/repository/commits'), 'mai-token', commit('main', 'b.txt'))).status).toBe(201);
    expect((await call(e, 'GET', acme('app/repository/branches/main'), 'dev-token')).body).toMatchObject({ protected: true, developers_can_push: false, can_push: false });
  });

  it('an empty project’s first push is a maintainer’s; it makes the default branch and protects it', async () => {
    const e = await createEmulator({ fixture: fixture() });
    await newProject(e, 'empty');
    expect((await call(e, 'POST', acme('empty/repository/commits'), 'dev-token', commit('main'))).status).toBe(403);
    expect((await call(e, 'GET', acme('empty/protected_branches'), 'mai-token')).body).toEqual([]);
    expect((await call(e, 'POST', acme('empty/repository/commits'), 'mai-token', commit('trunk'))).status).toBe(201);
    expect((await call(e, 'GET', acme('empty'), 'mai-token')).body.default_branch).toBe('trunk');
    expect((await call(e, 'GET', acme('empty/protected_branches'), 'mai-token')).body.map((p: { name: string }) => p.name)).toEqual(['trunk']);
  });

  it('follows each level: none, developers push, developers merge, developers’ initial push', async () => {
    const cases: [number, number | null, number | null, boolean][] = [[0, null, null, true], [1, 30, 40, true], [3, 40, 30, false], [4, 40, 40, true]];
    for (const [level, push, merge, devFirst] of cases) {
      const e = await createEmulator({ fixture: fixture({ default_branch_protection: level }) });
      await newProject(e, 'p');
      expect((await call(e, 'POST', acme('p/repository/commits'), 'dev-token', commit('main'))).status, `level ${level}`).toBe(devFirst ? 201 : 403);
      if (!devFirst) await call(e, 'POST', acme('p/repository/commits'), 'mai-token', commit('main'));
      const list = (await call(e, 'GET', acme('p/protected_branches'), 'mai-token')).body;
      expect(list.map((p: { push_access_levels: { access_level: number }[]; merge_access_levels: { access_level: number }[] }) => [p.push_access_levels[0]!.access_level, p.merge_access_levels[0]!.access_level]), `level ${level}`)
        .toEqual(push === null ? [] : [[push, merge]]);
    }
  });

  it('leaves a branch another protection already covers alone, and fixtures’ projects as seeded', async () => {
    const e = await createEmulator({ fixture: { ...fixture(), projects: [{ namespace: 'acme', path: 'seeded', repository: { files: { 'a.txt': 'a\n' } } }] } });
    expect((await call(e, 'GET', acme('seeded/protected_branches'), 'mai-token')).body).toEqual([]);
    await newProject(e, 'wild');
    await call(e, 'POST', acme('wild/protected_branches'), 'mai-token', { name: 'ma*', push_access_level: 30 });
    await call(e, 'POST', acme('wild/repository/commits'), 'mai-token', commit('main'));
    expect((await call(e, 'GET', acme('wild/protected_branches'), 'mai-token')).body.map((p: { name: string }) => p.name)).toEqual(['ma*']);
  });

  it('is a setting of the fixture and of the control API, 0 to 4', async () => {
    await expect(createEmulator({ fixture: fixture({ default_branch_protection: 7 }) })).rejects.toThrow(/default_branch_protection/);
    const e = await createEmulator({ fixture: fixture({ default_branch_protection: 0 }) });
    expect((await call(e, 'GET', '/application/settings', 'root-token')).body.default_branch_protection).toBe(0);
    // A group inherits it, with its defaults spelled out.
    expect((await call(e, 'GET', '/groups/acme', 'mai-token')).body).toMatchObject({
      default_branch_protection: 0,
      default_branch_protection_defaults: { allowed_to_push: [{ access_level: 30 }], allow_force_push: true, allowed_to_merge: [{ access_level: 30 }], developer_can_initial_push: false },
    });
    const full = await createEmulator({ fixture: fixture() });
    expect((await call(full, 'GET', '/groups/acme', 'mai-token')).body.default_branch_protection_defaults).toEqual({
      allowed_to_push: [{ access_level: 40 }], allow_force_push: false, allowed_to_merge: [{ access_level: 40 }], developer_can_initial_push: false,
    });
  });
});

describe('the GitLab version', () => {
  it('is the fixture’s instance.version on /version and /metadata, with -ee above the free tier', async () => {
    const free = await createEmulator({ fixture: fixture({}, { version: '16.11.2' }) });
    expect((await call(free, 'GET', '/version', 'dev-token')).body).toMatchObject({ version: '16.11.2', enterprise: false });
    const ee = await createEmulator({ fixture: fixture({}, { version: '17.3.0', tier: 'premium' }) });
    expect((await call(ee, 'GET', '/metadata', 'dev-token')).body).toMatchObject({ version: '17.3.0-ee', enterprise: true });
    const given = await createEmulator({ fixture: fixture({}, { version: '17.3.0-ee', tier: 'ultimate' }) });
    expect((await call(given, 'GET', '/version', 'dev-token')).body.version).toBe('17.3.0-ee');
  });

  it('is refused when it is not a release', async () => {
    for (const version of ['17', 'v17.0.0', '17.0.0 ', '', '1.2.3-<script>']) {
      await expect(createEmulator({ fixture: fixture({}, { version }) }), version).rejects.toThrow(/instance.version must be a GitLab release/);
    }
  });

  it('comes from --gitlab-version on the command line', () => {
    expect(parseCommandLine(['serve', '--gitlab-version', '17.11.2'], {})).toMatchObject({ kind: 'serve', options: { gitlabVersion: '17.11.2' } });
    expect(parseCommandLine(['serve', '--gitlab-version', 'latest'], {})).toEqual({ kind: 'error', message: "--gitlab-version must be a GitLab release such as 17.11.2, not 'latest'" });
  });
});
