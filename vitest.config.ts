import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The examples import the package by name, as a user's tests do.
    alias: { 'gitlab-emulator/vitest': new URL('./src/vitest.ts', import.meta.url).pathname, 'gitlab-emulator/msw': new URL('./src/msw.ts', import.meta.url).pathname, 'gitlab-emulator': new URL('./src/index.ts', import.meta.url).pathname },
  },
  test: {
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    // dist/, built once before the tests that run the built package and the CLI.
    globalSetup: ['test/support/build.ts'],
    testTimeout: 20_000,
    // Each file makes its own emulators and closes what it opens, so files share a worker's
    // module graph: loading the sources once per worker instead of once per file halves the run.
    isolate: false,
    // Many files wait on child processes (the CLI, git, npm, Chromium): two workers on two cores
    // overlap those waits (131 s against 160 s with vitest's default of one fewer than the cores).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
