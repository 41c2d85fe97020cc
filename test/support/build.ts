// vitest's global set-up: dist/ built as `prepare` builds it, once before any test, unless every
// file the tests read of it is newer than every source. The tests that run the built package (the
// CLI, the package's entries, the packed package) read it; no two of them build it at once.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCES = ['src', 'fixtures', 'package.json', 'tsup.config.ts', 'scripts/build.mjs', 'scripts/build-types.mjs', 'scripts/browser-swaps.ts'];
const BUILT = ['dist/cli.js', 'dist/core.cjs', 'dist/index.js', 'dist/browser.js', 'dist/types/src/index.d.ts'];

function newest(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = s.mtimeMs;
  for (const name of readdirSync(path)) t = Math.max(t, newest(join(path, name)));
  return t;
}

export default function setup(): void {
  const sources = Math.max(...SOURCES.map((p) => newest(join(ROOT, p))));
  const built = BUILT.map((p) => join(ROOT, p));
  if (built.every((p) => existsSync(p) && statSync(p).mtimeMs > sources)) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'ignore' });
}
