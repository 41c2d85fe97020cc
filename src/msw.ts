// `gitlab-emulator/msw`: the only entry that imports msw.
export { handlers, type HandlerOptions } from './transports/msw.js';
