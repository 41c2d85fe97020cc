import { defineConfig } from 'tsup';
import { browserSwaps } from './scripts/browser-swaps.js';

// Bundled into the node builds (a chunk of its own, loaded with the first emulator) rather than
// resolved from node_modules: memfs is a tree of some hundred CommonJS files, and resolving and
// reading them was a third of the first emulator's start. The other dependencies are few files
// each; bundling them saved nothing measurable.
const BUNDLED = ['memfs'];

// An ES module build that bundles CommonJS code gives it node's `require` for the built-in
// modules that code asks for.
const requireShim = { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" };

// Declarations are tsc's, unbundled (scripts/build-types.mjs): a bundle loses each family's
// augmentation of the world's type.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', msw: 'src/msw.ts', vitest: 'src/vitest.ts' },
    format: ['esm', 'cjs'],
    clean: true,
    target: 'node20',
    external: ['msw', 'vitest'],
    noExternal: BUNDLED,
    banner: ({ format }) => (format === 'esm' ? requireShim : {}),
  },
  {
    // The same core for a page: no node:http server, no export to disk, no memfs (see scripts/browser-swaps.ts).
    entry: { browser: 'src/browser.ts' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    external: ['msw'],
    esbuildPlugins: [browserSwaps],
  },
  {
    entry: { cli: 'src/transports/cli.ts' },
    format: ['esm'],
    target: 'node20',
    noExternal: BUNDLED,
    banner: requireShim,
  },
]);
