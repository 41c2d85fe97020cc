// The server door measured as a client would see it: each server in a process of its own
// (the emulator, and a raw node:http server answering the same bytes and headers), load from
// this process with autocannon (10 connections), rounds alternating between the two, and the
// median ratio printed with its spread. `npm run bench -- door [seconds-per-round] [rounds]`.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const TOKEN = 'glpat-emulator-root-token';

interface Case {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** The least share of raw node:http's rate it should reach; 0.7 unless said. */
  goal?: number;
}

const CASES: Case[] = [
  { name: 'GET /projects?per_page=20 (admin)', path: '/api/v4/projects?per_page=20', headers: { 'PRIVATE-TOKEN': TOKEN } },
  { name: 'GET /projects/1', path: '/api/v4/projects/1', headers: { 'PRIVATE-TOKEN': TOKEN } },
  { name: 'anonymous raw file read', path: '/api/v4/projects/acme%2Fwebsite/repository/files/README.md/raw?ref=main', headers: {} },
  // Each request a new query string: the answer cache never holds it, so the route runs whole.
  { name: 'GET /projects/1, cache missed', path: '/api/v4/projects/1?_=[<id>]', headers: { 'PRIVATE-TOKEN': TOKEN }, goal: 0.4 },
];

/** The path without the cache-missing parameter: what the raw server looks answers up by. */
const answerPath = (path: string) => path.replace(/[?&]_=[^&]*$/, '');

type Message = { port: number } | { recorded: Record<string, { status: number; headers: Record<string, string>; body: string }> };

/** The emulator's process: the default world (its public project has a README), on a free port. */
async function serveEmulator(): Promise<void> {
  const { createEmulator } = await import('../src/index.js');
  const emulator = await createEmulator();
  const server = await emulator.listen({ port: 0 });
  process.send!({ port: server.port } satisfies Message);
}

/** The baseline's process: raw node:http answering each case's recorded status, headers and body. */
function serveRaw(): void {
  process.once('message', (m: Message) => {
    if (!('recorded' in m)) return;
    const answers = new Map(Object.entries(m.recorded).map(([path, r]) => [path, { ...r, body: Buffer.from(r.body, 'base64') }]));
    const server = createServer((req, res) => {
      const a = answers.get(answerPath(req.url ?? ''));
      if (!a) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(a.status, a.headers);
      res.end(a.body);
    });
    server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port } satisfies Message));
  });
}

function start(role: string): ChildProcess {
  return fork(fileURLToPath(import.meta.url), [role], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

const next = (child: ChildProcess) => new Promise<Message>((resolve) => child.once('message', (m) => resolve(m as Message)));

async function rate(port: number, c: Case, seconds: number): Promise<number> {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${c.path}`, headers: c.headers, connections: 10, duration: seconds, idReplacement: true });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${c.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchServerDoor(seconds = 3, rounds = 7): Promise<string[]> {
  const emu = start('--emulator');
  const raw = start('--raw');
  try {
    const { port: emuPort } = (await next(emu)) as { port: number };
    const recorded: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
    for (const c of CASES) {
      const res = await fetch(`http://127.0.0.1:${emuPort}${answerPath(c.path)}`, { headers: c.headers });
      const headers = Object.fromEntries(res.headers);
      delete headers['transfer-encoding'];
      delete headers.connection;
      delete headers['keep-alive'];
      recorded[answerPath(c.path)] = { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
    }
    raw.send({ recorded } satisfies Message);
    const { port: rawPort } = (await next(raw)) as { port: number };
    const lines: string[] = [];
    for (const c of CASES) {
      await rate(rawPort, c, 1); // warm both up before the first measured round
      await rate(emuPort, c, 1);
      const ratios: number[] = [];
      const emuRates: number[] = [];
      const rawRates: number[] = [];
      for (let round = 0; round < rounds; round++) {
        // Alternate which goes first, so neither always follows the other's garbage collection.
        const [first, second] = round % 2 ? [emuPort, rawPort] : [rawPort, emuPort];
        const a = await rate(first, c, seconds);
        const b = await rate(second, c, seconds);
        const [r, e] = first === rawPort ? [a, b] : [b, a];
        rawRates.push(r);
        emuRates.push(e);
        ratios.push(e / r);
      }
      const pct = (x: number) => `${Math.round(100 * x)}%`;
      lines.push(
        `server door: ${c.name}: ${Math.round(median(emuRates))} req/s vs raw node:http ${Math.round(median(rawRates))} req/s -> median ${pct(median(ratios))} of raw (goal >= ${pct(c.goal ?? 0.7)}; spread ${pct(Math.min(...ratios))}-${pct(Math.max(...ratios))}, ${rounds} rounds of ${seconds} s, load from another process)`,
      );
    }
    return lines;
  } finally {
    emu.kill();
    raw.kill();
  }
}

if (process.argv.includes('--emulator')) await serveEmulator();
else if (process.argv.includes('--raw')) serveRaw();
