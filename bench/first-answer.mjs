// Time from starting the built CLI (`node dist/cli.js serve`, what `npm start` runs) to its
// first answer: `GET /api/v4/projects` answered 200. Run `npm run build` first.
// `node bench/first-answer.mjs [runs]` prints the median and the spread.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const runs = Number(process.argv[2] ?? 10);

async function once() {
  const started = performance.now();
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--no-log'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening on (\S+)$/m.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', () => reject(new Error(`exited: ${out}`)));
  });
  const res = await fetch(`${url}/api/v4/projects`);
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  await res.arrayBuffer();
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return ms;
}

const times = [];
for (let i = 0; i < runs; i++) times.push(await once());
times.sort((a, b) => a - b);
const f = (x) => `${x.toFixed(0)} ms`;
console.log(`first answer of node dist/cli.js serve: median ${f(times[Math.floor(times.length / 2)])} (${f(times[0])} to ${f(times.at(-1))}, ${runs} runs; goal < 400 ms)`);
