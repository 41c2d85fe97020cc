// A project's push rule refuses pushes as GitLab's PushRuleCheck does, with its messages on
// git's side band (`remote: GitLab: ...`), at Premium; the free tier has no push rules.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server, type Snapshot } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const NOW = '2026-03-01T12:00:00Z';

const fixture = (tier: 'free' | 'premium'): Fixture => ({
  instance: { tier },
  users: [
    { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
    { username: 'pat', name: 'Pat Pusher', email: 'pat@example.com', tokens: [{ token: 'pat-token', scopes: ['api'] }] },
    { username: 'cody', name: 'Cody Committer', email: 'cody@example.com' },
  ],
  groups: [{ path: 'acme', visibility: 'private' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: [{ user: 'pat', access_level: 'maintainer' }],
      repository: { files: { 'README.md': '# App\n' }, tags: { 'v1.0': 'main' } },
    },
  ],
});

describe.skipIf(!HAS_GIT)('push rules on git push', () => {
  let emulator: Emulator;
  let server: Server;
  let seeded: Snapshot;
  let git: GitScratch;
  const remote = () => withCredentials(`${server.url}/acme/app.git`, 'pat', 'pat-token');
  const rule = async (body: Record<string, unknown>) => {
    const r = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/push_rule`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status).toBe(201);
  };
  const commit = async (file: string, content: string | Uint8Array, message: string, env: Record<string, string> = {}) => {
    const path = join(git.dir, 'a', file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    await git.ok(['add', '-A'], 'a');
    await git.ok(['commit', '-q', '-m', message], 'a', env);
  };
  const push = (...refs: string[]) => git.run(['push', 'origin', ...refs], 'a');

  beforeAll(async () => {
    emulator = await createEmulator({ fixture: fixture('premium'), clock: { now: NOW, frozen: true } });
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
    await git.ok(['clone', '-q', remote(), 'a']);
  });

  it('refuses a commit message that does not follow the pattern, or holds the forbidden one', async () => {
    await rule({ commit_message_regex: '^(feat|fix|chore): ', commit_message_negative_regex: 'WIP' });
    await commit('a.txt', 'a\n', 'Add a');
    const bad = await push('HEAD:refs/heads/main');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("remote: GitLab: Commit message does not follow the pattern '^(feat|fix|chore): '");
    await git.ok(['commit', '-q', '--amend', '-m', 'feat: WIP a'], 'a');
    expect((await push('HEAD:refs/heads/main')).stderr).toContain("remote: GitLab: Commit message contains the forbidden pattern 'WIP'");
    await git.ok(['commit', '-q', '--amend', '-m', 'feat: add a'], 'a');
    const ok = await push('HEAD:refs/heads/main');
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('refuses a branch name off the pattern (not the default branch), and emails off the author pattern', async () => {
    await rule({ branch_name_regex: '^(feature|fix)/', author_email_regex: '@example\\.com$' });
    await commit('b.txt', 'b\n', 'B');
    expect((await push('HEAD:refs/heads/topic')).stderr).toContain("remote: GitLab: Branch name does not follow the pattern '^(feature|fix)/'");
    const ok = await push('HEAD:refs/heads/feature/b');
    expect(ok.code, ok.stderr).toBe(0);
    await commit('c.txt', 'c\n', 'C', { GIT_AUTHOR_EMAIL: 'pat@elsewhere.org' });
    expect((await push('HEAD:refs/heads/feature/c')).stderr).toContain("remote: GitLab: Author's email 'pat@elsewhere.org' does not follow the pattern '@example\\.com$'");
    await git.ok(['commit', '-q', '--amend', '--no-edit', '--reset-author'], 'a', { GIT_AUTHOR_EMAIL: 'pat@example.com', GIT_COMMITTER_EMAIL: 'bot@ci.local' });
    expect((await push('HEAD:refs/heads/feature/c')).stderr).toContain("remote: GitLab: Committer's email 'bot@ci.local' does not follow the pattern '@example\\.com$'");
  });

  it('refuses deleting a tag, file names by pattern and secrets, large files, and authors who are no users', async () => {
    await rule({ deny_delete_tag: true, file_name_regex: '\\.exe$', prevent_secrets: true, max_file_size: 1, member_check: true });
    expect((await push(':refs/tags/v1.0')).stderr).toContain('remote: GitLab: You cannot delete a tag');
    await commit('bin/tool.exe', 'MZ', 'Tool');
    expect((await push('HEAD:refs/heads/main')).stderr).toContain('remote: GitLab: File name bin/tool.exe was prohibited by the pattern "\\.exe$".');
    await git.ok(['reset', '-q', '--hard', 'origin/main'], 'a');
    await commit('.ssh/id_rsa', 'PRIVATE\n', 'Key');
    expect((await push('HEAD:refs/heads/main')).stderr).toMatch(/remote: GitLab: File name \.ssh\/id_rsa was prohibited by the pattern ".+"\./);
    await git.ok(['reset', '-q', '--hard', 'origin/main'], 'a');
    await commit('big.bin', new Uint8Array(1024 * 1024 + 10).fill(7), 'Big');
    expect((await push('HEAD:refs/heads/main')).stderr).toContain('remote: GitLab: File "big.bin" is larger than the allowed size of 1 MiB. Use Git LFS to manage this file.');
    await git.ok(['reset', '-q', '--hard', 'origin/main'], 'a');
    await commit('d.txt', 'd\n', 'D', { GIT_AUTHOR_EMAIL: 'stranger@example.com' });
    expect((await push('HEAD:refs/heads/main')).stderr).toContain("remote: GitLab: Author 'stranger@example.com' is not a member of team");
    await git.ok(['reset', '-q', '--hard', 'origin/main'], 'a');
    await commit('e.txt', 'e\n', 'E'); // pat@example.com and cody@example.com are both users
    const ok = await push('HEAD:refs/heads/main');
    expect(ok.code, ok.stderr).toBe(0);
    const refs = emulator.git('acme/app').refs();
    expect(refs.tags['v1.0']).toBeDefined();
  });

  it('is no rule at the free tier', async () => {
    await rule({ commit_message_regex: '^feat: ' });
    await commit('f.txt', 'f\n', 'not a feat');
    expect((await push('HEAD:refs/heads/main')).stderr).toContain("Commit message does not follow the pattern '^feat: '");
    const down = await fetch(`${server.url}/-/emulator/instance`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tier: 'free' }) });
    expect(down.status).toBe(200);
    const r = await push('HEAD:refs/heads/main');
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('push rules on commits made through the API', () => {
  const call = async (e: Emulator, method: string, path: string, json: unknown) => {
    const res = await e.handle(new Request(`http://gitlab.example.com/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': 'pat-token', 'Content-Type': 'application/json' }, body: JSON.stringify(json) }));
    return { status: res.status, body: (await res.json()) as any };
  };

  it('refuses a file commit or a commit of actions as the pre-receive hook does, and changes nothing', async () => {
    const e = await createEmulator({ fixture: fixture('premium'), clock: { now: NOW, frozen: true } });
    const before = e.git('acme/app').refs().branches.main;
    const made = await e.handle(new Request('http://gitlab.example.com/api/v4/projects/acme%2Fapp/push_rule', { method: 'POST', headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: JSON.stringify({ commit_message_regex: '^feat: ', branch_name_regex: '^feature/', file_name_regex: '\\.exe$', member_check: true }) }));
    expect(made.status).toBe(201);
    const file = await call(e, 'POST', '/projects/acme%2Fapp/repository/files/a.txt', { branch: 'main', content: 'a', commit_message: 'add a' });
    expect(file).toEqual({ status: 400, body: { message: "Commit message does not follow the pattern '^feat: '" } });
    const exe = await call(e, 'POST', '/projects/acme%2Fapp/repository/commits', { branch: 'main', commit_message: 'feat: tool', actions: [{ action: 'create', file_path: 'bin/tool.exe', content: 'MZ' }] });
    expect(exe).toEqual({ status: 400, body: { message: 'File name bin/tool.exe was prohibited by the pattern "\\.exe$".' } });
    const branch = await call(e, 'POST', '/projects/acme%2Fapp/repository/commits', { branch: 'topic', start_branch: 'main', commit_message: 'feat: t', actions: [{ action: 'create', file_path: 't.txt', content: 't' }] });
    expect(branch).toEqual({ status: 400, body: { message: "Branch name does not follow the pattern '^feature/'" } });
    expect(e.git('acme/app').refs().branches.main).toBe(before);
    expect(e.git('acme/app').refs().branches.topic).toBeUndefined();
    // A web commit is not held to membership of its author (updated_from_web?), only to the rules above.
    const ok = await call(e, 'POST', '/projects/acme%2Fapp/repository/commits', { branch: 'main', commit_message: 'feat: b', author_email: 'stranger@example.com', author_name: 'S', actions: [{ action: 'create', file_path: 'b.txt', content: 'b' }] });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });
});
