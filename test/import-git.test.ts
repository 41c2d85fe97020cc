// A history made with the real git and pushed to a served emulator (a merge commit, an orphan
// branch, a symbolic link, a mode change, a binary file and a byte-order mark), imported and
// re-seeded: every carried branch has the same tree and first-parent history.
import { writeFileSync, symlinkSync, chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { importFromGitlab, type ImportResult } from '../src/importer/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const TOKEN = 'owner-token';
const P = `/projects/${encodeURIComponent('pat/tool')}`;

let source: Emulator;
let close: () => Promise<void>;
let result: ImportResult;
const git = new GitScratch();

async function get(e: Emulator, path: string, token = TOKEN): Promise<unknown> {
  const res = await e.handle(new Request(`http://gitlab.test/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } }));
  expect(res.status, path).toBe(200);
  return res.json();
}

beforeAll(async () => {
  if (!HAS_GIT) return;
  source = await createEmulator({
    fixture: { users: [{ username: 'pat', name: 'Pat Pusher', public_email: 'pat@example.com', tokens: [{ token: TOKEN }] }], projects: [{ namespace: 'pat', path: 'tool', creator: 'pat' }] },
  });
  const server = await source.listen({ port: 0 });
  close = () => server.close();
  const w = join(git.dir, 'w');
  await git.ok(['init', '-q', '-b', 'main', 'w']);
  const commit = async (message: string, date: string) => {
    await git.ok(['add', '-A'], 'w');
    await git.ok(['commit', '-q', '-m', message], 'w', { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  };
  writeFileSync(join(w, 'README.md'), '\uFEFF# tool\n');
  writeFileSync(join(w, 'run.sh'), 'echo hi\n');
  writeFileSync(join(w, 'blob.bin'), Buffer.from([0, 1, 2, 255]));
  await commit('Start', '2026-03-01T10:00:00Z');
  chmodSync(join(w, 'run.sh'), 0o755);
  symlinkSync('README.md', join(w, 'link'));
  await commit('Executable and a link', '2026-03-02T10:00:00Z');
  await git.ok(['checkout', '-q', '-b', 'topic'], 'w');
  mkdirSync(join(w, 'lib'));
  writeFileSync(join(w, 'lib', 'a.txt'), 'a\n');
  await commit('Topic', '2026-03-03T10:00:00Z');
  await git.ok(['checkout', '-q', 'main'], 'w');
  writeFileSync(join(w, 'main.txt'), 'main\n');
  await commit('Main moves on', '2026-03-04T10:00:00Z');
  await git.ok(['merge', '-q', '--no-ff', '-m', 'Merge topic', 'topic'], 'w', { GIT_AUTHOR_DATE: '2026-03-05T10:00:00Z', GIT_COMMITTER_DATE: '2026-03-05T10:00:00Z' });
  await git.ok(['checkout', '-q', '--orphan', 'pages'], 'w');
  await git.ok(['rm', '-q', '-rf', '.'], 'w');
  writeFileSync(join(w, 'index.html'), '<p>hi</p>\n');
  await commit('Pages', '2026-03-06T10:00:00Z');
  await git.ok(['checkout', '-q', 'main'], 'w');
  await git.ok(['tag', '-a', 'v1', '-m', 'Version 1', 'HEAD~1'], 'w');
  await git.ok(['push', '-q', withCredentials(`${server.url}/pat/tool.git`, 'oauth2', TOKEN), 'main', 'topic', 'pages', 'v1'], 'w');
  result = await importFromGitlab({ from: server.url, token: TOKEN, projects: ['pat/tool'] });
}, 120_000);

afterAll(async () => {
  await close?.();
  git.remove();
});

describe.skipIf(!HAS_GIT)('import of a history pushed with git', () => {
  it('carries every branch with the same tree and first-parent history, and says the link is left out', async () => {
    expect(result.notes).toEqual(["pat/tool: 'link' not carried: symbolic links and submodules have no form in a fixture"]);
    const copy = await createEmulator({ fixture: result.fixture });
    const token = result.tokens.pat!;
    const names = ((await get(source, `${P}/repository/branches`)) as { name: string }[]).map((b) => b.name);
    expect(names).toEqual(['main', 'pages', 'topic']);
    expect(((await get(copy, `${P}/repository/branches`, token)) as { name: string }[]).map((b) => b.name)).toEqual(names);
    for (const name of names) {
      const tree = async (e: Emulator, t?: string) => ((await get(e, `${P}/repository/tree?recursive=true&per_page=100&ref=${name}`, t)) as { path: string; mode: string; id: string }[]).filter((x) => x.path !== 'link');
      expect(await tree(copy, token), name).toEqual(await tree(source));
      const log = async (e: Emulator, t?: string) =>
        ((await get(e, `${P}/repository/commits?ref_name=${name}&first_parent=true&per_page=100`, t)) as { title: string; message: string; author_name: string; author_email: string; authored_date: string }[]).map((c) => [c.title, c.message, c.author_name, c.author_email, c.authored_date]);
      expect(await log(copy, token), name).toEqual(await log(source));
    }
    const tag = async (e: Emulator, t?: string) => ((await get(e, `${P}/repository/tags`, t)) as { name: string; message: string; commit: { title: string } }[]).map((x) => [x.name, x.message, x.commit.title]);
    expect(await tag(copy, token)).toEqual(await tag(source));
    const raw = await copy.handle(new Request(`http://gitlab.test/api/v4${P}/repository/files/README.md/raw?ref=main`, { headers: { 'PRIVATE-TOKEN': token } }));
    expect(new Uint8Array(await raw.arrayBuffer()).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });
});
