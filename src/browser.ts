// `gitlab-emulator/browser`: the emulator and its MSW handlers for a page (MSW's `setupWorker`),
// built without the node-only pieces (the server, export to disk); see scripts/browser-swaps.ts.
export * from './index.js';
export { handlers, type HandlerOptions } from './transports/msw.js';
