// Memory follows the world, not the traffic: a server in its own process takes a load through
// its door (projects created, a commit in most of them, reads between), then reports its RSS
// after a full garbage collection; a second process seeds the same world from a fixture (the
// same projects, each commit a seeded file), answers the same reads once, and reports the same.
// `npm run bench -- memory [projects] [commits]`.
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';

const TOKEN = 'glpat-emulator-root-token';

interface Usage {
  rss: number;
  heapUsed: number;
}

type Message = { port: number } | Usage;

const projectPath = (i: number) => `load-${i}`;

/** The server: the default world, or with `--seeded N M` the world the load makes, seeded fresh. */
async function serve(seeded?: { projects: number; commits: number }): Promise<void> {
  const { createEmulator, DEFAULT_FIXTURE } = await import('../src/index.js');
  const extra = seeded
    ? Array.from({ length: seeded.projects }, (_, i) => ({
        namespace: 'root',
        path: projectPath(i),
        name: projectPath(i),
        creator: 'root',
        ...(i < seeded.commits ? { repository: { files: { 'README.md': `# ${projectPath(i)}\n` } } } : {}),
      }))
    : [];
  const emulator = await createEmulator({ fixture: { ...DEFAULT_FIXTURE, projects: [...(DEFAULT_FIXTURE.projects ?? []), ...extra] } });
  const server = await emulator.listen({ port: 0 });
  process.on('message', (m) => {
    if (m !== 'usage') return;
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.send!({ rss, heapUsed } satisfies Usage);
  });
  process.send!({ port: server.port } satisfies Message);
}

function start(args: string[]): ChildProcess {
  return fork(fileURLToPath(import.meta.url), args, { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
}

const next = <T>(child: ChildProcess) => new Promise<T>((resolve) => child.once('message', (m) => resolve(m as T)));

async function usage(child: ChildProcess): Promise<Usage> {
  child.send('usage');
  return next<Usage>(child);
}

function call(agent: Agent, port: number, method: string, path: string, body?: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const headers = { 'PRIVATE-TOKEN': TOKEN, ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}) };
    const req = httpRequest({ host: '127.0.0.1', port, method, path: `/api/v4${path}`, agent, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(data);
  });
}

/** Reads that every process answers (so both have run the same code), a few of each. */
async function reads(agent: Agent, port: number, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await call(agent, port, 'GET', `/projects?per_page=20&page=${1 + (i % 5)}`);
    await call(agent, port, 'GET', `/projects/root%2F${projectPath(i)}`);
  }
}

export async function benchMemory(projects = 4100, commits = 3081): Promise<string[]> {
  const loaded = start(['--serve']);
  const agent = new Agent({ keepAlive: true, maxSockets: 10 });
  try {
    const { port } = await next<{ port: number }>(loaded);
    const fresh = await usage(loaded);
    const started = performance.now();
    // Ten clients at a time: create a project, commit a README to most, read between.
    let nextIndex = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let i = nextIndex++; i < projects; i = nextIndex++) {
          const made = await call(agent, port, 'POST', '/projects', { name: projectPath(i), path: projectPath(i) });
          if (made !== 201) throw new Error(`project ${i}: ${made}`);
          if (i < commits) {
            const file = `/projects/root%2F${projectPath(i)}/repository/files/README.md`;
            const status = await call(agent, port, 'POST', file, { branch: 'main', content: `# ${projectPath(i)}\n`, commit_message: 'Add README' });
            if (status !== 201) throw new Error(`commit ${i}: ${status}`);
          }
          await call(agent, port, 'GET', i % 2 ? '/projects?per_page=20' : `/projects/root%2F${projectPath(i)}`);
        }
      }),
    );
    await reads(agent, port, 50);
    const seconds = (performance.now() - started) / 1000;
    const after = await usage(loaded);
    loaded.kill();
    const seeded = start(['--serve', '--seeded', String(projects), String(commits)]);
    try {
      const { port: seededPort } = await next<{ port: number }>(seeded);
      await reads(agent, seededPort, 50);
      const same = await usage(seeded);
      const mb = (b: number) => `${Math.round(b / 1048576)} MB`;
      return [
        `memory: RSS after ${projects} projects and ${commits} commits through the server (${Math.round(seconds)} s) ${mb(after.rss)} (heap ${mb(after.heapUsed)}; ${mb(fresh.rss)} at start) vs the same world seeded fresh ${mb(same.rss)} (heap ${mb(same.heapUsed)}) -> ${(after.rss / same.rss).toFixed(2)}x (goal <= 2x)`,
      ];
    } finally {
      seeded.kill();
    }
  } finally {
    agent.destroy();
    loaded.kill();
  }
}

const at = process.argv.indexOf('--seeded');
if (process.argv.includes('--serve')) await serve(at > 0 ? { projects: Number(process.argv[at + 1]), commits: Number(process.argv[at + 2]) } : undefined);
else if (process.argv[1] === fileURLToPath(import.meta.url)) console.log((await benchMemory(...process.argv.slice(2).map(Number))).join('\n'));
