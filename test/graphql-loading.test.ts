// The GraphQL engine and graphql-js load with the first GraphQL request: bundled as the package
// is, with code splitting, neither is in what the entry imports statically, in Node or in a page.
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { browserSwaps } from '../scripts/browser-swaps.js';

const ROOT = join(import.meta.dirname, '..');

/** The inputs of every output the entry reaches by static imports only. */
function staticInputs(meta: Metafile, entry: string): string[] {
  const seen = new Set<string>();
  const visit = (out: string) => {
    if (seen.has(out)) return;
    seen.add(out);
    for (const i of meta.outputs[out]!.imports) if (i.kind === 'import-statement' && meta.outputs[i.path]) visit(i.path);
  };
  visit(entry);
  return [...seen].flatMap((o) => Object.keys(meta.outputs[o]!.inputs));
}

describe('loading GraphQL', () => {
  const doors: [string, string, { platform?: 'browser'; plugins?: (typeof browserSwaps)[] }][] = [['node', 'index.ts', {}], ['browser', 'browser.ts', { platform: 'browser', plugins: [browserSwaps] }]];
  for (const [name, entry, extra] of doors) {
    it(`keeps graphql-js and the engine out of the ${name} entry's static imports`, async () => {
      const result = await build({
        entryPoints: [join(ROOT, 'src', entry)], bundle: true, write: false, metafile: true, splitting: true, format: 'esm', outdir: '/tmp/gql-out',
        target: 'es2022', logLevel: 'silent', external: ['msw', 'memfs'], platform: 'node', ...extra,
      });
      const meta = result.metafile!;
      const out = Object.keys(meta.outputs).find((o) => meta.outputs[o]!.entryPoint?.endsWith(`src/${entry}`))!;
      const loaded = staticInputs(meta, out);
      expect(loaded.some((i) => i.endsWith('src/families/graphql/index.ts'))).toBe(true);
      expect(loaded.filter((i) => /node_modules\/graphql\/|src\/families\/graphql\/(engine|model|schema|mutations|connection)\.ts$/.test(i))).toEqual([]);
      const all = Object.keys(meta.inputs);
      expect(all.some((i) => i.endsWith('src/families/graphql/engine.ts'))).toBe(true);
      expect(all.some((i) => /node_modules\/graphql\//.test(i))).toBe(true);
    }, 60_000);
  }
});
