// `gitlab-emulator serve --data-dir DIR`, in a child process: what was answered survives a kill -9
// (API writes, a git push, the clock), ids continue after a restart, SIGTERM writes a snapshot and
// exits cleanly, and a directory of another format version or in use is refused with one clear
// line and left exactly as it was. What a damaged directory gets is tested in-process
// (datadir-library.test.ts), as the same error.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { CLI } from './support/cli.js';

const TOKEN = 'glpat-emulator-root-token';
const JSON_HEADERS = { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' };

/** Every server started, stopped after each test whatever happened in it. */
const started = new Set<ChildProcess>();
afterEach(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  started.clear();
});

function serve(dir: string, extra: string[] = []) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-log', '--data-dir', dir, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout);
      if (m) resolve(m[1]!);
    };
    child.stdout.on('data', check);
    void exited.then(() => reject(new Error(`exited before listening: ${stderr}`)));
  });
  url.catch(() => {}); // a refused start is awaited through `exited`
  return { child, exited, url, stderr: () => stderr };
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${url}${path}`, { method, headers: JSON_HEADERS, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function killHard(p: ReturnType<typeof serve>): Promise<void> {
  p.child.kill('SIGKILL');
  await p.exited;
}

const newDir = () => join(mkdtempSync(join(tmpdir(), 'gle-datadir-')), 'data');

/** Every file of a directory with a digest of its bytes, to show that nothing in it changed. */
function contents(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) out[name] = createHash('sha256').update(readFileSync(join(dir, name))).digest('hex');
  return out;
}

/** Refuses the directory: one line on stderr, exit 1, before listening. */
async function refused(dir: string): Promise<string> {
  const p = serve(dir);
  const code = await p.exited;
  expect(code).toBe(1);
  const lines = p.stderr().trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

// Each test starts the CLI once or twice: a few seconds each, more on a busy machine.
describe('serve --data-dir', () => {
  it('keeps answered API writes through a kill -9; the next start serves them and ids continue', async () => {
    const dir = newDir();
    const first = serve(dir);
    let url = await first.url;
    const project = await api(url, 'POST', '/api/v4/projects', { name: 'kept', visibility: 'private' });
    expect(project.status).toBe(201);
    const issue = await api(url, 'POST', `/api/v4/projects/${project.json.id}/issues`, { title: 'survives a kill', labels: 'bug' });
    expect(issue.status).toBe(201);
    const edited = await api(url, 'PUT', `/api/v4/projects/${project.json.id}/issues/${issue.json.iid}`, { state_event: 'close', description: 'edited' });
    expect(edited.status).toBe(200);
    expect((await api(url, 'POST', '/-/emulator/clock', { freeze: true, set: '2031-05-06T07:08:09.000Z' })).status).toBe(200);
    await killHard(first);

    const second = serve(dir);
    url = await second.url;
    const back = await api(url, 'GET', `/api/v4/projects/${encodeURIComponent(project.json.path_with_namespace)}/issues/${issue.json.iid}`);
    expect(back.json).toMatchObject({ id: issue.json.id, title: 'survives a kill', description: 'edited', state: 'closed', labels: ['bug'] });
    expect((await api(url, 'GET', '/-/emulator/clock')).json).toMatchObject({ now: '2031-05-06T07:08:09.000Z', frozen: true });
    const next = await api(url, 'POST', '/api/v4/projects', { name: 'after' });
    expect(next.json.id).toBe(project.json.id + 1);
    const nextIssue = await api(url, 'POST', `/api/v4/projects/${project.json.id}/issues`, { title: 'second' });
    expect(nextIssue.json).toMatchObject({ iid: issue.json.iid + 1, id: issue.json.id + 1, created_at: '2031-05-06T07:08:09.000Z' });
    await killHard(second);
  }, 90_000);

  it.skipIf(!HAS_GIT)('keeps a pushed branch and its objects through a kill -9: a clone after the restart has them', async () => {
    const dir = newDir();
    const git = new GitScratch();
    const first = serve(dir);
    let url = await first.url;
    const remote = (base: string) => withCredentials(`${base}/acme/website.git`, 'root', TOKEN);
    await git.ok(['clone', '-q', remote(url), 'work']);
    writeFileSync(join(git.dir, 'work', 'pushed.txt'), 'pushed before the kill\n');
    await git.ok(['add', 'pushed.txt'], 'work');
    await git.ok(['commit', '-q', '-m', 'A pushed commit'], 'work');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/kept'], 'work');
    const sha = (await git.ok(['rev-parse', 'HEAD'], 'work')).trim();
    await killHard(first);

    const second = serve(dir);
    url = await second.url;
    await git.ok(['clone', '-q', '--branch', 'kept', remote(url), 'again']);
    expect(readFileSync(join(git.dir, 'again', 'pushed.txt'), 'utf8')).toBe('pushed before the kill\n');
    expect((await git.ok(['rev-parse', 'HEAD'], 'again')).trim()).toBe(sha);
    await git.ok(['fsck', '--no-progress'], 'again');
    const branch = await api(url, 'GET', '/api/v4/projects/acme%2Fwebsite/repository/branches/kept');
    expect(branch.json.commit.id).toBe(sha);
    await killHard(second);
    git.remove();
  }, 90_000);

  it('on SIGTERM writes a snapshot, releases the directory and exits 0; the next start serves it', async () => {
    const dir = newDir();
    const first = serve(dir);
    let url = await first.url;
    const group = await api(url, 'POST', '/api/v4/groups', { name: 'Kept Group', path: 'kept-group' });
    expect(group.status).toBe(201);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    // Everything is in the snapshot: the log holds its header only.
    expect(readFileSync(join(dir, 'world.log')).length).toBeLessThan(64);

    const second = serve(dir);
    url = await second.url;
    expect((await api(url, 'GET', '/api/v4/groups/kept-group')).json).toMatchObject({ id: group.json.id, name: 'Kept Group' });
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
  }, 90_000);

  it('refuses a directory written in another format version, saying which and what to do, and writes nothing', async () => {
    const dir = newDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'format.json'), JSON.stringify({ format: 'gitlab-emulator-data', version: 99, writtenBy: '9.0.0' }));
    writeFileSync(join(dir, 'snapshot'), 'from the future');
    const before = contents(dir);
    const line = await refused(dir);
    expect(line).toMatch(/data directory .*: was written by gitlab-emulator 9\.0\.0 in data format version 99; gitlab-emulator \S+ reads versions 1 and 2\./);
    expect(line).toMatch(/Serve it with the release that wrote it, or give a new directory/);
    expect(contents(dir)).toEqual(before);
  }, 90_000);

  it('refuses a second process on a directory in use, naming the first', async () => {
    const dir = newDir();
    const first = serve(dir);
    await first.url;
    const line = await refused(dir);
    expect(line).toMatch(new RegExp(`is in use by process ${first.child.pid} \\(its lock file is .*lock\\); stop that process first`));
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
  }, 90_000);
});
