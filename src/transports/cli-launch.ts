#!/usr/bin/env node
// The `gitlab-emulator` command as built (dist/cli.js): it runs the CLI's bundle (dist/cli-main.cjs,
// built from cli.ts) with V8's code cache, so that a start after the first one does not compile
// the emulator's code again. Compiling was most of a start: about 50 ms to parse the bundle and
// 30 ms more for the functions the default world's seed and the first request run, against some
// 10 ms to read them back from the cache.
//
// The cache is a file per build, Node release and architecture in a directory of this user's
// (`$TMPDIR/gitlab-emulator-<uid>`, mode 0700, as Node's own compile cache keeps one under the
// temporary directory), or in `$GITLAB_EMULATOR_CODE_CACHE`; `GITLAB_EMULATOR_CODE_CACHE=0`
// turns it off. V8 checks a cache against its version, its flags and the source, and ignores
// one that does not fit; then the start compiles as it would without one, and writes a new one.
// Nothing about the cache ever stops the CLI: any failure to read or write it is ignored.
// It is written once a server has started (not for --help or --version), when the process ends.
import { isAscii } from 'node:buffer';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

const bundle = join(dirname(fileURLToPath(import.meta.url)), 'cli-main.cjs');
// The bundle's text, as Node would wrap a CommonJS module (a leading `#!` line kept as a comment).
// esbuild writes it in ASCII, which reads faster as Latin-1 than as UTF-8 (the same text).
const bytes = readFileSync(bundle);
const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.startsWith('#!') ? `//${source}` : source}\n})`;

/** This user's cache directory, made if missing; undefined when off, or when it is not this user's alone. */
function cacheDir(): string | undefined {
  const setting = process.env.GITLAB_EMULATOR_CODE_CACHE;
  if (setting === '0' || setting === 'off' || setting === 'false') return undefined;
  const uid = process.getuid?.();
  const dir = setting || join(tmpdir(), `gitlab-emulator-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const s = statSync(dir);
    // A cache is code this process will run: never one another user could have written.
    if (!s.isDirectory() || (uid !== undefined && (s.uid !== uid || (s.mode & 0o022) !== 0))) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

const dir = cacheDir();
let file: string | undefined;
let cached: Buffer | undefined;
if (dir) {
  try {
    const s = statSync(bundle);
    file = join(dir, `cli-${s.size}-${Math.trunc(s.mtimeMs)}-${process.version}-${process.arch}.cache`);
    cached = readFileSync(file);
  } catch {
    cached = undefined;
  }
}

const script = new Script(wrapped, { filename: bundle, ...(cached ? { cachedData: cached } : {}) });
const fresh = cached === undefined || script.cachedDataRejected === true;

/** Caches of other builds kept beside this one's (other installs share the directory); the oldest go. */
const KEEP = 8;

/** Writes the cache (what was compiled by now: the code the start and its first requests ran), whole or not at all. */
function keep(): void {
  if (!file || !fresh || !dir) return;
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    const data = script.createCachedData();
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, data);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // not there
    }
    return;
  }
  try {
    const others = readdirSync(dir)
      .filter((name) => /^cli-.*\.cache$/.test(name))
      .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const old of others.slice(KEEP)) unlinkSync(old.path);
  } catch {
    // another process pruned it first
  }
}

const mod = { exports: {} as { main?: (argv: string[], hooks: { serving(): void }) => Promise<void> } };
(script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
void mod.exports.main!(process.argv.slice(2), {
  // A server started: its compiled code is kept when the process ends (a stop, a signal).
  serving: () => void (fresh && file && process.once('exit', keep)),
});
