// What a data directory costs a write: the same write through `emulator.handle()` on an emulator
// with `dataDir` against one without, in the same run, in alternating rounds, as a ratio of wall
// time (the directory's cost is mostly waiting for the disk's fsync, which CPU time would not
// see), median and spread. Three writes: an issue created (a small change of the world), a commit
// of one file through the API (git objects too), and the issue created again in a world of 5,000
// issues (the change logged follows the write, not the world). Also the time to start again on
// the directory. `npx tsx bench/data-dir.ts`, or `npm run bench -- data-dir`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '../src/index.js';

const BASE = 'https://gitlab.example.com/api/v4';
const HEADERS = { 'PRIVATE-TOKEN': 'glpat-emulator-root-token', 'Content-Type': 'application/json' };
const fmt = (n: number, digits = 3) => n.toFixed(digits);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

type Write = (e: Emulator, i: number) => Promise<void>;

const post = async (e: Emulator, path: string, body: unknown) => {
  const res = await e.handle(new Request(`${BASE}${path}`, { method: 'POST', headers: HEADERS, body: JSON.stringify(body) }));
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
};

const createIssue: Write = (e, i) => post(e, '/projects/1/issues', { title: `Issue ${i}`, description: 'A write to measure' });
let files = 0;
const commitFile: Write = (e) => post(e, '/projects/1/repository/commits', { branch: 'main', commit_message: 'one file', actions: [{ action: 'create', file_path: `f/${++files}.txt`, content: `file ${files}\n` }] });

/** Milliseconds of wall time per write, over `n` writes. */
async function time(e: Emulator, n: number, write: Write): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < n; i++) await write(e, i);
  return (performance.now() - start) / n;
}

async function compare(label: string, write: Write, n: number, prepare?: (e: Emulator) => Promise<void>): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'gle-bench-data-dir-')), 'data');
  const plain = await createEmulator();
  const kept = await createEmulator({ dataDir: dir });
  if (prepare) {
    await prepare(plain);
    await prepare(kept);
  }
  await time(plain, 20, write); // warm up
  await time(kept, 20, write);
  const ratios: number[] = [];
  const plainMs: number[] = [];
  const keptMs: number[] = [];
  for (let round = 0; round < 9; round++) {
    // Alternating which goes first, so that neither always runs on a warmer or quieter machine.
    const [a, b] = round % 2 === 0 ? [plain, kept] : [kept, plain];
    const ta = await time(a, n, write);
    const tb = await time(b, n, write);
    const [p, k] = a === plain ? [ta, tb] : [tb, ta];
    plainMs.push(p);
    keptMs.push(k);
    ratios.push(k / p);
  }
  await kept.close();
  const startAgain = performance.now();
  const reopened = await createEmulator({ dataDir: dir });
  const reopenMs = performance.now() - startAgain;
  await reopened.close();
  rmSync(dir, { recursive: true, force: true });
  return (
    `data-dir: ${label}: ${fmt(median(keptMs))} ms with a data dir vs ${fmt(median(plainMs))} ms without -> median ${fmt(median(ratios), 2)}x ` +
    `(spread ${fmt(Math.min(...ratios), 2)}-${fmt(Math.max(...ratios), 2)}x; ${n} writes x 9 rounds); start again on it: ${fmt(reopenMs, 0)} ms`
  );
}

export async function benchDataDir(): Promise<string[]> {
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  say(await compare('POST /projects/:id/issues', createIssue, 100));
  say(await compare('POST /projects/:id/repository/commits (one file)', commitFile, 50));
  say(
    await compare('POST /projects/:id/issues among 5,000 issues', createIssue, 100, async (e) => {
      for (let i = 0; i < 5000; i++) await createIssue(e, i);
    }),
  );
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDataDir();
