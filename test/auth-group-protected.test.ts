// Protected branches of a top-level group bind git pushes to every project under it, with the
// project's own protections (Project#group_protected_branches), at Premium.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server, type Snapshot } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const fixture: Fixture = {
  instance: { tier: 'premium' },
  users: [
    { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
    { username: 'dev', name: 'Dee Veloper', email: 'dev@example.com', tokens: [{ token: 'dev-token', scopes: ['api'] }] },
    { username: 'mai', name: 'Mai Ntainer', email: 'mai@example.com', tokens: [{ token: 'mai-token', scopes: ['api'] }] },
  ],
  groups: [{ path: 'acme', visibility: 'private' }, { path: 'sub', parent: 'acme', visibility: 'private' }],
  projects: [
    {
      namespace: 'acme/sub',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: [{ user: 'dev', access_level: 'developer' }, { user: 'mai', access_level: 'maintainer' }],
      repository: { files: { 'README.md': '# App\n' }, branches: { stable: 'main' } },
    },
  ],
};

describe.skipIf(!HAS_GIT)('group protected branches on git push', () => {
  let emulator: Emulator;
  let server: Server;
  let seeded: Snapshot;
  let git: GitScratch;
  const remote = (user: string) => withCredentials(`${server.url}/acme/sub/app.git`, user, `${user}-token`);
  const protect = async (body: Record<string, unknown>) => {
    const r = await fetch(`${server.url}/api/v4/groups/acme/protected_branches`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status).toBe(201);
  };

  beforeAll(async () => {
    emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    seeded = emulator.snapshot();
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    emulator.restore(seeded);
    git?.remove();
    git = new GitScratch();
    await git.ok(['clone', '-q', remote('dev'), 'a']);
    writeFileSync(join(git.dir, 'a', 'n.txt'), 'n\n');
    await git.ok(['add', '-A'], 'a');
    await git.ok(['commit', '-q', '-m', 'N'], 'a');
  });

  it('lets a developer push to a branch until the group protects it for maintainers', async () => {
    const before = await git.run(['push', remote('dev'), 'HEAD:refs/heads/stable'], 'a');
    expect(before.code, before.stderr).toBe(0);
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'M'], 'a');
    await protect({ name: 'stable', push_access_level: 40, merge_access_level: 40 });
    const dev = await git.run(['push', remote('dev'), 'HEAD:refs/heads/stable'], 'a');
    expect(dev.stderr).toContain('remote: GitLab: You are not allowed to push code to protected branches on this project.');
    const del = await git.run(['push', remote('dev'), ':refs/heads/stable'], 'a');
    expect(del.stderr).toContain('remote: GitLab: You are not allowed to delete protected branches from this project. Only a project maintainer or owner can delete a protected branch.');
    const mai = await git.run(['push', remote('mai'), 'HEAD:refs/heads/stable'], 'a');
    expect(mai.code, mai.stderr).toBe(0);
  });

  it('protects wildcard names: no one creates them with git, maintainers are sent to the web and API', async () => {
    await protect({ name: 'release/*', push_access_level: 0, merge_access_level: 40 });
    const mai = await git.run(['push', remote('mai'), 'HEAD:refs/heads/release/1'], 'a');
    expect(mai.stderr).toContain('remote: GitLab: You can only create protected branches using the web interface and API.');
    const dev = await git.run(['push', remote('dev'), 'HEAD:refs/heads/release/1'], 'a');
    expect(dev.stderr).toContain('remote: GitLab: You are not allowed to create protected branches on this project.');
    const other = await git.run(['push', remote('dev'), 'HEAD:refs/heads/feature/1'], 'a');
    expect(other.code, other.stderr).toBe(0);
  });

  it('binds nothing at the free tier', async () => {
    await protect({ name: 'stable', push_access_level: 40, merge_access_level: 40 });
    expect((await git.run(['push', remote('dev'), 'HEAD:refs/heads/stable'], 'a')).code).not.toBe(0);
    const down = await fetch(`${server.url}/-/emulator/instance`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tier: 'free' }) });
    expect(down.status).toBe(200);
    const dev = await git.run(['push', remote('dev'), 'HEAD:refs/heads/stable'], 'a');
    expect(dev.code, dev.stderr).toBe(0);
  });
});
