// Soak: 20 clients for 60 s mixing reads and writes against the server door, while one more
// client sends the headers of a write and stalls before its body. Prints p50/p99 latency of the
// others, per kind, and the server's RSS before and after. The server runs in its own process;
// the load comes from this one. `npx tsx bench/soak.ts [seconds] [clients]`. Not part of the tests.
import { fork, type ChildProcess } from 'node:child_process';
import { request as httpRequest, Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';

const SECONDS = Number(process.argv[2] ?? 60);
const CLIENTS = Number(process.argv[3] ?? 20);
const TOKEN = 'glpat-emulator-root-token';

interface Ready {
  port: number;
}

/** The server process: the default world on a free port; answers RSS when asked. */
async function serve(): Promise<void> {
  const { createEmulator } = await import('../src/index.js');
  const journalLimit = process.env.SOAK_JOURNAL ? Number(process.env.SOAK_JOURNAL) : undefined;
  const emulator = await createEmulator({ journalLimit });
  const server = await emulator.listen({ port: 0 });
  process.on('message', (m) => {
    if (m === 'rss') (globalThis as { gc?: () => void }).gc?.();
    if (m === 'rss') process.send!({ ...process.memoryUsage(), journal: emulator.journal.entries().length });
    if (m === 'stop') void server.close().then(() => process.exit(0));
  });
  process.send!({ port: server.port } satisfies Ready);
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });

function call(port: number, method: string, path: string, body?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path: `/api/v4${path}`, agent, headers: { 'PRIVATE-TOKEN': TOKEN, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

/**
 * A write's headers, then nothing: the body never comes. When the server drops it (its request
 * timeout), another takes its place, so one stalled write is open throughout; counts the drops.
 */
function stall(port: number): { stop(): void; dropped(): number } {
  let socket: Socket;
  let stopped = false;
  let drops = 0;
  const open = () => {
    socket = connect(port, '127.0.0.1', () => {
      socket.write(`PUT /api/v4/projects/1 HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nPRIVATE-TOKEN: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n`);
    });
    socket.on('error', () => {});
    socket.resume(); // read what the server says (its 408), so its close reaches us
    socket.on('close', () => {
      if (stopped) return;
      drops++;
      open();
    });
  };
  open();
  return {
    stop() {
      stopped = true;
      socket.destroy();
    },
    dropped: () => drops,
  };
}

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

async function main(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: 'inherit' });
  const { port } = await new Promise<Ready>((resolve) => child.once('message', (m) => resolve(m as Ready)));
  const before = await ask<{ rss: number }>(child, 'rss');
  const stalled = stall(port);
  const times: Record<'read' | 'write', number[]> = { read: [], write: [] };
  const statuses = new Map<number, number>();
  const end = performance.now() + SECONDS * 1000;
  let n = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; performance.now() < end; i++) {
        const write = i % 4 === 3;
        const started = performance.now();
        const status = write
          ? await call(port, 'POST', '/projects', { name: `soak ${client}-${i}`, path: `soak-${client}-${i}` })
          : await call(port, 'GET', i % 2 ? '/projects?per_page=20' : '/projects/1');
        times[write ? 'write' : 'read'].push(performance.now() - started);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        n++;
      }
    }),
  );
  const after = await ask<{ rss: number; heapUsed: number; heapTotal: number; external: number; journal: number }>(child, 'rss');
  stalled.stop();
  child.send('stop');
  const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;
  console.log(`soak: ${CLIENTS} clients for ${SECONDS} s, one stalled write open throughout (the server dropped ${stalled.dropped()} at its request timeout); ${n} requests (${[...statuses].map(([s, c]) => `${c}x ${s}`).join(', ')})`);
  for (const kind of ['read', 'write'] as const) {
    const xs = times[kind];
    console.log(`  ${kind}s: ${xs.length}, p50 ${percentile(xs, 50).toFixed(1)} ms, p99 ${percentile(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`);
  }
  console.log(`  server RSS: ${mb(before.rss)} before, ${mb(after.rss)} after (heap ${mb(after.heapUsed)} used of ${mb(after.heapTotal)}, external ${mb(after.external)}; journal holds ${after.journal} entries)`);
  agent.destroy();
}

if (process.argv.includes('--serve')) await serve();
else await main();
