// A project a push creates under a group starts with the group's push rule, which the push that
// follows the creation then meets (Gitlab::GitAccessProject#ensure_project_on_push! goes through
// Projects::CreateService).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { servedWorld } from './support/world.js';

const world = servedWorld({
  instance: { tier: 'premium' },
  users: [{ username: 'pat', name: 'Pat Pusher', email: 'pat@example.com', tokens: [{ token: 'pat-token', scopes: ['api'] }] }],
  groups: [{ path: 'acme', visibility: 'private', members: [{ user: 'pat', access_level: 'owner' }] }],
});
const git = new GitScratch();
afterAll(() => git.remove());

it.skipIf(!HAS_GIT)('refuses a push to a project it creates with what the group\'s rule refuses', async () => {
  const api = (path: string, init: RequestInit = {}) => fetch(`${world.url}/api/v4${path}`, { ...init, headers: { 'PRIVATE-TOKEN': 'pat-token', 'Content-Type': 'application/json' } });
  expect((await api('/groups/acme/push_rule', { method: 'POST', body: JSON.stringify({ commit_message_regex: '^feat: ' }) })).status).toBe(201);
  mkdirSync(join(git.dir, 'a'));
  await git.ok(['init', '-q', '-b', 'main'], 'a');
  writeFileSync(join(git.dir, 'a', 'a.txt'), 'a\n');
  await git.ok(['add', '-A'], 'a');
  await git.ok(['commit', '-q', '-m', 'first'], 'a');
  const remote = withCredentials(`${world.url}/acme/pushed.git`, 'pat', 'pat-token');
  const refused = await git.run(['push', remote, 'HEAD:refs/heads/main'], 'a');
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain("remote: GitLab: Commit message does not follow the pattern '^feat: '");
  expect(await (await api('/projects/acme%2Fpushed/push_rule')).json()).toMatchObject({ commit_message_regex: '^feat: ' });
  await git.ok(['commit', '-q', '--amend', '-m', 'feat: first'], 'a');
  const ok = await git.run(['push', remote, 'HEAD:refs/heads/main'], 'a');
  expect(ok.code, ok.stderr).toBe(0);
});
