// The issues family at scale: a filtered page of GET /projects/:id/issues and issue creation in
// a project of 1,000 issues against the same in a project of 100,000, in the same run, printed
// as ratios. Run with `npx tsx bench/issues.ts`. No test asserts on these numbers.
import { createEmulator, type Emulator } from '../src/index.js';
import { createIssue } from '../src/families/issues/rules.js';
import { putIssue } from '../src/families/issues/store.js';
import { projectByIdOrPath } from '../src/policy/paths.js';
import { tget } from '../src/store/table.js';
import type { State } from '../src/families/world.js';

const BASE = 'https://gitlab.example.com';
const fmt = (n: number, digits = 3) => n.toFixed(digits);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * A project of `n` issues: 60 by alice (half of them open, a third labelled `bug`), the rest by
 * others, opened and closed, labelled and not; built directly (seeding through the API would
 * take long), each through the family's own create service.
 */
async function world(n: number): Promise<Emulator> {
  const e = await createEmulator({
    fixture: {
      users: [
        { username: 'root', admin: true, tokens: [{ token: 'root' }] },
        { username: 'alice', tokens: [{ token: 'alice' }] },
        { username: 'bob', tokens: [{ token: 'bob' }] },
      ],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'alice', access_level: 'developer' }, { user: 'bob', access_level: 'developer' }] }],
      projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', labels: [{ name: 'bug' }, { name: 'ux' }] }],
    },
  });
  const project = projectByIdOrPath(e.state, 'acme/app')!;
  const alice = tget(e.state.users, tget(e.state.usernames, 'alice')!)!;
  const bob = tget(e.state.users, tget(e.state.usernames, 'bob')!)!;
  e.store.update((d) => {
    const draft = d as unknown as State;
    for (let i = 0; i < n; i++) {
      const byAlice = i % Math.floor(n / 60) === 0;
      const labels = i % 3 === 0 ? ['bug'] : i % 3 === 1 ? ['ux'] : [];
      const issue = createIssue(draft, project, byAlice ? alice : bob, { title: `Issue ${i}`, labels }, i * 1000)(d);
      if (i % 2 === 1) putIssue(d, { ...issue, state: 'closed', closedAt: i * 1000, closedById: bob.id });
    }
  });
  return e;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const small = await world(1_000);
  const t1 = performance.now();
  const large = await world(100_000);
  const t2 = performance.now();
  console.log(`built 1,000 issues in ${Math.round(t1 - t0)} ms, 100,000 in ${Math.round(t2 - t1)} ms`);
  const aliceId = tget(small.state.usernames, 'alice')!;
  const url = `${BASE}/api/v4/projects/acme%2Fapp/issues?state=opened&labels=bug&author_id=${aliceId}&per_page=20`;
  const headers = { 'PRIVATE-TOKEN': 'bob' };
  const read = async (e: Emulator, n: number) => {
    const start = performance.now();
    for (let i = 0; i < n; i++) {
      e.clock.advance(1); // any change of the world: the answer cannot come from the cache
      e.store.update((d) => void (d.rng.n += 1));
      const res = await e.handle(new Request(url, { headers }));
      if (res.status !== 200) throw new Error(`list answered ${res.status}`);
      await res.text();
    }
    return (performance.now() - start) / n;
  };
  const count = async (e: Emulator) => (await (await e.handle(new Request(url, { headers }))).json()).length;
  console.log(`matches on the first page: ${await count(small)} at 1,000, ${await count(large)} at 100,000`);
  await read(small, 30);
  await read(large, 30);
  const ratios: number[] = [];
  let s = 0;
  let l = 0;
  for (let round = 0; round < 5; round++) {
    s = await read(small, 60);
    l = await read(large, 60);
    ratios.push(l / s);
  }
  console.log(`lists: GET /projects/:id/issues?state=opened&labels=bug&author_id=..., cache miss: ${fmt(l)} ms at 100,000 issues vs ${fmt(s)} ms at 1,000 -> median ${fmt(median(ratios), 2)}x (spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x; goal <= 3x)`);

  const post = async (e: Emulator, i: number) => {
    const res = await e.handle(new Request(`${BASE}/api/v4/projects/acme%2Fapp/issues`, {
      method: 'POST', headers: { 'PRIVATE-TOKEN': 'alice', 'Content-Type': 'application/json' }, body: JSON.stringify({ title: `new ${i}`, labels: 'bug' }),
    }));
    if (res.status !== 201) throw new Error(`create answered ${res.status}`);
  };
  const write = async (e: Emulator, from: number, n: number) => {
    const start = performance.now();
    for (let i = 0; i < n; i++) await post(e, from + i);
    return (performance.now() - start) / n;
  };
  await write(small, 0, 50);
  await write(large, 0, 50);
  const wr: number[] = [];
  for (let round = 0; round < 5; round++) {
    s = await write(small, 100 + round * 100, 100);
    l = await write(large, 100 + round * 100, 100);
    wr.push(l / s);
  }
  console.log(`writes: POST /projects/:id/issues at 100,000 issues ${fmt(l)} ms vs at 1,000 ${fmt(s)} ms -> median ${fmt(median(wr), 2)}x (spread ${fmt(Math.min(...wr), 2)}-${fmt(Math.max(...wr), 2)}x; goal <= 1.5x)`);
}

await main();
