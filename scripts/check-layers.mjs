#!/usr/bin/env node
// Checks that imports under src/ only point down the layers of docs/architecture.md:
//   core < store, git < policy, render, persist < http < families < surfaces < emulator.ts < transports < entries
// and that a family reaches another family only through its index.ts, that nothing below the
// families knows a family, that only the transports load a transport (node:http, msw), and that
// only store/table.ts reads a table's layout. Outside src/families/, a family's folder is reached
// only by the entries and the transports, and only for types to re-export (`import type`,
// `export type`) from its index.ts: the facade and the surfaces reach the families through
// families/{index,registry,define,world}.ts.
// Prints each violation; exits 1 when there is any. `node scripts/check-layers.mjs`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Rank of each layer: a file may import its own layer and the layers of lower rank. */
const RANKS = { core: 0, store: 1, git: 1, policy: 2, render: 2, persist: 2, http: 3, families: 4, surfaces: 5, emulator: 6, transports: 7, entry: 8 };
/** What each layer may import besides itself and what ranks below it (lower layers that are not "below" it). */
const NOT_BELOW = { git: ['store'], store: ['git'], render: ['policy'], policy: ['render'] };
const TRANSPORT_MODULES = ['node:http', 'node:https', 'node:net', 'msw', 'msw/node'];

function layerOf(file) {
  const rel = relative(src, file).split(sep);
  if (rel.length === 1) return rel[0] === 'emulator.ts' ? 'emulator' : 'entry';
  return rel[0];
}

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* walk(path);
    else if (name.endsWith('.ts')) yield path;
  }
}

const IMPORT = /(?:^|\n)\s*((?:import|export)\s[^'"]*?)from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
/** The framework files of src/families/ that the facade and the surfaces may import. */
const FRAMEWORK_FOR_ALL = ['index.ts', 'registry.ts', 'define.ts', 'world.ts'];

const problems = [];
for (const file of walk(src)) {
  const text = readFileSync(file, 'utf8');
  const from = layerOf(file);
  const fromRel = relative(src, file);
  // A table's layout (its chunk index) is the store's own: everyone else goes through table.ts.
  if (fromRel !== join('store', 'table.ts') && /\.chunks\s*\[|\bin\s+[\w.!?]+\.chunks\b|\(\s*[\w.!?]+\.chunks\s*\)/.test(text)) problems.push(`${fromRel}: reads a table's chunks: use tvalues, tentries or tchunks from store/table.ts`);
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[2] ?? m[3] ?? m[4];
    // `import type ... from` and `export type ... from`: erased, nothing of the module is loaded.
    const typeOnly = m[1] !== undefined && /^(?:import|export)\s+type[\s{]/.test(m[1]);
    const say = (why) => problems.push(`${fromRel}: imports '${spec}': ${why}`);
    if (!spec.startsWith('.')) {
      if (TRANSPORT_MODULES.includes(spec) && from !== 'transports') say('only src/transports/ loads a transport');
      continue;
    }
    const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
    if (!target.startsWith(src + sep)) continue; // fixtures, package.json
    const to = layerOf(target);
    const toRel = relative(src, target);
    // The facade reaches the server door only through the lazy loader.
    if (from === 'emulator' && to === 'transports') {
      if (toRel !== join('transports', 'listen.ts')) say('the facade loads doors only through transports/listen.ts');
      continue;
    }
    // The vitest helpers take the emulator from the package's entry, so that a built
    // `gitlab-emulator/vitest` shares the package's one core (and its classes) with a test's import.
    if (from === 'transports' && toRel === 'index.ts') continue;
    if (RANKS[to] > RANKS[from]) say(`${from}/ is below ${to}/`);
    else if (RANKS[to] === RANKS[from] && to !== from) say(`${from}/ and ${to}/ are side by side`);
    else if ((NOT_BELOW[from] ?? []).includes(to)) say(`${from}/ and ${to}/ are side by side`);
    if (from !== 'families' && to === 'families') {
      const [, folder, file] = toRel.split(sep);
      if (file !== undefined) {
        // A family's folder: types for an entry or a transport to re-export, from its index.ts.
        if (from !== 'entry' && from !== 'transports') say(`only the entries and the transports reach a family's folder; ${from === 'emulator' ? 'the facade' : `${from}/`} goes through families/registry.ts`);
        else if (!typeOnly) say(`a family's folder is reached for types only (import type / export type)`);
        else if (file !== 'index.ts' || toRel.split(sep).length !== 3) say(`a family's types are reached through its index.ts`);
      } else if ((from === 'emulator' || from === 'surfaces') && !FRAMEWORK_FOR_ALL.includes(folder)) {
        say(`${from === 'emulator' ? 'the facade' : 'a surface'} sees only ${FRAMEWORK_FOR_ALL.join(', ')} of src/families/`);
      }
    }
    if (from === 'families' && to === 'families') {
      const [, a, aFile] = fromRel.split(sep);
      const [, b, bFile] = toRel.split(sep);
      const framework = (f) => f === undefined; // families/define.ts, world.ts, stream.ts, index.ts, registry.ts
      if (!framework(aFile) && !framework(bFile) && a !== b && bFile !== 'index.ts') say(`a family reaches family '${b}' only through its index.ts`);
      if (!framework(aFile) && framework(bFile) && !['define.ts', 'world.ts', 'stream.ts'].includes(b)) say('a family sees only define.ts, world.ts and stream.ts of the framework');
    }
  }
}

if (problems.length) {
  console.error(`${problems.length} import(s) against the layers:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  process.exit(1);
}
console.log('layers: every import points down');
