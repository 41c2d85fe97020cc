// Git over HTTP with the real `git` against the node server: clone and fetch (protocol v2 and
// v0), push of branches and tags, GitLab's protected-branch rules and messages, shallow clones,
// and authentication as GitLab's git HTTP controller does it.
import { readdirSync, writeFileSync } from 'node:fs';
import isogit from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server, type Snapshot } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { TEAM_MEMBERS, teamWithTokens, updateProject } from './support/world.js';

const NOW = '2026-03-01T12:00:00Z';

const fixture: Fixture = {
  users: [
    ...teamWithTokens('dev', [
      { token: 'dev-read-repo', scopes: ['read_repository'] },
      { token: 'dev-write-repo', scopes: ['write_repository'] },
      { token: 'dev-read-user', scopes: ['read_user'] },
      { token: 'dev-oauth', scopes: ['api'], kind: 'oauth' },
      { token: 'dev-expired', scopes: ['api'], expires_at: '2026-01-01' },
    ]),
  ],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: TEAM_MEMBERS,
      jobs: [{ name: 'build', user: 'dev', status: 'running', token: 'job-token-app' }],
      releases: [{ tag_name: 'v1.0.0', name: 'One' }],
      repository: {
        files: { 'README.md': '# App\n', 'src/index.ts': 'export {};\n' },
        commits: [{ message: 'Add the CLI', files: { 'src/cli.ts': 'export const cli = 1;\n' } }],
        tags: { 'v1.0.0': { ref: 'main', message: 'First release' } },
        protected_branches: { main: { push_access_level: 'maintainer', merge_access_level: 'maintainer' } },
        protected_tags: { 'release-*': { create_access_level: 'maintainer' } },
      },
    },
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'index.html': '<h1>Site</h1>\n' } } },
    // dev's first push to an empty repository needs a maintainer at GitLab's default branch protection (2).
    { namespace: 'acme', path: 'empty', visibility: 'private', creator: 'root', members: TEAM_MEMBERS.map((m) => (m.user === 'dev' ? { ...m, access_level: 'maintainer' as const } : m)) },
    {
      namespace: 'acme',
      path: 'guarded',
      visibility: 'private',
      creator: 'root',
      members: TEAM_MEMBERS,
      repository: { protected_branches: { main: { push_access_level: 'maintainer', merge_access_level: 'maintainer' } } },
    },
    { namespace: 'acme', path: 'other', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'a.txt': 'a\n' } } },
  ],
};

describe.skipIf(!HAS_GIT)('git over HTTP with the real git, against the node server', () => {
  let emulator: Emulator;
  let server: Server;
  let seeded: Snapshot;
  let git: GitScratch;
  const url = (path: string, user?: string, password?: string) => (user ? withCredentials(`${server.url}/${path}`, user, password!) : `${server.url}/${path}`);
  const api = async (path: string, token = 'maintainer-token') => {
    const r = await fetch(`${server.url}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } });
    return { status: r.status, body: (await r.json()) as any };
  };
  const commit = async (dir: string, file: string, content: string, message: string) => {
    writeFileSync(join(git.dir, dir, file), content);
    await git.ok(['add', '-A'], dir);
    await git.ok(['commit', '-q', '-m', message], dir);
    return (await git.ok(['rev-parse', 'HEAD'], dir)).trim();
  };

  beforeAll(async () => {
    emulator = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
    seeded = emulator.snapshot();
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    emulator.restore(seeded);
    git?.remove();
    git = new GitScratch();
  });

  it('clones a public project anonymously, and its log is the API commits', async () => {
    await git.ok(['clone', '-q', url('acme/site.git'), 'site']);
    expect((await git.ok(['log', '--format=%H %s'], 'site')).trim().split('\n')).toEqual(
      (await api('/projects/acme%2Fsite/repository/commits')).body.map((c: any) => `${c.id} ${c.title}`),
    );
    expect(await git.ok(['cat-file', '-p', 'HEAD:index.html'], 'site')).toBe('<h1>Site</h1>\n');
    await git.ok(['fsck', '--strict'], 'site');
  });

  it('clones with a token of any username, with `oauth2:` and an OAuth token, and through the path without .git', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'anything', 'dev-token'), 'a']);
    expect((await git.ok(['branch', '-r'], 'a'))).toContain('origin/main');
    expect(await git.ok(['tag'], 'a')).toBe('v1.0.0\n');
    expect(await git.ok(['cat-file', '-t', 'v1.0.0'], 'a')).toBe('tag\n');
    await git.ok(['clone', '-q', url('acme/app.git', 'oauth2', 'dev-oauth'), 'b']);
    const r = await git.run(['clone', url('acme/app', 'dev', 'dev-token'), 'c']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: redirecting to');
    expect(await git.ok(['rev-parse', 'HEAD'], 'c')).toBe(await git.ok(['rev-parse', 'HEAD'], 'a'));
  });

  it('clones over protocol v0 too, as older clients speak it', async () => {
    await git.ok(['-c', 'protocol.version=0', 'clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'a']);
    expect((await git.ok(['log', '--format=%s'], 'a')).trim().split('\n')).toEqual(['Add the CLI', 'Initial commit']);
    await git.ok(['fsck'], 'a');
  });

  it('fetches a commit made through the API, over v2 and v0', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'a']);
    await git.ok(['-c', 'protocol.version=0', 'clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'b']);
    const made = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/repository/files/NOTES.md`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'maintainer-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch: 'main', content: 'notes\n', commit_message: 'Add notes' }),
    });
    expect(made.status).toBe(201);
    const tip = emulator.git('acme/app').refs().branches.main!;
    await git.ok(['pull', '-q'], 'a');
    expect((await git.ok(['rev-parse', 'HEAD'], 'a')).trim()).toBe(tip);
    await git.ok(['-c', 'protocol.version=0', 'fetch', '-q'], 'b');
    expect((await git.ok(['rev-parse', 'origin/main'], 'b')).trim()).toBe(tip);
    await git.ok(['fsck'], 'b');
  });

  it('pushes a new branch that the API lists at once, with author and committer as git sent them', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'a']);
    await git.ok(['checkout', '-q', '-b', 'feature/login'], 'a');
    const sha = await commit('a', 'login.ts', 'export const login = true;\n', 'Add login');
    const r = await git.run(['push', 'origin', 'feature/login'], 'a');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('* [new branch]      feature/login -> feature/login');
    // GitLab's post-receive message, as git prints it (git pads remote lines with spaces).
    expect(r.stderr.replace(/ +\n/g, '\n')).toContain(
      `remote:\nremote: To create a merge request for feature/login, visit:\nremote:   ${server.url}/acme/app/-/merge_requests/new?merge_request%5Bsource_branch%5D=feature%2Flogin\nremote:\n`,
    );
    const branch = await api('/projects/acme%2Fapp/repository/branches/feature%2Flogin');
    expect(branch.body).toMatchObject({ name: 'feature/login', commit: { id: sha, title: 'Add login' } });
    const shown = await api(`/projects/acme%2Fapp/repository/commits/${sha}`);
    expect(shown.body).toMatchObject({
      author_name: 'Pat Pusher',
      author_email: 'pat@example.com',
      committer_name: 'Cody Committer',
      committer_email: 'cody@example.com',
      authored_date: '2026-03-01T10:00:00.000+00:00',
      committed_date: '2026-03-01T11:00:00.000+00:00',
    });
    const file = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/repository/files/login.ts/raw?ref=feature%2Flogin`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } });
    expect(await file.text()).toBe('export const login = true;\n');
    // The push is one journaled request, with the world before and after it.
    const entry = emulator.journal.entries().find((e) => e.path === '/acme/app.git/git-receive-pack')!;
    expect(entry).toMatchObject({ method: 'POST', status: 200, user: 'dev', route: 'POST /:repo{.+\\.git}/git-receive-pack' });
  });

  it('refuses a developer’s push to a protected branch with GitLab’s message, and moves no ref', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'a']);
    await commit('a', 'x.txt', 'x\n', 'Change main');
    await git.ok(['checkout', '-q', '-b', 'side'], 'a');
    await commit('a', 'y.txt', 'y\n', 'Side work');
    const before = emulator.git('acme/app').refs().branches;
    const r = await git.run(['push', 'origin', 'main', 'side'], 'a');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('remote: GitLab: You are not allowed to push code to protected branches on this project.');
    expect(r.stderr).toContain('! [remote rejected] main -> main (pre-receive hook declined)');
    expect(r.stderr).toContain('! [remote rejected] side -> side (pre-receive hook declined)');
    expect(emulator.git('acme/app').refs().branches).toEqual(before);
    // A maintainer may.
    const m = await git.run(['push', url('acme/app.git', 'mai', 'maintainer-token'), 'main'], 'a');
    expect(m.code, m.stderr).toBe(0);
    expect(emulator.git('acme/app').refs().branches.main).toBe((await git.ok(['rev-parse', 'main'], 'a')).trim());
  });

  it('refuses a push while a storage move runs, with GitLab’s read-only message, and takes it once the move is done', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'mai', 'maintainer-token'), 'a']);
    const sha = await commit('a', 'moving.txt', 'm\n', 'During the move');
    const moved = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/repository_storage_moves`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ destination_storage_name: 'storage2' }),
    });
    expect(moved.status).toBe(201);
    const r = await git.run(['push', 'origin', 'HEAD:refs/heads/during'], 'a');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('remote: The repository is temporarily read-only. Please try again later.');
    expect(emulator.git('acme/app').refs().branches.during).toBeUndefined();
    // Clones keep working meanwhile.
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'b']);
    emulator.runUntilIdle();
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/during'], 'a');
    expect(emulator.git('acme/app').refs().branches.during).toBe(sha);
  });

  it('force-pushes an unprotected branch, and refuses a force push to a protected one even for a maintainer', async () => {
    const mai = url('acme/app.git', 'mai', 'maintainer-token');
    await git.ok(['clone', '-q', mai, 'a']);
    await git.ok(['push', '-q', 'origin', 'main:topic'], 'a');
    await git.ok(['reset', '-q', '--hard', 'HEAD~1'], 'a');
    const rewritten = await commit('a', 'z.txt', 'z\n', 'Rewrite');
    const f = await git.run(['push', '--force', 'origin', 'HEAD:topic'], 'a');
    expect(f.code, f.stderr).toBe(0);
    expect(f.stderr).toContain('(forced update)');
    expect(emulator.git('acme/app').refs().branches.topic).toBe(rewritten);
    const p = await git.run(['push', '--force', 'origin', 'HEAD:main'], 'a');
    expect(p.code).not.toBe(0);
    expect(p.stderr).toContain('remote: GitLab: You are not allowed to force push code to a protected branch on this project.');
    // A protection that allows force pushes lets those who may push do so.
    const allowed = await fetch(`${server.url}/api/v4/projects/acme%2Fapp/protected_branches/main`, {
      method: 'PATCH',
      headers: { 'PRIVATE-TOKEN': 'maintainer-token', 'Content-Type': 'application/json' },
      body: JSON.stringify({ allow_force_push: true }),
    });
    expect(allowed.status).toBe(200);
    const forced = await git.run(['push', '--force', 'origin', 'HEAD:main'], 'a');
    expect(forced.code, forced.stderr).toBe(0);
    expect(emulator.git('acme/app').refs().branches.main).toBe(rewritten);
  });

  it('pushes tags, lightweight and annotated, and deletes a branch; GitLab’s rules on tags and the default branch hold', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'a']);
    await git.ok(['tag', 'v1.1.0'], 'a');
    await git.ok(['tag', '-a', 'v1.2.0', '-m', 'Second release'], 'a');
    await git.ok(['push', '-q', 'origin', 'v1.1.0', 'v1.2.0', 'HEAD:refs/heads/scratch'], 'a');
    const tags = (await api('/projects/acme%2Fapp/repository/tags')).body;
    expect(tags.map((t: any) => t.name)).toEqual(expect.arrayContaining(['v1.0.0', 'v1.1.0', 'v1.2.0']));
    expect(tags.find((t: any) => t.name === 'v1.2.0')).toMatchObject({ message: 'Second release', target: (await git.ok(['rev-parse', 'v1.2.0'], 'a')).trim() });
    expect(tags.find((t: any) => t.name === 'v1.1.0')).toMatchObject({ message: null });

    const del = await git.run(['push', 'origin', '--delete', 'scratch'], 'a');
    expect(del.code, del.stderr).toBe(0);
    expect((await api('/projects/acme%2Fapp/repository/branches/scratch')).status).toBe(404);

    // A tag deleted by push takes its release with it.
    expect((await api('/projects/acme%2Fapp/releases/v1.0.0')).status).toBe(200);
    await git.ok(['push', '-q', 'origin', '--delete', 'v1.0.0'], 'a');
    expect((await api('/projects/acme%2Fapp/repository/tags/v1.0.0')).status).toBe(404);
    expect((await api('/projects/acme%2Fapp/releases/v1.0.0')).status).toBe(404);

    const main = await git.run(['push', url('acme/app.git', 'mai', 'maintainer-token'), '--delete', 'main'], 'a');
    expect(main.stderr).toContain('remote: GitLab: The default branch of a project cannot be deleted.');
    const protectedTag = await git.run(['push', 'origin', 'HEAD:refs/tags/release-1'], 'a');
    expect(protectedTag.stderr).toContain('remote: GitLab: You are not allowed to create this tag as it is protected.');
    const sha = await git.run(['push', 'origin', `HEAD:refs/heads/${'a'.repeat(40)}`], 'a');
    expect(sha.stderr).toContain('remote: GitLab: You cannot create a branch with a 40-character hexadecimal branch name.');
  });

  it('mirrors as GitLab does: notes and other refs are kept, GitLab’s own ref spaces refused as hidden, alone unless the push is atomic', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'a']);
    await git.ok(['notes', 'add', '-m', 'Reviewed'], 'a');
    await git.ok(['update-ref', 'refs/merge-requests/1/head', 'HEAD'], 'a');
    await git.ok(['update-ref', 'refs/custom/kept', 'HEAD'], 'a');
    const mirror = await git.run(['push', '--mirror', 'origin'], 'a');
    expect(mirror.code).not.toBe(0);
    expect(mirror.stderr).toContain('* [new reference]   refs/notes/commits -> refs/notes/commits');
    expect(mirror.stderr).toContain('* [new reference]   refs/custom/kept -> refs/custom/kept');
    expect(mirror.stderr).toContain('! [remote rejected] refs/merge-requests/1/head -> refs/merge-requests/1/head (deny updating a hidden ref)');
    expect(mirror.stderr).toContain('! [remote rejected] origin/main -> origin/main (deny updating a hidden ref)');
    expect(mirror.stderr).toContain('error: failed to push some refs to');
    // What was kept is fetched like any ref, and listed; the API's branches and tags are unchanged.
    const listed = await git.ok(['ls-remote', 'origin'], 'a');
    expect(listed).toContain('refs/notes/commits');
    expect(listed).toContain('refs/custom/kept');
    expect(listed).not.toContain('refs/merge-requests/');
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-token'), 'b']);
    await git.ok(['fetch', '-q', 'origin', 'refs/notes/*:refs/notes/*'], 'b');
    expect(await git.ok(['notes', 'show', 'HEAD'], 'b')).toBe('Reviewed\n');
    expect(Object.keys(emulator.git('acme/app').refs().branches)).toEqual(['main']);
    // A second mirror push changes nothing it kept, and deletes what the mirror no longer has.
    await git.ok(['update-ref', '-d', 'refs/custom/kept'], 'a');
    const again = await git.run(['push', '--mirror', 'origin'], 'a');
    expect(again.stderr).toContain('- [deleted]         refs/custom/kept');
    expect(await git.ok(['ls-remote', 'origin'], 'a')).not.toContain('refs/custom/kept');
    // Only a developer and up writes them (PushCheck), and an atomic push with a hidden ref moves nothing.
    const reporter = await git.run(['push', url('acme/app.git', 'rep', 'reporter-token'), 'HEAD:refs/notes/other'], 'a');
    expect(reporter.stderr).toContain('remote: You are not allowed to push code to this project.');
    const atomic = await git.run(['push', '--atomic', 'origin', 'HEAD:refs/heads/held', 'HEAD:refs/pipelines/1'], 'a');
    expect(atomic.stderr).toContain('(atomic transaction failed)');
    expect(emulator.git('acme/app').refs().branches.held).toBeUndefined();
  });

  it('makes shallow clones, deepens them, and ignores a filter GitLab-compatibly', async () => {
    await git.ok(['clone', '-q', '--depth=1', url('acme/app.git', 'dev', 'dev-token'), 'a']);
    expect((await git.ok(['rev-list', '--count', 'HEAD'], 'a')).trim()).toBe('1');
    expect(await git.ok(['rev-parse', '--is-shallow-repository'], 'a')).toBe('true\n');
    await git.ok(['fetch', '-q', '--unshallow'], 'a');
    expect((await git.ok(['rev-list', '--count', 'HEAD'], 'a')).trim()).toBe('2');
    await git.ok(['fsck'], 'a');
    // --deepen counts from the shallow end: one more commit reaches the root here.
    await git.ok(['clone', '-q', '--depth=1', url('acme/app.git', 'dev', 'dev-token'), 'd']);
    await git.ok(['fetch', '-q', '--deepen=1'], 'd');
    expect((await git.ok(['rev-list', '--count', 'HEAD'], 'd')).trim()).toBe('2');
    expect(await git.ok(['rev-parse', '--is-shallow-repository'], 'd')).toBe('false\n');
    await git.ok(['-c', 'protocol.version=0', 'clone', '-q', '--depth=1', url('acme/app.git', 'dev', 'dev-token'), 'b']);
    expect((await git.ok(['rev-list', '--count', 'HEAD'], 'b')).trim()).toBe('1');
    const f = await git.run(['clone', '--filter=blob:none', url('acme/app.git', 'dev', 'dev-token'), 'c']);
    expect(f.code).toBe(0);
    expect(f.stderr).toContain('filtering not recognized by server, ignoring');
  });

  it('clones the history since a date (deepen-since), deepens by commits (deepen-relative), and says when nothing is that recent', async () => {
    await git.ok(['init', '-q', '-b', 'main', 'h']);
    for (const [i, day] of ['01', '10', '20'].entries()) {
      writeFileSync(join(git.dir, 'h', `f${i}.txt`), `${i}\n`);
      await git.ok(['add', '-A'], 'h');
      await git.ok(['commit', '-q', '-m', `Day ${day}`], 'h', { GIT_COMMITTER_DATE: `2026-02-${day}T12:00:00Z` });
    }
    await git.ok(['push', '-q', url('acme/empty.git', 'dev', 'dev-token'), 'main'], 'h');
    for (const version of ['2', '0']) {
      const dir = `since-v${version}`;
      await git.ok(['-c', `protocol.version=${version}`, 'clone', '-q', '--shallow-since=2026-02-05', url('acme/empty.git', 'dev', 'dev-token'), dir]);
      expect((await git.ok(['log', '--format=%s'], dir)).trim().split('\n')).toEqual(['Day 20', 'Day 10']);
      expect(await git.ok(['rev-parse', '--is-shallow-repository'], dir)).toBe('true\n');
    }
    for (const version of ['2', '0']) {
      const dir = `deepen-v${version}`;
      await git.ok(['-c', `protocol.version=${version}`, 'clone', '-q', '--depth=1', url('acme/empty.git', 'dev', 'dev-token'), dir]);
      await git.ok(['-c', `protocol.version=${version}`, 'fetch', '-q', '--deepen=1'], dir);
      expect((await git.ok(['log', '--format=%s'], dir)).trim().split('\n')).toEqual(['Day 20', 'Day 10']);
      expect(await git.ok(['rev-parse', '--is-shallow-repository'], dir)).toBe('true\n');
    }
    const none = await git.run(['clone', '--shallow-since=2026-02-25', url('acme/empty.git', 'dev', 'dev-token'), 'none']);
    expect(none.stderr).toContain('no commits selected for shallow requests');
  });

  it('sends back a pushed history with git’s own deltas, which git and isomorphic-git both read', async () => {
    await git.ok(['init', '-q', '-b', 'main', 'd']);
    const text = Array.from({ length: 300 }, (_, i) => `line ${i} of a long file\n`).join('');
    for (let c = 0; c < 8; c++) await commit('d', 'long.txt', `${text}version ${c}\n`, `Version ${c}`);
    await git.ok(['gc', '-q', '--aggressive'], 'd');
    await git.ok(['push', '-q', url('acme/empty.git', 'dev', 'dev-token'), 'main'], 'd');
    await git.ok(['clone', '-q', '--bare', url('acme/empty.git', 'dev', 'dev-token'), 'c.git']);
    await git.ok(['fsck', '--strict'], 'c.git');
    // The pack sent holds deltas (git's, as pushed), not only whole objects.
    const idx = readdirSync(join(git.dir, 'c.git/objects/pack')).find((f) => f.endsWith('.idx'))!;
    const verified = await git.ok(['verify-pack', '-v', `objects/pack/${idx}`], 'c.git');
    expect(verified).toMatch(/chain length = [1-9]/);
    expect(await git.ok(['log', '--format=%H', 'main'], 'c.git')).toBe(await git.ok(['log', '--format=%H', 'main'], 'd'));
    const fs = createFsFromVolume(new Volume());
    const http = {
      async request({ url: u, method = 'GET', headers = {}, body }: { url: string; method?: string; headers?: Record<string, string>; body?: AsyncIterable<Uint8Array> }) {
        const chunks: Uint8Array[] = [];
        if (body) for await (const c of body) chunks.push(c);
        const res = await emulator.handle(new Request(u, { method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }));
        const bytes = new Uint8Array(await res.arrayBuffer());
        return { url: u, method, statusCode: res.status, statusMessage: res.statusText, headers: Object.fromEntries(res.headers), body: (async function* () { yield bytes; })() };
      },
    };
    await isogit.clone({ fs, http, dir: '/w', url: 'http://gitlab.example.com/acme/empty.git', onAuth: () => ({ username: 'dev', password: 'dev-token' }) });
    expect(fs.readFileSync('/w/long.txt', 'utf8')).toBe(`${text}version 7\n`);
  });

  it('sets the default branch of an empty repository from its first push', async () => {
    const cloned = await git.run(['clone', url('acme/empty.git', 'dev', 'dev-token'), 'e']);
    expect(cloned.code).toBe(0);
    expect(cloned.stderr).toContain('You appear to have cloned an empty repository.');
    await git.ok(['checkout', '-q', '-b', 'trunk'], 'e');
    await commit('e', 'a.txt', 'a\n', 'First');
    await git.ok(['push', '-q', 'origin', 'trunk'], 'e');
    expect((await api('/projects/acme%2Fempty')).body.default_branch).toBe('trunk');
    await git.ok(['clone', '-q', url('acme/empty.git', 'dev', 'dev-token'), 'again']);
    expect((await git.ok(['symbolic-ref', 'HEAD'], 'again')).trim()).toBe('refs/heads/trunk');
  });

  it('tells a developer who pushes first to an empty project’s protected default branch to ask a maintainer', async () => {
    await git.ok(['init', '-q', '-b', 'main', 'g']);
    await commit('g', 'a.txt', 'a\n', 'First');
    const r = await git.run(['push', url('acme/guarded.git', 'dev', 'dev-token'), 'main'], 'g');
    expect(r.code).not.toBe(0);
    expect(r.stderr.replace(/ +\n/g, '\n')).toContain(
      `remote: GitLab:\nremote: A default branch (e.g. main) does not yet exist for acme/guarded\nremote: Ask a project Owner or Maintainer to create a default branch:\nremote:\nremote:   ${server.url}/acme/guarded/-/project_members\nremote:\n`,
    );
    const m = await git.run(['push', url('acme/guarded.git', 'mai', 'maintainer-token'), 'main'], 'g');
    expect(m.code, m.stderr).toBe(0);
  });

  it('creates a private project on a push to one that does not exist, where the pusher may create it', async () => {
    await git.ok(['init', '-q', '-b', 'main', 'n']);
    await commit('n', 'a.txt', 'a\n', 'First');
    const pushed = await git.run(['push', url('dev/tool.git', 'dev', 'dev-token'), 'main'], 'n');
    expect(pushed.code, pushed.stderr).toBe(0);
    // Gitlab::Checks::ProjectCreated, printed by the post-receive of the push (on side-band 2).
    expect(pushed.stderr.replace(/ +\n/g, '\n')).toContain(
      `remote:\nremote: The private project dev/tool was successfully created.\nremote:\nremote: To configure the remote, run:\nremote:   git remote add origin ${server.url}/dev/tool.git\nremote:\nremote: To view the project, visit:\nremote:   ${server.url}/dev/tool\nremote:\n`,
    );
    // Once: the next push says nothing of it.
    await commit('n', 'b.txt', 'b\n', 'Second');
    const second = await git.run(['push', url('dev/tool.git', 'dev', 'dev-token'), 'main'], 'n');
    expect(second.stderr).not.toContain('successfully created');
    const project = await api('/projects/dev%2Ftool', 'dev-token');
    expect(project.body).toMatchObject({ path: 'tool', name: 'tool', visibility: 'private', default_branch: 'main' });
    expect((await api('/projects/dev%2Ftool/repository/commits', 'dev-token')).body.map((c: any) => c.title)).toEqual(['Second', 'First']);
    // Not in a group where the pusher may not create projects, nor with a token that cannot push.
    const group = await git.run(['push', url('acme/tool.git', 'dev', 'dev-token'), 'main'], 'n');
    expect(group.stderr).toContain("remote: The project you were looking for could not be found or you don't have permission to view it.");
    // A push that creates the project but does not land leaves the message for the next one that
    // does, within five minutes (GitLab keeps it in Redis that long).
    const refused = await git.run(['push', url('dev/kept.git', 'dev', 'dev-token'), `HEAD:refs/heads/${'b'.repeat(40)}`], 'n');
    expect(refused.stderr).toContain('You cannot create a branch with a 40-character hexadecimal branch name.');
    expect(refused.stderr).not.toContain('successfully created');
    const landed = await git.run(['push', url('dev/kept.git', 'dev', 'dev-token'), 'main'], 'n');
    expect(landed.stderr).toContain('remote: The private project dev/kept was successfully created.');
    await git.run(['push', url('dev/late.git', 'dev', 'dev-token'), `HEAD:refs/heads/${'c'.repeat(40)}`], 'n');
    emulator.clock.advance('301s');
    const late = await git.run(['push', url('dev/late.git', 'dev', 'dev-token'), 'main'], 'n');
    expect(late.code, late.stderr).toBe(0);
    expect(late.stderr).not.toContain('successfully created');
    const reader = await git.run(['push', url('dev/tool2.git', 'dev', 'dev-read-repo'), 'main'], 'n');
    expect(reader.stderr).toContain('remote: You are not allowed to upload code.');
    expect((await api('/projects/dev%2Ftool2', 'dev-token')).status).toBe(404);
  });

  it('asks for credentials, and hides a private project from those who may not see it', async () => {
    const anonymous = await git.run(['clone', url('acme/app.git'), 'a']);
    expect(anonymous.code).not.toBe(0);
    expect(anonymous.stderr).toContain("could not read Username for");
    const wrong = await git.run(['clone', url('acme/app.git', 'dev', 'not-a-token'), 'b']);
    expect(wrong.stderr).toContain("Authentication failed for");
    const expired = await git.run(['clone', url('acme/app.git', 'dev', 'dev-expired'), 'b']);
    expect(expired.stderr).toContain("Authentication failed for");
    const outsider = await git.run(['clone', url('acme/app.git', 'out', 'outsider-token'), 'c']);
    expect(outsider.stderr).toContain("remote: The project you were looking for could not be found or you don't have permission to view it.");
    const pushAnon = await git.run(['ls-remote', '--heads', url('acme/site.git')]);
    expect(pushAnon.code).toBe(0);
  });

  it('gives clone and push by scope and role, with GitLab’s messages', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'dev', 'dev-read-repo'), 'a']);
    await commit('a', 'n.txt', 'n\n', 'New');
    const readOnly = await git.run(['push', 'origin', 'HEAD:refs/heads/n'], 'a');
    expect(readOnly.stderr).toContain('remote: You are not allowed to upload code.');
    const writer = await git.run(['push', url('acme/app.git', 'dev', 'dev-write-repo'), 'HEAD:refs/heads/n'], 'a');
    expect(writer.code, writer.stderr).toBe(0);
    const noScope = await git.run(['ls-remote', url('acme/app.git', 'dev', 'dev-read-user')]);
    expect(noScope.stderr).toContain('remote: You are not allowed to download code.');
    const reporter = await git.run(['push', url('acme/app.git', 'rep', 'reporter-token'), 'HEAD:refs/heads/r'], 'a');
    expect(reporter.stderr).toContain('remote: You are not allowed to push code to this project.');
    updateProject(emulator, 'acme/app', (p) => void (p.archived = true));
    const archived = await git.run(['push', url('acme/app.git', 'mai', 'maintainer-token'), 'HEAD:refs/heads/m'], 'a');
    expect(archived.stderr).toContain("remote: You can't push code to an archived project.");
  });

  it('clones and pushes with the LFS token the batch API handed out, for that project only', async () => {
    const res = await fetch(`${server.url}/acme/app.git/info/lfs/objects/batch`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('dev:dev-token').toString('base64')}`, 'Content-Type': 'application/vnd.git-lfs+json' },
      body: JSON.stringify({ operation: 'upload', objects: [{ oid: 'a'.repeat(64), size: 1 }] }),
    });
    const body = (await res.json()) as { objects: { actions: { upload: { header: { Authorization: string } } } }[] };
    const [login, token] = Buffer.from(body.objects[0]!.actions.upload.header.Authorization.replace(/^Basic /, ''), 'base64').toString().split(':') as [string, string];
    await git.ok(['clone', '-q', url('acme/app.git', login, token), 'a']);
    await commit('a', 'lfs.txt', 'with an LFS token\n', 'Pushed with an LFS token');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/lfs-token'], 'a');
    expect(emulator.git('acme/app').refs().branches['lfs-token']).toBe((await git.ok(['rev-parse', 'HEAD'], 'a')).trim());
    const other = await git.run(['clone', url('acme/other.git', login, token), 'b']);
    expect(other.stderr).toContain('HTTP Basic: Access denied');
  });

  it('lets a running job clone its own project with gitlab-ci-token, and nothing more', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'gitlab-ci-token', 'job-token-app'), 'a']);
    const push = await git.run(['push', 'origin', 'HEAD:refs/heads/ci'], 'a');
    expect(push.stderr).toContain('remote: You are not allowed to upload code.');
    const other = await git.run(['ls-remote', url('acme/other.git', 'gitlab-ci-token', 'job-token-app')]);
    expect(other.stderr).toContain('remote: Authentication by CI/CD job token not allowed from app to other.');
    const asUser = await git.run(['ls-remote', url('acme/app.git', 'dev', 'job-token-app')]);
    expect(asUser.stderr).toContain('Authentication failed for');
  });
});
