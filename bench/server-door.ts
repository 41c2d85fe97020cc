// The server door measured as a client would see it. Every party runs in a plain `node` process
// of its own: the emulator as `npm start` serves it (the built CLI, its request log on, read by
// this process as a terminal would), the same with `--no-log`, a raw node:http server answering
// the same recorded status, headers and bytes (raw-server.mjs), and the load (load.mjs). Each
// round measures every row once, in an order that rotates, and the median of the rounds' ratios
// is printed with its spread. The raw server is measured by two generators, autocannon and a
// far lighter one: when the light one draws much more from it, autocannon is the ceiling and
// autocannon's ratios read high, so the ratios by the light generator are printed too.
// `npm run bench -- door [seconds-per-round] [rounds]`; builds `dist/` first (DOOR_NO_BUILD=1 not).
// DOOR_PROFILE=<dir> runs the emulators with `--cpu-prof` into that directory.
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'glpat-emulator-root-token';
const CONNECTIONS = 10;

interface Case {
  name: string;
  path: string;
  headers: Record<string, string>;
  /** A new query string on every request (`_=<n>`): the answer cache never holds it. */
  unique?: true;
  /** The least share of raw node:http's rate it should reach; 0.7 unless said. */
  goal?: number;
}

const CASES: Case[] = [
  { name: 'GET /projects?per_page=20 (admin)', path: '/api/v4/projects?per_page=20', headers: { 'PRIVATE-TOKEN': TOKEN } },
  { name: 'GET /projects/1', path: '/api/v4/projects/1', headers: { 'PRIVATE-TOKEN': TOKEN } },
  { name: 'anonymous raw file read', path: '/api/v4/projects/acme%2Fwebsite/repository/files/README.md/raw?ref=main', headers: {} },
  { name: 'GET /projects/1, cache missed', path: '/api/v4/projects/1', headers: { 'PRIVATE-TOKEN': TOKEN }, unique: true, goal: 0.45 },
];

type Generator = 'autocannon' | 'light';
interface Load {
  rate: number;
  requests: number;
  non2xx: number;
  errors: number;
  generatorCpuUsPerRequest: number;
}

/** The built CLI serving the default world on a free port; resolves with its URL. */
async function serveEmulator(log: boolean, root = ROOT): Promise<{ child: ChildProcess; url: string }> {
  const profile = process.env.DOOR_PROFILE;
  const args = [...(profile ? ['--cpu-prof', '--cpu-prof-dir', profile, '--cpu-prof-name', `door-${log ? 'log' : 'nolog'}-${Date.now()}.cpuprofile`] : []), 'dist/cli.js', 'serve', '--port', '0', ...(log ? [] : ['--no-log'])];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        child.stdout!.off('data', read);
        child.stdout!.resume(); // the log is read and dropped, as a terminal would show it
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', read);
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening`)));
  });
  return { child, url };
}

const next = <T>(child: ChildProcess) => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));

async function plain(script: string): Promise<ChildProcess> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return child;
}

/** Stops a child as a person would (SIGINT), so a profile or a buffered log is written. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGINT');
  });
}

/**
 * A process's CPU time so far, in microseconds (Linux's /proc; 0 elsewhere): the work a server
 * does per request, which a shared machine's load does not change as it changes rates.
 */
function cpuUs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return 0;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (x: number) => `${Math.round(100 * x)}%`;
const spread = (xs: number[]) => `${pct(Math.min(...xs))}-${pct(Math.max(...xs))}`;

export async function benchServerDoor(seconds = 2, rounds = 5): Promise<string[]> {
  if (process.env.DOOR_NO_BUILD !== '1') execFileSync('npx', ['tsup'], { cwd: ROOT, stdio: 'ignore' });
  const load = await plain('./load.mjs');
  const raw = await plain('./raw-server.mjs');
  const emus: ChildProcess[] = [];
  try {
    await next(load);
    const logged = await serveEmulator(true);
    const quiet = await serveEmulator(false);
    emus.push(logged.child, quiet.child);
    // DOOR_BEFORE=<a checkout with dist/ built>: that emulator too (log on), for a same-run before/after.
    const before = process.env.DOOR_BEFORE ? await serveEmulator(true, process.env.DOOR_BEFORE) : undefined;
    if (before) emus.push(before.child);
    const recorded: Record<string, { status: number; headers: Record<string, string>; body: string }> = {};
    for (const c of CASES) {
      const res = await fetch(`${quiet.url}${c.path}`, { headers: c.headers });
      const headers = Object.fromEntries(res.headers);
      delete headers['transfer-encoding'];
      delete headers.connection;
      delete headers['keep-alive'];
      recorded[c.path] = { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()).toString('base64') };
    }
    raw.send({ recorded });
    const { port: rawPort } = await next<{ port: number }>(raw);
    const rawUrl = `http://127.0.0.1:${rawPort}`;
    const pids = new Map([[rawUrl, raw.pid], [logged.url, logged.child.pid], [quiet.url, quiet.child.pid], ...(before ? [[before.url, before.child.pid] as const] : [])]);
    const measure = async (base: string, c: Case, generator: Generator, secs: number): Promise<Load & { serverCpuUs: number }> => {
      const cpu = cpuUs(pids.get(base));
      load.send({ url: base + c.path, headers: c.headers, connections: CONNECTIONS, seconds: secs, unique: c.unique ?? false, generator });
      const r = await next<Load>(load);
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${c.name} (${base}, ${generator}): ${r.non2xx} non-2xx answers, ${r.errors} errors`);
      return { ...r, serverCpuUs: (cpuUs(pids.get(base)) - cpu) / r.requests };
    };
    const rows: [string, string, Generator][] = [
      ['raw', rawUrl, 'autocannon'],
      ['log', logged.url, 'autocannon'],
      ['nolog', quiet.url, 'autocannon'],
      ...(before ? [['before', before.url, 'autocannon'] as [string, string, Generator]] : []),
      ['raw-light', rawUrl, 'light'],
      ['log-light', logged.url, 'light'],
    ];
    const lines: string[] = [];
    const only = process.env.DOOR_CASES ? new RegExp(process.env.DOOR_CASES) : undefined;
    for (const c of CASES.filter((x) => !only || only.test(x.name))) {
      for (const [, base, generator] of rows) await measure(base, c, generator, 1); // warm every party up
      const rates = new Map<string, number[]>(rows.map(([k]) => [k, []]));
      const cost = new Map<string, number[]>(rows.map(([k]) => [k, []]));
      const serverCost = new Map<string, number[]>(rows.map(([k]) => [k, []]));
      const ratios = { log: [] as number[], nolog: [] as number[], light: [] as number[], before: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        const order = rows.map((_, i) => rows[(i + round) % rows.length]!); // each row in every position, in turn
        const got = new Map<string, number>();
        for (const [key, base, generator] of order) {
          const r = await measure(base, c, generator, seconds);
          got.set(key, r.rate);
          rates.get(key)!.push(r.rate);
          cost.get(key)!.push(r.generatorCpuUsPerRequest);
          serverCost.get(key)!.push(r.serverCpuUs);
        }
        ratios.log.push(got.get('log')! / got.get('raw')!);
        ratios.nolog.push(got.get('nolog')! / got.get('raw')!);
        ratios.light.push(got.get('log-light')! / got.get('raw-light')!);
        if (before) ratios.before.push(got.get('log')! / got.get('before')!);
      }
      const rate = (k: string) => Math.round(median(rates.get(k)!));
      const us = (k: string) => median(cost.get(k)!).toFixed(0);
      const serverUs = (k: string) => median(serverCost.get(k)!).toFixed(1);
      lines.push(
        `server door: ${c.name}: npm start (log on) ${rate('log')} req/s, --no-log ${rate('nolog')} req/s, raw node:http ${rate('raw')} req/s` +
          ` -> median ${pct(median(ratios.log))} of raw with the log on (spread ${spread(ratios.log)}), ${pct(median(ratios.nolog))} with --no-log (${spread(ratios.nolog)}); goal >= ${pct(c.goal ?? 0.7)}`,
        `  the same by the light generator: raw ${rate('raw-light')} req/s (${(median(rates.get('raw-light')!) / median(rates.get('raw')!)).toFixed(2)}x autocannon's), log on ${rate('log-light')} req/s -> median ${pct(median(ratios.light))} (${spread(ratios.light)});` +
          ` generator CPU per request: autocannon ${us('raw')} us, light ${us('raw-light')} us; ${rounds} rounds of ${seconds} s, ${CONNECTIONS} connections`,
        ...(before
          ? [`  against DOOR_BEFORE (log on): ${rate('before')} req/s, ${serverUs('before')} us of server CPU per request -> this build ${(median(ratios.before)).toFixed(2)}x its rate (${Math.min(...ratios.before).toFixed(2)}-${Math.max(...ratios.before).toFixed(2)}x), ${(median(serverCost.get('before')!) / median(serverCost.get('log')!)).toFixed(2)}x less work per request`]
          : []),
        `  server CPU per request (autocannon's rounds): log on ${serverUs('log')} us, --no-log ${serverUs('nolog')} us, raw ${serverUs('raw')} us -> ${(median(serverCost.get('raw')!) / median(serverCost.get('log')!)).toFixed(2)} of raw's work per request with the log on`,
      );
    }
    return lines;
  } finally {
    await Promise.all(emus.map(stop));
    load.kill();
    raw.kill();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [seconds, rounds] = process.argv.slice(2).map(Number);
  console.log((await benchServerDoor(seconds || undefined, rounds || undefined)).join('\n'));
}
