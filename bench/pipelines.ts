// Pipelines at scale, each against a baseline measured in the same run, printed as ratios of CPU
// time (the machine is shared: time spent descheduled is not the work's): a push (a commit
// through the API) that creates a pipeline of 50 jobs against the same push with a file of 5
// jobs, and a page of a project's pipelines (`GET /projects/:id/pipelines?per_page=20`, cache
// miss) at 10,000 pipelines against 100. `npx tsx bench/pipelines.ts`, or `npm run bench -- pipelines`.
// No test asserts on these numbers.
import { createEmulator, type Emulator } from '../src/index.js';
import { tget } from '../src/store/table.js';
import { projectByIdOrPath } from '../src/policy/paths.js';
import { createPipeline } from '../src/families/ci/pipelines.js';
import { fmt, median, cpu } from './cpu-ratio.js';

const API = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp';
const headers = { 'PRIVATE-TOKEN': 'dev', 'Content-Type': 'application/json' };

/** A `.gitlab-ci.yml` of `n` jobs over five stages, with rules, variables and needs as real files have them. */
export function ciFile(n: number): string {
  const stages = ['build', 'test', 'lint', 'package', 'deploy'];
  const lines = [`stages: [${stages.join(', ')}]`, 'variables:', '  GREETING: hello', 'default:', '  image: node:20'];
  for (let i = 0; i < n; i++) {
    const stage = stages[i % stages.length]!;
    lines.push(`job-${i}:`, `  stage: ${stage}`, `  script: [echo $GREETING ${i}, make target-${i}]`, '  variables:', `    INDEX: "${i}"`, '  rules:', '    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH || $CI_PIPELINE_SOURCE == "merge_request_event"');
    if (i >= stages.length) lines.push(`  needs: [job-${i - stages.length}]`);
  }
  return `${lines.join('\n')}\n`;
}

export function world(files: Record<string, string>): Promise<Emulator> {
  return createEmulator({
    clock: { now: '2026-01-01T00:00:00Z', frozen: true },
    fixture: {
      users: [{ username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }] }],
      projects: [{ namespace: 'acme', path: 'app', visibility: 'private', repository: { files: { 'README.md': '# app\n', ...files } } }],
    },
  });
}

let made = 0;
/** ms of CPU per push; each push must have made its pipeline with `jobs` jobs. */
export async function pushes(e: Emulator, jobs: number, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    const res = await e.handle(new Request(`${API}/repository/commits`, {
      method: 'POST', headers,
      body: JSON.stringify({ branch: 'main', commit_message: `c${++made}`, actions: [{ action: 'create', file_path: `f${made}.txt`, content: 'x' }] }),
    }));
    if (res.status !== 201) throw new Error(`commit answered ${res.status}`);
  }
  const took = (cpu() - start) / n;
  if (jobs === 0) return took;
  const page = await e.handle(new Request(`${API}/pipelines?per_page=1`, { headers }));
  const [latest] = (await page.json()) as { id: number }[];
  const count = await e.handle(new Request(`${API}/pipelines/${latest!.id}/jobs?per_page=100`, { headers }));
  const got = Number(count.headers.get('x-total'));
  if (got !== jobs) throw new Error(`the pipeline has ${got} jobs, not ${jobs}`);
  return took;
}

/** A project holding `n` pipelines (made directly: creating 10,000 through pushes would take minutes). */
async function pipelineWorld(n: number): Promise<Emulator> {
  const e = await world({});
  const project = projectByIdOrPath(e.state, 'acme/app')!;
  const sha = (await (await e.handle(new Request(`${API}/repository/branches/main`, { headers }))).json() as { commit: { id: string } }).commit.id;
  const now = e.clock.now();
  e.store.update((d) => {
    const p = tget(d.projects, project.id)!;
    for (let i = 0; i < n; i++) createPipeline(d, p, { ref: 'main', sha, tag: false, userId: p.creatorId, status: i % 3 ? 'success' : 'failed' }, now);
  });
  return e;
}

async function pages(e: Emulator, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    e.store.update((d) => void (d.rng.n += 1)); // any change of the world: the answer cannot come from the cache
    const res = await e.handle(new Request(`${API}/pipelines?per_page=20`, { headers }));
    if (res.status !== 200) throw new Error(`pipelines answered ${res.status}`);
    await res.arrayBuffer();
  }
  return (cpu() - start) / n;
}

/** Warm-up, then `rounds` alternating rounds; the median ratio with its spread. */
async function compare(label: string, goal: string, base: () => Promise<number>, measured: () => Promise<number>, sizes: [string, string], rounds = 7): Promise<string> {
  await base();
  await measured();
  const ratios: number[] = [];
  const bs: number[] = [];
  const ms: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const b = await base();
    const m = await measured();
    bs.push(b);
    ms.push(m);
    ratios.push(m / b);
  }
  return `pipelines: ${label}: ${fmt(median(ms))} ms ${sizes[1]} vs ${fmt(median(bs))} ms ${sizes[0]} (CPU) -> median ${fmt(median(ratios), 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x, ${rounds} rounds; goal <= ${goal})`;
}

export async function benchPipelines(): Promise<string[]> {
  const lines: string[] = [];
  const five = await world({ '.gitlab-ci.yml': ciFile(5) });
  const fifty = await world({ '.gitlab-ci.yml': ciFile(50) });
  // The baseline of both: the same push into a project with no CI file (no pipeline).
  const none = await world({});
  lines.push(await compare('a push creating a pipeline of 50 jobs', '10x (the jobs are 10x)', () => pushes(five, 5, 10), () => pushes(fifty, 50, 10), ['with 5 jobs', 'with 50 jobs']));
  lines.push(await compare('a push creating a pipeline of 5 jobs', '-', () => pushes(none, 0, 10), () => pushes(five, 5, 10), ['with no CI file', 'with 5 jobs'], 3));
  const small = await pipelineWorld(100);
  const large = await pipelineWorld(10_000);
  lines.push(await compare('GET /projects/:id/pipelines?per_page=20, cache miss', '3x', () => pages(small, 20), () => pages(large, 20), ['at 100 pipelines', 'at 10,000 pipelines']));
  return lines;
}

if (process.argv[1]?.endsWith("pipelines.ts") && import.meta.url === `file://${process.argv[1]}`) for (const line of await benchPipelines()) console.log(line);
