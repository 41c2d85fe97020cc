// The node:http door: @hono/node-server turns each IncomingMessage into a fetch Request for
// `emulator.handle`, and its Response back. Loaded only by `emulator.listen()`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import type { Handler, ListenOptions, Server } from './listen.js';

// Large enough that any over-long query string a test could send reaches the emulator, which
// answers 414 as GitLab does; node:http would otherwise answer 431 past its 16 KiB default.
const MAX_HEADER_SIZE = 16 * 1024 * 1024;

export async function startServer(handle: Handler, options: ListenOptions = {}): Promise<Server> {
  const listener = getRequestListener(async (request, env: { incoming: { socket: { destroy(): void } } }) => {
    const response = await handle(request);
    if (response.type === 'error') {
      env.incoming.socket.destroy(); // an injected dropped connection
      return new Response(null, { status: 500 });
    }
    return response;
  });
  const server = createServer({ maxHeaderSize: MAX_HEADER_SIZE }, listener);
  const host = options.host ?? '127.0.0.1';
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
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
