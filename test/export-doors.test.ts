// An export through the doors: `GET /-/emulator/fixture` from a served emulator is a file that
// `gitlab-emulator serve --fixture` serves again; a repository pushed with the real git (several
// commits, authors and dates, branches, a merge, an annotated tag) comes back with the same
// history, and the copy goes on as the original would (the same write makes the same answer).
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { firstDifference, normalize, readPaths } from './support/reads.js';
import { CLI } from './support/cli.js';

const NOW = '2030-01-01T00:00:00Z';
const ROOT = 'glpat-emulator-root-token';

const servers: Server[] = [];
const scratch: GitScratch[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  for (const g of scratch) g.remove();
});

async function served(e: Emulator): Promise<Server> {
  const s = await e.listen({ port: 0 });
  servers.push(s);
  return s;
}

describe('GET /-/emulator/fixture', () => {
  it('answers the export as a JSON attachment named fixture.json', async () => {
    const e = await createEmulator({ clock: { now: NOW, frozen: true } });
    const res = await e.handle(new Request('https://gitlab.example.com/-/emulator/fixture'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="fixture.json"');
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(await e.exportFixture())));
  });

  it('asks for the control token when the emulator has one', async () => {
    const e = await createEmulator({ controlToken: 'ctl' });
    expect((await e.handle(new Request('https://gitlab.example.com/-/emulator/fixture'))).status).toBe(401);
    expect((await e.handle(new Request('https://gitlab.example.com/-/emulator/fixture', { headers: { 'X-Emulator-Token': 'ctl' } }))).status).toBe(200);
  });

  it('an exported world seeds only an emulator of its own, not a world that has records', async () => {
    const e = await createEmulator();
    const fixture = await e.exportFixture();
    const res = await e.handle(new Request('https://gitlab.example.com/-/emulator/seed', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(fixture) }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/seeds an emulator of its own/);
  });
});

describe.skipIf(!HAS_GIT)('a repository pushed with git', () => {
  it('comes back with the same commits, refs and answers, and the copy goes on as the original would', async () => {
    const e = await createEmulator({ clock: { now: NOW, frozen: true } });
    const server = await served(e);
    const git = new GitScratch();
    scratch.push(git);
    const remote = withCredentials(`${server.url}/acme/secrets.git`, 'root', ROOT);
    await git.ok(['init', '-q', '-b', 'main', 'w']);
    const commit = async (file: string, text: string, date: string, author = 'Ann Author <ann@example.com>') => {
      writeFileSync(join(git.dir, 'w', file), text);
      await git.ok(['add', '-A'], 'w');
      await git.ok(['commit', '-q', '-m', `Write ${file}`, '--author', author], 'w', { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    };
    await commit('README.md', '# Secrets\n', '2029-01-01T10:00:00Z');
    await commit('a.txt', 'a\n', '2029-01-02T10:00:00+02:00', 'Bea <bea@example.com>');
    await git.ok(['checkout', '-q', '-b', 'topic'], 'w');
    await commit('b.txt', 'b\n', '2029-01-03T10:00:00Z');
    await commit('c.txt', 'c\n', '2029-01-04T10:00:00Z');
    await git.ok(['checkout', '-q', 'main'], 'w');
    await commit('d.txt', 'd\n', '2029-01-05T10:00:00Z');
    await git.ok(['merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic'], 'w', { GIT_AUTHOR_DATE: '2029-01-06T10:00:00Z', GIT_COMMITTER_DATE: '2029-01-06T10:00:00Z' });
    await git.ok(['tag', '-a', 'v1', '-m', 'One'], 'w', { GIT_COMMITTER_DATE: '2029-01-07T10:00:00Z' });
    await git.ok(['push', '-q', remote, 'main', 'topic', 'v1'], 'w');

    const res = await fetch(`${server.url}/-/emulator/fixture`);
    const fixture = (await res.json()) as Fixture;
    const copy = await createEmulator({ fixture, clock: { now: e.clock.now(), frozen: true } });
    const copyServer = await served(copy);

    // The same history, cloned from each.
    const history = async (url: string, dir: string) => {
      await git.ok(['clone', '-q', '--mirror', withCredentials(url, 'root', ROOT), dir]);
      return git.ok(['log', '--all', '--format=%H %P %an %ad %cn %cd %s', '--date=iso-strict'], dir);
    };
    const original = await history(`${server.url}/acme/secrets.git`, 'o.git');
    expect(original.trim().split('\n')).toHaveLength(6);
    expect(await history(`${copyServer.url}/acme/secrets.git`, 'c.git')).toBe(original);
    expect(await git.ok(['for-each-ref'], 'c.git')).toBe(await git.ok(['for-each-ref'], 'o.git'));

    // Every read route alike.
    expect(await firstDifference(e, copy, readPaths(e), [ROOT])).toBeUndefined();

    // The same write on each: the same commit, the same ids.
    const write = async (target: Emulator) =>
      normalize(
        await target.handle(
          new Request('https://gitlab.example.com/api/v4/projects/acme%2Fsecrets/repository/commits', {
            method: 'POST',
            headers: { 'PRIVATE-TOKEN': ROOT, 'Content-Type': 'application/json' },
            body: JSON.stringify({ branch: 'topic', commit_message: 'More', actions: [{ action: 'create', file_path: 'e.txt', content: 'e' }] }),
          }),
        ),
        'https://gitlab.example.com',
      );
    const [x, y] = [await write(e), await write(copy)];
    expect((x as { status: number }).status).toBe(201);
    expect(y).toEqual(x);
    const issue = async (target: Emulator) =>
      normalize(await target.handle(new Request('https://gitlab.example.com/api/v4/projects/acme%2Fsecrets/issues', { method: 'POST', headers: { 'PRIVATE-TOKEN': ROOT, 'Content-Type': 'application/json' }, body: '{"title":"next"}' })), 'https://gitlab.example.com');
    expect(await issue(copy)).toEqual(await issue(e));
  }, 120_000);
});

describe('the command line', () => {
  it('serve --fixture of an export from a served emulator answers as the emulator it came from', async () => {
    const e = await createEmulator({ clock: { now: NOW, frozen: true } });
    const server = await served(e);
    const api = (url: string, path: string, init: RequestInit = {}) => fetch(`${url}/api/v4${path}`, { ...init, headers: { 'PRIVATE-TOKEN': ROOT, 'Content-Type': 'application/json', ...init.headers } });
    expect((await api(server.url, '/projects/1/issues', { method: 'POST', body: '{"title":"Exported","labels":"x"}' })).status).toBe(201);
    expect((await api(server.url, '/projects/1/wikis', { method: 'POST', body: '{"title":"home","content":"hi"}' })).status).toBe(201);

    const dir = mkdtempSync(join(tmpdir(), 'gle-export-'));
    const file = join(dir, 'fixture.json');
    writeFileSync(file, await (await fetch(`${server.url}/-/emulator/fixture`)).text());

    const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--fixture', file, '--no-log'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /^listening on (\S+)$/m.exec(out);
          if (m && /^admin token: /m.test(out)) resolve(m[1]!);
        });
        child.on('exit', () => reject(new Error(`the server stopped: ${out}`)));
      });
      expect(out).toContain(`admin token: ${ROOT}`);
      // Time is the clock's, not the world's: the copy is set to the original's before it answers.
      const clock = await fetch(`${url}/-/emulator/clock`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ set: NOW, freeze: true }) });
      expect(clock.status).toBe(200);
      for (const path of ['/projects', '/projects/1/issues', '/projects/1/wikis', '/projects/1/repository/commits', '/users', '/groups', '/projects/1/releases', '/events']) {
        const [a, b] = [await api(server.url, path), await api(url, path)];
        expect(await normalize(b, url, true), path).toEqual(await normalize(a, server.url, true));
      }
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
