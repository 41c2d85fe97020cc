// The built package's Node entries (dist/index.cjs, which dist/index.js re-exports, and the CLI's
// dist/cli.js) run the emulator's code, one CommonJS bundle (dist/core.cjs, src/node-core.ts), with
// V8's code cache, so that a process after the first one does not compile that code again.
// Compiling was most of an import and of a start: about 50 ms to parse the bundle and 30 ms more
// for the functions the default world's seed and the first request run, against some 10 ms to
// read them back from the cache. Node 22 has the same for every module (`module.enableCompileCache`);
// Node 20 has it only for a script, which is why the core is one.
//
// The CLI and the library keep a cache each (`cli-...`, `lib-...`): each holds the code its own
// start compiled (the server's door and the request log, or not), which the other's would lack.
// The cache is a file per build, Node release, architecture and set of flags in a directory of
// this user's (`$TMPDIR/gitlab-emulator-<uid>`, mode 0700, as Node's own compile cache keeps one
// under the temporary directory), or in `$GITLAB_EMULATOR_CODE_CACHE`; `GITLAB_EMULATOR_CODE_CACHE=0`
// turns it off. V8 checks a cache against its version, its flags and the source, and ignores one
// that does not fit; then the process compiles as it would without one, and writes a new one.
// Nothing about the cache ever stops the emulator: any failure to read or write it is ignored.
// It is written when the process ends, once an emulator has been made or a server started
// (`keepCodeCache`), so that it holds what they compiled; never for an import alone.
import { isAscii } from 'node:buffer';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

/** Caches of other builds kept beside this one's (other installs share the directory); the oldest go. */
const KEEP = 8;

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

/**
 * A short hash of the flags node was started with (what it evaluates and preloads left out): a
 * cache made under other V8 flags does not fit, and each set keeps its own.
 */
function flagsKey(): string {
  const flags: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (/^(-e|--eval|-p|--print|-r|--require|--import|--loader|--experimental-loader)$/.test(arg)) i++;
    else if (!/^(--input-type|--eval|--print|--require|--import|--loader|--experimental-loader)=/.test(arg)) flags.push(arg);
  }
  const text = `${flags.join(' ')}\0${process.env.NODE_OPTIONS ?? ''}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(36);
}

interface Loaded {
  exports: Record<string, unknown>;
  keep: () => void;
}

let loaded: Loaded | undefined;

/** The core's exports, run from the code cache of `kind` when there is one that fits; once per process. */
export function loadCore<T>(kind: 'cli' | 'lib'): T {
  loaded ??= load(kind);
  return loaded.exports as T;
}

/** Writes the cache when the process ends, if this process compiled the core itself (once, whoever asks). */
export function keepCodeCache(): void {
  loaded?.keep();
}

function load(kind: 'cli' | 'lib'): Loaded {
  // dist/, whether this code runs from an ES module (the CLI) or a CommonJS one (the package's entry).
  const here = typeof __dirname === 'string' ? __dirname : dirname(fileURLToPath(import.meta.url));
  const bundle = join(here, 'core.cjs');
  // Another runtime that reads Node's packages (Bun, Deno) has its own caches, and may lack V8's:
  // it requires the core as any module.
  if (process.versions.bun !== undefined || process.versions.deno !== undefined) return { exports: createRequire(bundle)(bundle) as Record<string, unknown>, keep: () => {} };
  // The bundle's text, as Node would wrap a CommonJS module (a leading `#!` line kept as a
  // comment). esbuild writes it in ASCII, which reads faster as Latin-1 than as UTF-8 (the same text).
  const bytes = readFileSync(bundle);
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source.startsWith('#!') ? `//${source}` : source}\n})`;

  const dir = cacheDir();
  let file: string | undefined;
  let cached: Buffer | undefined;
  if (dir) {
    try {
      const s = statSync(bundle);
      file = join(dir, `${kind}-${s.size}-${Math.trunc(s.mtimeMs)}-${process.version}-${process.arch}-${flagsKey()}.cache`);
      cached = readFileSync(file);
    } catch {
      cached = undefined;
    }
  }
  const script = new Script(wrapped, { filename: bundle, ...(cached ? { cachedData: cached } : {}) });
  const fresh = cached === undefined || script.cachedDataRejected === true;

  const mod = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));

  let asked = false;
  const keep = (): void => {
    if (asked || !fresh || !file || !dir) return;
    asked = true;
    process.once('exit', () => write(script, file, dir));
  };
  return { exports: mod.exports, keep };
}

/** Writes the cache (what was compiled by now), whole or not at all, and prunes the oldest of other builds'. */
function write(script: Script, file: string, dir: string): void {
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
      .filter((name) => /^(cli|lib)-.*\.cache$/.test(name))
      .map((name) => ({ path: join(dir, name), at: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const old of others.slice(KEEP)) unlinkSync(old.path);
  } catch {
    // another process pruned it first
  }
}
