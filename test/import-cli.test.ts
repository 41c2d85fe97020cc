// `gitlab-emulator import` through the command line in a child process, and the rate limits and
// refusals of the GitLab it reads (a 429 with Retry-After from a stub server is waited out).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { servedWorld } from './support/world.js';
import type { Fixture } from '../src/families/world.js';
import { importFromGitlab, parseImportArgs } from '../src/importer/index.js';
import { CLI } from './support/cli.js';


function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GITLAB_TOKEN: '', GITLAB_URL: '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** A tiny GitLab: each path answers from a list of responses, in turn. */
async function stub(routes: Record<string, ((req: IncomingMessage, res: ServerResponse) => void)[]>) {
  const seen: { path: string; at: number; token: string | undefined }[] = [];
  const server = createServer((req, res) => {
    const path = req.url!.split('?')[0]!;
    seen.push({ path, at: Date.now(), token: req.headers['private-token'] as string | undefined });
    const answer = routes[path]?.shift() ?? routes[`${path}*`]?.[0];
    if (!answer) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"404 Not Found"}');
      return;
    }
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const json = (body: unknown, headers: Record<string, string> = {}) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};

const WORLD: Fixture = {
  users: [
    { username: 'alice', name: 'Alice', admin: true, tokens: [{ token: 'alice-secret-token' }] },
    { username: 'bob', name: 'Bob' },
  ],
  groups: [{ path: 'acme', members: [{ user: 'alice', access_level: 'owner' }] }],
  projects: [
    {
      namespace: 'acme', path: 'app', creator: 'alice', members: [{ user: 'bob', access_level: 'developer' }],
      repository: { commits: [{ message: 'First', author: 'alice', files: { 'a.txt': 'a\n' } }, { message: 'Second', author: 'bob', files: { 'b.txt': 'b\n' } }] },
      issues: [{ title: 'An issue', author: 'bob' }],
      notes: [{ issue: 1, body: 'A note', author: 'alice' }],
    },
  ],
};

const served = servedWorld(WORLD);

describe('gitlab-emulator import (command line)', () => {
  it('writes a fixture that seeds the same project, with progress and the new tokens on stderr', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'gle-import-')), 'world.json');
    const r = await run(['import', '--from', served.url, '--token', 'alice-secret-token', '--project', 'acme/app', '--out', out]);
    expect(r.stderr).toMatch(/^signed in to .* as alice$/m);
    expect(r.stderr).toMatch(/^project acme\/app \(1\/1\)$/m);
    expect(r.stderr).toMatch(/^wrote .*world\.json: 1 projects, 1 groups, 2 users, 2 commits, 1 issues, 0 merge requests, 1 notes/m);
    const token = /^ {2}alice: (glpat-\S+)$/m.exec(r.stderr)?.[1];
    expect(token).toBeDefined();
    expect(r.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('alice-secret-token');
    const copy = await createEmulator({ fixture: JSON.parse(text) as Fixture });
    const get = async (path: string) => (await copy.handle(new Request(`http://gitlab.test/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token! } }))).json();
    expect(((await get('/projects/acme%2Fapp/repository/commits')) as { title: string }[]).map((c) => c.title)).toEqual(['Second', 'First']);
    expect(((await get('/projects/acme%2Fapp/issues/1/notes')) as { body: string }[]).map((n) => n.body)).toEqual(['A note']);
  }, 60_000);

  it('says a wrong token is refused, and exits 1', async () => {
    const r = await run(['import', '--from', served.url, '--token', 'not-a-token', '--out', '-']);
    expect(r.stderr).toMatch(/refused the token \(401 Unauthorized\)/);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
  }, 60_000);

  it('names a missing or unknown flag and exits 2; --help prints the usage', async () => {
    const [missing, unknown, help] = await Promise.all([
      run(['import', '--from', served.url, '--out', 'x.json']),
      run(['import', '--form', served.url]),
      run(['import', '--help']),
    ]);
    expect(missing.stderr).toMatch(/--token is required/);
    expect(missing.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown flag '--form'/);
    expect(unknown.code).toBe(2);
    expect(help.stdout).toMatch(/^usage: gitlab-emulator import --from URL --token TOKEN/);
    expect(help.code).toBe(0);
  }, 60_000);

  it('reads its flags: repeated --project and --group, the environment, and mistakes by name', () => {
    expect(parseImportArgs(['--from', 'https://gitlab.com', '--token', 't', '--project', 'a/b', '--project', 'c/d', '--group', 'g', '--out', 'f.json'])).toEqual({
      kind: 'import', options: { from: 'https://gitlab.com', token: 't', projects: ['a/b', 'c/d'], groups: ['g'], out: 'f.json' },
    });
    expect(parseImportArgs(['--out', '-'], { GITLAB_URL: 'https://gl.test', GITLAB_TOKEN: 'env' })).toMatchObject({ kind: 'import', options: { from: 'https://gl.test', token: 'env' } });
    expect(parseImportArgs(['--from', 'gitlab.com', '--token', 't', '--out', 'f'])).toEqual({ kind: 'error', message: "import: --from must be an http(s) URL, not 'gitlab.com'" });
    expect(parseImportArgs(['--from', 'https://gitlab.com', '--token', 't', '--project', 'solo', '--out', 'f'])).toMatchObject({ kind: 'error', message: /--project must be a project's full path/ });
    expect(parseImportArgs(['--from', 'https://gitlab.com', '--token', 't'])).toMatchObject({ kind: 'error', message: /--out is required/ });
    expect(parseImportArgs(['--from', 'https://gitlab.com', '--from', 'https://x.test', '--token', 't', '--out', 'f'])).toMatchObject({ kind: 'error', message: /--from is given twice/ });
  });
});

describe('rate limits of the GitLab read', () => {
  it('waits for Retry-After on a 429 and tries again', async () => {
    const gl = await stub({
      '/api/v4/user': [
        (_req, res) => res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"message":"Retry later"}'),
        json({ id: 1, username: 'root' }),
      ],
      '/api/v4/projects': [json([])],
    });
    try {
      const lines: string[] = [];
      const started = Date.now();
      const r = await importFromGitlab({ from: gl.url, token: 'tok', progress: (l) => lines.push(l) });
      const users = gl.seen.filter((s) => s.path === '/api/v4/user');
      expect(users).toHaveLength(2);
      expect(users[1]!.at - users[0]!.at).toBeGreaterThanOrEqual(950);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(lines).toContain('rate limited: waiting 1s before retrying http://' + gl.url.slice(7) + '/api/v4/user');
      expect(gl.seen.every((s) => s.token === 'tok')).toBe(true);
      expect(r.fixture).toEqual({ users: [], groups: [], projects: [] });
    } finally {
      await gl.close();
    }
  });

  it('waits for RateLimit-Reset when RateLimit-Remaining reaches 0, and follows the next page of a list', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 30;
    const gl = await stub({
      '/api/v4/user': [json({ id: 1, username: 'root' }, { 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset) })],
      '/api/v4/projects': [
        (req, res) => json([], { link: `<http://${req.headers.host}/api/v4/projects?page=2&per_page=100&membership=true>; rel="next"` })(req, res),
        json([]),
      ],
    });
    try {
      const waits: number[] = [];
      await importFromGitlab({ from: gl.url, token: 'tok', sleep: async (ms) => void waits.push(ms) });
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(25_000);
      expect(waits[0]).toBeLessThanOrEqual(31_250); // the reset, and a quarter second past it
      expect(gl.seen.filter((s) => s.path === '/api/v4/projects')).toHaveLength(2);
    } finally {
      await gl.close();
    }
  });

  it('gives up with the status after repeated 429s', async () => {
    const tooMany = (_req: IncomingMessage, res: ServerResponse) => res.writeHead(429, { 'retry-after': '2' }).end();
    const gl = await stub({ '/api/v4/user*': [tooMany] });
    try {
      const waits: number[] = [];
      await expect(importFromGitlab({ from: gl.url, token: 'tok', sleep: async (ms) => void waits.push(ms) })).rejects.toThrow(/429 after 6 attempts/);
      expect(waits).toEqual([2000, 2000, 2000, 2000, 2000]);
    } finally {
      await gl.close();
    }
  });
});
