// How long the scans of user text take on adversarial input, at two sizes: a linear scan takes
// about four times as long at four times the text, a quadratic one sixteen. Prints the times and
// the ratio; no test asserts on them (machines are shared and noisy). `npx tsx bench/probe-scans.ts`.
import { createEmulator } from '../src/index.js';

const P = '/projects/acme%2Fapp';
const emulator = await createEmulator({
  fixture: {
    users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }],
    groups: [{ path: 'acme', visibility: 'public' }],
    projects: [{ namespace: 'acme', path: 'app', repository: { files: { 'a.txt': 'a\n' }, branches: { fix: 'main' } }, issues: [{ title: 'One' }], merge_requests: [{ title: 'MR', source_branch: 'fix' }] }],
  },
});
const base = emulator.snapshot();

const CASES: [string, string, string, (t: string) => unknown][] = [
  ['merge request description, letters', 'PUT', `${P}/merge_requests/1`, (t) => ({ description: t })],
  ['issue description, path segments before a reference', 'POST', `${P}/issues`, (t) => ({ title: 'q', description: `${t.replace(/./g, (c, i) => (i % 2 ? '/' : 'a'))}#1` })],
  ['issue description, URL-like runs', 'POST', `${P}/issues`, (t) => ({ title: 'q', description: `${'http://x/-/issues/'.repeat(t.length / 18)} #1` })],
  ['note with quick actions and code fences', 'POST', `${P}/issues/1/notes`, (t) => ({ body: '```\n/close\n'.repeat(t.length / 11) })],
  ['/spend with unclosed time categories', 'POST', `${P}/issues/1/notes`, (t) => ({ body: `/spend 1h ${'[timecategory:'.repeat(t.length / 14)}` })],
  ['commit message, blanks before text', 'POST', `${P}/repository/commits`, (t) => ({ branch: 'main', commit_message: `${' '.repeat(t.length)}x`, actions: [{ action: 'create', file_path: 'n.txt', content: 'x' }] })],
  ['wiki front matter, newlines', 'POST', `${P}/wikis`, (t) => ({ title: 'w', content: `---\ntitle: |\n  a${'\n'.repeat(t.length)}b\n---\nbody` })],
];

async function time(method: string, path: string, body: unknown): Promise<number> {
  emulator.restore(base);
  const start = performance.now();
  const res = await emulator.handle(new Request(`https://gitlab.example.com/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: JSON.stringify(body) }));
  await res.arrayBuffer();
  return performance.now() - start;
}

for (const [name, method, path, body] of CASES) {
  for (let i = 0; i < 3; i++) await time(method, path, body('a'.repeat(4096))); // warm up
  const small = await time(method, path, body('a'.repeat(16_384)));
  const large = await time(method, path, body('a'.repeat(65_536)));
  console.log(`${name}: 16k ${small.toFixed(1)} ms, 64k ${large.toFixed(1)} ms, ratio ${(large / small).toFixed(1)} (linear ~4, quadratic ~16)`);
}
