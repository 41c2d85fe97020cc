// The built CLI (dist/cli.js) and the package's entry (dist/index.js, dist/index.cjs) run the core
// bundle (dist/core.cjs) with V8's code cache: written once a server has started or an emulator
// been made, read back by the next process (and then not written again), ignored and written anew
// when it does not fit, never written for --version, an import alone or when turned off, never
// read from a directory another user could write.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const INDEX = join(ROOT, 'dist', 'index.js');


/** Runs an ES module in a fresh node that imports the built package; what it printed. */
function library(code: string, env: Record<string, string>): string {
  return execFileSync(process.execPath, ['--input-type=module', '-e', `import * as lib from ${JSON.stringify(INDEX)};\n${code}`], { encoding: 'utf8', env: { ...process.env, ...env } });
}

/** Starts the built CLI on a free port, takes one answer, stops it; the exit code and what it printed. */
async function serveOnce(env: Record<string, string>): Promise<{ code: number | null; stderr: string; projects: number }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--no-log'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const m = /listening on (\S+)/.exec(stdout);
      if (m) resolve(m[1]!);
    });
    void exited.then(() => reject(new Error(`exited before listening: ${stderr}`)));
  });
  const res = await fetch(`${url}/api/v4/projects`);
  const projects = ((await res.json()) as unknown[]).length;
  child.kill('SIGTERM');
  return { code: await exited, stderr, projects };
}

const caches = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cache')) : []);

describe('the built CLI and package with a code cache', () => {
  let base: string;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'start-launcher-'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('writes the cache after a server ran, reads it back without writing it again, and writes it anew when it does not fit', async () => {
    const dir = join(base, 'cache');
    const env = { GITLAB_EMULATOR_CODE_CACHE: dir };
    const first = await serveOnce(env);
    expect(first).toEqual({ code: 0, stderr: '', projects: expect.any(Number) });
    expect(first.projects).toBeGreaterThan(0);
    const [name] = caches(dir);
    expect(name).toMatch(new RegExp(`^cli-\\d+-\\d+-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-z]+\\.cache$`));
    const file = join(dir, name!);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);

    // Accepted: the second start serves the same and leaves the file as it was.
    const kept = readFileSync(file);
    const second = await serveOnce(env);
    expect(second).toEqual(first);
    expect(readFileSync(file).equals(kept)).toBe(true);

    // A damaged cache: V8 refuses it, the start compiles and serves as without one, and writes a good one.
    writeFileSync(file, Buffer.from('not a code cache'));
    const third = await serveOnce(env);
    expect(third).toEqual(first);
    expect(statSync(file).size).toBeGreaterThan(100_000);
    expect(caches(dir)).toEqual([name]);
  }, 60_000);

  it('the package keeps the cache once an emulator was made, and shares it and its core between import and require', () => {
    const dir = join(base, 'library');
    const env = { GITLAB_EMULATOR_CODE_CACHE: dir };
    expect(library("console.log(typeof lib.createEmulator);", env)).toBe('function\n');
    expect(caches(dir)).toEqual([]);
    const answer = "const e = await lib.createEmulator(); const r = await e.handle(new Request('http://gitlab.example/api/v4/projects/1')); console.log(r.status);";
    expect(library(answer, env)).toBe('200\n');
    const [name] = caches(dir);
    expect(name).toMatch(/^lib-.*\.cache$/);
    const kept = readFileSync(join(dir, name!));
    expect(library(answer, env)).toBe('200\n');
    expect(readFileSync(join(dir, name!)).equals(kept)).toBe(true);
    const same = "import { createRequire } from 'node:module'; const cjs = createRequire(import.meta.url)(" + JSON.stringify(join(ROOT, 'dist', 'index.cjs')) + "); console.log(cjs.Emulator === lib.Emulator, Object.keys(cjs).sort().join() === Object.keys(lib).sort().join());";
    expect(library(same, env)).toBe('true true\n');
    // The CLI runs the same core with a cache of its own, which holds its server's code too.
    return serveOnce(env).then((run) => {
      expect(run.code).toBe(0);
      expect(caches(dir).sort()).toEqual([name!.replace(/^lib-/, 'cli-'), name]);
    });
  }, 60_000);

  it('keeps the newest eight caches of other builds beside its own', async () => {
    const dir = join(base, 'prune');
    mkdirSync(dir, { mode: 0o700 });
    for (let i = 0; i < 10; i++) {
      const old = join(dir, `cli-${i}-0-v0-x.cache`);
      writeFileSync(old, 'old');
      utimesSync(old, 1_000_000 + i, 1_000_000 + i);
    }
    writeFileSync(join(dir, 'notes.txt'), 'not a cache');
    expect((await serveOnce({ GITLAB_EMULATOR_CODE_CACHE: dir })).code).toBe(0);
    const left = caches(dir).sort();
    expect(left).toHaveLength(8);
    expect(left.filter((f) => /^cli-\d-0-v0-x\.cache$/.test(f))).toEqual(['cli-3-0-v0-x.cache', 'cli-4-0-v0-x.cache', 'cli-5-0-v0-x.cache', 'cli-6-0-v0-x.cache', 'cli-7-0-v0-x.cache', 'cli-8-0-v0-x.cache', 'cli-9-0-v0-x.cache']);
    expect(existsSync(join(dir, 'notes.txt'))).toBe(true);
  }, 60_000);

  it('writes nothing for --version, nor when turned off', async () => {
    const dir = join(base, 'version');
    expect(execFileSync(process.execPath, [CLI, '--version'], { encoding: 'utf8', env: { ...process.env, GITLAB_EMULATOR_CODE_CACHE: dir } }).trim()).toBe(pkg.version);
    expect(caches(dir)).toEqual([]);
    const before = caches(join(tmpdir(), `gitlab-emulator-${process.getuid?.() ?? 'user'}`));
    expect((await serveOnce({ GITLAB_EMULATOR_CODE_CACHE: '0' })).code).toBe(0);
    expect(caches(join(tmpdir(), `gitlab-emulator-${process.getuid?.() ?? 'user'}`))).toEqual(before);
  }, 60_000);

  it.skipIf(process.platform === 'win32')('neither reads nor writes a cache in a directory others may write', async () => {
    const dir = join(base, 'shared');
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    const run = await serveOnce({ GITLAB_EMULATOR_CODE_CACHE: dir });
    expect(run.code).toBe(0);
    expect(run.projects).toBeGreaterThan(0);
    expect(caches(dir)).toEqual([]);
  }, 60_000);
});
