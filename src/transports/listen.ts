// How the facade reaches the node:http door without loading it: `node:http` and the server
// module are imported only when a server is started, so the core runs where there is no node.
import type { Incoming, Rendered } from '../http/incoming.js';

export interface ListenOptions {
  port?: number;
  host?: string;
  /** Milliseconds a client has to send a request's headers; 10 000 by default. */
  headersTimeout?: number;
  /**
   * Milliseconds a client has to send a whole request, headers and body; 30 000 by default. A
   * client that stalls longer is answered 408 and its connection closed.
   */
  requestTimeout?: number;
  /** Milliseconds an idle keep-alive connection stays open; 5 000 by default. */
  keepAliveTimeout?: number;
}

/** The timeouts a server runs with, in milliseconds. */
export interface Timeouts {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
}

/**
 * Paths only this machine's own clients may use (the control API): the door refuses a request
 * to them whose `Host` names another machine (DNS rebinding) or whose `Origin` is another site.
 */
export interface LocalOnly {
  /** The paths that start so. */
  prefix: string;
  /** URLs the emulator was told it lives at (a proxy's): their hosts and origins are its own too. */
  urls: readonly string[];
  /**
   * A control token guards the paths: the token is the check, and any `Host` may ask (a container
   * name such as `gitlab:8080` in docker compose or CI services). A foreign `Origin` is still refused.
   */
  tokenGuarded?: boolean;
}

export interface Server {
  url: string;
  port: number;
  /** The timeouts it runs with. */
  timeouts: Timeouts;
  close(): Promise<void>;
}

/** The pipeline as a door that reads and writes requests itself calls it. */
export type Handler = (request: Incoming) => Promise<Rendered>;

/**
 * A cached answer found by the door's own key for a request as sent, answered at once, or
 * undefined (the request then goes to the `Handler` with that key). Paths under `guarded` are
 * never answered so: the door checks them first.
 */
export type AtOnce = (method: string, doorKey: string, guarded?: string) => Rendered | undefined;

export async function startServer(handle: Handler, options: ListenOptions, localOnly?: LocalOnly, atOnce?: AtOnce): Promise<Server> {
  const door = await import('./node-server.js');
  return door.startServer(handle, options, localOnly, atOnce);
}
