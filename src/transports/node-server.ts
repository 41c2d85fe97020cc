// The node:http door: @hono/node-server turns each IncomingMessage into a fetch Request for
// `emulator.handle`, and its Response back. Loaded only by `emulator.listen()`. A client that is
// slow to send its request is dropped after the timeouts (the pipeline reads a body before the
// write lock, so meanwhile it holds up no one); the control API's paths answer only this
// machine's own clients (local-only.ts).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Handler, ListenOptions, LocalOnly, Server, Timeouts } from './listen.js';
import { localPolicy, localRefusal } from './local-only.js';

// Large enough that any over-long query string a test could send reaches the emulator, which
// answers 414 as GitLab does; node:http would otherwise answer 431 past its 16 KiB default.
const MAX_HEADER_SIZE = 16 * 1024 * 1024;

const DEFAULT_TIMEOUTS: Timeouts = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 };

/** The timeouts asked for, or the defaults: positive milliseconds, headers no later than the whole request. */
export function timeoutsOf(options: ListenOptions): Timeouts {
  const requestTimeout = options.requestTimeout ?? DEFAULT_TIMEOUTS.requestTimeout;
  const t: Timeouts = {
    requestTimeout,
    headersTimeout: options.headersTimeout ?? Math.min(DEFAULT_TIMEOUTS.headersTimeout, requestTimeout),
    keepAliveTimeout: options.keepAliveTimeout ?? DEFAULT_TIMEOUTS.keepAliveTimeout,
  };
  for (const [name, ms] of Object.entries(t)) {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) throw new RangeError(`listen(): ${name} must be a positive number of milliseconds, not ${String(ms)}`);
  }
  if (t.headersTimeout > t.requestTimeout) {
    throw new RangeError(`listen(): headersTimeout (${t.headersTimeout}) must not be longer than requestTimeout (${t.requestTimeout})`);
  }
  return t;
}

export async function startServer(handle: Handler, options: ListenOptions = {}, localOnly?: LocalOnly): Promise<Server> {
  const timeouts = timeoutsOf(options);
  const host = options.host ?? '127.0.0.1';
  const policy = localOnly && localPolicy(localOnly, host);
  type Env = { incoming: { headers: { host?: string }; socket: { destroy(): void } } };
  const listener = getRequestListener(async (request, env: Env) => {
    const refused = policy && localRefusal(policy, request, env.incoming.headers.host);
    if (refused) return refused;
    const response = await handle(request);
    // status, not type: reading a hono response's type builds the full fetch Response (its slow path).
    if (response.status === 0) {
      env.incoming.socket.destroy(); // an injected dropped connection
      return new Response(null, { status: 500 });
    }
    return response;
  });
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_SIZE,
      headersTimeout: timeouts.headersTimeout,
      requestTimeout: timeouts.requestTimeout,
      keepAliveTimeout: timeouts.keepAliveTimeout,
      // node enforces the first two on this interval (30 s by default): check often enough that
      // a stalled client is dropped close to its timeout.
      connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(timeouts.headersTimeout / 4))),
    },
    listener,
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    timeouts: { headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout, keepAliveTimeout: server.keepAliveTimeout },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
