import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', msw: 'src/msw.ts', vitest: 'src/vitest.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    clean: true,
    target: 'node20',
    external: ['msw', 'vitest'],
  },
  {
    entry: { cli: 'src/transports/cli.ts' },
    format: ['esm'],
    target: 'node20',
  },
]);
