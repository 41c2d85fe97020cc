// Time from starting the built CLI (`node dist/cli.js serve`, what `npm start` runs) to its
// first answer: `GET /api/v4/projects` answered 200. Run `npm run build` first.
// `node bench/first-answer.mjs [runs]` prints the median and the spread, beside the same for a
// raw node:http server that answers `[]` (node's own start-up, measured in the same run: on a
// loaded machine both grow together).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const runs = Number(process.argv[2] ?? 10);

const RAW = `const s = require('node:http').createServer((q, r) => r.end('[]')); s.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + s.address().port));`;

async function once(args) {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
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
const raw = [];
// Alternate, so both see the same load.
for (let i = 0; i < runs; i++) {
  times.push(await once([cli, 'serve', '--port', '0', '--no-log']));
  raw.push(await once(['-e', RAW]));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f = (x) => `${x.toFixed(0)} ms`;
const spread = (xs) => `${f(Math.min(...xs))} to ${f(Math.max(...xs))}`;
console.log(`first answer of node dist/cli.js serve: median ${f(median(times))} (${spread(times)}, ${runs} runs; goal < 400 ms)`);
console.log(`first answer of a raw node:http server:  median ${f(median(raw))} (${spread(raw)}); the CLI takes ${(median(times) / median(raw)).toFixed(1)}x`);
