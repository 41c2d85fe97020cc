// A project's wiki repository over git (`<project>.wiki.git`), as GitLab serves it: cloned by who
// may read the wiki, pushed by who may write it, and a push re-indexes the pages the wiki API
// reads. With the real git against the server, and with isomorphic-git through the MSW door.
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server, type Snapshot } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { mswDoor } from './support/msw.js';
import { ORIGIN, TEAM, TEAM_MEMBERS } from './support/world.js';

const fixture: Fixture = {
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# App\n' } },
      wiki: [
        { title: 'home', content: '# Welcome\n' },
        { title: 'guides/Setup', content: 'Run it.\n' },
      ],
    },
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', members: TEAM_MEMBERS, wiki: [{ title: 'home', content: 'Public\n' }] },
    { namespace: 'acme', path: 'fresh', visibility: 'private', creator: 'root', members: TEAM_MEMBERS },
  ],
};

let emulator: Emulator;
let seeded: Snapshot;
beforeAll(async () => {
  emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
  seeded = emulator.snapshot();
});
beforeEach(() => emulator.restore(seeded));

const api = async (path: string, token = 'maintainer-token') => {
  const res = await emulator.handle(new Request(`${ORIGIN}/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } }));
  return { status: res.status, body: (await res.json()) as any };
};

describe.skipIf(!HAS_GIT)('a project’s wiki over git, with the real git against the server', () => {
  let server: Server;
  let scratch: GitScratch;
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

  it('clones the wiki’s pages, and a push changes what the wiki API reads', async () => {
    await scratch.ok(['clone', '-q', url('acme/app.wiki.git', 'dev', 'dev-token'), 'w']);
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:home.md'], 'w')).toBe('# Welcome\n');
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:guides/Setup.md'], 'w')).toBe('Run it.\n');
    expect((await scratch.ok(['log', '--format=%s'], 'w')).trim().split('\n')).toEqual(['root created page: guides/Setup', 'root created page: home']);
    const metaBefore = (await api('/projects/acme%2Fapp/wikis/home')).body;
    // Edit a page, add one in a directory, remove one: one push.
    writeFileSync(join(scratch.dir, 'w', 'home.md'), '# Welcome home\n');
    mkdirSync(join(scratch.dir, 'w', 'notes'));
    writeFileSync(join(scratch.dir, 'w', 'notes', 'Release-plan.md'), 'Ship it.\n');
    writeFileSync(join(scratch.dir, 'w', 'picture.png'), 'not a page');
    await scratch.ok(['rm', '-q', 'guides/Setup.md'], 'w');
    await scratch.ok(['add', '-A'], 'w');
    await scratch.ok(['commit', '-q', '-m', 'Rework the wiki'], 'w');
    const pushed = await scratch.run(['push', 'origin', 'HEAD'], 'w');
    expect(pushed.code, pushed.stderr).toBe(0);
    const list = await api('/projects/acme%2Fapp/wikis?with_content=1');
    expect(list.body.map((p: any) => [p.slug, p.content])).toEqual([
      ['home', '# Welcome home\n'],
      ['notes/Release-plan', 'Ship it.\n'],
    ]);
    expect((await api('/projects/acme%2Fapp/wikis/guides%2FSetup')).status).toBe(404);
    // The edited page is the same page (its meta id), readable at the pushed version too.
    const home = (await api('/projects/acme%2Fapp/wikis/home')).body;
    expect(home).toMatchObject({ slug: 'home', title: 'home', format: 'markdown' });
    expect(home.front_matter ?? {}).toEqual(metaBefore.front_matter ?? {});
    const sha = (await scratch.ok(['rev-parse', 'HEAD'], 'w')).trim();
    expect((await api(`/projects/acme%2Fapp/wikis/notes%2FRelease-plan?version=${sha}`)).body.content).toBe('Ship it.\n');
    // A page written through the API after it, then fetched by git.
    const made = await emulator.handle(
      new Request(`${ORIGIN}/api/v4/projects/acme%2Fapp/wikis`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'dev-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ title: 'From the API', content: 'Hello\n' }),
      }),
    );
    expect(made.status).toBe(201);
    await scratch.ok(['pull', '-q', '--ff-only'], 'w');
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:From-the-API.md'], 'w')).toBe('Hello\n');
    // The project's own repository is untouched.
    expect(Object.keys(emulator.git('acme/app').refs().branches)).toEqual(['main']);
  });

  it('gives clone and push as GitLab does: readers clone, developers push, others are told why', async () => {
    const anon = await scratch.run(['clone', url('acme/site.wiki.git'), 'public']);
    expect(anon.code, anon.stderr).toBe(0);
    expect(await scratch.ok(['cat-file', '-p', 'HEAD:home.md'], 'public')).toBe('Public\n');
    await scratch.ok(['clone', '-q', url('acme/app.wiki.git', 'rep', 'reporter-token'), 'r']);
    writeFileSync(join(scratch.dir, 'r', 'x.md'), 'x\n');
    await scratch.ok(['add', '-A'], 'r');
    await scratch.ok(['commit', '-q', '-m', 'x'], 'r');
    const reporter = await scratch.run(['push', 'origin', 'HEAD'], 'r');
    expect(reporter.stderr).toContain("remote: You are not allowed to write to this project's wiki.");
    // The wiki shares its project's storage, but hands out only its own history.
    const code = emulator.git('acme/app').refs().branches.main!;
    const byId = await scratch.run(['fetch', 'origin', code], 'r');
    expect(byId.code).not.toBe(0);
    expect(byId.stderr).toContain(`not our ref ${code}`);
    const outsider = await scratch.run(['clone', url('acme/app.wiki.git', 'out', 'outsider-token'), 'o']);
    expect(outsider.stderr).toContain("remote: The project you were looking for could not be found or you don't have permission to view it.");
    const missing = await scratch.run(['clone', url('acme/nothing.wiki.git', 'dev', 'dev-token'), 'n']);
    expect(missing.stderr).toContain('could not be found');
    // Only the wiki's branch is kept; a push to another ref is declined, the branch itself goes on.
    const other = await scratch.run(['push', url('acme/app.wiki.git', 'dev', 'dev-token'), 'HEAD:refs/heads/side', 'HEAD:refs/heads/main'], 'r');
    expect(other.stderr).toContain('! [remote rejected] HEAD -> side (pre-receive hook declined)');
    expect(other.stderr).toContain("remote: GitLab: This wiki's repository keeps one branch, main: it is pushed to, never deleted.");
    expect((await api('/projects/acme%2Fapp/wikis/x')).body.content).toBe('x\n');
  });

  it('starts an empty wiki with its first push, and refuses a push while a storage move runs', async () => {
    const cloned = await scratch.run(['clone', url('acme/fresh.wiki.git', 'dev', 'dev-token'), 'f']);
    expect(cloned.stderr).toContain('You appear to have cloned an empty repository.');
    await scratch.ok(['checkout', '-q', '-b', 'main'], 'f');
    writeFileSync(join(scratch.dir, 'f', 'home.org'), '* Home\n');
    await scratch.ok(['add', '-A'], 'f');
    await scratch.ok(['commit', '-q', '-m', 'Start'], 'f');
    await scratch.ok(['push', '-q', 'origin', 'main'], 'f');
    expect((await api('/projects/acme%2Ffresh/wikis/home')).body).toMatchObject({ slug: 'home', format: 'org', content: '* Home\n' });
    // The wiki moves with its project: read-only while the move runs, as GitLab says.
    const move = await emulator.handle(
      new Request(`${ORIGIN}/api/v4/projects/acme%2Ffresh/repository_storage_moves`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ destination_storage_name: 'storage2' }),
      }),
    );
    expect(move.status).toBe(201);
    writeFileSync(join(scratch.dir, 'f', 'more.md'), 'more\n');
    await scratch.ok(['add', '-A'], 'f');
    await scratch.ok(['commit', '-q', '-m', 'More'], 'f');
    const during = await scratch.run(['push', 'origin', 'main'], 'f');
    expect(during.stderr).toContain('remote: The repository is temporarily read-only. Please try again later.');
    expect((await api('/projects/acme%2Ffresh/wikis/more')).status).toBe(404);
    emulator.runUntilIdle();
    await scratch.ok(['push', '-q', 'origin', 'main'], 'f');
    expect((await api('/projects/acme%2Ffresh/wikis/more')).body.content).toBe('more\n');
  });
});

describe('a project’s wiki through the MSW door, with isomorphic-git (no socket)', () => {
  const door = mswDoor();
  const onAuth = () => ({ username: 'dev', password: 'dev-token' });

  it('clones, commits a page, pushes, and the wiki API lists it', async () => {
    door.serve(emulator);
    const fs = createFsFromVolume(new Volume());
    const dir = '/w';
    await git.clone({ fs, http, dir, url: `${ORIGIN}/acme/app.wiki.git`, onAuth });
    expect(fs.readFileSync(`${dir}/home.md`, 'utf8')).toBe('# Welcome\n');
    fs.writeFileSync(`${dir}/Changelog.md`, '## 1.0\n');
    await git.add({ fs, dir, filepath: 'Changelog.md' });
    await git.commit({ fs, dir, message: 'Add the changelog', author: { name: 'Dee', email: 'dee@example.com', timestamp: 1772366400, timezoneOffset: 0 } });
    const pushed = await git.push({ fs, http, dir, onAuth });
    expect(pushed.ok).toBe(true);
    expect((await api('/projects/acme%2Fapp/wikis/Changelog')).body).toMatchObject({ slug: 'Changelog', title: 'Changelog', content: '## 1.0\n' });
  });
});
