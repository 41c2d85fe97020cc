// Job artifacts through the server door: a 10 MB archive and one file out of it, the emulator in
// a process of its own against a raw node:http server in another process answering the same
// bytes and headers, load from this process with autocannon, rounds alternating between the
// two; the median ratio printed with its spread. `npm run bench -- artifacts [seconds] [rounds]`.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const TOKEN = 'glpat-emulator-root-token';
const SIZE = 10 * 1024 * 1024;

type Recorded = Record<string, { status: number; headers: Record<string, string>; body: string }>;
type Message = { port: number; jobId: number } | { recorded: Recorded };

/** Incompressible bytes from a fixed seed: the archive stays about 10 MB. */
function noise(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 2463534242;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

async function serveEmulator(): Promise<void> {
  const { createEmulator, DEFAULT_FIXTURE } = await import('../src/index.js');
  const projects = (DEFAULT_FIXTURE.projects ?? []).map((p) => (p.path === 'website' ? { ...p, repository: { files: { 'README.md': '# Website\n' } } } : p));
  const emulator = await createEmulator({ fixture: { ...DEFAULT_FIXTURE, projects } });
  const ci = emulator.ci('acme/website');
  const job = ci.job(ci.pipeline({ user: 'alice' }).id, { name: 'package' });
  ci.finish(job.id, { status: 'success', artifacts: { files: { 'dist/big.bin': noise(SIZE), 'dist/version.txt': '1.2.3\n' }, expireIn: 'never' } });
  const server = await emulator.listen({ port: 0 });
  process.send!({ port: server.port, jobId: job.id } satisfies Message);
}

function serveRaw(): void {
  process.once('message', (m: Message) => {
    if (!('recorded' in m)) return;
    const answers = new Map(Object.entries(m.recorded).map(([path, r]) => [path, { ...r, body: Buffer.from(r.body, 'base64') }]));
    const server = createServer((req, res) => {
      const a = answers.get(req.url ?? '');
      if (!a) return void res.writeHead(404).end();
      res.writeHead(a.status, a.headers);
      res.end(a.body);
    });
    server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port, jobId: 0 } satisfies Message));
  });
}

const start = (role: string): ChildProcess =>
  fork(fileURLToPath(import.meta.url), [role], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
const next = (child: ChildProcess) => new Promise<Message>((resolve) => child.once('message', (m) => resolve(m as Message)));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function rate(port: number, path: string, seconds: number): Promise<{ reqs: number; bytes: number }> {
  const r = await autocannon({ url: `http://127.0.0.1:${port}${path}`, headers: { 'PRIVATE-TOKEN': TOKEN }, connections: 2, duration: seconds });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${path}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return { reqs: r.requests.total / r.duration, bytes: r.throughput.total / r.duration };
}

export async function benchArtifacts(seconds = 4, rounds = 3): Promise<string[]> {
  const emu = start('--emulator');
  const raw = start('--raw');
  try {
    const { port: emuPort, jobId } = (await next(emu)) as { port: number; jobId: number };
    const cases = [
      { name: '10 MB archive', path: `/api/v4/projects/acme%2Fwebsite/jobs/${jobId}/artifacts` },
      { name: 'one 10 MB file out of it', path: `/api/v4/projects/acme%2Fwebsite/jobs/${jobId}/artifacts/dist/big.bin` },
      { name: 'one small file out of it, by ref', path: `/api/v4/projects/acme%2Fwebsite/jobs/artifacts/main/raw/dist/version.txt?job=package` },
    ];
    const recorded: Recorded = {};
    for (const c of cases) {
      const res = await fetch(`http://127.0.0.1:${emuPort}${c.path}`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
      const headers = Object.fromEntries(res.headers);
      for (const h of ['transfer-encoding', 'connection', 'keep-alive']) delete headers[h];
      recorded[c.path] = { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
    }
    raw.send({ recorded } satisfies Message);
    const { port: rawPort } = (await next(raw)) as { port: number };
    const lines: string[] = [];
    for (const c of cases) {
      await rate(rawPort, c.path, 1);
      await rate(emuPort, c.path, 1);
      const ratios: number[] = [];
      const emuRates: number[] = [];
      const rawRates: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const [first, second] = round % 2 ? [emuPort, rawPort] : [rawPort, emuPort];
        const a = await rate(first, c.path, seconds);
        const b = await rate(second, c.path, seconds);
        const [r, e] = first === rawPort ? [a, b] : [b, a];
        rawRates.push(r.reqs);
        emuRates.push(e.reqs);
        ratios.push(e.reqs / r.reqs);
      }
      const pct = (x: number) => `${Math.round(100 * x)}%`;
      lines.push(
        `artifacts: ${c.name}: ${median(emuRates).toFixed(1)} req/s vs raw node:http ${median(rawRates).toFixed(1)} req/s -> median ${pct(median(ratios))} of raw (spread ${pct(Math.min(...ratios))}-${pct(Math.max(...ratios))}, ${rounds} rounds of ${seconds} s, load from another process; goal >= 70%)`,
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
