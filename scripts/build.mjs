#!/usr/bin/env node
// `npm run build` (and `prepare`): the bundles (tsup) and the declarations (scripts/build-types.mjs)
// at once, in two processes, into a dist/ emptied first. Quiet unless something fails: one line
// with the time it took, or the failing step's own output.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const started = performance.now();
rmSync(join(root, 'dist'), { recursive: true, force: true });

/** Runs a node script, its output kept and printed only if it fails or warns (a `WARN` line of tsup or esbuild). */
function run(name, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        process.stderr.write(output);
        reject(new Error(`${name} failed (exit ${code})`));
      } else {
        if (/\bwarn/i.test(output)) process.stderr.write(output);
        resolve();
      }
    });
  });
}

try {
  await Promise.all([
    run('tsup', [join(dirname(require.resolve('tsup/package.json')), 'dist', 'cli-default.js')]),
    run('declarations', [join(root, 'scripts', 'build-types.mjs')]),
  ]);
} catch (e) {
  console.error(e.message);
  process.exit(1);
}
console.log(`built dist/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
