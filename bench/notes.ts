// Notes at scale: a page of GET …/issues/:iid/notes on an issue of 10,000 notes against the same
// on an issue of 100, and note creation on an issue of 4,000 notes against one of 100, in the
// same run, printed as ratios of CPU time. (GitLab refuses a comment once a noteable has 5,000
// notes, Noteable::MAX_NOTES_LIMIT, so creation is measured below that.) Run with
// `npx tsx bench/notes.ts`. No test asserts on these numbers.
import { createEmulator, type Emulator } from '../src/index.js';
import { compare, cpu } from './cpu-ratio.js';
import { addNote, noteKey } from '../src/store/notes.js';
import { issueByIid } from '../src/families/issues/index.js';
import { projectByIdOrPath } from '../src/policy/paths.js';
import { tget } from '../src/store/table.js';
import type { State } from '../src/families/world.js';

const BASE = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp/issues';

/** Issue #1 with `small` notes, #2 with `large`: every fifth a system note, every seventh internal. */
async function world(small: number, large: number): Promise<Emulator> {
  const e = await createEmulator({
    fixture: {
      users: [{ username: 'root', admin: true, tokens: [{ token: 'root' }] }, { username: 'dev', tokens: [{ token: 'dev' }] }],
      groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'developer' }] }],
      projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', issues: [{ title: 'small', author: 'dev' }, { title: 'large', author: 'dev' }] }],
    },
  });
  const project = projectByIdOrPath(e.state, 'acme/app')!;
  const dev = tget(e.state.usernames, 'dev')!;
  e.store.update((d) => {
    const draft = d as unknown as State;
    for (const [iid, n] of [[1, small], [2, large]] as const) {
      const issue = issueByIid(draft, project.id, iid)!;
      for (let i = 0; i < n; i++) {
        addNote(draft, noteKey('Issue', issue.id), {
          noteableType: 'Issue', noteableId: issue.id, commitId: null, projectId: project.id, authorId: dev, body: `note ${i}`, system: i % 5 === 0,
          internal: i % 7 === 0, createdAt: i * 1000, updatedAt: i * 1000,
        });
      }
    }
  });
  return e;
}

const headers = { 'PRIVATE-TOKEN': 'dev' };

async function read(e: Emulator, iid: number, query: string, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    e.store.update((d) => void (d.rng.n += 1)); // any change of the world: the answer cannot come from the cache
    const res = await e.handle(new Request(`${BASE}/${iid}/notes?${query}`, { headers }));
    if (res.status !== 200) throw new Error(`list answered ${res.status}`);
    await res.text();
  }
  return (cpu() - start) / n;
}

async function write(e: Emulator, iid: number, n: number): Promise<number> {
  const start = cpu();
  for (let i = 0; i < n; i++) {
    const res = await e.handle(new Request(`${BASE}/${iid}/notes`, {
      method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ body: `new ${i}` }),
    }));
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
  }
  return (cpu() - start) / n;
}


async function main(): Promise<void> {
  const t0 = performance.now();
  const lists = await world(100, 10_000);
  console.log(`built issues of 100 and 10,000 notes in ${Math.round(performance.now() - t0)} ms`);
  for (const query of ['per_page=20', 'sort=asc&page=3&per_page=20', 'order_by=updated_at&activity_filter=only_comments&per_page=20']) {
    await compare(`GET …/notes?${query}, cache miss`, 3, () => read(lists, 1, query, 100), () => read(lists, 2, query, 100), 'at 100 notes|at 10,000 notes');
  }
  const writes = await world(100, 4_000);
  await compare('POST …/notes', 1.5, () => write(writes, 1, 40), () => write(writes, 2, 40), 'at 100 notes|at 4,000 notes');
  // A list right after a write: the noteable's notes changed, so its ordered lists are built again.
  const after = async (iid: number) => {
    const start = cpu();
    for (let i = 0; i < 20; i++) {
      await write(writes, iid, 1);
      await read(writes, iid, 'per_page=20', 1);
    }
    return (cpu() - start) / 20;
  };
  await compare('a note created, then the first page listed', 3, () => after(1), () => after(2), 'at ~500 notes|at ~4,500 notes');
}

await main();
