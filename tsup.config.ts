import { defineConfig } from 'tsup';
import { browserSwaps } from './scripts/browser-swaps.js';

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
    // The CLI's `dist/cli.js` is a launcher of a few lines (cli-launch.ts): it runs the CommonJS
    // bundle of the CLI below with V8's code cache, which only a script (not an ES module) takes.
    entry: { index: 'src/index.ts', msw: 'src/msw.ts', vitest: 'src/vitest.ts', cli: 'src/transports/cli-launch.ts' },
    format: ['esm'],
    target: 'node20',
    external: ['msw', 'vitest'],
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
    // The CLI as one script (dist/cli-main.cjs), for the launcher: a script that V8 runs from its
    // code cache has no `import()` of its own (without an experimental loader), so the few it
    // makes (a library loaded at first use, node's modules) are `require`s here.
    entry: { 'cli-main': 'src/transports/cli.ts' },
    format: ['cjs'],
    target: 'node20',
    external: ['msw', 'vitest'],
    // What every start runs (the world's store, the router) is in the bundle, and so in the code
    // cache; a library loaded from node_modules is compiled again at each start.
    noExternal: ['immer', 'hono'],
    esbuildOptions: (options: Parameters<typeof esbuildOptions>[0] & { supported?: Record<string, boolean> }, context: { format: string }) => {
      esbuildOptions(options, context);
      options.supported = { ...options.supported, 'dynamic-import': false };
    },
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
