// A page of merge requests at 10,000 merge requests against the same at 100, in the same run,
// printed as ratios of CPU time: a project's list (one project of n merge requests), and the
// group, instance and milestone lists (n merge requests spread over 20 projects of a group).
// Run with `npx tsx bench/mr-list.ts [regex of the cases to run]`. No test asserts on these
// numbers.
import { createEmulator, type Emulator } from '../src/index.js';
import { compare, cpu } from './cpu-ratio.js';

const API = 'https://gitlab.example.com/api/v4';
const SPREAD = 20;

/**
 * `projects` projects of `n / projects` merge requests each, each from a branch of its own; every
 * third one closed, every tenth labelled `bug`, every fifth in the group's milestone `v1`, every
 * other one assigned to its author.
 */
async function world(n: number, projects: number): Promise<Emulator> {
  const per = n / projects;
  return createEmulator({
    fixture: {
      users: [{ username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }], labels: [{ name: 'bug' }], milestones: [{ title: 'v1' }] }],
      projects: Array.from({ length: projects }, (_, p) => ({
        namespace: 'acme', path: projects === 1 ? 'app' : `app${p}`, visibility: 'private' as const,
        repository: { files: { 'README.md': '# app\n' }, branches: Object.fromEntries(Array.from({ length: per }, (_, i) => [`b${i}`, 'main'])) },
        merge_requests: Array.from({ length: per }, (_, i) => ({
          title: `Change ${i}`, source_branch: `b${i}`, author: 'dev', labels: i % 10 === 0 ? ['bug'] : [],
          assignees: i % 2 === 0 ? ['dev'] : [], milestone: i % 5 === 0 ? 'v1' : undefined, ...(i % 3 === 1 ? { state: 'closed' as const } : {}),
        })),
      })),
    },
  });
}

async function pages(e: Emulator, path: string, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    e.store.update((d) => void (d.rng.n += 1)); // any change of the world: the answer cannot come from the cache
    const res = await e.handle(new Request(`${API}${path}`, { headers: { 'PRIVATE-TOKEN': 'dev' } }));
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    await res.arrayBuffer();
  }
  return (cpu() - start) / n;
}

async function milestonePath(e: Emulator): Promise<string> {
  const res = await e.handle(new Request(`${API}/groups/acme/milestones?title=v1`, { headers: { 'PRIVATE-TOKEN': 'dev' } }));
  const [m] = (await res.json()) as { id: number }[];
  return `/groups/acme/milestones/${m!.id}/merge_requests`;
}

async function main(): Promise<void> {
  const only = new RegExp(process.argv[2] ?? '.');
  const cases: [string, (e: Emulator) => Promise<string> | string][] = [
    ...['per_page=20', 'state=opened&per_page=20&page=3', 'labels=bug&per_page=20', 'order_by=updated_at&sort=asc&per_page=20'].map((q): [string, () => string] => [`project ${q}`, () => `/projects/acme%2Fapp/merge_requests?${q}`]),
    ...['per_page=20', 'state=opened&per_page=20&page=3', 'labels=bug&per_page=20', 'order_by=updated_at&per_page=20'].map((q): [string, () => string] => [`group ${q}`, () => `/groups/acme/merge_requests?${q}`]),
    ...['per_page=20', 'scope=assigned_to_me&state=opened&per_page=20', 'scope=all&labels=bug&per_page=10&page=2'].map((q): [string, () => string] => [`instance ${q}`, () => `/merge_requests?${q}`]),
    ['group milestone per_page=20', async (e) => `${await milestonePath(e)}?per_page=20`],
  ];
  const chosen = cases.filter(([name]) => only.test(name));
  const t0 = performance.now();
  const sizes = new Map<number, [Emulator, Emulator]>();
  for (const projects of new Set(chosen.map(([name]) => (name.startsWith('project') ? 1 : SPREAD)))) sizes.set(projects, [await world(100, projects), await world(10_000, projects)]);
  console.log(`built worlds of 100 and 10,000 merge requests in ${Math.round(performance.now() - t0)} ms`);
  for (const [name, path] of chosen) {
    const [small, large] = sizes.get(name.startsWith('project') ? 1 : SPREAD)!;
    const [ps, pl] = [await path(small), await path(large)];
    const rounds = name.startsWith('project') ? 20 : 10;
    await compare(`${name}, cache miss`, 3, () => pages(small, ps, rounds), () => pages(large, pl, rounds), 'at 100|at 10,000');
  }
}

await main();
