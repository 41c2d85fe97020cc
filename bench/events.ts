// The event stream at scale: a page of GET /projects/:id/events, and a write that records an
// event (a commit through the API), with the log full (20,000 events, its limit, so each write
// also drops the oldest) against a log of 100, in the same run, printed as ratios of CPU time. Run with `npx tsx bench/events.ts`. No
// test asserts on these numbers.
import { createEmulator, type Emulator } from '../src/index.js';
import { compare, cpu } from './cpu-ratio.js';
import { EVENT_LOG_LIMIT } from '../src/families/stream.js';

const API = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp';
const headers = { 'PRIVATE-TOKEN': 'dev' };

/** A project whose log holds `n` events: milestones its maintainer opened through the API. */
async function world(n: number): Promise<Emulator> {
  const e = await createEmulator({
    fixture: {
      users: [{ username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }] }],
      projects: [{ namespace: 'acme', path: 'app', visibility: 'private', repository: { files: { 'README.md': '# app\n' } } }],
    },
  });
  for (let i = 0; i < n; i++) {
    const res = await e.handle(new Request(`${API}/milestones`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ title: `m${i}` }) }));
    if (res.status !== 201) throw new Error(`milestone answered ${res.status}`);
  }
  return e;
}

async function pages(e: Emulator, query: string, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    const res = await e.handle(new Request(`${API}/events?${query}`, { headers }));
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    await res.arrayBuffer();
  }
  return (cpu() - start) / n;
}

let made = 0;
async function writes(e: Emulator, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    const res = await e.handle(new Request(`${API}/repository/commits`, {
      method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch: 'main', commit_message: `c${++made}`, actions: [{ action: 'create', file_path: `f${made}.txt`, content: 'x' }] }),
    }));
    if (res.status !== 201) throw new Error(`commit answered ${res.status}`);
  }
  return (cpu() - start) / n;
}

async function main(): Promise<void> {
  const small = await world(100);
  const large = await world(EVENT_LOG_LIMIT);
  // `npx tsx bench/events.ts writes` measures the write alone.
  if (process.argv[2] !== 'writes') for (const query of ['per_page=20', 'per_page=20&page=5', 'action=created&sort=asc&per_page=20', 'target_type=milestone&action=created&per_page=20', 'after=2020-01-01&per_page=20']) {
    await compare(`GET …/events?${query}`, 3, () => pages(small, query, 20), () => pages(large, query, 20), 'at 100 events|at 20,000 events');
  }
  await compare('POST …/repository/commits (one push event)', 1.5, () => writes(small, 50), () => writes(large, 50), 'at 100 events|at 20,000 events');
}

await main();
