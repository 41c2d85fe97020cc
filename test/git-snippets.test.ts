// Snippet repositories and group wikis over git, as GitLab serves them: a snippet is cloned at its
// `http_url_to_repo` by whoever may read it and pushed (its one branch, 1 to 10 files) by whoever
// may update it, and the API reads what was pushed; a group's wiki (the higher tier) is cloned
// and pushed at `<group path>.wiki.git` like a project's. With the real git against the server,
// and one clone with isomorphic-git through the MSW door.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server, type Snapshot } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { mswDoor } from './support/msw.js';
import { ORIGIN, snippetHistory, TEAM_MEMBERS, teamWithTokens } from './support/world.js';

const fixture: Fixture = {
  instance: { tier: 'premium' },
  users: teamWithTokens('dev', [{ token: 'dev-read-token', scopes: ['read_repository'] }]).map((u) =>
    u.username === 'dev'
      ? {
          ...u,
          snippets: [
            { title: 'Notes', visibility: 'public', files: [{ path: 'notes.md', content: '# Notes\n' }] },
            { title: 'Secret', visibility: 'private', files: [{ path: 'secret.txt', content: 'psst\n' }] },
          ],
        }
      : u,
  ),
  groups: [
    { path: 'acme', visibility: 'public' },
    { path: 'docs', visibility: 'public', members: TEAM_MEMBERS, wiki: [{ title: 'home', content: '# Docs\n' }] },
    { path: 'vault', visibility: 'private', members: TEAM_MEMBERS, wiki: [{ title: 'home', content: 'Hidden\n' }] },
  ],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# App\n' } },
      snippets: [{ title: 'Setup', visibility: 'private', author: 'dev', files: [{ path: 'setup.sh', content: 'echo setup\n' }] }],
    },
  ],
};

let emulator: Emulator;
let seeded: Snapshot;
beforeAll(async () => {
  emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
  seeded = emulator.snapshot();
});
beforeEach(() => emulator.restore(seeded));

const api = async (path: string, token = 'root-token') => {
  const res = await emulator.handle(new Request(`${ORIGIN}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } }));
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? ((await res.json()) as any) : await res.text() };
};

/** The snippets as the API lists them to an administrator: the project's, and dev's personal ones by title. */
async function snippets(): Promise<{ setup: any; notes: any; secret: any }> {
  const project = (await api('/projects/acme%2Fapp/snippets')).body;
  const all = (await api('/snippets/all')).body as any[];
  const byTitle = (t: string) => all.find((s) => s.title === t);
  return { setup: project[0], notes: byTitle('Notes'), secret: byTitle('Secret') };
}

describe.skipIf(!HAS_GIT)('snippet repositories and group wikis over git, with the real git against the server', () => {
  let server: Server;
  let scratch: GitScratch;
  /** A snippet's `http_url_to_repo` on the server (the API answers with the emulator's origin). */
  const onServer = (httpUrl: string, user?: string, password?: string) => {
    const url = `${server.url}${new URL(httpUrl).pathname}`;
    return user ? withCredentials(url, user, password!) : url;
  };
  const url = (path: string, user?: string, password?: string) => (user ? withCredentials(`${server.url}/${path}`, user, password!) : `${server.url}/${path}`);
  beforeAll(async () => {
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    scratch?.remove();
    scratch = new GitScratch();
  });

  it('clones a project snippet and a personal one at their http_url_to_repo, and without .git', async () => {
    const { setup, notes } = await snippets();
    expect(setup.http_url_to_repo).toBe(`${ORIGIN}/acme/app/snippets/${setup.id}.git`);
    expect(notes.http_url_to_repo).toBe(`${ORIGIN}/snippets/${notes.id}.git`);
    await scratch.ok(['clone', '-q', onServer(setup.http_url_to_repo, 'rep', 'reporter-token'), 's']);
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:setup.sh'], 's')).toBe('echo setup\n');
    expect((await scratch.ok(['symbolic-ref', 'HEAD'], 's')).trim()).toBe('refs/heads/main');
    expect((await scratch.ok(['log', '--format=%s|%an'], 's')).trim()).toBe('Initial commit|Dee Veloper');
    // A token with read_repository clones too; without `.git` git is redirected, as for a project.
    await scratch.ok(['clone', '-q', onServer(setup.http_url_to_repo.replace(/\.git$/, ''), 'dev', 'dev-read-token'), 'plain']);
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:setup.sh'], 'plain')).toBe('echo setup\n');
    // A public personal snippet: anyone, without credentials.
    const anon = await scratch.run(['clone', '-q', onServer(notes.http_url_to_repo), 'n']);
    expect(anon.code, anon.stderr).toBe(0);
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:notes.md'], 'n')).toBe('# Notes\n');
  });

  it('refuses who may not read the snippet: 401 to anonymous callers, GitLab’s messages to others', async () => {
    const { setup, secret, notes } = await snippets();
    // Anonymous on a private snippet: the challenge that makes git ask for credentials.
    const challenge = await fetch(`${onServer(secret.http_url_to_repo)}/info/refs?service=git-upload-pack`);
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toMatch(/^Basic /);
    const anon = await scratch.run(['clone', onServer(secret.http_url_to_repo), 'a']);
    expect(anon.code).not.toBe(0);
    expect(anon.stderr).toMatch(/could not read Username|Authentication failed/);
    // Another user: the snippet is private to its author.
    const other = await scratch.run(['clone', onServer(secret.http_url_to_repo, 'out', 'outsider-token'), 'o']);
    expect(other.stderr).toContain('remote: You are not allowed to read this snippet.');
    // The project snippet of a private project: the project's "not found".
    const outsider = await scratch.run(['clone', onServer(setup.http_url_to_repo, 'out', 'outsider-token'), 'p']);
    expect(outsider.stderr).toContain("remote: The project you were looking for could not be found or you don't have permission to view it.");
    // A snippet under the wrong path, or one that does not exist.
    for (const path of [`acme/app/snippets/${notes.id}.git`, `snippets/${setup.id}.git`, 'snippets/9999.git']) {
      const res = await fetch(`${url(path)}/info/refs?service=git-upload-pack`, { headers: { Authorization: `Basic ${btoa('dev:dev-token')}` } });
      expect(res.status, path).toBe(404);
    }
  });

  it('pushes to the snippet’s branch: the API reads the pushed files, the record follows', async () => {
    const { setup } = await snippets();
    await scratch.ok(['clone', '-q', onServer(setup.http_url_to_repo, 'dev', 'dev-token'), 's']);
    writeFileSync(join(scratch.dir, 's', 'setup.sh'), 'echo pushed\n');
    mkdirSync(join(scratch.dir, 's', 'lib'));
    writeFileSync(join(scratch.dir, 's', 'lib', 'helper.sh'), 'helper\n');
    await scratch.ok(['add', '-A'], 's');
    await scratch.ok(['commit', '-q', '-m', 'Push from git'], 's');
    const pushed = await scratch.run(['push', 'origin', 'HEAD'], 's');
    expect(pushed.code, pushed.stderr).toBe(0);
    const raw = await api(`/projects/acme%2Fapp/snippets/${setup.id}/files/main/setup.sh/raw`, 'dev-token');
    expect(raw).toEqual({ status: 200, body: 'echo pushed\n' });
    expect((await api(`/projects/acme%2Fapp/snippets/${setup.id}/files/main/lib%2Fhelper.sh/raw`, 'dev-token')).body).toBe('helper\n');
    const shown = (await api(`/projects/acme%2Fapp/snippets/${setup.id}`, 'dev-token')).body;
    expect(shown.files.map((f: any) => f.path)).toEqual(['lib/helper.sh', 'setup.sh']);
    expect(shown.file_name).toBe('lib/helper.sh');
    expect(shown.updated_at).toBe('2026-03-01T12:00:00.000Z');
    const history = await snippetHistory(emulator, setup.id);
    expect(history.map((c) => c.message.trim())).toEqual(['Push from git', 'Initial commit']);
    expect(history[0]!.author).toEqual({ name: 'Pat Pusher', email: 'pat@example.com' });
    // An API update commits on top of the pushed commit.
    const put = await emulator.handle(
      new Request(`${ORIGIN}/api/v4/projects/acme%2Fapp/snippets/${setup.id}`, {
        method: 'PUT',
        headers: { 'PRIVATE-TOKEN': 'dev-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ files: [{ action: 'update', file_path: 'lib/helper.sh', content: 'helped\n' }] }),
      }),
    );
    expect(put.status).toBe(200);
    await scratch.ok(['pull', '-q', '--ff-only'], 's');
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:lib/helper.sh'], 's')).toBe('helped\n');
    // A personal snippet, pushed by its author.
    const { notes } = await snippets();
    await scratch.ok(['clone', '-q', onServer(notes.http_url_to_repo, 'dev', 'dev-token'), 'n']);
    writeFileSync(join(scratch.dir, 'n', 'notes.md'), '# More notes\n');
    await scratch.ok(['commit', '-q', '-am', 'More'], 'n');
    await scratch.ok(['push', '-q', 'origin', 'HEAD'], 'n');
    expect((await api(`/snippets/${notes.id}/raw`)).body).toBe('# More notes\n');
  });

  it('refuses pushes as GitLab does: other branches, tags, deletions, file counts, who may not update it', async () => {
    const { setup, notes } = await snippets();
    const before = await snippetHistory(emulator, setup.id);
    await scratch.ok(['clone', '-q', onServer(setup.http_url_to_repo, 'dev', 'dev-token'), 's']);
    writeFileSync(join(scratch.dir, 's', 'setup.sh'), 'echo changed\n');
    await scratch.ok(['commit', '-q', '-am', 'Change'], 's');
    const declined = (r: { code: number; stderr: string }, message: string) => {
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(`remote: GitLab: ${message}`);
      expect(r.stderr).toContain('(pre-receive hook declined)');
    };
    declined(await scratch.run(['push', 'origin', 'HEAD:refs/heads/side'], 's'), 'You can not create or delete branches.');
    await scratch.ok(['tag', 'v1'], 's');
    declined(await scratch.run(['push', 'origin', 'v1'], 's'), 'You can not create or delete branches.');
    // One refused ref declines the whole push.
    declined(await scratch.run(['push', 'origin', 'HEAD:main', 'HEAD:refs/heads/side'], 's'), 'You can not create or delete branches.');
    declined(await scratch.run(['push', 'origin', ':main'], 's'), 'You can not create or delete branches.');
    // PushFileCountCheck: at most ten files, at least one.
    for (let i = 0; i < 10; i++) writeFileSync(join(scratch.dir, 's', `f${i}.txt`), `${i}\n`);
    await scratch.ok(['add', '-A'], 's');
    await scratch.ok(['commit', '-q', '-m', 'Eleven files'], 's');
    declined(await scratch.run(['push', 'origin', 'HEAD'], 's'), 'The repository can contain at most 10 file(s).');
    await scratch.ok(['rm', '-q', '-r', '.'], 's');
    await scratch.ok(['commit', '-q', '-m', 'Nothing'], 's');
    declined(await scratch.run(['push', 'origin', 'HEAD'], 's'), 'The repository must contain at least 1 file.');
    // A reporter may read the snippet, not update it; a token without a write scope uploads nothing.
    await scratch.ok(['reset', '-q', '--hard', 'HEAD~2'], 's');
    const reporter = await scratch.run(['push', onServer(setup.http_url_to_repo, 'rep', 'reporter-token'), 'HEAD:main'], 's');
    expect(reporter.stderr).toContain('remote: You are not allowed to update this snippet.');
    const readOnly = await scratch.run(['push', onServer(setup.http_url_to_repo, 'dev', 'dev-read-token'), 'HEAD:main'], 's');
    expect(readOnly.stderr).toContain('remote: You are not allowed to upload code.');
    // A public personal snippet is someone else's to update.
    await scratch.ok(['clone', '-q', onServer(notes.http_url_to_repo, 'mai', 'maintainer-token'), 'n']);
    writeFileSync(join(scratch.dir, 'n', 'notes.md'), 'mine now\n');
    await scratch.ok(['commit', '-q', '-am', 'Take over'], 'n');
    const stranger = await scratch.run(['push', 'origin', 'HEAD'], 'n');
    expect(stranger.stderr).toContain('remote: You are not allowed to update this snippet.');
    // Nothing moved.
    expect(await snippetHistory(emulator, setup.id)).toEqual(before);
    expect((await api(`/snippets/${notes.id}/raw`)).body).toBe('# Notes\n');
    // The same commit pushed to main goes through.
    await scratch.ok(['push', '-q', onServer(setup.http_url_to_repo, 'mai', 'maintainer-token'), 'HEAD:main'], 's');
    expect((await api(`/projects/acme%2Fapp/snippets/${setup.id}/raw`)).body).toBe('echo changed\n');
  });

  it('serves a group’s wiki at <group path>.wiki.git: readers clone, developers push, the API reads it', async () => {
    const anon = await scratch.run(['clone', '-q', url('docs.wiki.git'), 'd']);
    expect(anon.code, anon.stderr).toBe(0);
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:home.md'], 'd')).toBe('# Docs\n');
    writeFileSync(join(scratch.dir, 'd', 'home.md'), '# Docs, pushed\n');
    writeFileSync(join(scratch.dir, 'd', 'Guide.md'), 'Read me.\n');
    await scratch.ok(['add', '-A'], 'd');
    await scratch.ok(['commit', '-q', '-m', 'Wiki by git'], 'd');
    // Anonymous pushes are challenged; a reporter is told; a developer pushes.
    expect((await scratch.run(['push', 'origin', 'HEAD'], 'd')).code).not.toBe(0);
    const reporter = await scratch.run(['push', url('docs.wiki.git', 'rep', 'reporter-token'), 'HEAD:main'], 'd');
    expect(reporter.stderr).toContain("remote: You are not allowed to write to this group's wiki.");
    const pushed = await scratch.run(['push', url('docs.wiki.git', 'dev', 'dev-token'), 'HEAD:main'], 'd');
    expect(pushed.code, pushed.stderr).toBe(0);
    const list = await api('/groups/docs/wikis?with_content=1', 'dev-token');
    expect(list.body.map((p: any) => [p.slug, p.content])).toEqual([
      ['Guide', 'Read me.\n'],
      ['home', '# Docs, pushed\n'],
    ]);
    // A private group's wiki: members clone, others get the group's "not found".
    await scratch.ok(['clone', '-q', url('vault.wiki.git', 'gus', 'guest-token'), 'v']);
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:home.md'], 'v')).toBe('Hidden\n');
    const outsider = await scratch.run(['clone', url('vault.wiki.git', 'out', 'outsider-token'), 'o']);
    expect(outsider.stderr).toContain('remote: The group you were looking for could not be found.');
    // The free tier has no group wikis.
    emulator.configure({ tier: 'free' });
    const free = await scratch.run(['clone', url('docs.wiki.git', 'dev', 'dev-token'), 'f']);
    expect(free.code).not.toBe(0);
    expect(free.stderr).toContain('could not be found');
  });
});

describe('a snippet’s repository through the MSW door, with isomorphic-git', () => {
  const door = mswDoor();
  it('clones a public personal snippet by its http_url_to_repo', async () => {
    door.serve(emulator);
    const { notes } = await snippets();
    const fs = createFsFromVolume(new Volume());
    await git.clone({ fs, http, dir: '/w', url: notes.http_url_to_repo });
    expect(fs.readFileSync('/w/notes.md', 'utf8')).toBe('# Notes\n');
  });
});
