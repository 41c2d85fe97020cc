import { defineConfig } from 'tsup';
import { browserSwaps } from './scripts/browser-swaps.js';

// Declarations are tsc's, unbundled (scripts/build-types.mjs): a bundle loses each family's
// augmentation of the world's type.
export default defineConfig([
  {
    entry: { index: 'src/index.ts', msw: 'src/msw.ts', vitest: 'src/vitest.ts' },
    format: ['esm', 'cjs'],
    clean: true,
    target: 'node20',
    external: ['msw', 'vitest'],
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
  },
]);
