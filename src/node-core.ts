// The emulator's code as the built package runs it in Node (dist/core.cjs): the library's exports
// and the CLI's `main`, in one script, which code-cache.ts runs with V8's code cache. The
// package's entries (node-entry.ts, transports/cli-launch.ts) load it; nothing imports it from source.
export * from './index.js';
export { main } from './transports/cli.js';
