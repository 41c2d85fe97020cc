// GET /users?search= at 1,000 and at 100,000 users, through emulator.handle, alternating the two
// worlds; printed as a ratio (goal: within 3x). Run with `npx tsx bench/users.ts`.
import { createEmulator, type Emulator } from '../src/index.js';
import { createToken, createUser } from '../src/families/users/index.js';

const BASE = 'https://gitlab.example.com';

/** A world of `n` users, built directly (seeding 100,000 through the API would take long). */
async function world(n: number): Promise<Emulator> {
  const e = await createEmulator({ clock: { now: '2024-03-01T12:00:00Z', frozen: true } });
  e.store.update((d) => {
    const viewer = createUser(d, { username: 'viewer', name: 'Viewer', last_activity_on: '2024-03-01' }, 0);
    createToken(d, viewer.id, { token: 'viewer-token' }, 0);
    const admin = createUser(d, { username: 'boss', name: 'Boss', admin: true, last_activity_on: '2024-03-01' }, 0);
    createToken(d, admin.id, { token: 'boss-token' }, 0);
    for (let i = 0; i < n; i++) {
      // One user in each world answers the search; the rest share common words.
      const name = i === 500 ? 'Zephyrine Quill' : `Person ${i} of the team`;
      createUser(d, { username: `member${i}`, name }, 0);
    }
  });
  return e;
}

async function perRequest(e: Emulator, url: string, token: string, n: number): Promise<number> {
  const headers = { 'PRIVATE-TOKEN': token };
  const start = performance.now();
  for (let i = 0; i < n; i++) await (await e.handle(new Request(url, { headers }))).text();
  return (performance.now() - start) / n;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const built = performance.now();
  const small = await world(1_000);
  const large = await world(100_000);
  console.log(`worlds built in ${((performance.now() - built) / 1000).toFixed(1)} s`);
  for (const [who, token] of [['user', 'viewer-token'], ['administrator', 'boss-token']] as const) {
    // A new query each request, so no cached answer is reused.
    let q = 0;
    const url = () => `${BASE}/api/v4/users?search=zephyr&page=1&q=${q++}`;
    const check = await (await large.handle(new Request(url(), { headers: { 'PRIVATE-TOKEN': token } }))).json();
    if (check.length !== 1) throw new Error(`expected one match, got ${check.length}`);
    await perRequest(small, url(), token, 50); // warm up, builds the search indexes
    await perRequest(large, url(), token, 50);
    const rounds: { s: number; l: number }[] = [];
    for (let r = 0; r < 9; r++) {
      let s = 0;
      let l = 0;
      const n = 100;
      const hs = { 'PRIVATE-TOKEN': token };
      let t = performance.now();
      for (let i = 0; i < n; i++) await (await small.handle(new Request(url(), { headers: hs }))).text();
      s = (performance.now() - t) / n;
      t = performance.now();
      for (let i = 0; i < n; i++) await (await large.handle(new Request(url(), { headers: hs }))).text();
      l = (performance.now() - t) / n;
      rounds.push({ s, l });
    }
    const ratio = median(rounds.map((r) => r.l / r.s));
    console.log(
      `GET /users?search= as ${who}: ${median(rounds.map((r) => r.l)).toFixed(3)} ms at 100,000 users vs ${median(rounds.map((r) => r.s)).toFixed(3)} ms at 1,000 -> median ratio ${ratio.toFixed(2)}x (goal <= 3x)`,
    );
  }
}

await main();
