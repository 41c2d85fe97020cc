// Start-up as a user meets it, each process fresh, against a baseline measured in the same run:
// importing the built package against importing an empty module; the built CLI's first answer
// against a raw node:http server's, in wall time and in the server process's own CPU time to
// its first answer (read by a preloaded hook, which a busy machine changes far less than wall
// time); `npm start` against `npm start` of a package whose start script is that raw server (the
// same npm wrapper on both sides); and the first emulator (`createEmulator()` with the default
// world) in CPU time. The package and the CLI run their core with its code cache (written by a
// warm-up process before the rounds, in a directory of this run's own), and without it
// (`GITLAB_EMULATOR_CODE_CACHE=0`) in the same rounds. `npm run bench -- start`. Builds `dist/` first.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds (wall, and this process's CPU) that `import(target)` takes in a fresh node. */
function importTime(target: string, extra: Record<string, string> = {}): { wall: number; cpu: number } {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(target)}); const u = process.cpuUsage(c); console.log(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: { ...env, ...extra } })) as { wall: number; cpu: number };
}

/** Environment of the CLI's runs: the code cache in this run's own directory (set in benchStart). */
const env: Record<string, string | undefined> = { ...process.env };

/** From spawning `node args` (or another command) to the first answer of the URL it prints on stdout. */
async function firstAnswer(args: string[], path: string, command = process.execPath, cwd = ROOT, extra: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  // A group of its own, so that npm's child goes with it.
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], detached: true, env: { ...env, ...extra } });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening`)));
    });
    const res = await fetch(url + path);
    await res.arrayBuffer();
    return performance.now() - started;
  } finally {
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      /* gone already */
    }
  }
}

/**
 * The server process's CPU milliseconds from its start to its first answer written (node's
 * start-up included), read by a hook preloaded into it (`--require`), which prints them to stderr.
 */
async function firstAnswerCpu(hook: string, args: string[], path: string, extra: Record<string, string> = {}): Promise<number> {
  const child = spawn(process.execPath, ['--require', hook, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...env, ...extra } });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void exited.then(() => reject(new Error(`${args.join(' ')} exited before listening: ${err}`)));
    });
    await (await fetch(url + path)).arrayBuffer();
    for (let i = 0; i < 100 && !/FIRST_ANSWER_CPU/.test(err); i++) await new Promise((r) => setTimeout(r, 10));
    const m = /FIRST_ANSWER_CPU (\S+)/.exec(err);
    if (!m) throw new Error(`no CPU time from ${args.join(' ')}: ${err}`);
    return Number(m[1]);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

/** The preloaded hook: the process's CPU time when its first HTTP answer is finished, on stderr. */
const CPU_HOOK = `const http = require('node:http');
const emit = http.Server.prototype.emit;
let seen = false;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request' && !seen) {
    seen = true;
    res.once('finish', () => { const u = process.cpuUsage(); process.stderr.write('FIRST_ANSWER_CPU ' + (u.user + u.system) / 1000 + '\\n'); });
  }
  return emit.apply(this, arguments);
};
`;

/** CPU milliseconds of the first `createEmulator()` (default world) in a fresh node, after the import. */
function firstEmulatorCpu(pkg: string, extra: Record<string, string> = {}): number {
  const code = `const m = await import(${JSON.stringify(pkg)}); const c = process.cpuUsage(); await m.createEmulator(); const u = process.cpuUsage(c); console.log((u.user + u.system) / 1000);`;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', env: { ...env, ...extra } }));
}

export async function benchStart(rounds = 9): Promise<string[]> {
  execFileSync('npx', ['tsup'], { cwd: ROOT, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'gle-start-'));
  const empty = join(dir, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  const raw = join(dir, 'raw.mjs');
  writeFileSync(raw, "import { createServer } from 'node:http';\nconst s = createServer((q, r) => r.end('[]')).listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${s.address().port}`));\n");
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'raw-server', version: '1.0.0', private: true, scripts: { start: 'node raw.mjs' } }));
  const hook = join(dir, 'first-answer-cpu.cjs');
  writeFileSync(hook, CPU_HOOK);
  env.GITLAB_EMULATOR_CODE_CACHE = join(dir, 'code-cache');
  const noCache = { GITLAB_EMULATOR_CODE_CACHE: '0' };
  const pkg = join(ROOT, 'dist', 'index.js');
  const imports: { wall: number; cpu: number }[] = [];
  const importsCold: { wall: number; cpu: number }[] = [];
  const firstEmulatorCold: number[] = [];
  const baselines: { wall: number; cpu: number }[] = [];
  const cli: number[] = [];
  const rawStarts: number[] = [];
  const npmEmu: number[] = [];
  const cliCold: number[] = [];
  const cpuCli: number[] = [];
  const cpuCliCold: number[] = [];
  const cpuRaw: number[] = [];
  const npmRaw: number[] = [];
  const firstEmulator: number[] = [];
  // START_BEFORE=<a checkout with dist/ built>: its import, CLI and first emulator too, in the same rounds.
  const BEFORE = process.env.START_BEFORE;
  const beforeImports: { wall: number; cpu: number }[] = [];
  const beforeCli: number[] = [];
  const beforeFirst: number[] = [];
  const beforeCpu: number[] = [];
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // The warm-up: a first emulator and a first server write the package's and the CLI's code caches when their processes end.
  firstEmulatorCpu(pkg);
  await firstAnswer([join(ROOT, 'dist', 'cli.js'), 'serve', '--port', '0'], '/api/v4/projects');
  for (let i = 0; i < rounds; i++) {
    baselines.push(importTime(empty));
    imports.push(importTime(pkg));
    importsCold.push(importTime(pkg, noCache));
    rawStarts.push(await firstAnswer([raw], '/'));
    cli.push(await firstAnswer([join(ROOT, 'dist', 'cli.js'), 'serve', '--port', '0'], '/api/v4/projects'));
    cliCold.push(await firstAnswer([join(ROOT, 'dist', 'cli.js'), 'serve', '--port', '0'], '/api/v4/projects', process.execPath, ROOT, noCache));
    cpuRaw.push(await firstAnswerCpu(hook, [raw], '/'));
    cpuCli.push(await firstAnswerCpu(hook, [join(ROOT, 'dist', 'cli.js'), 'serve', '--port', '0', '--no-log'], '/api/v4/projects'));
    cpuCliCold.push(await firstAnswerCpu(hook, [join(ROOT, 'dist', 'cli.js'), 'serve', '--port', '0', '--no-log'], '/api/v4/projects', noCache));
    npmRaw.push(await firstAnswer(['start'], '/', npm, dir));
    npmEmu.push(await firstAnswer(['start', '--', '--port', '0'], '/api/v4/projects', npm, ROOT));
    firstEmulator.push(firstEmulatorCpu(pkg));
    firstEmulatorCold.push(firstEmulatorCpu(pkg, noCache));
    if (BEFORE) {
      beforeImports.push(importTime(join(BEFORE, 'dist', 'index.js')));
      beforeCli.push(await firstAnswer([join(BEFORE, 'dist', 'cli.js'), 'serve', '--port', '0'], '/api/v4/projects', process.execPath, BEFORE));
      beforeFirst.push(firstEmulatorCpu(join(BEFORE, 'dist', 'index.js')));
      beforeCpu.push(await firstAnswerCpu(hook, [join(BEFORE, 'dist', 'cli.js'), 'serve', '--port', '0', '--no-log'], '/api/v4/projects'));
    }
  }
  // The raw servers, the hook and the code cache go with the run.
  rmSync(dir, { recursive: true, force: true });
  const ratios = (a: number[], b: number[]) => a.map((x, i) => x / b[i]!);
  const f = (n: number) => n.toFixed(1);
  const ratio = (a: number[], b: number[]) => `${median(ratios(a, b)).toFixed(2)}x (spread ${Math.min(...ratios(a, b)).toFixed(2)}-${Math.max(...ratios(a, b)).toFixed(2)}x)`;
  const wall = median(imports.map((x) => x.wall));
  const cpu = median(imports.map((x) => x.cpu));
  return [
    `start: import of the built package ${f(wall)} ms wall, ${f(cpu)} ms CPU (median of ${rounds} fresh processes, spread ${f(Math.min(...imports.map((x) => x.cpu)))}-${f(Math.max(...imports.map((x) => x.cpu)))}; an empty module ${f(median(baselines.map((x) => x.wall)))} ms) (goal < 50 ms); without the code cache ${f(median(importsCold.map((x) => x.wall)))} ms wall, ${f(median(importsCold.map((x) => x.cpu)))} ms CPU`,
    `start: the built CLI to its first answer ${f(median(cli))} ms vs a raw node:http server ${f(median(rawStarts))} ms -> median ${median(ratios(cli, rawStarts)).toFixed(2)}x (spread ${Math.min(...ratios(cli, rawStarts)).toFixed(2)}-${Math.max(...ratios(cli, rawStarts)).toFixed(2)}x) (goal <= 2.0x)`,
    `start: the built CLI without its code cache ${f(median(cliCold))} ms -> ${ratio(cliCold, rawStarts)} of the raw server's`,
    `start: the server's own CPU to its first answer: the built CLI ${f(median(cpuCli))} ms, without its code cache ${f(median(cpuCliCold))} ms, a raw node:http server ${f(median(cpuRaw))} ms -> ${ratio(cpuCli, cpuRaw)}; without the cache ${ratio(cpuCliCold, cpuRaw)}`,
    `start: npm start to its first answer ${f(median(npmEmu))} ms vs npm start of the raw server ${f(median(npmRaw))} ms -> median ${median(ratios(npmEmu, npmRaw)).toFixed(2)}x (spread ${Math.min(...ratios(npmEmu, npmRaw)).toFixed(2)}-${Math.max(...ratios(npmEmu, npmRaw)).toFixed(2)}x) (goal <= 1.3x)`,
    `start: the first createEmulator() with the default world (after the import) ${f(median(firstEmulator))} ms CPU (spread ${f(Math.min(...firstEmulator))}-${f(Math.max(...firstEmulator))}) (goal < 20 ms); without the code cache ${f(median(firstEmulatorCold))} ms`,
    ...(BEFORE
      ? [
          `start: START_BEFORE in the same rounds: import ${f(median(beforeImports.map((x) => x.wall)))} ms wall, ${f(median(beforeImports.map((x) => x.cpu)))} ms CPU; CLI to first answer ${f(median(beforeCli))} ms (${median(ratios(beforeCli, rawStarts)).toFixed(2)}x raw); first createEmulator() ${f(median(beforeFirst))} ms CPU; the CLI's own CPU to its first answer ${f(median(beforeCpu))} ms (${ratio(beforeCpu, cpuRaw)} raw's)`,
        ]
      : []),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log((await benchStart()).join('\n'));
