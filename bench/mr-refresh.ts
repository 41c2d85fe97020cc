// Merge requests follow their branches: a commit through the API to the source branch of an open
// merge request (which moves its head and notes the commit) in a repository of 2,000 commits
// against the same in one of 20, and against a commit to a branch no merge request uses, in the
// same run, printed as ratios of CPU time. Run with `npx tsx bench/mr-refresh.ts`. No test
// asserts on these numbers.
import { createEmulator, type Emulator } from '../src/index.js';
import { compare, cpu } from './cpu-ratio.js';

const API = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp';

/** A repository of `history` commits on main, branches `feature` (with an open merge request) and `other`. */
async function world(history: number, others = 0): Promise<Emulator> {
  return createEmulator({
    fixture: {
      users: [{ username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }] }],
      projects: [{
        namespace: 'acme', path: 'app', visibility: 'private',
        repository: {
          files: { 'README.md': '# app\n' },
          branches: Object.fromEntries(Array.from({ length: others }, (_, i) => [`b${i}`, 'main'])),
          commits: [
            ...Array.from({ length: history - 1 }, (_, i) => ({ message: `Commit ${i}`, files: { [`f${i % 50}.txt`]: `${i}\n` } })),
            { branch: 'feature', message: 'Start', files: { 'feature.txt': 'start\n' } },
            { branch: 'other', message: 'Other', files: { 'other.txt': 'other\n' } },
          ],
        },
        merge_requests: [
          { title: 'Feature', source_branch: 'feature', author: 'dev' },
          ...Array.from({ length: others }, (_, i) => ({ title: `Other ${i}`, source_branch: `b${i}`, author: 'dev' })),
        ],
      }],
    },
  });
}

let serial = 0;
async function commits(e: Emulator, branch: string, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    const res = await e.handle(new Request(`${API}/repository/commits`, {
      method: 'POST', headers: { 'PRIVATE-TOKEN': 'dev', 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch, commit_message: `Change ${++serial}`, actions: [{ action: 'create', file_path: `new/${serial}.txt`, content: 'x\n' }] }),
    }));
    if (res.status !== 201) throw new Error(`commit answered ${res.status}: ${await res.text()}`);
  }
  return (cpu() - start) / n;
}


async function main(): Promise<void> {
  const t0 = performance.now();
  const small = await world(20);
  const large = await world(2_000);
  console.log(`built repositories of 20 and 2,000 commits in ${Math.round(performance.now() - t0)} ms`);
  await compare('commit to a merge request’s source branch', 3, () => commits(small, 'feature', 10), () => commits(large, 'feature', 10), 'at 20 commits|at 2,000 commits');
  await compare('commit to the source branch against one to a branch without merge request, at 2,000 commits', 3,
    () => commits(large, 'other', 10), () => commits(large, 'feature', 10), 'to other|to feature');
  const t1 = performance.now();
  const crowded = await world(20, 10_000);
  console.log(`built a project of 10,001 open merge requests in ${Math.round(performance.now() - t1)} ms`);
  await compare('commit to a merge request’s source branch, 1 open merge request against 10,001', 3,
    () => commits(small, 'feature', 10), () => commits(crowded, 'feature', 10), 'at 1|at 10,001');
}

await main();
