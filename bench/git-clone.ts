// `git clone` of a repository of 1,000 commits and 5,000 files through the emulator's server,
// against the same repository on disk served by `git http-backend` (git's own smart HTTP, behind
// a minimal CGI bridge) in the same run: the ratio of wall times. The repository is made with
// `git fast-import`, pushed to the emulator over HTTP (that push is timed too), then cloned from
// both in alternating rounds; the median ratios are printed. Needs the `git` binary.
// `npx tsx bench/git-clone.ts [commits] [files] [rounds]`, or `npm run bench -- clone`.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator } from '../src/index.js';

const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', HOME: tmpdir() };

function git(args: string[], cwd: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', args, { cwd, env, maxBuffer: 1 << 30 }, (error, stdout, stderr) => (error ? reject(new Error(`git ${args[0]}: ${stderr}`)) : resolve(stdout)));
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** A fast-import stream: one commit of `files` files, then commits that change five files each. */
function history(commits: number, files: number): string {
  const out: string[] = [];
  let mark = 0;
  const path = (i: number) => `src/d${Math.floor(i / 100)}/f${i % 100}.txt`;
  for (let c = 0; c < commits; c++) {
    const time = 1_700_000_000 + c * 60;
    out.push('commit refs/heads/main', `mark :${++mark}`, `author Bench <bench@example.com> ${time} +0000`, `committer Bench <bench@example.com> ${time} +0000`);
    const msg = c === 0 ? 'Initial commit' : `Change ${c}`;
    out.push(`data ${Buffer.byteLength(msg)}`, msg);
    if (c > 0) out.push(`from :${mark - 1}`);
    const changed = c === 0 ? Array.from({ length: files }, (_, i) => i) : Array.from({ length: 5 }, (_, k) => (c * 7 + k * 997) % files);
    for (const i of changed) {
      const content = `file ${i}, version ${c}\n${'line of text for the benchmark\n'.repeat(8)}`;
      out.push(`M 100644 inline ${path(i)}`, `data ${Buffer.byteLength(content)}`, content);
    }
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

/** `git http-backend` behind node:http: each request runs the CGI program once. */
function httpBackend(root: string): Promise<{ url: string; close: () => void }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const child = spawn('git', ['http-backend'], {
      env: {
        ...env,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
      },
    });
    req.pipe(child.stdin);
    let head = Buffer.alloc(0);
    let sent = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (sent) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      sent = true;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split('\r\n')) {
        const [k, ...v] = line.split(':');
        if (k!.toLowerCase() === 'status') status = Number(v.join(':').trim().split(' ')[0]);
        else res.setHeader(k!, v.join(':').trim());
      }
      res.writeHead(status);
      res.write(head.subarray(end + 4));
    });
    child.stdout.on('end', () => res.end());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
  }));
}

/** CPU time (ms) of this process and of its children it has reaped (git, git http-backend and theirs), from /proc. */
function cpuNow(): { self: number; children: number } {
  const u = process.cpuUsage();
  let children = 0;
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    children = ((Number(f[13]) + Number(f[14])) * 1000) / 100; // cutime + cstime, in clock ticks of 1/100 s
  } catch {
    children = Number.NaN; // no /proc: CPU figures are not printed
  }
  return { self: (u.user + u.system) / 1000, children };
}

/** One side of a pair: its wall time, the CPU time of the whole exchange (git's client, the server), and the server's in this process. */
interface Run {
  wall: number;
  cpu: number;
  self: number;
}

async function timed(fn: () => Promise<unknown>): Promise<Run> {
  const before = cpuNow();
  const start = performance.now();
  await fn();
  const wall = performance.now() - start;
  const after = cpuNow();
  const self = after.self - before.self;
  return { wall, cpu: self + after.children - before.children, self };
}

export async function benchClone(commits = 1000, files = 5000, rounds = 3): Promise<string[]> {
  const lines: string[] = [];
  const work = mkdtempSync(join(tmpdir(), 'gitlab-emulator-bench-'));
  try {
    const source = join(work, 'repo.git');
    await git(['init', '-q', '--bare', '-b', 'main', source], work);
    await git(['fast-import', '--quiet'], source, history(commits, files));
    await git(['gc', '-q', '--aggressive'], source);

    const backend = await httpBackend(work);
    const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const pushes: { emu: Run; real: Run }[] = [];
    const first: { emu: Run; real: Run }[] = [];
    const again: { emu: Run; real: Run }[] = [];
    let clones = 0;
    try {
      // Each round pushes into a new emulator (its object store starts empty), clones it once
      // ("first clone": what the push left is all there is), then twice more ("again"); each
      // emulator clone is paired with a clone from git http-backend, the two in alternating order.
      for (let round = 0; round < rounds; round++) {
        const emulator = await createEmulator({
          fixture: {
            users: [{ username: 'bench', admin: true, tokens: [{ token: 'bench-token', scopes: ['api'] }] }],
            projects: [{ namespace: 'bench', path: 'repo', creator: 'bench', visibility: 'public' }],
          },
        });
        const server = await emulator.listen({ port: 0 });
        try {
          const pushUrl = `${server.url.replace('://', '://bench:bench-token@')}/bench/repo.git`;
          // The same push into an empty repository behind git http-backend (its receive-pack),
          // the two in alternating order.
          const target = join(work, `push-${round}.git`);
          await git(['init', '-q', '--bare', '-b', 'main', target], work);
          await git(['config', 'http.receivepack', 'true'], target);
          const emuPush = () => timed(() => git(['push', '-q', pushUrl, 'main'], source));
          const realPush = () => timed(() => git(['push', '-q', `${backend.url}/push-${round}.git`, 'main'], source));
          let emu: Run;
          let real: Run;
          if (round % 2 === 0) (emu = await emuPush()), (real = await realPush());
          else (real = await realPush()), (emu = await emuPush());
          pushes.push({ emu, real });
          rmSync(target, { recursive: true, force: true });
          for (let k = 0; k < 3; k++) {
            const n = clones++;
            const emuClone = () => timed(() => git(['clone', '-q', '--bare', `${server.url}/bench/repo.git`, `emu-${n}.git`], work));
            const realClone = () => timed(() => git(['clone', '-q', '--bare', `${backend.url}/repo.git`, `real-${n}.git`], work));
            let emu: Run;
            let real: Run;
            if (n % 2 === 0) (emu = await emuClone()), (real = await realClone());
            else (real = await realClone()), (emu = await emuClone());
            (k === 0 ? first : again).push({ emu, real });
            const tips = await Promise.all([git(['rev-parse', 'main'], join(work, `emu-${n}.git`)), git(['rev-parse', 'main'], join(work, `real-${n}.git`))]);
            if (tips[0] !== tips[1]) throw new Error('the two clones differ');
            rmSync(join(work, `emu-${n}.git`), { recursive: true, force: true });
            rmSync(join(work, `real-${n}.git`), { recursive: true, force: true });
          }
        } finally {
          await server.close();
        }
      }
    } finally {
      backend.close();
    }
    // Wall times, and the CPU time of the whole exchange (git's client and the server, each side's),
    // which a machine busy with other work changes much less than it changes wall times.
    const ratios = (xs: { emu: Run; real: Run }[], of: (r: Run) => number) => {
      const r = xs.map((x) => of(x.emu) / of(x.real));
      return `${median(r).toFixed(2)}x (${Math.min(...r).toFixed(2)}-${Math.max(...r).toFixed(2)}x)`;
    };
    const row = (label: string, xs: { emu: Run; real: Run }[], goal: string) =>
      `${label}: emulator ${s(median(xs.map((r) => r.emu.wall)))} vs git http-backend ${s(median(xs.map((r) => r.real.wall)))} -> median ratio ${ratios(xs, (r) => r.wall)}; ` +
      `CPU of the exchange ${ratios(xs, (r) => r.cpu)}, the emulator's own ${median(xs.map((r) => r.emu.self)).toFixed(0)} ms (${xs.length} rounds; goal <= ${goal})`;
    lines.push(row(`git push of ${commits} commits / ${files} files (git http-backend's receive-pack)`, pushes, '2x'));
    lines.push(row(`git clone of ${commits} commits / ${files} files, first clone after the push`, first, '1.3x'));
    lines.push(row(`git clone of ${commits} commits / ${files} files, again`, again, '1.3x'));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [commits, files, rounds] = process.argv.slice(2).map(Number);
  for (const line of await benchClone(commits || 1000, files || 5000, rounds || 3)) console.log(line);
}
