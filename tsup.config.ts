import { defineConfig } from 'tsup';
import { browserSwaps } from './scripts/browser-swaps.js';

// An ES module build that bundles CommonJS code gives it node's `require` for the built-in
// modules that code asks for.
const requireShim = { js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);" };

// The facade's bare `import './families/index.js'` is there for the declarations (it brings every
// family's part of the world's type); at run time nothing is lost when it is dropped under
// `sideEffects: false`, so esbuild's note about it is not a warning for this package. A CommonJS
// build has no `import.meta`: the two modules that read `import.meta.url` fall back to
// `__filename` when it is undefined, which the define makes it, silently.
const esbuildOptions = (options: { logOverride?: Record<string, string>; define?: Record<string, string> }, { format }: { format: string }) => {
  options.logOverride = { ...options.logOverride, 'ignored-bare-import': 'silent' };
  if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' };
};

// dist/ is emptied by scripts/build.mjs, which runs this and the declarations at once.
// Declarations are tsc's, unbundled (scripts/build-types.mjs): a bundle loses each family's
// augmentation of the world's type.
export default defineConfig([
  {
    // The CLI is an entry of the ES module build, not a build of its own: it shares the core's
    // chunks with `index.js` (one bundle fewer to build and to ship).
    entry: { index: 'src/index.ts', msw: 'src/msw.ts', vitest: 'src/vitest.ts', cli: 'src/transports/cli.ts' },
    format: ['esm'],
    target: 'node20',
    external: ['msw', 'vitest'],
    banner: requireShim,
    esbuildOptions,
  },
  {
    // No CommonJS `gitlab-emulator/vitest`: vitest itself is ES modules only.
    entry: { index: 'src/index.ts', msw: 'src/msw.ts' },
    format: ['cjs'],
    target: 'node20',
    external: ['msw', 'vitest'],
    esbuildOptions,
  },
  {
    // The same core for a page: no node:http server, no export to disk, no memfs (see scripts/browser-swaps.ts).
    entry: { browser: 'src/browser.ts' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    external: ['msw'],
    esbuildPlugins: [browserSwaps],
    esbuildOptions,
  },
]);
