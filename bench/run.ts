// Benchmarks of the core, each against a baseline measured in the same run, printed as ratios.
// Run with `npm run bench`. No test asserts on these numbers: machines are shared and noisy.
// In-process comparisons count CPU time; the server door counts requests from another process.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { createEmulator } from '../src/index.js';
import { handlers } from '../src/msw.js';
import { tget } from '../src/store/table.js';
import { projectByIdOrPath } from '../src/policy/paths.js';

const BASE = 'https://gitlab.example.com';
const TOKEN = 'glpat-emulator-root-token';
const lines: string[] = [];
const say = (line: string) => {
  lines.push(line);
  console.log(line);
};
const fmt = (n: number, digits = 3) => n.toFixed(digits);

/**
 * This process's CPU time in ms (user and system). The in-process comparisons count it rather
 * than wall time: on a shared machine, time spent descheduled is not the work's.
 */
function cpuNow(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function timeLoop(n: number, fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(200, n); i++) await fn(); // warm up
  const start = cpuNow();
  for (let i = 0; i < n; i++) await fn();
  return (cpuNow() - start) / n;
}

/** Per-request time through the MSW door against one static MSW handler with the same JSON. */
async function mswDoor(): Promise<void> {
  const emulator = await createEmulator();
  const url = `${BASE}/api/v4/projects/1`;
  const headers = { 'PRIVATE-TOKEN': TOKEN };
  const sample = await (await emulator.handle(new Request(url, { headers }))).json();
  const n = 400;
  const baseline = setupServer(http.get(url, () => HttpResponse.json(sample)));
  const server = setupServer(...handlers(emulator));
  const rounds: { staticMs: number; emuMs: number }[] = [];
  // Short alternating rounds, median reported: robust against a busy machine and a cold JIT.
  for (let round = 0; round < 15; round++) {
    baseline.listen({ onUnhandledRequest: 'error' });
    const staticMs = await timeLoop(n, async () => (await fetch(url, { headers })).json());
    baseline.close();
    server.listen({ onUnhandledRequest: 'error' });
    const emuMs = await timeLoop(n, async () => (await fetch(url, { headers })).json());
    server.close();
    if (round > 0) rounds.push({ staticMs, emuMs });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ratio = median(rounds.map((r) => r.emuMs / r.staticMs));
  const emuMs = median(rounds.map((r) => r.emuMs));
  const staticMs = median(rounds.map((r) => r.staticMs));
  say(`msw door: GET /projects/1 ${fmt(emuMs)} ms/request vs static MSW handler ${fmt(staticMs)} ms -> median ratio ${fmt(ratio, 2)}x (goal <= 1.3x)`);
}

/** emulator.handle() against a function that returns the same Response, per request. */
async function inProcess(): Promise<void> {
  const emulator = await createEmulator();
  const url = `${BASE}/api/v4/projects/1`;
  const headers = { 'PRIVATE-TOKEN': TOKEN };
  const sample = await emulator.handle(new Request(url, { headers }));
  const body = await sample.arrayBuffer();
  const sampleHeaders = [...sample.headers];
  const same = async (_: Request) => new Response(body.slice(0), { status: 200, headers: sampleHeaders });
  const n = 2000;
  const ratios: number[] = [];
  let emuMs = 0;
  let baseMs = 0;
  for (let round = 0; round < 9; round++) {
    baseMs = await timeLoop(n, async () => (await same(new Request(url, { headers }))).arrayBuffer());
    emuMs = await timeLoop(n, async () => (await emulator.handle(new Request(url, { headers }))).arrayBuffer());
    ratios.push(emuMs / baseMs);
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  say(`in process: emulator.handle(GET /projects/1) ${fmt(emuMs)} ms vs a function returning the same Response ${fmt(baseMs)} ms -> median ${fmt(median(ratios), 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x; goal <= 1.3x)`);
}

/** From createEmulator() with the default world to its first answer. */
async function startup(): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    const e = await createEmulator();
    const res = await e.handle(new Request(`${BASE}/api/v4/projects`));
    await res.text();
    times.push(performance.now() - start);
  }
  const sorted = [...times].sort((a, b) => a - b);
  say(`startup: createEmulator() to first answer, first ${fmt(times[0]!, 1)} ms, median ${fmt(sorted[10]!, 2)} ms (goal < 50 ms)`);
}

/** snapshot() plus restore() on a world of 10,000 projects. */
async function snapshots(): Promise<void> {
  const projects = Array.from({ length: 10_000 }, (_, i) => ({ namespace: 'acme', path: `p${i}`, creator: 'alice' }));
  const seedStart = performance.now();
  const e = await createEmulator({
    fixture: { users: [{ username: 'alice' }], groups: [{ path: 'acme', members: [{ user: 'alice', access_level: 'owner' }] }], projects },
  });
  const seedMs = performance.now() - seedStart;
  const n = 1_000_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) e.restore(e.snapshot());
  const us = ((performance.now() - start) * 1000) / n;
  // The baseline: the cost of the same loop over a plain object assignment.
  let holder = { state: e.state };
  const bStart = performance.now();
  for (let i = 0; i < n; i++) holder = { state: holder.state };
  const baseUs = ((performance.now() - bStart) * 1000) / n;
  say(`snapshot+restore on 10,000 projects: ${fmt(us, 4)} us (plain object copy ${fmt(baseUs, 4)} us) (goal < 10 us); seeding them took ${Math.round(seedMs)} ms`);
  // What one update of one project costs at that size (the partitioning claim).
  const updates = 2000;
  const uStart = performance.now();
  for (let i = 0; i < updates; i++) {
    e.store.update((d) => {
      tget(d.projects, 5000)!.description = `v${i}`;
    });
  }
  say(`one project update in a 10,000-project world: ${fmt((performance.now() - uStart) / updates, 4)} ms`);
}

/**
 * The cost of a write at 100 and at 100,000 records of the same collection: POST a milestone
 * to a project holding that many (built directly, as seeding 100,000 through the API would
 * take long), each through emulator.handle, alternating the two worlds.
 */
async function writeScaling(): Promise<void> {
  const { createMilestone } = await import('../src/families/milestones/rules.js');
  const { discardPending } = await import('../src/families/stream.js');
  const world = async (n: number) => {
    const e = await createEmulator();
    const id = 1;
    e.store.update((d) => {
      for (let i = 0; i < n; i++) createMilestone(d, { projectId: id }, { title: `m${i}` }, 0);
      // Records put in directly are data, as a seed's are: their events are not things that
      // happened (else the large world's event log starts full and each write trims it).
      discardPending(d);
    });
    return e;
  };
  const small = await world(100);
  const large = await world(100_000);
  const post = async (e: Awaited<ReturnType<typeof world>>, i: number) => {
    const res = await e.handle(new Request(`${BASE}/api/v4/projects/1/milestones`, { method: 'POST', headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: `new ${i}` }) }));
    if (res.status !== 201) throw new Error(`milestone create answered ${res.status}`);
  };
  const n = 200;
  const rounds: number[] = [];
  let smallMs = 0;
  let largeMs = 0;
  for (let round = 0; round < 5; round++) {
    const a = cpuNow();
    for (let i = 0; i < n; i++) await post(small, round * n + i);
    const b = cpuNow();
    for (let i = 0; i < n; i++) await post(large, round * n + i);
    const c = cpuNow();
    smallMs = (b - a) / n;
    largeMs = (c - b) / n;
    rounds.push(largeMs / smallMs);
  }
  const med = [...rounds].sort((x, y) => x - y)[2]!;
  say(`writes: POST a milestone at 100,000 milestones ${fmt(largeMs)} ms vs at 100 ${fmt(smallMs)} ms -> median ratio ${fmt(med, 2)}x (spread ${fmt(Math.min(...rounds), 2)}-${fmt(Math.max(...rounds), 2)}x; goal <= 1.5x)`);
}

/**
 * CI at 100,000 jobs (each in its pipeline, with artifacts) against 100: a job run through
 * `emulator.ci` (pipeline, job, log, finish with artifacts), keeping a job's artifacts through
 * the API, and a page of a project's jobs; alternating rounds, median ratio.
 */
async function ciScaling(): Promise<void> {
  const { createPipeline, addJob, attachArtifacts, finishJob } = await import('../src/families/ci/pipelines.js');
  const world = async (n: number) => {
    const e = await createEmulator({ clock: { now: '2026-01-01T00:00:00Z', frozen: true } });
    await e.seed({ projects: [{ namespace: 'acme', path: 'ci', creator: 'alice', repository: { files: { 'a.txt': 'a' } } }] });
    const project = e.ci('acme/ci');
    const first = project.pipeline({});
    const pid = first.projectId;
    const sha = first.sha;
    const now = e.clock.now();
    e.store.update((d) => {
      const proj = tget(d.projects, pid)!;
      for (let i = 0; i < n; i++) {
        const p = createPipeline(d, proj, { ref: 'main', sha, tag: false, userId: proj.creatorId }, now);
        const { job } = addJob(d, p, { name: 'build' }, now);
        attachArtifacts(d, job, { files: { 'out.txt': `run ${i}` }, expireIn: '1 week' }, now);
        finishJob(d, tget(d.jobs, job.id)!, { status: i % 3 ? 'success' : 'failed' }, now);
      }
    });
    return { e, ci: project, pid };
  };
  const small = await world(100);
  const large = await world(100_000);
  const run = (w: Awaited<ReturnType<typeof world>>) => {
    const p = w.ci.pipeline({});
    const j = w.ci.job(p.id, { name: 'build' });
    w.ci.log(j.id, 'done\n');
    w.ci.finish(j.id, { status: 'success', artifacts: { files: { 'out.txt': 'x' }, expireIn: '1 week' } });
    return j.id;
  };
  const keep = async (w: Awaited<ReturnType<typeof world>>, jobId: number) => {
    const res = await w.e.handle(new Request(`${BASE}/api/v4/projects/${w.pid}/jobs/${jobId}/artifacts/keep`, { method: 'POST', headers: { 'PRIVATE-TOKEN': TOKEN } }));
    if (res.status !== 200) throw new Error(`keep answered ${res.status}`);
    await res.arrayBuffer();
  };
  const page = async (w: Awaited<ReturnType<typeof world>>) => {
    const res = await w.e.handle(new Request(`${BASE}/api/v4/projects/${w.pid}/jobs?per_page=20&page=3`, { headers: { 'PRIVATE-TOKEN': TOKEN } }));
    if (res.status !== 200) throw new Error(`jobs page answered ${res.status}`);
    await res.arrayBuffer();
  };
  const measure = async (label: string, goal: string, op: (w: Awaited<ReturnType<typeof world>>) => Promise<unknown> | unknown) => {
    const n = 100;
    const ratios: number[] = [];
    let smallMs = 0;
    let largeMs = 0;
    for (let round = 0; round < 5; round++) {
      const a = cpuNow();
      for (let i = 0; i < n; i++) await op(small);
      const b = cpuNow();
      for (let i = 0; i < n; i++) await op(large);
      const c = cpuNow();
      smallMs = (b - a) / n;
      largeMs = (c - b) / n;
      ratios.push(largeMs / smallMs);
    }
    const med = [...ratios].sort((x, y) => x - y)[2]!;
    say(`ci: ${label} at 100,000 jobs ${fmt(largeMs)} ms vs at 100 ${fmt(smallMs)} ms -> median ${fmt(med, 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x; goal <= ${goal})`);
  };
  await measure('a job run (pipeline, job, log, finish with artifacts)', '1.5x', run);
  // Jobs made beforehand, one kept per request.
  const made = new Map([small, large].map((w) => [w, Array.from({ length: 500 }, () => run(w))]));
  await measure('POST keep of a job\'s artifacts', '1.5x', async (w) => keep(w, made.get(w)!.pop()!));
  await measure('GET a page of the project\'s jobs', '3x', page);
}

/**
 * The same for a repository's refs: POST a branch to a repository holding 100 branches and to
 * one holding 100,000 (set directly on the world's refs, all at the first commit), alternating.
 */
async function branchWriteScaling(): Promise<void> {
  const { branchTip, draftRefs, setBranchRef } = await import('../src/families/repositories/index.js');
  const fixture = {
    users: [{ username: 'bench', name: 'Bench Mark', email: 'bench@example.com', admin: true, tokens: [{ token: TOKEN, scopes: ['api'] }] }],
    projects: [{ namespace: 'bench', path: 'repo', creator: 'bench', repository: { files: { 'README.md': '# r\n' } } }],
  };
  const world = async (n: number) => {
    const e = await createEmulator({ fixture });
    const id = projectByIdOrPath(e.state, 'bench/repo')!.id;
    e.store.update((d) => {
      const refs = draftRefs(d, id);
      const tip = branchTip(refs, 'main')!;
      for (let i = 0; i < n; i++) setBranchRef(refs, `b${i}`, tip);
    });
    return e;
  };
  const small = await world(100);
  const large = await world(100_000);
  const post = async (e: Awaited<ReturnType<typeof world>>, i: number) => {
    const res = await e.handle(new Request(`${BASE}/api/v4/projects/bench%2Frepo/repository/branches`, { method: 'POST', headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' }, body: JSON.stringify({ branch: `new/${i}`, ref: 'main' }) }));
    if (res.status !== 201) throw new Error(`branch create answered ${res.status}: ${await res.text()}`);
  };
  for (let i = 0; i < 50; i++) {
    await post(small, -1 - i);
    await post(large, -1 - i);
  }
  const n = 200;
  const rounds: number[] = [];
  const smalls: number[] = [];
  const larges: number[] = [];
  for (let round = 0; round < 5; round++) {
    const a = cpuNow();
    for (let i = 0; i < n; i++) await post(small, round * n + i);
    const b = cpuNow();
    for (let i = 0; i < n; i++) await post(large, round * n + i);
    const c = cpuNow();
    smalls.push((b - a) / n);
    larges.push((c - b) / n);
    rounds.push(larges.at(-1)! / smalls.at(-1)!);
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  say(`writes: POST /projects/:id/repository/branches at 100,000 branches ${fmt(median(larges))} ms vs at 100 ${fmt(median(smalls))} ms -> median ratio ${fmt(median(rounds), 2)}x (spread ${fmt(Math.min(...rounds), 2)}-${fmt(Math.max(...rounds), 2)}x; goal <= 1.5x)`);
}

/**
 * A page of GET /projects at 10,000 projects against the same page at 100, on a cache miss (the
 * world changes before each request), for each kind of caller; alternating, median ratio.
 */
async function listScaling(): Promise<void> {
  const world = (n: number) =>
    createEmulator({
      fixture: {
        users: [{ username: 'root', admin: true, tokens: [{ token: TOKEN }] }, { username: 'alice', tokens: [{ token: 'alice' }] }, { username: 'bob', tokens: [{ token: 'bob' }] }],
        groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'owner' }] }],
        projects: Array.from({ length: n }, (_, i) => ({ namespace: 'acme', path: `p${i}`, visibility: i % 2 ? ('public' as const) : ('private' as const), creator: 'alice' })),
      },
    });
  const small = await world(100);
  const large = await world(10_000);
  const callers: [string, Record<string, string>][] = [['an admin', { 'PRIVATE-TOKEN': TOKEN }], ['a member', { 'PRIVATE-TOKEN': 'alice' }], ['an outsider', { 'PRIVATE-TOKEN': 'bob' }], ['anonymous', {}]];
  for (const [who, headers] of callers) {
    const time = async (e: Awaited<ReturnType<typeof world>>, n: number) => {
      const start = cpuNow();
      for (let i = 0; i < n; i++) {
        e.clock.advance(1); // any change of the world: the answer cannot come from the cache
        e.store.update((d) => void (d.rng.n += 1));
        await (await e.handle(new Request(`${BASE}/api/v4/projects?per_page=20&page=2`, { headers }))).text();
      }
      return (cpuNow() - start) / n;
    };
    await time(small, 20);
    await time(large, 20);
    const ratios: number[] = [];
    let smallMs = 0;
    let largeMs = 0;
    for (let round = 0; round < 5; round++) {
      smallMs = await time(small, 40);
      largeMs = await time(large, 40);
      ratios.push(largeMs / smallMs);
    }
    const med = [...ratios].sort((a, b) => a - b)[2]!;
    say(`lists: GET /projects page 2 as ${who}, cache miss: ${fmt(largeMs)} ms at 10,000 projects vs ${fmt(smallMs)} ms at 100 -> median ${fmt(med, 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x; goal <= 3x)`);
  }
}

async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === 'startup') await startup();
  if (!only || only === 'msw') await mswDoor();
  if (!only || only === 'server' || only === 'door') {
    const { benchServerDoor } = await import('./server-door.js');
    const [seconds, rounds] = process.argv.slice(3).map(Number);
    for (const line of await benchServerDoor(seconds || undefined, rounds || undefined)) say(line);
  }
  if (!only || only === 'handle') await inProcess();
  if (!only || only === 'start') {
    const { benchStart } = await import('./start.js');
    for (const line of await benchStart()) say(line);
  }
  if (!only || only === 'memory') {
    const { benchMemory } = await import('./memory.js');
    const [projects, commits] = process.argv.slice(3).map(Number);
    for (const line of await benchMemory(projects || undefined, commits || undefined)) say(line);
  }
  if (!only || only === 'artifacts') {
    const { benchArtifacts } = await import('./artifacts.js');
    const [seconds, rounds] = process.argv.slice(3).map(Number);
    for (const line of await benchArtifacts(seconds || undefined, rounds || undefined)) say(line);
  }
  if (!only || only === 'hooks') {
    const { benchHooks } = await import('./hooks.js');
    for (const line of await benchHooks()) say(line);
  }
  if (!only || only === 'data-dir') lines.push(...(await (await import('./data-dir.js')).benchDataDir())); // it prints its own lines
  if (!only || only === 'snapshot') await snapshots();
  if (!only || only === 'writes') {
    await writeScaling();
    await branchWriteScaling();
  }
  if (!only || only === 'lists') await listScaling();
  if (!only || only === 'ci') await ciScaling();
  if (!only || only === 'pipelines') for (const line of await (await import('./pipelines.js')).benchPipelines()) say(line);
  if (!only || only === 'git') {
    const gitBench = './git.js'; // written alongside the git families
    const mod: Record<string, unknown> | undefined = await import(gitBench).catch(() => undefined);
    if (mod && 'benchGit' in mod) for (const line of await (mod.benchGit as () => Promise<string[]>)()) say(line);
  }
  // A minute on this machine: run it by name only.
  if (only === 'clone') {
    const { benchClone } = await import('./git-clone.js');
    for (const line of await benchClone()) say(line);
  }
}

await main();
