// Benchmarks of repositories (DESIGN.md "Git objects are append-only, refs are state"): the
// emulator's API against isomorphic-git used directly on a memfs volume, in the same run.
// `benchGit()` returns printable lines; nothing asserts on them.
import git from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';

const BASE = 'https://gitlab.example.com/api/v4';
const TOKEN = 'bench-token';
const FIXTURE: Fixture = {
  users: [{ username: 'bench', name: 'Bench Mark', email: 'bench@example.com', admin: true, tokens: [{ token: TOKEN, scopes: ['api'] }] }],
  projects: [{ namespace: 'bench', path: 'repo', creator: 'bench' }],
};
const REPO = `${BASE}/projects/bench%2Frepo/repository`;
const AUTHOR = { name: 'Bench Mark', email: 'bench@example.com', timestamp: 1_700_000_000, timezoneOffset: 0 };
const enc = new TextEncoder();

const fmt = (n: number, digits = 3) => n.toFixed(digits);

function call(e: Emulator, method: string, url: string, json?: unknown): Promise<Response> {
  return e.handle(
    new Request(url, {
      method,
      headers: { 'PRIVATE-TOKEN': TOKEN, ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    }),
  );
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** A bare repository on its own memfs volume, written with isomorphic-git's low-level calls. */
function directRepo() {
  const fs = createFsFromVolume(new Volume()) as unknown as Parameters<typeof git.init>[0]['fs'];
  const gitdir = '/bench.git';
  return { fs, gitdir, ready: git.init({ fs, gitdir, bare: true }) };
}

/** One commit adding `dir/name` on top of `parent`, the way a caller of isomorphic-git would write it. */
async function directCommit(r: ReturnType<typeof directRepo>, parent: string | null, dir: string, name: string, text: string): Promise<string> {
  const { fs, gitdir } = r;
  const blob = await git.writeBlob({ fs, gitdir, blob: enc.encode(text) });
  const root = parent ? (await git.readTree({ fs, gitdir, oid: parent })).tree : [];
  const sub = root.find((e) => e.path === dir);
  const inner = sub ? (await git.readTree({ fs, gitdir, oid: sub.oid })).tree.filter((e) => e.path !== name) : [];
  const subOid = await git.writeTree({ fs, gitdir, tree: [...inner, { mode: '100644', path: name, oid: blob, type: 'blob' }] });
  const tree = await git.writeTree({ fs, gitdir, tree: [...root.filter((e) => e.path !== dir), { mode: '040000', path: dir, oid: subOid, type: 'tree' }] });
  return git.writeCommit({ fs, gitdir, commit: { message: `Add ${name}\n`, tree, parent: parent ? [parent] : [], author: AUTHOR, committer: AUTHOR } });
}

async function createFiles(lines: string[]): Promise<void> {
  const n = 1000;
  const viaApi = async (count: number) => {
    const e = await createEmulator({ fixture: FIXTURE, clock: { now: '2024-01-01T00:00:00Z', frozen: true } });
    return timed(async () => {
      for (let i = 0; i < count; i++) {
        const res = await call(e, 'POST', `${REPO}/files/dir${i % 10}%2Ffile${i}%2Etxt`, { branch: 'main', content: `file ${i}\n`, commit_message: `Add file${i}.txt` });
        if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${await res.text()}`);
      }
    });
  };
  const viaGit = async (count: number) => {
    const r = directRepo();
    await r.ready;
    return timed(async () => {
      let head: string | null = null;
      for (let i = 0; i < count; i++) head = await directCommit(r, head, `dir${i % 10}`, `file${i}.txt`, `file ${i}\n`);
    });
  };
  // Both sides warm up first: neither should pay for the JIT compiling code the other one ran.
  await viaApi(200);
  await viaGit(200);
  const api = await viaApi(n);
  const direct = await viaGit(n);
  lines.push(
    `git: create ${n} files, one commit each: API ${fmt(api / n)} ms/commit vs isomorphic-git directly ${fmt(direct / n)} ms -> ratio ${fmt(api / direct, 2)}x`,
  );
}

async function readFiles(lines: string[]): Promise<void> {
  const n = 10_000;
  const text = 'line\n'.repeat(200);
  const e = await createEmulator({
    fixture: { ...FIXTURE, projects: [{ ...FIXTURE.projects![0]!, repository: { files: { 'src/app/main.rb': text, 'README.md': '# r\n' } } }] },
    clock: { now: '2024-01-01T00:00:00Z', frozen: true },
  });
  const g = e.git('bench/repo');
  const sha = g.refs().branches.main!;
  const rawUrl = `${REPO}/files/src%2Fapp%2Fmain%2Erb/raw?ref=${sha}`;
  const jsonUrl = `${REPO}/files/src%2Fapp%2Fmain%2Erb?ref=${sha}`;
  const check = await (await call(e, 'GET', rawUrl)).text();
  if (check !== text) throw new Error('raw read differs');
  const raw = await timed(async () => {
    for (let i = 0; i < n; i++) await (await call(e, 'GET', rawUrl)).arrayBuffer();
  });
  const meta = await timed(async () => {
    for (let i = 0; i < n; i++) await (await call(e, 'GET', jsonUrl)).arrayBuffer();
  });
  const cache = {};
  const direct = await timed(async () => {
    for (let i = 0; i < n; i++) await git.readBlob({ fs: g.fs, gitdir: g.gitdir, oid: sha, filepath: 'src/app/main.rb', cache });
  });
  lines.push(
    `git: read a file at a ref ${n} times: API /raw ${fmt(raw / n)} ms/read, API metadata+content ${fmt(meta / n)} ms vs isomorphic-git readBlob ${fmt(direct / n)} ms -> ratios ${fmt(raw / direct, 2)}x, ${fmt(meta / direct, 2)}x`,
  );
}

async function blameFile(lines: string[]): Promise<void> {
  const size = 1000;
  const commits = 200;
  let seed = 7;
  const rnd = (k: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648) % k);
  const content = Array.from({ length: size }, (_, i) => `line ${i}`);
  const history = [];
  for (let c = 0; c < commits; c++) {
    for (let k = 0; k < 5; k++) content[rnd(size)] = `changed in ${c}.${k}`;
    history.push({ message: `Change ${c}`, files: { 'big.txt': `${content.join('\n')}\n` } });
  }
  const e = await createEmulator({
    fixture: { ...FIXTURE, projects: [{ ...FIXTURE.projects![0]!, repository: { files: { 'big.txt': `${Array.from({ length: size }, (_, i) => `line ${i}`).join('\n')}\n` }, commits: history } }] },
    clock: { now: '2024-01-01T00:00:00Z', frozen: true },
  });
  const url = `${REPO}/files/big%2Etxt/blame?ref=main`;
  let ranges = 0;
  const cold = await timed(async () => {
    ranges = ((await (await call(e, 'GET', url)).json()) as unknown[]).length;
  });
  const warm = await timed(async () => {
    await (await call(e, 'GET', url)).arrayBuffer();
  });
  // The floor of a blame built on isomorphic-git: the file's history and every version of it.
  const g = e.git('bench/repo');
  const direct = await timed(async () => {
    const cache = {};
    const log = await git.log({ fs: g.fs, gitdir: g.gitdir, ref: g.refs().branches.main!, filepath: 'big.txt', cache });
    for (const c of log) await git.readBlob({ fs: g.fs, gitdir: g.gitdir, oid: c.oid, filepath: 'big.txt', cache });
  });
  lines.push(
    `git: blame a ${size}-line file with ${commits} commits (${ranges} ranges): API ${fmt(cold, 1)} ms cold, ${fmt(warm, 2)} ms again vs isomorphic-git log+readBlob of its history ${fmt(direct, 1)} ms -> ratio ${fmt(cold / direct, 2)}x`,
  );
}

export async function benchGit(): Promise<string[]> {
  const lines: string[] = [];
  await createFiles(lines);
  await readFiles(lines);
  await blameFile(lines);
  return lines;
}
