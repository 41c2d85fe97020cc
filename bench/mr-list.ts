// A page of a project's merge requests at 10,000 merge requests against the same at 100, in the
// same run, printed as ratios of CPU time. Run with `npx tsx bench/mr-list.ts`. No test asserts
// on these numbers.
import { createEmulator, type Emulator } from '../src/index.js';
import { compare, cpu } from './cpu-ratio.js';

const API = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp/merge_requests';

/** A project of `n` merge requests, each from a branch of its own; every third one closed. */
async function world(n: number): Promise<Emulator> {
  const e = await createEmulator({
    fixture: {
      users: [{ username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }] }],
      projects: [{
        namespace: 'acme', path: 'app', visibility: 'private',
        repository: { files: { 'README.md': '# app\n' }, branches: Object.fromEntries(Array.from({ length: n }, (_, i) => [`b${i}`, 'main'])) },
        labels: [{ name: 'bug' }],
        merge_requests: Array.from({ length: n }, (_, i) => ({ title: `Change ${i}`, source_branch: `b${i}`, author: 'dev', labels: i % 10 === 0 ? ['bug'] : [] })),
      }],
    },
  });
  return e;
}

async function pages(e: Emulator, query: string, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    e.store.update((d) => void (d.rng.n += 1)); // any change of the world: the answer cannot come from the cache
    const res = await e.handle(new Request(`${API}?${query}`, { headers: { 'PRIVATE-TOKEN': 'dev' } }));
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    await res.arrayBuffer();
  }
  return (cpu() - start) / n;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const small = await world(100);
  const large = await world(10_000);
  console.log(`built projects of 100 and 10,000 merge requests in ${Math.round(performance.now() - t0)} ms`);
  for (const query of ['per_page=20', 'state=opened&per_page=20&page=3', 'labels=bug&per_page=20', 'order_by=updated_at&sort=asc&per_page=20']) {
    await compare(`GET …/merge_requests?${query}, cache miss`, 3, () => pages(small, query, 20), () => pages(large, query, 20), 'at 100|at 10,000');
  }
}

await main();
