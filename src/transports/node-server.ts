// The node:http door: reads node's request as the pipeline's `Incoming` and writes its answer
// straight to node's response, with no fetch `Request`/`Response` in between. Loaded only by
// `emulator.listen()`. A client that is slow to send its request is dropped after the timeouts
// (the pipeline reads a body before the write lock, so meanwhile it holds up no one); the
// control API's paths, the server's and its worlds', answer only this machine's own clients
// (local-only.ts).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BodySource, HeaderReader, Incoming, Rendered } from '../http/incoming.js';
import type { AtOnce, Handler, ListenOptions, LocalOnly, Server, Timeouts } from './listen.js';
import { localPolicy, localRefusal, type LocalPolicy } from './local-only.js';
import { worldOf } from '../surfaces/worlds.js';

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

export async function startServer(handle: Handler, options: ListenOptions = {}, localOnly?: LocalOnly, atOnce?: AtOnce): Promise<Server> {
  const timeouts = timeoutsOf(options);
  const host = options.host ?? '127.0.0.1';
  const policy = localOnly && localPolicy(localOnly, host);
  const guarded = policy?.prefix;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    // A cached answer, found by the request as sent, goes out at once: no URL, no objects of
    // ours, no await. A conditional request (it may be 304) takes the whole way.
    let doorKey: string | undefined;
    if (atOnce !== undefined && req.headers['if-none-match'] === undefined) {
      doorKey = doorKeyOf(req);
      const cached = atOnce(req.method ?? 'GET', doorKey, guarded);
      if (cached !== undefined) return write(res, cached);
    }
    serve(handle, policy, req, res, doorKey).catch((e: unknown) => {
      // Not reached by any request the pipeline answers (it answers every failure): a broken socket.
      if (!res.headersSent) write(res, { status: 500, headers: {}, body: null });
      else res.destroy(e instanceof Error ? e : undefined);
    });
  };
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

/** A Host header as URLs accept one: a name or address, and a port. */
const HOST = /^(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._~!$&'()*+,;=%-]+)(?::\d{0,5})?$/;

/**
 * A request as sent, as the answer cache's door key: its method, Host, target and credentials
 * (the headers the answer cache's own key reads), unparsed. Neither a header nor a target
 * holds a line break, and a target no space.
 */
function doorKeyOf(req: IncomingMessage): string {
  const h = req.headers;
  return `${req.method} ${h.host ?? ''} ${req.url}\n${h.authorization ?? ''}\n${str(h['private-token'])}\n${str(h['job-token'])}\n${h.cookie ?? ''}\n${str(h.sudo)}`;
}

const str = (v: string | string[] | undefined): string => (v === undefined ? '' : typeof v === 'string' ? v : v.join(', '));

async function serve(handle: Handler, policy: LocalPolicy | undefined, req: IncomingMessage, res: ServerResponse, doorKey?: string): Promise<void> {
  const host = req.headers.host ?? '';
  const url = requestUrl(req.url ?? '/', host);
  if (!url) return write(res, BAD_REQUEST);
  const origin = req.headers.origin;
  // A world's control API (`/-/worlds/NAME/-/emulator/...`) is guarded as the server's own.
  const refused = policy && localRefusal(policy, worldOf(url.pathname)?.rest ?? url.pathname, typeof origin === 'string' ? origin : null, host);
  if (refused) return write(res, refused);
  const answer = await handle(nodeIncoming(req, url, doorKey));
  if (answer.status === 0) {
    req.socket.destroy(); // an injected dropped connection
    return;
  }
  write(res, answer);
}

/**
 * The URL a request names: its path on the Host it was sent to (joined as text, so a path that
 * starts with `//` stays a path), or the absolute URL a client sends through a proxy. Undefined
 * for a Host or a target no URL can hold (400).
 */
function requestUrl(target: string, host: string): URL | undefined {
  try {
    if (/^https?:\/\//i.test(target)) return new URL(target);
    return target.startsWith('/') && HOST.test(host) ? new URL(`http://${host}${target}`) : undefined;
  } catch {
    return undefined;
  }
}

const BAD_REQUEST: Rendered = { status: 400, headers: { 'Content-Type': 'text/plain' }, body: 'Bad Request' };

/** node's headers (lowercase names) read by any case of name. */
class NodeHeaders implements HeaderReader {
  constructor(private readonly headers: IncomingMessage['headers']) {}

  get(name: string): string | null {
    const v = this.headers[name] ?? this.headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }

  has(name: string): boolean {
    return (this.headers[name] ?? this.headers[name.toLowerCase()]) !== undefined;
  }
}

function nodeIncoming(req: IncomingMessage, url: URL, doorKey: string | undefined): Incoming {
  const headers = new NodeHeaders(req.headers);
  const method = req.method ?? 'GET';
  const body: BodySource | null =
    method === 'GET' || method === 'HEAD'
      ? null
      : {
          chunks: () => req.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>,
          discard: () => void req.resume(),
        };
  return { method, url: url.href, parsedUrl: url, headers, body, doorKey };
}

/** An answer on node's response: the headers as one block, the body with its length. */
function write(res: ServerResponse, answer: Rendered): void {
  if (res.destroyed) return; // the client went away meanwhile
  const { body } = answer;
  const headers = answer.headers;
  if (answer.wireHeaders) {
    res.writeHead(answer.status, answer.wireHeaders);
    res.end(body ?? undefined);
    return;
  }
  if (body !== null) headers['Content-Length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  else if (answer.status !== 204 && answer.status !== 304 && res.req.method !== 'HEAD') headers['Content-Length'] = '0';
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
}
