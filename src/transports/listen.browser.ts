// In a browser there is no server to start (see listen.ts): the MSW door (`setupWorker`) is the way in.
import { EmulatorError } from '../core/errors.js';
import type { AtOnce, Handler, ListenOptions, LocalOnly, Server } from './listen.js';

export type { ListenOptions, Server, Timeouts, LocalOnly, Handler, AtOnce } from './listen.js';

export async function startServer(_handle: Handler, _options: ListenOptions, _localOnly?: LocalOnly, _atOnce?: AtOnce): Promise<Server> {
  throw new EmulatorError('listen() starts a node:http server: it needs Node; in a browser, use handlers() with MSW\'s setupWorker');
}
