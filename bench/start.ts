// Start-up as a user meets it, each process fresh, against a baseline measured in the same run:
// importing the built package against importing an empty module, and the built CLI's first
// answer against a raw node:http server's. `npm run bench -- start`. Builds `dist/` first.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Milliseconds (wall, and this process's CPU) that `import(target)` takes in a fresh node. */
function importTime(target: string): { wall: number; cpu: number } {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(target)}); const u = process.cpuUsage(c); console.log(JSON.stringify({ wall: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' })) as { wall: number; cpu: number };
}

/** From spawning `node args` to the first answer of the URL it prints on stdout. */
async function firstAnswer(args: string[], path: string): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
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
    child.kill();
  }
}

export async function benchStart(rounds = 9): Promise<string[]> {
  execFileSync('npx', ['tsup'], { cwd: ROOT, stdio: 'ignore' });
  const dir = mkdtempSync(join(tmpdir(), 'gle-start-'));
  const empty = join(dir, 'empty.mjs');
  writeFileSync(empty, 'export {};\n');
  const raw = join(dir, 'raw.mjs');
  writeFileSync(raw, "import { createServer } from 'node:http';\nconst s = createServer((q, r) => r.end('[]')).listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${s.address().port}`));\n");
  const pkg = join(ROOT, 'dist', 'index.js');
  const imports: { wall: number; cpu: number }[] = [];
  const baselines: { wall: number; cpu: number }[] = [];
  const cli: number[] = [];
  const rawStarts: number[] = [];
  for (let i = 0; i < rounds; i++) {
    baselines.push(importTime(empty));
    imports.push(importTime(pkg));
    rawStarts.push(await firstAnswer([raw], '/'));
    cli.push(await firstAnswer([join(ROOT, 'dist', 'cli.js'), 'serve', '--port', '0'], '/api/v4/projects'));
  }
  const f = (n: number) => n.toFixed(1);
  const wall = median(imports.map((x) => x.wall));
  const cpu = median(imports.map((x) => x.cpu));
  return [
    `start: import of the built package ${f(wall)} ms wall, ${f(cpu)} ms CPU (median of ${rounds} fresh processes; an empty module ${f(median(baselines.map((x) => x.wall)))} ms) (goal < 100 ms)`,
    `start: the built CLI to its first answer ${f(median(cli))} ms vs a raw node:http server ${f(median(rawStarts))} ms (spread ${f(Math.min(...cli))}-${f(Math.max(...cli))} ms) (goal < 400 ms)`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log((await benchStart()).join('\n'));
