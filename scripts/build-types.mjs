#!/usr/bin/env node
// The package's declarations, unbundled: tsc writes one .d.ts per source file (dist/types/src),
// so each family's `declare module '../world.js'` augmentation still names a file that exists,
// which a bundled .d.ts cannot keep. A CommonJS twin (.d.cts, its relative imports to .cjs)
// beside each one types `require('gitlab-emulator')`. `npm run build` runs it beside tsup
// (scripts/build.mjs). No type-check here (`noCheck` in tsconfig.types.json): `npm run typecheck`
// is the check, and emitting without it takes half the time.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'types');
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.types.json')], { cwd: root, stdio: 'inherit' });

// The list's declaration names each family's slice type, not its folder's index.d.ts, where the
// family's augmentations are: the list imports every family's folder for its types, so that a
// program reading the package sees each family's part of the world and of the fixture.
const familiesDir = join(out, 'src', 'families');
const list = join(familiesDir, 'index.d.ts');
const folders = readdirSync(familiesDir).filter((name) => statSync(join(familiesDir, name)).isDirectory() && statSync(join(familiesDir, name, 'index.d.ts'), { throwIfNoEntry: false }));
writeFileSync(list, folders.map((name) => `import './${name}/index.js';\n`).join('') + readFileSync(list, 'utf8'));

/** Relative specifiers of imports, exports and `declare module`, `.js` -> `.cjs`. */
const RELATIVE = /((?:from|import|module)\s*\(?\s*['"])(\.{1,2}\/[^'"]*?)\.js(['"])/g;

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (name.endsWith('.d.ts')) yield path;
  }
}

for (const file of files(out)) {
  writeFileSync(file.replace(/\.d\.ts$/, '.d.cts'), readFileSync(file, 'utf8').replace(RELATIVE, '$1$2.cjs$3'));
}
