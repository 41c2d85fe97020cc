// Who git over HTTP lets in, as Gitlab::Auth.find_for_git_client finds them: `gitlab-ci-token`
// with a personal access token (the job-token check falls through to the personal-access-token
// check, which ignores the username), and deploy tokens (their username, their project or the
// projects of their group, read-only, refused once expired or revoked). With the real `git` and
// with isomorphic-git.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import isogit from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server, type Snapshot } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';

const NOW = '2026-03-01T12:00:00Z';

const fixture: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
    {
      username: 'dev',
      name: 'Dee Veloper',
      email: 'dev@example.com',
      tokens: [
        { token: 'dev-token', scopes: ['api'] },
        { token: 'dev-read-repo', scopes: ['read_repository'] },
        { token: 'dev-expired', scopes: ['api'], expires_at: '2026-01-01' },
      ],
    },
  ],
  groups: [{ path: 'acme', visibility: 'private' }, { path: 'sub', parent: 'acme', visibility: 'private' }, { path: 'other', visibility: 'private' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: [{ user: 'dev', access_level: 'maintainer' }],
      jobs: [{ name: 'release', user: 'dev', status: 'running', token: 'job-token-app' }],
      repository: { files: { 'README.md': '# App\n' } },
    },
    { namespace: 'acme/sub', path: 'deep', visibility: 'private', creator: 'root', repository: { files: { 'deep.txt': 'deep\n' } } },
    { namespace: 'other', path: 'elsewhere', visibility: 'private', creator: 'root', repository: { files: { 'x.txt': 'x\n' } } },
  ],
};

/** isomorphic-git's HTTP client over `emulator.handle`. */
function handleHttp(emulator: Emulator) {
  return {
    async request({ url, method = 'GET', headers = {}, body }: { url: string; method?: string; headers?: Record<string, string>; body?: AsyncIterable<Uint8Array> }) {
      const chunks: Uint8Array[] = [];
      if (body) for await (const c of body) chunks.push(c);
      const res = await emulator.handle(new Request(url, { method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined }));
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { url, method, statusCode: res.status, statusMessage: res.statusText, headers: Object.fromEntries(res.headers), body: (async function* () { yield bytes; })() };
    },
  };
}

async function api(emulator: Emulator, method: string, path: string, json?: unknown, token = 'root-token') {
  const res = await emulator.handle(
    new Request(`http://gitlab.example.com/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    }),
  );
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
}

describe('git credentials through emulator.handle (isomorphic-git)', () => {
  it('clones and pushes as gitlab-ci-token with a personal access token, as the token’s owner', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
    const fs = createFsFromVolume(new Volume());
    const http = handleHttp(emulator);
    const onAuth = () => ({ username: 'gitlab-ci-token', password: 'dev-token' });
    await isogit.clone({ fs, http, dir: '/w', url: 'http://gitlab.example.com/acme/app.git', onAuth });
    expect(fs.readFileSync('/w/README.md', 'utf8')).toBe('# App\n');
    fs.writeFileSync('/w/CHANGELOG.md', '# 1.0.0\n');
    await isogit.add({ fs, dir: '/w', filepath: 'CHANGELOG.md' });
    await isogit.commit({ fs, dir: '/w', message: 'chore(release): 1.0.0', author: { name: 'Dee Veloper', email: 'dev@example.com' } });
    await isogit.branch({ fs, dir: '/w', ref: 'release' });
    const pushed = await isogit.push({ fs, http, dir: '/w', remote: 'origin', ref: 'release', onAuth });
    expect(pushed.ok).toBe(true);
    expect((await api(emulator, 'GET', '/projects/acme%2Fapp/repository/branches/release')).status).toBe(200);
  });

  it('refuses gitlab-ci-token with a password that is no token, or an expired one', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
    for (const password of ['nope', 'dev-expired']) {
      const auth = `Basic ${btoa(`gitlab-ci-token:${password}`)}`;
      const res = await emulator.handle(new Request('http://gitlab.example.com/acme/app.git/info/refs?service=git-upload-pack', { headers: { authorization: auth } }));
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="GitLab"');
    }
  });

  it('clones with a project deploy token under its own username only, and never pushes', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
    const made = await api(emulator, 'POST', '/projects/acme%2Fapp/deploy_tokens', { name: 'ci', scopes: ['read_repository'] });
    expect(made.status).toBe(201);
    const { username, token } = made.body as { username: string; token: string };
    expect(username).toMatch(/^gitlab\+deploy-token-\d+$/);
    const fs = createFsFromVolume(new Volume());
    const http = handleHttp(emulator);
    await isogit.clone({ fs, http, dir: '/w', url: 'http://gitlab.example.com/acme/app.git', onAuth: () => ({ username, password: token }) });
    expect(fs.readFileSync('/w/README.md', 'utf8')).toBe('# App\n');
    const info = (user: string, service = 'git-upload-pack', project = 'acme/app') =>
      emulator.handle(new Request(`http://gitlab.example.com/${project}.git/info/refs?service=${service}`, { headers: { authorization: `Basic ${btoa(`${user}:${token}`)}` } }));
    expect((await info('someone-else')).status).toBe(401);
    const push = await info(username, 'git-receive-pack');
    expect(push.status).toBe(403);
    expect(await push.text()).toBe('You are not allowed to upload code.');
    expect((await info(username, 'git-upload-pack', 'other/elsewhere')).status).toBe(401);
  });
});

describe.skipIf(!HAS_GIT)('git credentials with the real git, against the node server', () => {
  let emulator: Emulator;
  let server: Server;
  let seeded: Snapshot;
  let git: GitScratch;
  const url = (path: string, user: string, password: string) => withCredentials(`${server.url}/${path}`, user, password);
  const serverApi = async (method: string, path: string, json?: unknown) => {
    const r = await fetch(`${server.url}/api/v4${path}`, { method, headers: { 'PRIVATE-TOKEN': 'root-token', ...(json ? { 'Content-Type': 'application/json' } : {}) }, body: json ? JSON.stringify(json) : undefined });
    return { status: r.status, body: r.status === 204 ? null : ((await r.json()) as any) };
  };

  beforeAll(async () => {
    emulator = await createEmulator({ fixture, clock: { now: NOW, frozen: true } });
    seeded = emulator.snapshot();
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(() => {
    emulator.restore(seeded);
    git?.remove();
    git = new GitScratch();
  });

  it('clones, tags and pushes as gitlab-ci-token:<personal access token>, as semantic-release does in CI', async () => {
    await git.ok(['clone', '-q', url('acme/app.git', 'gitlab-ci-token', 'dev-token'), 'a']);
    writeFileSync(join(git.dir, 'a', 'CHANGELOG.md'), '# 1.0.0\n');
    await git.ok(['add', '-A'], 'a');
    await git.ok(['commit', '-q', '-m', 'chore(release): 1.0.0'], 'a');
    await git.ok(['tag', 'v1.0.0'], 'a');
    await git.ok(['push', '-q', 'origin', 'HEAD:refs/heads/main', 'refs/tags/v1.0.0'], 'a');
    expect((await serverApi('GET', '/projects/acme%2Fapp/repository/tags/v1.0.0')).status).toBe(200);
    // The running job's own token still logs in as the job's user, and reads.
    await git.ok(['ls-remote', url('acme/app.git', 'gitlab-ci-token', 'job-token-app')]);
    // A read-only personal access token reads but does not push, whatever the username.
    await git.ok(['ls-remote', url('acme/app.git', 'gitlab-ci-token', 'dev-read-repo')]);
    const readOnly = await git.run(['push', url('acme/app.git', 'gitlab-ci-token', 'dev-read-repo'), 'HEAD:refs/heads/x'], 'a');
    expect(readOnly.stderr).toContain('remote: You are not allowed to upload code.');
    const expired = await git.run(['ls-remote', url('acme/app.git', 'gitlab-ci-token', 'dev-expired')]);
    expect(expired.stderr).toContain('Authentication failed for');
  });

  it('clones with a group deploy token any project under the group, none elsewhere; refused once expired or revoked', async () => {
    const made = await serverApi('POST', '/groups/acme/deploy_tokens', { name: 'mirror', scopes: ['read_repository'], username: 'mirror-bot', expires_at: '2026-06-01' });
    expect(made.status).toBe(201);
    const token = made.body.token as string;
    await git.ok(['clone', '-q', url('acme/app.git', 'mirror-bot', token), 'a']);
    await git.ok(['clone', '-q', url('acme/sub/deep.git', 'mirror-bot', token), 'b']);
    expect(await git.ok(['cat-file', '-p', 'HEAD:deep.txt'], 'b')).toBe('deep\n');
    const outside = await git.run(['clone', url('other/elsewhere.git', 'mirror-bot', token), 'c']);
    expect(outside.stderr).toContain('Authentication failed for');
    const push = await git.run(['push', url('acme/app.git', 'mirror-bot', token), 'HEAD:refs/heads/x'], 'a');
    expect(push.stderr).toContain('remote: You are not allowed to upload code.');
    const registryOnly = await serverApi('POST', '/projects/acme%2Fapp/deploy_tokens', { name: 'registry', scopes: ['read_registry'] });
    const noScope = await git.run(['ls-remote', url('acme/app.git', registryOnly.body.username, registryOnly.body.token)]);
    expect(noScope.stderr).toContain('remote: You are not allowed to download code.');
    expect((await serverApi('DELETE', `/groups/acme/deploy_tokens/${made.body.id}`)).status).toBe(204);
    const revoked = await git.run(['ls-remote', url('acme/app.git', 'mirror-bot', token)]);
    expect(revoked.stderr).toContain('Authentication failed for');
  });

  it('refuses a deploy token past its expiry date', async () => {
    const made = await serverApi('POST', '/projects/acme%2Fapp/deploy_tokens', { name: 'old', scopes: ['read_repository'], expires_at: '2026-03-02T00:00:00Z' });
    expect(made.status).toBe(201);
    await git.ok(['ls-remote', url('acme/app.git', made.body.username, made.body.token)]);
    emulator.clock.set('2026-03-03T00:00:00Z');
    const expired = await git.run(['ls-remote', url('acme/app.git', made.body.username, made.body.token)]);
    expect(expired.stderr).toContain('Authentication failed for');
  });
});
