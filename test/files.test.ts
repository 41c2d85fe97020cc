// Repository files (content-api.md "Repository files"; the reference's files checklist).
import { describe, expect, it, vi } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { ACME, apiCall, teamProject, teamWithTokens, type CallInit, updateProject } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const LFS_CONTENT = 'large binary payload\n';

const FIXTURE: Fixture = {
  users: teamWithTokens('dev', [{ token: 'dev-read-repository', scopes: ['read_repository'] }]),
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'README.md': '# App\n', 'lib/app.rb': 'puts 1\nputs 2\nputs 3\n', '.gitignore': '*.log\n', 'notes.txt': 'plain\n', ':wq': 'vim\n' },
        lfs: { 'assets/big.bin': btoa(LFS_CONTENT) },
        commits: [
          { message: 'Add a script', author: 'dev', files: { 'bin/run': '#!/bin/sh\necho run\n' }, executable: ['bin/run'] },
          { message: 'Change line 2', author: 'dev', files: { 'lib/app.rb': 'puts 1\nputs 22\nputs 3\n' } },
          { message: 'Add a picture', base64: { 'logo.png': PNG } },
          { message: 'An unowned pointer', files: { 'other.bin': `version https://git-lfs.github.com/spec/v1\noid sha256:${'a'.repeat(64)}\nsize 3\n` } },
        ],
      },
    }),
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', repository: { files: { 'index.html': '<p>hi</p>\n' } } },
    { namespace: 'acme', path: 'empty', visibility: 'private', creator: 'root', members: [{ user: 'dev', access_level: 'maintainer' }] }, // the first push to an empty repository needs a maintainer at GitLab's default branch protection (2)
  ],
};

let e: Emulator;
const setup = async () => (e = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } }));

const api = (path: string, init?: CallInit) => apiCall(e, path, init);

const file = (path: string, query = '') => `/projects/acme%2Fapp/repository/files/${encodeURIComponent(path).replace(/\./g, '%2E')}${query}`;
const dec = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));

describe('GET /projects/:id/repository/files/:file_path', () => {
  it('answers the metadata and the Base64 content, in GitLab order, as JSON even for .txt', async () => {
    await setup();
    const res = await api(file('notes.txt', '?ref=main'), { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = await res.json();
    expect(Object.keys(body)).toEqual([
      'file_name', 'file_path', 'size', 'encoding', 'content_sha256', 'ref', 'blob_id', 'commit_id', 'last_commit_id', 'execute_filemode', 'content',
    ]);
    expect(body).toMatchObject({ file_name: 'notes.txt', file_path: 'notes.txt', size: 6, encoding: 'base64', ref: 'main', execute_filemode: false });
    expect(dec(body.content)).toBe('plain\n');
    const expected = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('plain\n'))))
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    expect(body.content_sha256).toBe(expected);
    expect(body.commit_id).toBe(e.git('acme/app').refs().branches.main);
  });

  it('knows the last commit that changed the file, and the executable bit', async () => {
    await setup();
    const log = await e.git('acme/app').log();
    const byTitle = (t: string) => log.find((c) => c.commit.message === t)!.sha;
    const app = await (await api(file('lib/app.rb', '?ref=main'), { token: 'dev-token' })).json();
    expect(app.last_commit_id).toBe(byTitle('Change line 2'));
    const run = await (await api(file('bin/run', '?ref=main'), { token: 'dev-token' })).json();
    expect(run).toMatchObject({ execute_filemode: true, last_commit_id: byTitle('Add a script') });
  });

  it('reads at a commit sha, a short sha, a tag-like revision and HEAD', async () => {
    await setup();
    const log = await e.git('acme/app').log();
    const first = log[log.length - 1]!.sha;
    for (const ref of [first, first.slice(0, 8), 'HEAD~4']) {
      const body = await (await api(file('lib/app.rb', `?ref=${ref}`), { token: 'dev-token' })).json();
      expect(dec(body.content)).toBe('puts 1\nputs 2\nputs 3\n');
      expect(body.commit_id).toBe(first);
      expect(body.ref).toBe(ref);
    }
    const head = await (await api(file('lib/app.rb', '?ref=HEAD'), { token: 'dev-token' })).json();
    expect(dec(head.content)).toBe('puts 1\nputs 22\nputs 3\n');
  });

  it('serves names that look like pathspecs', async () => {
    await setup();
    const res = await api(file(':wq', '?ref=main'), { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(dec((await res.json()).content)).toBe('vim\n');
  });

  it('refuses traversal and absolute paths as an invalid file_path', async () => {
    await setup();
    for (const p of ['%2e%2e%2fetc%2fpasswd', '%2Fetc%2Fpasswd.rb', 'lib%2F..%2F..%2Fsecret']) {
      const res = await api(`/projects/acme%2Fapp/repository/files/${p}?ref=main`, { token: 'dev-token' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'file_path should be a valid file path' });
    }
  });

  it('answers 404 for an unknown file or ref, and hides private projects', async () => {
    await setup();
    let res = await api(file('nope.rb', '?ref=main'), { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([404, { message: '404 File Not Found' }]);
    res = await api(file('README.md', '?ref=no-such-branch'), { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Commit Not Found' }]);
    res = await api(file('README.md', '?ref=main'));
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('is 403 for a guest of a private project and when the repository is disabled', async () => {
    await setup();
    let res = await api(file('README.md', '?ref=main'), { token: 'guest-token' });
    expect([res.status, await res.json()]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api(file('README.md', '?ref=main'), { token: 'reporter-token' })).status).toBe(200);
    updateProject(e, 'acme/app', (p) => void (p.features.repository = 'disabled'));
    res = await api(file('README.md', '?ref=main'), { token: 'dev-token' });
    expect(res.status).toBe(403);
  });

  it('needs ref', async () => {
    await setup();
    const res = await api(file('README.md'), { token: 'dev-token' });
    expect(res.status).toBe(400);
    expect((await api(file('README.md', '?ref='), { token: 'dev-token' })).status).toBe(400);
  });

  it('lets anyone read a public project and accepts read_repository tokens', async () => {
    await setup();
    const res = await api('/projects/acme%2Fsite/repository/files/index%2Ehtml?ref=main');
    expect(res.status).toBe(200);
    expect((await api(file('README.md', '?ref=main'), { token: 'dev-read-repository' })).status).toBe(200);
  });
});

describe('HEAD /projects/:id/repository/files/:file_path', () => {
  it('sends the metadata as X-Gitlab-* and X-Service-* headers, without a body', async () => {
    await setup();
    const res = await api(file('lib/app.rb', '?ref=main'), { method: 'HEAD', token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
    const get = await (await api(file('lib/app.rb', '?ref=main'), { token: 'dev-token' })).json();
    for (const brand of ['Gitlab', 'Service']) {
      expect(res.headers.get(`X-${brand}-File-Path`)).toBe('lib/app.rb');
      expect(res.headers.get(`X-${brand}-File-Name`)).toBe('app.rb');
      expect(res.headers.get(`X-${brand}-Last-Commit-Id`)).toBe(get.last_commit_id);
      expect(res.headers.get(`X-${brand}-Content-Sha256`)).toBe(get.content_sha256);
      expect(res.headers.get(`X-${brand}-Blob-Id`)).toBe(get.blob_id);
      expect(res.headers.get(`X-${brand}-Size`)).toBe(String(get.size));
      expect(res.headers.get(`X-${brand}-Execute-Filemode`)).toBe('false');
      expect(res.headers.get(`X-${brand}-Ref`)).toBe('main');
    }
  });

  it('answers by commit sha, 400 without ref, 404 for unknown files, 403 to guests, 404 to anonymous callers', async () => {
    await setup();
    const sha = e.git('acme/app').refs().branches.main!;
    expect((await api(file('README.md', `?ref=${sha}`), { method: 'HEAD', token: 'dev-token' })).status).toBe(200);
    expect((await api(file('README.md'), { method: 'HEAD', token: 'dev-token' })).status).toBe(400);
    expect((await api(file('nope', '?ref=main'), { method: 'HEAD', token: 'dev-token' })).status).toBe(404);
    expect((await api(file('README.md', '?ref=main'), { method: 'HEAD', token: 'guest-token' })).status).toBe(403);
    expect((await api(file('README.md', '?ref=main'), { method: 'HEAD' })).status).toBe(404);
    expect((await api(file('README.md', '?ref=main'), { method: 'HEAD', token: 'dev-read-repository' })).status).toBe(200);
  });
});

describe('GET /projects/:id/repository/files/:file_path/raw', () => {
  it('answers the blob of the default branch, inline and uncached', async () => {
    await setup();
    const res = await api(file('lib/app.rb', '/raw'), { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('puts 1\nputs 22\nputs 3\n');
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="app.rb"; filename*=UTF-8''app.rb`);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.headers.get('expires')).toBe('Fri, 01 Jan 1990 00:00:00 GMT');
    expect(res.headers.get('X-Gitlab-File-Path')).toBe('lib/app.rb');
    expect(res.headers.get('X-Gitlab-Ref')).toBeNull();
  });

  it('reads at a ref, serves dot files and binary files byte for byte', async () => {
    await setup();
    const first = (await e.git('acme/app').log()).at(-1)!.sha;
    expect(await (await api(file('lib/app.rb', `/raw?ref=${first}`), { token: 'dev-token' })).text()).toBe('puts 1\nputs 2\nputs 3\n');
    expect(await (await api(file('.gitignore', '/raw'), { token: 'dev-token' })).text()).toBe('*.log\n');
    const png = await api(file('logo.png', '/raw'), { token: 'dev-token' });
    expect(png.headers.get('content-type')).toBe('application/octet-stream');
    expect(new Uint8Array(await png.arrayBuffer())).toEqual(Uint8Array.from(atob(PNG), (c) => c.charCodeAt(0)));
  });

  it('serves an LFS object with lfs=true, the pointer otherwise, and 404 for an object the project lacks', async () => {
    await setup();
    const pointer = await (await api(file('assets/big.bin', '/raw'), { token: 'dev-token' })).text();
    expect(pointer).toMatch(/^version https:\/\/git-lfs\.github\.com\/spec\/v1\noid sha256:[0-9a-f]{64}\nsize 21\n$/);
    const lfs = await api(file('assets/big.bin', '/raw?lfs=true'), { token: 'dev-token' });
    expect(lfs.status).toBe(200);
    expect(await lfs.text()).toBe(LFS_CONTENT);
    expect(lfs.headers.get('content-disposition')).toMatch(/^attachment; filename="big\.bin"/);
    expect(await (await api(file('README.md', '/raw?lfs=true'), { token: 'dev-token' })).text()).toBe('# App\n');
    const missing = await api(file('other.bin', '/raw?lfs=true'), { token: 'dev-token' });
    expect([missing.status, await missing.json()]).toEqual([404, { message: '404 Not Found' }]);
  });

  it('accepts a CI job token and a leading separator', async () => {
    await setup();
    const seeded = await e.seed({
      projects: [{ namespace: 'acme', path: 'ci', creator: 'root', jobs: [{ name: 'build', user: 'dev', token: 'job-token-1' }] }],
    });
    updateProject(e, 'acme/app', (p) => void p.jobTokenAllowlist.push(seeded.projects['acme/ci']!.id));
    const res = await api(file('README.md', '/raw'), { headers: { 'JOB-TOKEN': 'job-token-1' } });
    expect(res.status).toBe(200);
    expect((await api(`/projects/acme%2Fapp/repository/files/%2FREADME%2Emd/raw`, { token: 'dev-token' })).status).toBe(200);
  });
});

describe('GET /projects/:id/repository/files/:file_path/blame', () => {
  it('groups consecutive lines of one commit', async () => {
    await setup();
    const res = await api(file('lib/app.rb', '/blame?ref=main'), { token: 'dev-token' });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Gitlab-File-Name')).toBe('app.rb');
    const ranges = await res.json();
    expect(ranges.map((r: { lines: string[] }) => r.lines)).toEqual([['puts 1'], ['puts 22'], ['puts 3']]);
    expect(ranges.map((r: { commit: { message: string } }) => r.commit.message)).toEqual(['Initial commit', 'Change line 2', 'Initial commit']);
    expect(Object.keys(ranges[0].commit)).toEqual([
      'id', 'parent_ids', 'message', 'authored_date', 'author_name', 'author_email', 'committed_date', 'committer_name', 'committer_email',
    ]);
    expect(ranges[1].commit.author_name).toBe('Dee Veloper');
    expect(ranges[1].commit.authored_date).toBe('2024-03-01T12:00:00.000+00:00');
  });

  it('answers HEAD with the headers only, and GET with the ranges after it', async () => {
    await setup();
    const head = await api(file('lib/app.rb', '/blame?ref=main'), { method: 'HEAD', token: 'dev-token' });
    expect([head.status, await head.text(), head.headers.get('X-Gitlab-File-Path')]).toEqual([200, '', 'lib/app.rb']);
    const ranges = await (await api(file('lib/app.rb', '/blame?ref=main'), { token: 'dev-token' })).json();
    expect(ranges).toHaveLength(3);
  });

  it('blames a range', async () => {
    await setup();
    const ranges = await (await api(file('lib/app.rb', '/blame?ref=main&range[start]=2&range[end]=3'), { token: 'dev-token' })).json();
    expect(ranges.map((r: { lines: string[] }) => r.lines)).toEqual([['puts 22'], ['puts 3']]);
    const clamped = await (await api(file('lib/app.rb', '/blame?ref=main&range[start]=3&range[end]=99'), { token: 'dev-token' })).json();
    expect(clamped.map((r: { lines: string[] }) => r.lines)).toEqual([['puts 3']]);
  });

  it("answers GitLab's four range errors", async () => {
    await setup();
    const blame = async (q: string) => {
      const res = await api(file('lib/app.rb', `/blame?ref=main&${q}`), { token: 'dev-token' });
      return [res.status, await res.json()];
    };
    expect(await blame('range[start]=3&range[end]=2')).toEqual([400, { message: 'range[start] must be less than or equal to range[end]' }]);
    expect(await blame('range[start]=-1&range[end]=-2')).toEqual([
      400, { error: 'range[start] does not have a valid value, range[end] does not have a valid value' },
    ]);
    expect(await blame('range[start]=&range[end]=')).toEqual([400, { error: 'range[start] is empty, range[end] is empty' }]);
    const [status, body] = await blame('range[start]=1');
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('range[end]');
  });

  it('is 404 for an unknown commit or file', async () => {
    await setup();
    let res = await api(file('lib/app.rb', `/blame?ref=${'f'.repeat(40)}`), { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([404, { message: '404 Commit Not Found' }]);
    res = await api(file('nope.rb', '/blame?ref=main'), { token: 'dev-token' });
    expect([res.status, await res.json()]).toEqual([404, { message: '404 File Not Found' }]);
  });
});

describe('POST /projects/:id/repository/files/:file_path', () => {
  it('creates a file as a commit by the caller and answers {file_path, branch}', async () => {
    await setup();
    const res = await api(file('app/project.rb'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: 'class P; end\n', commit_message: 'Add project' } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ file_path: 'app/project.rb', branch: 'main' });
    const g = e.git('acme/app');
    expect(await g.readText('app/project.rb')).toBe('class P; end\n');
    const [head] = await g.log();
    expect(head!.commit).toMatchObject({
      message: 'Add project',
      author: { name: 'Dee Veloper', email: 'dev@example.com', timestamp: Date.parse(NOW) / 1000, offset: 0 },
      committer: { name: 'Dee Veloper', email: 'dev@example.com' },
    });
  });

  it('takes author_name and author_email, keeping the caller as committer', async () => {
    await setup();
    await api(file('x.txt'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: 'x', commit_message: 'm', author_name: 'Ann', author_email: 'ann@example.org' } });
    const [head] = await e.git('acme/app').log();
    expect(head!.commit.author).toMatchObject({ name: 'Ann', email: 'ann@example.org' });
    expect(head!.commit.committer).toMatchObject({ name: 'Dee Veloper' });
  });

  it('sets the executable bit and round-trips binary content sent as base64', async () => {
    await setup();
    expect((await api(file('tool.sh'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: 'echo\n', commit_message: 'tool', execute_filemode: true } })).status).toBe(201);
    expect((await (await api(file('tool.sh', '?ref=main'), { token: 'dev-token' })).json()).execute_filemode).toBe(true);
    const bytes = Uint8Array.from([0, 255, 1, 254, 10, 13]);
    const b64 = btoa(String.fromCharCode(...bytes));
    expect((await api(file('blob.bin'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: b64, encoding: 'base64', commit_message: 'bin' } })).status).toBe(201);
    const got = await (await api(file('blob.bin', '?ref=main'), { token: 'dev-token' })).json();
    expect(got.content).toBe(b64);
  });

  it('creates the branch from start_branch, and refuses what GitLab refuses with 400', async () => {
    await setup();
    const post = (path: string, json: Record<string, unknown>) => api(file(path), { method: 'POST', token: 'dev-token', json: { content: 'c', commit_message: 'm', ...json } });
    let res = await post('new.txt', { branch: 'feature', start_branch: 'main' });
    expect(res.status).toBe(201);
    expect(await e.git('acme/app').readText('new.txt', 'feature')).toBe('c');
    expect(await e.git('acme/app').readText('new.txt', 'main')).toBeNull();
    const cases: [string, Record<string, unknown>, string][] = [
      ['README.md', { branch: 'main' }, 'A file with this name already exists'],
      ['lib', { branch: 'main' }, 'A directory with this name already exists'],
      ['a.txt', { branch: 'nope' }, 'You can only create or edit files when you are on a branch'],
      ['a.txt', { branch: 'x', start_branch: 'nope' }, 'You can only create or edit files when you are on a branch'],
      ['a.txt', { branch: 'feature', start_branch: 'main' }, "A branch called 'feature' already exists. Switch to that branch in order to make changes"],
      ['a.txt', { branch: 'bad..name', start_branch: 'main' }, "Something went wrong when we tried to create 'bad..name' for you: Branch name is invalid"],
    ];
    for (const [path, json, message] of cases) {
      res = await post(path, json);
      expect([res.status, await res.json()]).toEqual([400, { message }]);
    }
  });

  it('answers 400 for missing or empty parameters', async () => {
    await setup();
    let res = await api(file('a.txt'), { method: 'POST', token: 'dev-token', json: {} });
    expect(res.status).toBe(400);
    res = await api(file('a.txt'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: 'x', commit_message: '' } });
    expect([res.status, await res.json()]).toEqual([400, { error: 'commit_message is empty' }]);
  });

  it('needs Developer and an api token: reporters 403, read_repository tokens 403', async () => {
    await setup();
    const body = { branch: 'main', content: 'x', commit_message: 'm' };
    let res = await api(file('a.txt'), { method: 'POST', token: 'reporter-token', json: body });
    expect([res.status, await res.json()]).toEqual([403, { message: '403 Forbidden' }]);
    res = await api(file('a.txt'), { method: 'POST', token: 'dev-read-repository', json: body });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe('insufficient_scope');
    expect((await api(file('a.txt'), { method: 'POST', token: 'dev-token', json: body })).status).toBe(201);
  });

  it('works on an empty repository, whose first branch becomes the default', async () => {
    await setup();
    const res = await api('/projects/acme%2Fempty/repository/files/README%2Emd', { method: 'POST', token: 'dev-token', json: { branch: 'trunk', content: 'hi', commit_message: 'first' } });
    expect(res.status).toBe(201);
    expect(e.git('acme/empty').refs()).toMatchObject({ head: 'trunk', branches: { trunk: expect.any(String) } });
    const project = await (await api('/projects/acme%2Fempty', { token: 'dev-token' })).json();
    expect(project).toMatchObject({ default_branch: 'trunk', empty_repo: false });
  });
});

describe('PUT /projects/:id/repository/files/:file_path', () => {
  it('updates a file and checks last_commit_id', async () => {
    await setup();
    const g = e.git('acme/app');
    const meta = await (await api(file('lib/app.rb', '?ref=main'), { token: 'dev-token' })).json();
    const put = (json: Record<string, unknown>) => api(file('lib/app.rb'), { method: 'PUT', token: 'dev-token', json: { branch: 'main', commit_message: 'edit', ...json } });
    let res = await put({ content: 'v2\n', last_commit_id: meta.commit_id === meta.last_commit_id ? 'f'.repeat(40) : meta.commit_id });
    expect([res.status, await res.json()]).toEqual([400, { message: 'You are attempting to update a file that has changed since you started editing it.' }]);
    res = await put({ content: 'v2\n', last_commit_id: meta.last_commit_id });
    expect([res.status, await res.json()]).toEqual([200, { file_path: 'lib/app.rb', branch: 'main' }]);
    expect(await g.readText('lib/app.rb')).toBe('v2\n');
  });

  it('toggles execute_filemode and keeps it when not sent', async () => {
    await setup();
    const put = (json: Record<string, unknown>) => api(file('bin/run'), { method: 'PUT', token: 'dev-token', json: { branch: 'main', commit_message: 'edit', ...json } });
    expect((await put({ content: 'echo 2\n' })).status).toBe(200);
    expect((await (await api(file('bin/run', '?ref=main'), { token: 'dev-token' })).json()).execute_filemode).toBe(true);
    expect((await put({ content: 'echo 2\n', execute_filemode: false })).status).toBe(200);
    expect((await (await api(file('bin/run', '?ref=main'), { token: 'dev-token' })).json()).execute_filemode).toBe(false);
  });

  it('writes an empty file for base64 with null content', async () => {
    await setup();
    const res = await api(file('README.md'), { method: 'PUT', token: 'dev-token', json: { branch: 'main', commit_message: 'empty', encoding: 'base64', content: null } });
    expect(res.status).toBe(200);
    expect(await e.git('acme/app').readText('README.md')).toBe('');
  });

  it('refuses an empty commit and a missing file with 400, changing nothing', async () => {
    await setup();
    const before = e.git('acme/app').refs();
    let res = await api(file('README.md'), { method: 'PUT', token: 'dev-token', json: { branch: 'main', commit_message: 'same', content: '# App\n' } });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/could not be committed/);
    res = await api(file('missing.md'), { method: 'PUT', token: 'dev-token', json: { branch: 'main', commit_message: 'm', content: 'x' } });
    expect([res.status, await res.json()]).toEqual([400, { message: "A file with this name doesn't exist" }]);
    expect(e.git('acme/app').refs()).toEqual(before);
  });

  it('fails when the branch moved while the commit was being written', async () => {
    await setup();
    const g = e.git('acme/app');
    const before = e.snapshot();
    await api(file('one.txt'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: '1', commit_message: 'one' } });
    const moved = g.refs().branches.main;
    const write = g.objects.writeCommit.bind(g.objects);
    const spy = vi.spyOn(g.objects, 'writeCommit').mockImplementation(async (c) => {
      e.restore(before); // somebody else moved main meanwhile
      return write(c);
    });
    const res = await api(file('two.txt'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: '2', commit_message: 'two' } });
    spy.mockRestore();
    expect([res.status, await res.json()]).toEqual([400, { message: 'Could not update branch main. Please refresh and try again.' }]);
    expect(g.refs().branches.main).not.toBe(moved);
    expect(await g.readText('two.txt')).toBeNull();
  });
});

describe('DELETE /projects/:id/repository/files/:file_path', () => {
  it('deletes a file with 204', async () => {
    await setup();
    const res = await api(file('notes.txt'), { method: 'DELETE', token: 'dev-token', json: { branch: 'main', commit_message: 'rm' } });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await e.git('acme/app').readText('notes.txt')).toBeNull();
  });

  it('answers 400 without parameters, with an empty message, for a missing file and a stale last_commit_id', async () => {
    await setup();
    const del = (path: string, json: Record<string, unknown>) => api(file(path), { method: 'DELETE', token: 'dev-token', json });
    expect((await del('notes.txt', {})).status).toBe(400);
    let res = await del('notes.txt', { branch: 'main', commit_message: '' });
    expect([res.status, await res.json()]).toEqual([400, { error: 'commit_message is empty' }]);
    res = await del('nope.txt', { branch: 'main', commit_message: 'rm' });
    expect([res.status, await res.json()]).toEqual([400, { message: "A file with this name doesn't exist" }]);
    res = await del('lib/app.rb', { branch: 'main', commit_message: 'rm', last_commit_id: 'f'.repeat(40) });
    expect([res.status, await res.json()]).toEqual([400, { message: 'You are attempting to delete a file that has been previously updated.' }]);
  });
});

describe('bad input leaves the repository unchanged', () => {
  it('an undecodable path is a plain 400', async () => {
    await setup();
    const before = e.git('acme/app').refs();
    for (const p of ['%FF%FE', '%E0%A4%A', 'a%00b']) {
      const res = await api(`/projects/acme%2Fapp/repository/files/${p}`, { method: 'POST', token: 'dev-token', json: { branch: 'main', content: 'x', commit_message: 'm' } });
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('Bad Request');
    }
    expect(e.git('acme/app').refs()).toEqual(before);
  });

  it('binary content declared as text is a plain 400', async () => {
    await setup();
    const before = e.git('acme/app').refs();
    for (const content of ['a\u0000b', 'half \ud800 pair']) {
      const res = await api(file('bin.txt'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content, commit_message: 'm' } });
      expect([res.status, await res.text()]).toEqual([400, 'Bad Request']);
    }
    const form = await api(file('bin.txt'), {
      method: 'POST',
      token: 'dev-token',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'branch=main&commit_message=m&content=%FF%00',
    });
    expect(form.status).toBe(400);
    expect(e.git('acme/app').refs()).toEqual(before);
  });

  it('a file over 10 MB reads through the JSON route 5 times a minute, then 429; raw is not limited', async () => {
    await setup();
    const big = 'x'.repeat(10 * 1024 * 1024 + 1);
    expect((await api(file('big.txt'), { method: 'POST', token: 'dev-token', json: { branch: 'main', content: big, commit_message: 'big' } })).status).toBe(201);
    for (let i = 0; i < 5; i++) expect((await api(file('big.txt', '?ref=main'), { method: 'GET', token: 'dev-token' })).status).toBe(200);
    const res = await api(file('big.txt', '?ref=main'), { token: 'dev-token' });
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({
      message: {
        error: "The requested blob is over the threshold size of 10485760.\nAccess this blob using '/projects/:id/repository/files/:file_path/raw' to avoid this error.\n",
      },
    });
    expect((await api(file('big.txt', '/raw'), { token: 'dev-token' })).status).toBe(200);
    e.clock.advance('61s');
    expect((await api(file('big.txt', '?ref=main'), { token: 'dev-token' })).status).toBe(200);
  });
});
