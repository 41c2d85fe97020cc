// `gitlab-emulator/browser`: the emulator and its MSW handlers for a page (MSW's `setupWorker`),
// built without the node-only pieces (the server, export to disk, memfs); see scripts/browser-swaps.mjs.
export * from './index.js';
export { handlers, type HandlerOptions } from './transports/msw.js';
