// Merge request push options with the real git (Gitlab::PushOptions,
// MergeRequests::PushOptionsHandlerService): `git push -o merge_request.create` opens a merge
// request from the pushed branch, a later push with options edits it, and what cannot be done is
// a warning git prints; each pushed branch gets GitLab's link (MergeRequests::GetUrlsService).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall } from './support/world.js';

const APP = '/projects/acme%2Fapp';

describe.skipIf(!HAS_GIT)('merge request push options', () => {
  let emulator: Emulator;
  let server: Server;
  let git: GitScratch;
  const api = async (path: string) => (await apiCall(emulator, path, { token: 'maintainer-token' })).json();
  /** `git push` with options; what git printed of the remote's lines, without git's padding. */
  const push = async (args: string[]) => {
    const r = await git.run(['push', ...args], 'app');
    expect(r.code, r.stderr).toBe(0);
    return r.stderr.replace(/ +\n/g, '\n');
  };
  const commit = (message: string, file: string) => git.ok(['commit', '-q', '--allow-empty', '-m', message], 'app').then(() => file);

  beforeAll(async () => {
    emulator = await createEmulator({
      fixture: {
        users: TEAM,
        groups: [ACME],
        projects: [{
          namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
          repository: { files: { 'README.md': '# app\n' }, branches: { release: 'main' } },
          labels: [{ name: 'backend' }],
          milestones: [{ title: 'v1' }],
        }],
      },
      clock: { now: '2026-03-01T12:00:00Z', frozen: true },
    });
    server = await emulator.listen({ port: 0 });
    git = new GitScratch();
    await git.ok(['clone', '-q', withCredentials(`${server.url}/acme/app.git`, 'dev', 'dev-token'), 'app']);
  });
  afterAll(async () => {
    await server?.close();
    git?.remove();
  });

  it('creates a merge request from the pushed branch, with what the options say', async () => {
    await git.ok(['checkout', '-q', '-b', 'add-login'], 'app');
    await commit('Add the login form\n\nWith a password field.', 'login');
    const out = await push(['-o', 'merge_request.create', '-o', 'merge_request.target=release', '-o', 'mr.label=backend', '-o', 'merge_request.label=ux',
      '-o', 'merge_request.milestone=v1', '-o', 'merge_request.remove_source_branch', '-o', 'ci.skip', 'origin', 'add-login']);
    expect(out).toContain(`remote:\nremote: View merge request for add-login:\nremote:   ${server.url}/acme/app/-/merge_requests/1\nremote:\n`);
    const mr = await api(`${APP}/merge_requests/1`);
    expect(mr).toMatchObject({
      title: 'Add the login form', description: 'With a password field.', source_branch: 'add-login', target_branch: 'release',
      labels: ['backend', 'ux'], milestone: { title: 'v1' }, assignees: [{ username: 'dev' }], author: { username: 'dev' },
      force_remove_source_branch: true, state: 'opened',
    });
    // The push that made it adds no `added commits` note.
    expect(await api(`${APP}/merge_requests/1/notes`)).toEqual([]);
  });

  it('edits the open merge request of a branch on a later push, and notes the commits', async () => {
    await commit('Validate the password', 'validate');
    const out = await push(['-o', 'merge_request.title=Login form', '-o', 'merge_request.description=Line one\\nLine two', '-o', 'merge_request.unlabel=ux',
      '-o', 'merge_request.assign=mai', '-o', 'merge_request.unassign=dev', '-o', 'merge_request.draft', 'origin', 'add-login']);
    expect(out).toContain('remote: View merge request for add-login:');
    expect(await api(`${APP}/merge_requests/1`)).toMatchObject({
      title: 'Draft: Login form', draft: true, description: 'Line one\nLine two', labels: ['backend'], assignees: [{ username: 'mai' }],
    });
    const notes = (await api(`${APP}/merge_requests/1/notes?sort=asc`)).map((n: { body: string }) => n.body);
    expect(notes.some((b: string) => b.startsWith('added 1 commit'))).toBe(true);
  });

  it('names a merge request after its branch when it has several commits, a draft when it has none', async () => {
    await git.ok(['checkout', '-q', '-b', 'fix_the-bugs', 'origin/main'], 'app');
    await commit('One', 'a');
    await commit('Two', 'b');
    await push(['-o', 'merge_request.create', 'origin', 'fix_the-bugs']);
    await git.ok(['checkout', '-q', '-b', 'empty', 'origin/main'], 'app');
    await push(['-o', 'merge_request.create', 'origin', 'empty']);
    const list = (await api(`${APP}/merge_requests`)).sort((a: { iid: number }, b: { iid: number }) => a.iid - b.iid);
    expect(list.map((m: { title: string; source_branch: string }) => [m.source_branch, m.title])).toEqual([
      ['add-login', 'Draft: Login form'], ['fix_the-bugs', 'Fix the bugs'], ['empty', 'Draft: Empty'],
    ]);
  });

  it('prints what cannot be done as a warning, and still takes the push', async () => {
    await git.ok(['checkout', '-q', '-b', 'no-mr', 'origin/main'], 'app');
    await commit('Alone', 'c');
    const out = await push(['-o', 'merge_request.title=Nothing', 'origin', 'no-mr']);
    // Gitaly's alert: between rules of 72 `=`, each line centred (a long one as it is).
    expect(out).toContain(
      `remote: ${'='.repeat(72)}\nremote:\nremote:${' '.repeat(32)}WARNINGS:\nremote: Error encountered with push options 'merge_request.title=Nothing': A merge_request.create push option is required to create a merge request for branch no-mr\nremote:\nremote: ${'='.repeat(72)}\n`,
    );
    expect(out).toContain('remote: To create a merge request for no-mr, visit:');
    await commit('Again', 'd');
    const missing = await push(['-o', 'merge_request.create', '-o', 'merge_request.target=nowhere', 'origin', 'no-mr']);
    expect(missing).toContain("Error encountered with push options 'merge_request.create' 'merge_request.target=nowhere': Target branch acme/app:nowhere does not exist");
    expect((await api(`${APP}/merge_requests`)).map((m: { source_branch: string }) => m.source_branch)).not.toContain('no-mr');
    expect((await api(`${APP}/repository/branches/no-mr`)).name).toBe('no-mr');
    // Without options: every pushed branch but the default one gets its link, new or not.
    await commit('Plain', 'e');
    expect(await push(['origin', 'no-mr'])).toContain('remote: To create a merge request for no-mr, visit:');
    expect(await push(['origin', 'no-mr:main'])).not.toContain('merge request');
    // A project that turned the links off prints none.
    expect((await apiCall(emulator, APP, { method: 'PUT', token: 'maintainer-token', json: { printing_merge_request_link_enabled: false } })).status).toBe(200);
    await commit('Quiet', 'f');
    expect(await push(['origin', 'no-mr'])).not.toContain('merge request');
  });
});
