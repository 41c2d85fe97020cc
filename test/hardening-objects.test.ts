// Git objects are reachable only from the history that wrote them: a project id that a restore or
// a fork hands out again starts from storage of its own, and a request that fails leaves no
// object behind that a later read could reach by its sha.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import git from 'isomorphic-git';
import { describe, expect, it, vi } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { RepositoryObjects } from '../src/git/objects.js';
import { ACME, apiCall, TEAM, teamProject, type CallInit } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ repository: { files: { 'README.md': '# App\n' }, commits: [{ message: 'Second', files: { 'b.txt': 'b\n' } }] } })],
};

const create = () => createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
const call = (e: Emulator, method: string, path: string, json?: unknown, token = 'root-token') =>
  apiCall(e, path, { method, token, ...(json === undefined ? {} : { json }) } as CallInit);
const anonymous = (e: Emulator, path: string) => apiCall(e, path);

/** Creates a project of root's and answers its id. */
async function newProject(e: Emulator, name: string, visibility: 'private' | 'public', readme = false): Promise<number> {
  const res = await call(e, 'POST', '/projects', { name, visibility, initialize_with_readme: readme });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

/** Commits a file to `main` and answers the commit's sha. */
async function commitFile(e: Emulator, project: number, path: string, content: string): Promise<string> {
  const res = await call(e, 'POST', `/projects/${project}/repository/files/${encodeURIComponent(path).replace(/\./g, '%2E')}`, {
    branch: 'main',
    content,
    commit_message: `Add ${path}`,
  });
  expect(res.status).toBe(201);
  return e.git(project).refs().branches.main!;
}

const raw = (project: number, path: string, ref: string) => `/projects/${project}/repository/files/${path.replace(/\./g, '%2E')}/raw?ref=${ref}`;

describe('a project id handed out again', () => {
  it('after a restore reads nothing of the project that had the id before', async () => {
    const e = await create();
    const before = e.snapshot();
    const secret = await newProject(e, 'secret', 'private');
    const sha = await commitFile(e, secret, 'pw.txt', 'hunter2\n');
    expect(await (await call(e, 'GET', raw(secret, 'pw.txt', sha))).text()).toBe('hunter2\n');

    e.restore(before);
    const open = await newProject(e, 'open', 'public', true);
    expect(open).toBe(secret);
    // The new project's own repository works; the old sha is no object of it.
    expect(await (await anonymous(e, raw(open, 'README.md', 'main'))).text()).toBe('# open\n');
    expect((await anonymous(e, raw(open, 'pw.txt', sha))).status).toBe(404);
    expect((await anonymous(e, `/projects/${open}/repository/commits/${sha}`)).status).toBe(404);
    expect((await call(e, 'GET', raw(open, 'pw.txt', sha))).status).toBe(404);
    expect((await anonymous(e, `/projects/${open}/repository/commits/${sha.slice(0, 8)}`)).status).toBe(404);
    expect(e.git(open).objects.has(sha)).toBe(false);

    // An empty project of that id (no storage yet) reads nothing either.
    e.restore(before);
    expect(await newProject(e, 'bare', 'public')).toBe(secret);
    expect((await anonymous(e, raw(secret, 'pw.txt', sha))).status).toBe(404);
    expect((await anonymous(e, `/projects/${secret}/repository/commits/${sha}`)).status).toBe(404);
    expect(e.git(secret).objects.has(sha)).toBe(false);
  });

  it('in a fork reads nothing of the project the other emulator gave the same id', async () => {
    const e = await create();
    const fork = e.fork();
    const secret = await newProject(fork, 'secret', 'private');
    const sha = await commitFile(fork, secret, 'pw.txt', 'hunter2\n');
    const open = await newProject(e, 'open', 'public', true);
    expect(open).toBe(secret);
    expect((await anonymous(e, raw(open, 'pw.txt', sha))).status).toBe(404);
    expect((await anonymous(e, `/projects/${open}/repository/commits/${sha}`)).status).toBe(404);
    expect(e.git(open).objects.has(sha)).toBe(false);

    // And the other way round: the fork's project never reads the original's objects.
    const mine = await commitFile(e, open, 'mine.txt', 'mine\n');
    expect((await call(fork, 'GET', raw(secret, 'mine.txt', mine))).status).toBe(404);
    expect(await (await call(fork, 'GET', raw(secret, 'pw.txt', 'main'))).text()).toBe('hunter2\n');
  });
});

describe('a request that fails', () => {
  it('leaves no annotated tag object of a release that failed its validations', async () => {
    // A twin on the same fixture and clock writes the very same tag object, and commits it.
    const twin = await create();
    const body = { tag_name: 'v9', ref: 'main', tag_message: 'Secret notes', name: 'Nine' };
    expect((await call(twin, 'POST', '/projects/acme%2Fapp/releases', body, 'maintainer-token')).status).toBe(201);
    const tag = twin.git('acme/app').refs().tags.v9!.target;
    expect(await twin.git('acme/app').objects.type(tag)).toBe('tag');

    const e = await create();
    const failed = await call(e, 'POST', '/projects/acme%2Fapp/releases', { ...body, assets: { links: [{ name: 'x', url: 'gopher://a' }] } }, 'maintainer-token');
    expect(failed.status).toBe(400);
    expect(e.git('acme/app').refs().tags.v9).toBeUndefined();
    const unreachable = async () => {
      expect((await call(e, 'GET', `/projects/acme%2Fapp/repository/commits/${tag}`)).status).toBe(404);
      expect((await call(e, 'GET', `/projects/acme%2Fapp/repository/files/README%2Emd?ref=${tag}`)).status).toBe(404);
      expect((await call(e, 'GET', `/projects/acme%2Fapp/repository/files/README%2Emd/raw?ref=${tag.slice(0, 10)}`)).status).toBe(404);
      const objects = e.git('acme/app').objects;
      expect(objects.has(tag)).toBe(false);
      expect(await objects.type(tag)).toBeNull();
      await expect(objects.readTag(tag)).rejects.toThrow();
    };
    await unreachable();
    // A later request that commits does not bring it along.
    expect((await call(e, 'POST', '/projects/acme%2Fapp/repository/files/c%2Etxt', { branch: 'main', content: 'c', commit_message: 'c' })).status).toBe(201);
    await unreachable();
  });

  it('leaves no commit of a file create whose branch moved while the commit was being written', async () => {
    const path = '/projects/acme%2Fapp/repository/files/two%2Etxt';
    const json = { branch: 'main', content: '2', commit_message: 'two' };
    const twin = await create();
    await commitFile(twin, 1, 'one.txt', '1');
    expect((await call(twin, 'POST', path, json)).status).toBe(201);
    const commit = twin.git('acme/app').refs().branches.main!;

    const e = await create();
    const before = e.snapshot();
    await commitFile(e, 1, 'one.txt', '1');
    const g = e.git('acme/app');
    // Somebody else moves main back while the commit is being written; the write itself goes on.
    const spy = vi.spyOn(g.objects, 'writeCommit').mockImplementation(async function (this: RepositoryObjects, c) {
      e.restore(before);
      return RepositoryObjects.prototype.writeCommit.call(this, c);
    });
    const res = await call(e, 'POST', path, json);
    spy.mockRestore();
    expect([res.status, await res.json()]).toEqual([400, { message: 'Could not update branch main. Please refresh and try again.' }]);
    expect((await call(e, 'GET', `/projects/acme%2Fapp/repository/commits/${commit}`)).status).toBe(404);
    expect((await call(e, 'GET', `/projects/acme%2Fapp/repository/files/two%2Etxt/raw?ref=${commit}`)).status).toBe(404);
    expect(e.git('acme/app').objects.has(commit)).toBe(false);
    await expect(e.git('acme/app').objects.readCommit(commit)).rejects.toThrow();
  });

  it('leaves no commit of a run that the pipeline discarded and ran again on the changed world', async () => {
    const path = '/projects/acme%2Fapp/repository/files/two%2Etxt';
    const json = { branch: 'feature', start_branch: 'main', content: '2', commit_message: 'two' };
    const twin = await create();
    await commitFile(twin, 1, 'one.txt', '1');
    expect((await call(twin, 'POST', path, json)).status).toBe(201);
    const discarded = twin.git('acme/app').refs().branches.feature!;

    const e = await create();
    const before = e.snapshot();
    await commitFile(e, 1, 'one.txt', '1');
    const g = e.git('acme/app');
    let restored = false;
    // The first run writes its commit on the moved main; the world goes back meanwhile, and the
    // new branch still being free, the request runs again on it.
    const spy = vi.spyOn(g.objects, 'writeCommit').mockImplementation(async function (this: RepositoryObjects, c) {
      if (!restored) (restored = true), e.restore(before);
      return RepositoryObjects.prototype.writeCommit.call(this, c);
    });
    const res = await call(e, 'POST', path, json);
    spy.mockRestore();
    expect(res.status).toBe(201);
    const kept = e.git('acme/app').refs().branches.feature!;
    expect(kept).not.toBe(discarded);
    expect(await e.git('acme/app').readText('one.txt', 'feature')).toBeNull();
    expect((await call(e, 'GET', `/projects/acme%2Fapp/repository/commits/${kept}`)).status).toBe(200);
    expect((await call(e, 'GET', `/projects/acme%2Fapp/repository/commits/${discarded}`)).status).toBe(404);
    expect(e.git('acme/app').objects.has(discarded)).toBe(false);
  });
});

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const commitPath = (project: number, sha: string) => `/projects/${project}/repository/commits/${sha}`;
const fileAt = (project: number, path: string, ref: string) => `/projects/${project}/repository/files/${path.replace(/\./g, '%2E')}?ref=${ref}`;

/** What a world answers for a commit by its sha: through the commits API, a file at it, its abbreviation. */
async function reads(e: Emulator, project: number, sha: string, path: string): Promise<number[]> {
  return [
    (await call(e, 'GET', commitPath(project, sha))).status,
    (await call(e, 'GET', fileAt(project, path, sha))).status,
    (await call(e, 'GET', raw(project, path, sha))).status,
    (await call(e, 'GET', raw(project, path, sha.slice(0, 10)))).status,
    (await call(e, 'GET', fileAt(project, 'README.md', sha))).status,
  ];
}
const SEEN = [200, 200, 200, 200, 200];
const UNSEEN = [404, 404, 404, 404, 404];

describe('a repository that two histories share', () => {
  it('after a restore shows neither history what the other wrote after they parted', async () => {
    const e = await create();
    const seeded = e.git(1).refs().branches.main!;
    const s = e.snapshot();
    const x = await commitFile(e, 1, 'x.txt', 'x\n');
    expect(await reads(e, 1, x, 'x.txt')).toEqual(SEEN);
    const withX = e.snapshot();

    e.restore(s);
    expect(await reads(e, 1, x, 'x.txt')).toEqual(UNSEEN);
    expect(e.git(1).objects.has(x)).toBe(false);
    await expect(e.git(1).objects.readCommit(x)).rejects.toThrow();
    // The restored world goes on: a new commit is written and read back, what was there before stays.
    const y = await commitFile(e, 1, 'y.txt', 'y\n');
    expect(await reads(e, 1, y, 'y.txt')).toEqual(SEEN);
    expect(await (await call(e, 'GET', raw(1, 'y.txt', 'main'))).text()).toBe('y\n');
    expect(await reads(e, 1, seeded, 'b.txt')).toEqual(SEEN);
    expect(await reads(e, 1, x, 'x.txt')).toEqual(UNSEEN);
    const withY = e.snapshot();

    // Flip between the two histories: each reads its own commits only, and goes on writing.
    e.restore(withX);
    expect(await reads(e, 1, x, 'x.txt')).toEqual(SEEN);
    expect(await reads(e, 1, y, 'y.txt')).toEqual(UNSEEN);
    expect(e.git(1).objects.has(y)).toBe(false);
    const z = await commitFile(e, 1, 'z.txt', 'z\n');
    expect(await reads(e, 1, z, 'z.txt')).toEqual(SEEN);
    expect(await reads(e, 1, x, 'x.txt')).toEqual(SEEN);

    e.restore(withY);
    expect(await reads(e, 1, y, 'y.txt')).toEqual(SEEN);
    expect(await reads(e, 1, x, 'x.txt')).toEqual(UNSEEN);
    expect(await reads(e, 1, z, 'z.txt')).toEqual(UNSEEN);
    const w = await commitFile(e, 1, 'w.txt', 'w\n');
    expect(await reads(e, 1, w, 'w.txt')).toEqual(SEEN);
    expect(await e.git(1).files()).toEqual({ 'README.md': '# App\n', 'b.txt': 'b\n', 'y.txt': 'y\n', 'w.txt': 'w\n' });

    e.restore(withX);
    expect(await reads(e, 1, w, 'w.txt')).toEqual(UNSEEN);
    expect(await reads(e, 1, z, 'z.txt')).toEqual(UNSEEN); // the world withX had not written z yet
    expect(await reads(e, 1, x, 'x.txt')).toEqual(SEEN);
    expect(await reads(e, 1, seeded, 'b.txt')).toEqual(SEEN);
  });

  it('in a fork shows neither emulator what the other wrote after the fork', async () => {
    const e = await create();
    const before = await commitFile(e, 1, 'before.txt', 'before\n');
    const fork = e.fork();
    const mine = await commitFile(e, 1, 'mine.txt', 'mine\n');
    const theirs = await commitFile(fork, 1, 'theirs.txt', 'theirs\n');
    const blob = await fork.git(1).objects.writeBlob(new TextEncoder().encode('written straight\n'));
    for (let round = 0; round < 2; round++) {
      expect(await reads(e, 1, mine, 'mine.txt')).toEqual(SEEN);
      expect(await reads(e, 1, theirs, 'theirs.txt')).toEqual(UNSEEN);
      expect(await reads(fork, 1, theirs, 'theirs.txt')).toEqual(SEEN);
      expect(await reads(fork, 1, mine, 'mine.txt')).toEqual(UNSEEN);
      for (const side of [e, fork]) expect(await reads(side, 1, before, 'before.txt')).toEqual(SEEN);
      expect(fork.git(1).objects.has(blob)).toBe(true);
      expect(e.git(1).objects.has(blob)).toBe(false);
      expect(e.git(1).objects.has(theirs)).toBe(false);
      expect(fork.git(1).objects.has(mine)).toBe(false);
      // Both go on writing to their own history.
      await commitFile(e, 1, `mine-${round}.txt`, `${round}\n`);
      await commitFile(fork, 1, `theirs-${round}.txt`, `${round}\n`);
    }
    expect(Object.keys(await e.git(1).files()).sort()).toEqual(['README.md', 'b.txt', 'before.txt', 'mine-0.txt', 'mine-1.txt', 'mine.txt']);
    expect(Object.keys(await fork.git(1).files()).sort()).toEqual(['README.md', 'b.txt', 'before.txt', 'theirs-0.txt', 'theirs-1.txt', 'theirs.txt']);
  });

  it('that went on in a storage of its own reads through isomorphic-git and exports what git fsck accepts', async () => {
    const e = await create();
    const s = e.snapshot();
    await commitFile(e, 1, 'x.txt', 'x\n');
    e.restore(s);
    await commitFile(e, 1, 'y.txt', 'y\n');
    const first = await commitFile(e, 1, 'z.txt', 'z\n');
    const g = e.git(1);
    const head = g.refs().branches.main!;
    expect(head).toBe(first);
    // The history went on in a storage of its own, which names the one it continues.
    expect(g.objects.store.parent).not.toBeNull();
    expect(g.objects.db.volume.readFileSync(`${g.gitdir}/objects/info/alternates`, 'utf8')).toBe(`${g.objects.store.parent!.gitdir}/objects\n`);
    const log = await git.log({ fs: g.fs, gitdir: g.gitdir, ref: head });
    expect(log.map((c) => c.commit.message.trim())).toEqual(['Add z.txt', 'Add y.txt', 'Second', 'Initial commit']);
    if (!HAS_GIT) return;
    const dir = mkdtempSync(join(tmpdir(), 'gle-objects-'));
    try {
      await g.export(dir);
      const run = (...args: string[]) =>
        execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir } });
      run('fsck', '--full', '--strict', '--no-dangling');
      expect(run('log', '--format=%s', 'main').trim().split('\n')).toEqual(['Add z.txt', 'Add y.txt', 'Second', 'Initial commit']);
      expect(run('cat-file', '-p', 'main:b.txt')).toBe('b\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('objects written straight through emulator.git(project).objects', () => {
  it('go to the world as it is when they are written, and leave what requests committed visible', async () => {
    const e = await create();
    const objects = e.git(1).objects;
    const enc = new TextEncoder();
    const one = await objects.writeBlob(enc.encode('one\n'));
    const committed = await commitFile(e, 1, 'c.txt', 'c\n');
    const two = await objects.writeBlob(enc.encode('two\n'));
    expect(await reads(e, 1, committed, 'c.txt')).toEqual(SEEN);
    for (const oid of [one, two, committed]) expect(e.git(1).objects.has(oid)).toBe(true);
    expect(objects.has(committed)).toBe(true);

    // A world restored to before them sees none of them; the other still sees all.
    const after = e.snapshot();
    e.reset();
    for (const oid of [one, two, committed]) expect(e.git(1).objects.has(oid)).toBe(false);
    e.restore(after);
    for (const oid of [one, two, committed]) expect(e.git(1).objects.has(oid)).toBe(true);
  });
});
