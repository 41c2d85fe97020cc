// Cloning, fetching and pushing with isomorphic-git inside a unit test: its HTTP client calls
// `fetch`, which MSW hands to the emulator. No socket, no git binary, nothing on disk: the
// working copy lives in memory (memfs) and the repository in the emulator's world.
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { Volume, createFsFromVolume } from 'memfs';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from 'gitlab-emulator';
import { handlers } from 'gitlab-emulator/msw';

const GITLAB = 'https://gitlab.example.com';
const TOKEN = 'glpat-example-dev-token';
const onAuth = () => ({ username: 'dev', password: TOKEN });
const author = { name: 'Dee Veloper', email: 'dee@example.com', timestamp: 1772366400, timezoneOffset: 0 };

const emulator = await createEmulator({
  fixture: {
    users: [{ username: 'dev', name: 'Dee Veloper', tokens: [{ token: TOKEN, scopes: ['api'] }] }],
    groups: [{ path: 'acme', visibility: 'private', members: [{ user: 'dev', access_level: 'maintainer' }] }],
    projects: [{ namespace: 'acme', path: 'tool', repository: { files: { 'README.md': '# Tool\n' } } }],
  },
});
const server = setupServer(...handlers(emulator));
const seeded = emulator.snapshot();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => emulator.restore(seeded));
afterAll(() => server.close());

/** A fresh in-memory working copy. */
function workspace() {
  const fs = createFsFromVolume(new Volume());
  return { fs, dir: '/work' };
}

describe('isomorphic-git against the emulator, through MSW', () => {
  it('clones, commits, pushes a branch, and the API sees it', async () => {
    const { fs, dir } = workspace();
    await git.clone({ fs, http, dir, url: `${GITLAB}/acme/tool.git`, onAuth });
    expect(fs.readFileSync(`${dir}/README.md`, 'utf8')).toBe('# Tool\n');

    await git.branch({ fs, dir, ref: 'feature', checkout: true });
    fs.writeFileSync(`${dir}/tool.ts`, 'export const tool = 1;\n');
    await git.add({ fs, dir, filepath: 'tool.ts' });
    const sha = await git.commit({ fs, dir, message: 'Add the tool', author });
    const pushed = await git.push({ fs, http, dir, remote: 'origin', ref: 'feature', onAuth });
    expect(pushed.ok).toBe(true);

    const res = await fetch(`${GITLAB}/api/v4/projects/acme%2Ftool/repository/branches/feature`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
    expect(await res.json()).toMatchObject({ name: 'feature', commit: { id: sha, title: 'Add the tool', author_name: 'Dee Veloper' } });
  });

  it('fetches what the API committed since the clone', async () => {
    const { fs, dir } = workspace();
    await git.clone({ fs, http, dir, url: `${GITLAB}/acme/tool.git`, onAuth });
    await fetch(`${GITLAB}/api/v4/projects/acme%2Ftool/repository/files/CHANGELOG.md`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' },
      body: JSON.stringify({ branch: 'main', content: '# Changes\n', commit_message: 'Start a changelog' }),
    });
    await git.fetch({ fs, http, dir, onAuth });
    const [last] = await git.log({ fs, dir, ref: 'origin/main', depth: 1 });
    expect(last!.commit.message.trim()).toBe('Start a changelog');
    expect(last!.oid).toBe(emulator.git('acme/tool').refs().branches.main);
  });

  it('is told why a push is refused', async () => {
    const { fs, dir } = workspace();
    await git.clone({ fs, http, dir, url: `${GITLAB}/acme/tool.git`, onAuth });
    const error = await git.push({ fs, http, dir, remote: 'origin', ref: 'main', remoteRef: 'main', delete: true, onAuth }).catch((e: Error) => e);
    expect(String(error)).toContain('pre-receive hook declined');
    expect(emulator.git('acme/tool').refs().branches.main).toBeDefined();
  });

  it('needs credentials for a private project', async () => {
    const { fs, dir } = workspace();
    const error = await git.clone({ fs, http, dir, url: `${GITLAB}/acme/tool.git` }).catch((e: Error) => e);
    expect(String(error)).toContain('401');
  });

  it('creates a project by pushing to it, and hears GitLab say so', async () => {
    const { fs, dir } = workspace();
    await git.init({ fs, dir, defaultBranch: 'main' });
    fs.writeFileSync(`${dir}/README.md`, '# New\n');
    await git.add({ fs, dir, filepath: 'README.md' });
    await git.commit({ fs, dir, message: 'First', author });
    const said: string[] = [];
    const pushed = await git.push({ fs, http, dir, url: `${GITLAB}/acme/new-tool.git`, ref: 'main', onAuth, onMessage: (m) => void said.push(m) });
    expect(pushed.ok).toBe(true);
    expect(said.join('')).toContain('The private project acme/new-tool was successfully created.');
    const res = await fetch(`${GITLAB}/api/v4/projects/acme%2Fnew-tool`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
    expect(await res.json()).toMatchObject({ path: 'new-tool', visibility: 'private', default_branch: 'main' });
  });
});
