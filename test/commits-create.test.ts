// POST /projects/:id/repository/commits (lib/api/commits.rb, Files::MultiService,
// Commits::CreateService, Gitaly's UserCommitFiles): actions applied in order, GitLab's errors,
// and a property test against a plain model of the tree and against the real `git`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'README.md': '# App\n', 'src/main.c': 'int main;\n', 'bin/run': '#!/bin/sh\n' },
        branches: { develop: 'main' },
        protected_branches: { main: { push_access_level: 'maintainer' } },
      },
    }),
    { namespace: 'acme', path: 'empty', creator: 'root', visibility: 'private', members: [{ user: 'dev', access_level: 'maintainer' }] }, // the first push to an empty repository needs a maintainer at GitLab's default branch protection (2)
    { namespace: 'acme', path: 'other', creator: 'root', visibility: 'public' },
  ],
};

const world = seededWorld(FIXTURE, '2024-05-06T07:08:09Z');
const URL_ = '/projects/acme%2Fapp/repository/commits';
const post = (json: unknown, token = 'dev-token', path = URL_) => apiCall(world(), path, { method: 'POST', token, json });
const on = (branch: string, actions: unknown, extra: Record<string, unknown> = {}) => ({ branch, commit_message: 'Change', actions, ...extra });
const files = (rev = 'develop') => world().git('acme/app').files(rev);
const tip = (branch: string) => world().git('acme/app').refs().branches[branch];

async function refused(res: Response, status: number, body: unknown) {
  expect(res.status).toBe(status);
  expect(await res.json()).toEqual(body);
}

describe('POST /projects/:id/repository/commits', () => {
  it('commits every action as one commit and answers the CommitDetail with stats', async () => {
    const before = tip('develop');
    const res = await post(
      on('develop', [
        { action: 'create', file_path: 'docs/a.md', content: 'a\n' },
        { action: 'update', file_path: 'README.md', content: '# App\n\nMore.\n' },
        { action: 'move', file_path: 'src/app.c', previous_path: 'src/main.c' },
        { action: 'delete', file_path: 'bin/run' },
        { action: 'create', file_path: 'bin/run', content: 'IyEvYmluL2Jhc2gK', encoding: 'base64' },
        { action: 'chmod', file_path: 'bin/run', execute_filemode: true },
      ], { commit_message: 'Many things\n\nSigned-off-by: Dee <dev@example.com>', author_name: 'Someone Else', author_email: 'else@example.com' }),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'id', 'short_id', 'created_at', 'parent_ids', 'title', 'message', 'author_name', 'author_email', 'authored_date', 'committer_name',
      'committer_email', 'committed_date', 'trailers', 'extended_trailers', 'web_url', 'stats', 'status', 'project_id', 'last_pipeline',
    ]);
    expect(body).toMatchObject({
      id: tip('develop'),
      parent_ids: [before],
      title: 'Many things',
      author_name: 'Someone Else',
      author_email: 'else@example.com',
      committer_name: 'Dee Veloper',
      committer_email: 'dev@example.com',
      committed_date: '2024-05-06T07:08:09.000+00:00',
      trailers: { 'Signed-off-by': 'Dee <dev@example.com>' },
      stats: { additions: 5, deletions: 2, total: 7 },
      status: null,
      last_pipeline: null,
    });
    expect(await files()).toEqual({ 'README.md': '# App\n\nMore.\n', 'docs/a.md': 'a\n', 'src/app.c': 'int main;\n', 'bin/run': '#!/bin/bash\n' });
    const g = world().git('acme/app');
    const entries = await g.log('develop');
    expect(entries[0]!.sha).toBe(body.id);
  });

  it('leaves stats out when asked, and applies a later action to what an earlier one made', async () => {
    const res = await post(on('develop', [
      { action: 'create', file_path: 'x/y.txt', content: 'one' },
      { action: 'update', file_path: 'x/y.txt', content: 'two' },
      { action: 'move', file_path: 'z.txt', previous_path: 'x/y.txt', content: 'three' },
      { action: 'create', file_path: 'x', content: 'x is a file now' },
    ], { stats: false }));
    expect(res.status).toBe(201);
    expect(await res.json()).not.toHaveProperty('stats');
    expect(await files()).toMatchObject({ 'z.txt': 'three', x: 'x is a file now' });
    expect(await files()).not.toHaveProperty('x/y.txt');
  });

  it('starts a new branch from start_branch or start_sha, and overwrites one with force', async () => {
    const main = tip('main')!;
    let res = await post(on('feature', [{ action: 'create', file_path: 'f.txt', content: 'f' }], { start_branch: 'develop' }));
    expect(res.status).toBe(201);
    expect(await files('feature')).toHaveProperty('f.txt', 'f');
    res = await post(on('from-sha', [{ action: 'create', file_path: 'g.txt' }], { start_sha: main }));
    expect(res.status).toBe(201);
    expect(((await res.json()) as { parent_ids: string[] }).parent_ids).toEqual([main]);
    expect(await files('from-sha')).toHaveProperty('g.txt', '');
    await refused(await post(on('feature', [{ action: 'create', file_path: 'h.txt' }], { start_sha: main })), 400, {
      message: "A branch called 'feature' already exists. Switch to that branch in order to make changes",
    });
    res = await post(on('feature', [{ action: 'create', file_path: 'h.txt' }], { start_sha: main, force: true }));
    expect(res.status).toBe(201);
    expect(Object.keys(await files('feature')).sort()).toEqual(['README.md', 'bin/run', 'h.txt', 'src/main.c']);
  });

  it("answers GitLab's 400s for the start of the commit", async () => {
    const main = tip('main')!;
    await refused(await post(on('x', [], { start_branch: 'main', start_sha: main })), 400, { error: 'start_branch, start_sha are mutually exclusive' });
    await refused(await post(on('x', [], { start_sha: main.slice(0, 7) })), 400, { message: `Invalid start_sha '${main.slice(0, 7)}'` });
    await refused(await post(on('x', [], { start_sha: '1'.repeat(40) })), 400, { message: `Cannot find start_sha '${'1'.repeat(40)}'` });
    await refused(await post(on('x', [], { start_branch: 'nope' })), 400, { message: 'You can only create or edit files when you are on a branch' });
    await refused(await post(on('develop', [], { start_branch: 'main' })), 400, {
      message: "A branch called 'develop' already exists. Switch to that branch in order to make changes",
    });
    await refused(await post(on('bad:name', [], { start_branch: 'main' })), 400, {
      message: "Something went wrong when we tried to create 'bad:name' for you: Branch name is invalid",
    });
  });

  it("answers Gitaly's 400 for an action it cannot apply, and changes nothing", async () => {
    const before = tip('develop');
    const cases: [unknown, string][] = [
      [{ action: 'create', file_path: 'README.md' }, 'A file with this name already exists'],
      [{ action: 'create', file_path: 'src' }, 'A directory with this name already exists'],
      [{ action: 'create', file_path: 'README.md/x' }, 'A file with this name already exists'],
      [{ action: 'update', file_path: 'nope.txt', content: 'x' }, "A file with this name doesn't exist"],
      [{ action: 'delete', file_path: 'src' }, "A file with this name doesn't exist"],
      [{ action: 'chmod', file_path: 'nope', execute_filemode: true }, "A file with this name doesn't exist"],
      [{ action: 'move', file_path: 'new', previous_path: 'nope' }, "A file with this name doesn't exist"],
      [{ action: 'move', file_path: 'README.md', previous_path: 'src/main.c' }, 'A file with this name already exists'],
      [{ action: 'create', file_path: '../etc/passwd' }, 'Path cannot include directory traversal'],
      [{ action: 'create', file_path: '' }, 'You must provide a file path'],
      [{ action: 'create', file_path: 'a//b' }, "invalid path: 'a//b'"],
      [{ action: 'create', file_path: '.git/config' }, "invalid path: '.git/config'"],
    ];
    for (const [action, message] of cases) {
      await refused(await post(on('develop', [{ action: 'create', file_path: 'first.txt' }, action])), 400, { message });
    }
    expect(tip('develop')).toBe(before);
    expect(await files()).not.toHaveProperty('first.txt');
  });

  it("answers Grape's 400 for actions it cannot read", async () => {
    await refused(await post(on('develop', [{ action: null, file_path: 'a' }])), 400, { error: 'actions[0][action] is empty' });
    await refused(await post(on('develop', [{ action: 'unknown', file_path: 'a' }])), 400, { error: 'actions[0][action] does not have a valid value' });
    await refused(await post(on('develop', [{ action: 'create' }])), 400, { error: 'actions[0][file_path] is missing' });
    await refused(await post(on('develop', [{ action: 'create', file_path: 'a' }, { action: 'move', file_path: 'b' }])), 400, {
      error: 'actions[1][previous_path] is missing',
    });
    await refused(await post(on('develop', [{ action: 'update', file_path: 'a' }])), 400, { error: 'actions[0][content] is missing' });
    await refused(await post(on('develop', [{ action: 'chmod', file_path: 'a' }])), 400, { error: 'actions[0][execute_filemode] is missing' });
    await refused(await post(on('develop', [{ action: 'create', file_path: 'a', encoding: 'hex' }])), 400, {
      error: 'actions[0][encoding] does not have a valid value',
    });
    await refused(await post(on('develop', 'create')), 400, { error: 'actions is invalid' });
    await refused(await post({ branch: 'develop', commit_message: 'x' }), 400, { message: '400 Bad request - "actions" not given' });
  });

  it('refuses a stale last_commit_id with the path it names', async () => {
    const last = tip('develop')!;
    expect((await post(on('develop', [{ action: 'update', file_path: 'README.md', content: 'new\n' }]))).status).toBe(201);
    await refused(await post(on('develop', [{ action: 'move', file_path: 'R.md', previous_path: 'README.md', last_commit_id: last }])), 400, {
      message: 'The file has changed since you started editing it: README.md',
    });
    const res = await post(on('develop', [{ action: 'update', file_path: 'README.md', content: 'newer\n', last_commit_id: tip('develop') }]));
    expect(res.status).toBe(201);
  });

  it('checks who may push: 401 anonymous, 403 for reporters and protected branches, 404 unseen', async () => {
    const actions = [{ action: 'create', file_path: 'n.txt' }];
    expect((await apiCall(world(), URL_, { method: 'POST', json: on('develop', actions) })).status).toBe(401);
    await refused(await post(on('develop', actions), 'reporter-token'), 403, { message: '403 Forbidden - You are not allowed to push into this branch' });
    await refused(await post(on('main', actions)), 403, { message: '403 Forbidden - You are not allowed to push into this branch' });
    expect((await post(on('main', actions), 'maintainer-token')).status).toBe(201);
    await refused(await post(on('develop', actions), 'outsider-token'), 404, { message: '404 Project Not Found' });
  });

  it('refuses a start_project outside the fork network (the emulator has no forks)', async () => {
    const actions = [{ action: 'create', file_path: 'n.txt' }];
    await refused(await post(on('develop', actions, { start_project: 'acme/other' })), 403, {
      message: '403 Forbidden - Project is not included in the fork network for acme / other',
    });
    await refused(await post(on('develop', actions, { start_project: 999 })), 404, { message: '404 Project Not Found' });
  });

  it('makes the first commit of an empty repository on the branch named', async () => {
    const res = await post(on('trunk', [{ action: 'create', file_path: 'README.md', content: 'hi' }]), 'dev-token', '/projects/acme%2Fempty/repository/commits');
    expect(res.status).toBe(201);
    expect(((await res.json()) as { parent_ids: string[] }).parent_ids).toEqual([]);
    const g = world().git('acme/empty');
    expect(g.refs().head).toBe('trunk');
    expect(await g.files('trunk')).toEqual({ 'README.md': 'hi' });
  });
});

// ---- The property: random action sequences against a plain model and against git ----

const HAS_GIT = spawnSync('git', ['--version']).status === 0;
const PATHS = ['a', 'b', 'a/b', 'a/c', 'a/b/c', 'd/e', 'd', 'x.txt'];
type ModelFile = { content: string; exec: boolean };
type Model = Map<string, ModelFile>;
type Act =
  | { action: 'create' | 'update'; file_path: string; content: string }
  | { action: 'delete'; file_path: string }
  | { action: 'move'; file_path: string; previous_path: string; content?: string }
  | { action: 'chmod'; file_path: string; execute_filemode: boolean };

const path = fc.constantFrom(...PATHS);
const content = fc.constantFrom('', 'one\n', 'two\n', 'three\nlines\n');
const act: fc.Arbitrary<Act> = fc.oneof(
  fc.record({ action: fc.constantFrom('create' as const, 'update' as const), file_path: path, content }),
  fc.record({ action: fc.constant('delete' as const), file_path: path }),
  fc.record({ action: fc.constant('move' as const), file_path: path, previous_path: path, content: fc.option(content, { nil: undefined }) }),
  fc.record({ action: fc.constant('chmod' as const), file_path: path, execute_filemode: fc.boolean() }),
);

/** The model's answer: the files after the actions, or the message of the first one refused. */
function applyModel(start: Model, acts: Act[]): Model | string {
  const m = new Map(start);
  const isDir = (p: string) => [...m.keys()].some((k) => k.startsWith(`${p}/`));
  const blocked = (p: string) => p.split('/').slice(0, -1).some((_, i, parts) => m.has(parts.slice(0, i + 1).join('/')));
  for (const a of acts) {
    if (a.action === 'create' || a.action === 'move') {
      if (a.action === 'move' && !m.has(a.previous_path)) return "A file with this name doesn't exist";
      if (isDir(a.file_path)) return 'A directory with this name already exists';
      if (m.has(a.file_path) || blocked(a.file_path)) return 'A file with this name already exists';
      if (a.action === 'create') m.set(a.file_path, { content: a.content, exec: false });
      else if (a.action === 'move') {
        const from = m.get(a.previous_path)!;
        m.delete(a.previous_path);
        m.set(a.file_path, { content: a.content ?? from.content, exec: from.exec });
      }
      continue;
    }
    const f = m.get(a.file_path);
    if (!f) return "A file with this name doesn't exist";
    if (a.action === 'delete') m.delete(a.file_path);
    else if (a.action === 'update') m.set(a.file_path, { ...f, content: a.content });
    else if (a.action === 'chmod') m.set(a.file_path, { ...f, exec: a.execute_filemode });
  }
  return m;
}

const blobId = (text: string) => {
  const bytes = Buffer.from(text);
  return createHash('sha1').update(Buffer.concat([Buffer.from(`blob ${bytes.length}\0`), bytes])).digest('hex');
};

const PROPERTY_FIXTURE: Fixture = {
  users: [{ username: 'dev', name: 'Dee Veloper', email: 'dev@example.com', tokens: [{ token: 'dev-token' }] }],
  groups: [{ path: 'acme', members: [{ user: 'dev', access_level: 'maintainer' }] }],
  projects: [{ namespace: 'acme', path: 'app' }],
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('random action sequences', () => {
  it('give the tree a plain model predicts, or the error of the first action it refuses', async () => {
    const e = await createEmulator({ fixture: PROPERTY_FIXTURE, clock: { now: '2024-05-06T07:08:09Z', frozen: true } });
    const seeded = e.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(act, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), async (commits) => {
        e.restore(seeded);
        let model: Model = new Map();
        for (const acts of commits) {
          const res = await apiCall(e, '/projects/acme%2Fapp/repository/commits', { method: 'POST', token: 'dev-token', json: on('main', acts, { stats: false }) });
          const expected = applyModel(model, acts);
          if (typeof expected === 'string') {
            expect(res.status).toBe(400);
            expect(await res.json()).toEqual({ message: expected });
            continue;
          }
          expect(res.status).toBe(201);
          model = expected;
          const got = await e.git('acme/app').files('main');
          expect(got).toEqual(Object.fromEntries([...model].map(([p, f]) => [p, f.content])));
        }
      }),
      { numRuns: 60 },
    );
  });

  it.skipIf(!HAS_GIT)('write the tree and commit ids the real git computes for the same files', async () => {
    const e = await createEmulator({ fixture: PROPERTY_FIXTURE, clock: { now: '2024-05-06T07:08:09Z', frozen: true } });
    const seeded = e.snapshot();
    const gitEnv = (dir: string) => ({ ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: dir, GIT_DIR: dir });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(act, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 3 }), async (commits) => {
        e.restore(seeded);
        let model: Model = new Map();
        let made = 0;
        for (const acts of commits) {
          const next = applyModel(model, acts);
          if (typeof next === 'string') continue;
          const res = await apiCall(e, '/projects/acme%2Fapp/repository/commits', { method: 'POST', token: 'dev-token', json: on('main', acts, { stats: false }) });
          expect(res.status).toBe(201);
          model = next;
          made++;
        }
        if (made === 0) return;
        const dir = mkdtempSync(join(tmpdir(), 'gle-actions-'));
        dirs.push(dir);
        await e.git('acme/app').export(dir);
        const env = gitEnv(dir);
        const git = (args: string[], input?: string) => execFileSync('git', args, { env, input, encoding: 'utf8' }).trim();
        git(['fsck', '--strict', '--no-dangling']);
        // The tree: every path with its mode and the blob id git computes for the content.
        const listed = git(['ls-tree', '-r', '--full-tree', 'main']);
        const expected = [...model]
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([p, f]) => `${f.exec ? '100755' : '100644'} blob ${blobId(f.content)}\t${p}`)
          .join('\n');
        expect(listed.split('\n').filter(Boolean).sort().join('\n')).toBe(expected.split('\n').filter(Boolean).sort().join('\n'));
        // The same files through git's own index give the same tree id; commit-tree the same commit id.
        const head = git(['rev-parse', 'main']);
        const [treeLine, ...rest] = git(['cat-file', 'commit', head]).split('\n');
        const index = join(dir, 'model-index');
        const indexEnv = { ...env, GIT_INDEX_FILE: index };
        const info = [...model].map(([p, f]) => `${f.exec ? '100755' : '100644'} ${git(['hash-object', '-w', '--stdin'], f.content)}\t${p}`).join('\n');
        execFileSync('git', ['update-index', '--index-info'], { env: indexEnv, input: info ? `${info}\n` : '' });
        const tree = execFileSync('git', ['write-tree'], { env: indexEnv, encoding: 'utf8' }).trim();
        expect(treeLine).toBe(`tree ${tree}`);
        const parent = rest.find((l) => l.startsWith('parent '))?.slice(7);
        const msgFile = join(dir, 'msg');
        writeFileSync(msgFile, 'Change');
        const stamp = `${Date.parse('2024-05-06T07:08:09Z') / 1000} +0000`;
        const who = { GIT_AUTHOR_NAME: 'Dee Veloper', GIT_AUTHOR_EMAIL: 'dev@example.com', GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_NAME: 'Dee Veloper', GIT_COMMITTER_EMAIL: 'dev@example.com', GIT_COMMITTER_DATE: stamp };
        const id = execFileSync('git', ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', msgFile], { env: { ...env, ...who }, encoding: 'utf8' }).trim();
        expect(id).toBe(head);
      }),
      { numRuns: 15 },
    );
  });
});
