#!/usr/bin/env node
// What `import('gitlab-emulator')` evaluates, and where its CPU goes. Three reports (after `npm run build`):
//
//   node bench/core-inputs.mjs [N]      the chunks the package's entry reaches by static imports
//                                       (an esbuild metafile of the same ES module build as
//                                       tsup's), their N largest inputs and the sums by folder
//                                       (a family's folder, or src/<folder>)
//   node bench/core-inputs.mjs --split [ROUNDS]
//                                       the built CommonJS bundle (dist/core.cjs, the same code
//                                       in one script) compiled and then run apart, in fresh
//                                       processes: V8's compile of the whole file against its
//                                       top level (every module's own top-level code, route
//                                       tables and schemas, and the functions they call, compiled
//                                       at their first call); medians with the spread
//   node bench/core-inputs.mjs --unused [N]
//                                       of the built code an import and a first createEmulator()
//                                       load (dist/core.cjs, the one script the package's entry
//                                       runs), the bytes of functions neither calls (V8's
//                                       coverage of a fresh process): what could load later, by
//                                       folder
//
// A module the entry reaches only through `import()` is left out of the first report, as it is
// out of the import.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

async function inputs(top) {
  const result = await build({
    entryPoints: { index: join(ROOT, 'src', 'index.ts') },
    bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external',
    external: ['msw', 'vitest'], metafile: true, write: false, outdir: join(ROOT, 'dist-inputs'), logLevel: 'silent',
  });
  const meta = result.metafile;
  const entry = Object.keys(meta.outputs).find((o) => meta.outputs[o].entryPoint?.endsWith('src/index.ts'));
  const seen = new Set();
  const visit = (out) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of meta.outputs[out].imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) visit(i.path);
  };
  visit(entry);
  const rows = [...seen].flatMap((o) => Object.entries(meta.outputs[o].inputs).map(([path, v]) => [path, v.bytesInOutput]));
  rows.sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((s, [, b]) => s + b, 0);
  const lazy = Object.keys(meta.outputs).filter((o) => !seen.has(o) && o.endsWith('.js')).reduce((s, o) => s + meta.outputs[o].bytes, 0);
  console.log(`evaluated at import: ${[...seen].length} chunks, ${rows.length} inputs, ${(total / 1024).toFixed(0)} KiB; loaded later by import(): ${(lazy / 1024).toFixed(0)} KiB`);
  for (const [path, bytes] of rows.slice(0, top)) console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KiB  ${path}`);
  const folders = new Map();
  for (const [path, bytes] of rows) folders.set(folderOf(path), (folders.get(folderOf(path)) ?? 0) + bytes);
  console.log('by folder:');
  for (const [key, bytes] of [...folders].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KiB  ${(100 * bytes / total).toFixed(1).padStart(4)}%  ${key}`);
}

const SPLIT = `
const vm = require('node:vm'), fs = require('node:fs'), path = require('node:path'), Module = require('node:module');
const file = process.argv[1];
const source = Module.wrap(fs.readFileSync(file, 'utf8'));
const cpu = (c) => { const u = process.cpuUsage(c); return (u.user + u.system) / 1000; };
let c = process.cpuUsage();
const fn = new vm.Script(source, { filename: file }).runInThisContext();
const compile = cpu(c);
const m = { exports: {} };
c = process.cpuUsage();
fn.call(m.exports, m.exports, Module.createRequire(file), m, file, path.dirname(file));
console.log(JSON.stringify([compile, cpu(c)]));`;

function split(rounds) {
  const file = join(ROOT, 'dist', 'core.cjs');
  const compile = [];
  const run = [];
  for (let i = 0; i < rounds; i++) {
    const [c, r] = JSON.parse(execFileSync(process.execPath, ['-e', SPLIT, file], { encoding: 'utf8' }));
    compile.push(c);
    run.push(r);
  }
  const f = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return `${s[s.length >> 1].toFixed(1)} ms (${s[0].toFixed(1)}-${s[s.length - 1].toFixed(1)})`;
  };
  console.log(`dist/core.cjs, ${rounds} fresh processes: compile ${f(compile)}, top level ${f(run)}`);
}

function folderOf(path) {
  const parts = path.split('/');
  return parts[0] === 'src' ? parts.slice(0, parts[1] === 'families' && parts.length > 3 ? 3 : 2).join('/') : parts[0];
}

function unused(top) {
  const dir = mkdtempSync(join(tmpdir(), 'core-inputs-'));
  try {
    const entry = join(ROOT, 'dist', 'index.js');
    execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(entry)}); await m.createEmulator();`], { env: { ...process.env, NODE_V8_COVERAGE: dir, GITLAB_EMULATOR_CODE_CACHE: '0' } });
    const scripts = readdirSync(dir).flatMap((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')).result);
    let total = 0;
    let never = 0;
    const folders = new Map();
    for (const s of scripts) {
      // An ES module's URL, or the core's path (a script run by dist/index.cjs, src/transports/code-cache.ts).
      const path = s.url.startsWith('file:') ? fileURLToPath(s.url) : s.url;
      if (!path.startsWith(join(ROOT, 'dist') + '/')) continue;
      const source = readFileSync(path, 'utf8');
      const marks = [...source.matchAll(/^\/\/ ((?:src|node_modules|fixtures)\/\S+)/gm)].map((m) => [m.index, m[1]]);
      const moduleAt = (offset) => {
        let found = '(chunk)';
        for (const [at, name] of marks) if (at <= offset) found = name; else break;
        return found;
      };
      // Each function's first range is the function; an uncalled one inside another is counted once.
      const dead = s.functions.map((f) => f.ranges[0]).filter((r) => r.count === 0).sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
      let end = -1;
      for (const r of dead) {
        if (r.startOffset < end) continue;
        end = r.endOffset;
        never += r.endOffset - r.startOffset;
        const key = folderOf(moduleAt(r.startOffset));
        folders.set(key, (folders.get(key) ?? 0) + r.endOffset - r.startOffset);
      }
      total += source.length;
    }
    console.log(`of ${(total / 1024).toFixed(0)} KiB of dist/ that the import and a first createEmulator() load, ${(never / 1024).toFixed(0)} KiB (${(100 * never / total).toFixed(0)}%) are functions neither calls`);
    for (const [key, bytes] of [...folders].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KiB  ${key}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--unused') unused(Number(process.argv[3] ?? 20));
else if (process.argv[2] === '--split') split(Number(process.argv[3] ?? 9));
else await inputs(Number(process.argv[2] ?? 40));
