import { defineConfig } from 'tsup';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserSwaps } from './scripts/browser-swaps.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), 'src');

// The facade's bare `import './families/index.js'` is there for the declarations (it brings every
// family's part of the world's type); at run time nothing is lost when it is dropped under
// `sideEffects: false`, so esbuild's note about it is not a warning for this package. A CommonJS
// build has no `import.meta`: the two modules that read `import.meta.url` fall back to
// `__filename` when it is undefined, which the define makes it, silently.
const esbuildOptions = (options: { logOverride?: Record<string, string>; define?: Record<string, string> }, { format }: { format: string }) => {
  options.logOverride = { ...options.logOverride, 'ignored-bare-import': 'silent' };
  if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' };
};

// The ES modules of the package take the emulator from its CommonJS entry: `gitlab-emulator/vitest`
// through `./index.js`, which is dist/index.cjs's exports (src/node-esm.ts). So a process has one
// core, and one `FixtureBuilder` class, whichever entries it imports or requires.
const BUILT = new Map([
  [join(SRC, 'index.js'), './index.js'],
  [join(SRC, 'node-entry.js'), './index.cjs'],
]);
const packageEntry = {
  name: 'package-entry',
  setup(build: { onResolve(o: { filter: RegExp }, f: (a: { path: string; resolveDir: string; importer: string }) => { path: string; external: boolean } | undefined): void }) {
    build.onResolve({ filter: /(^|\/)(index|node-entry)\.js$/ }, ({ path, resolveDir }) => {
      const built = BUILT.get(join(resolveDir, path));
      return built === undefined ? undefined : { path: built, external: true };
    });
  },
};

// dist/ is emptied by scripts/build.mjs, which runs this and the declarations at once.
// Declarations are tsc's, unbundled (scripts/build-types.mjs): a bundle loses each family's
// augmentation of the world's type.
export default defineConfig([
  {
    // The emulator's code for Node, as one script (dist/core.cjs): the package's entries and the
    // CLI run it with V8's code cache (src/transports/code-cache.ts), which only a script (not an
    // ES module) takes. Such a script has no `import()` of its own (without an experimental
    // loader), so the few it makes (a library loaded at first use, node's modules) are `require`s
    // here. What every start runs (the world's store, the router) is in the bundle, and so in the
    // code cache; a library loaded from node_modules is compiled again in each process.
    entry: { core: 'src/node-core.ts' },
    format: ['cjs'],
    target: 'node20',
    external: ['msw', 'vitest'],
    noExternal: ['immer', 'hono'],
    esbuildOptions: (options: Parameters<typeof esbuildOptions>[0] & { supported?: Record<string, boolean> }, context: { format: string }) => {
      esbuildOptions(options, context);
      options.supported = { ...options.supported, 'dynamic-import': false };
    },
  },
  {
    // The package's entry (dist/index.cjs; dist/index.js re-exports it) and the CLI's
    // dist/cli.js: a few lines each, that run the core above.
    entry: { index: 'src/node-entry.ts' },
    format: ['cjs'],
    target: 'node20',
    esbuildOptions,
  },
  {
    entry: { index: 'src/node-esm.ts', cli: 'src/transports/cli-launch.ts', vitest: 'src/vitest.ts' },
    format: ['esm'],
    target: 'node20',
    external: ['msw', 'vitest'],
    esbuildPlugins: [packageEntry],
    esbuildOptions,
  },
  {
    // `gitlab-emulator/msw` takes its emulator as an argument: the handler set only. No CommonJS
    // `gitlab-emulator/vitest`: vitest itself is ES modules only.
    entry: { msw: 'src/msw.ts' },
    format: ['esm', 'cjs'],
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
