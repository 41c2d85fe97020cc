// The esbuild plugin behind the browser build (`gitlab-emulator/browser`): each module below has
// a `.browser.ts` sibling that needs nothing of Node, and the browser build uses it instead.
//   src/transports/listen.ts -> listen.browser.ts   (no node:http server)
//   src/git/disk.ts          -> disk.browser.ts     (no export to a directory)
//   src/git/volume.ts        -> volume.browser.ts   (the same Maps, without Node)
//   src/persist/data-dir.ts  -> data-dir.browser.ts (no data directory)
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

export const SWAPPED = ['transports/listen', 'git/disk', 'git/volume', 'persist/data-dir'];

export const browserSwaps: Plugin = {
  name: 'gitlab-emulator-browser-swaps',
  setup(build) {
    build.onResolve({ filter: /\/(listen|disk|volume|data-dir)\.js$/ }, (args) => {
      if (!args.importer) return undefined;
      const target = resolve(dirname(args.importer), args.path.replace(/\.js$/, ''));
      if (!SWAPPED.some((s) => target.endsWith(`/src/${s}`))) return undefined;
      const swapped = `${target}.browser.ts`;
      return existsSync(swapped) ? { path: swapped } : undefined;
    });
  },
};
