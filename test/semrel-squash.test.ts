// Squash on merge, as semantic-release's most common GitLab setup relies on it (the merge
// request's conventional title becomes the one commit released): `PUT .../merge` with `squash`
// (or a project that always squashes) writes the squash commit as Gitaly's UserSquash does (the
// head's tree on the diff's start, authored by the merge request's author, committed by the
// merging user, the merge request's title as message unless `squash_commit_message` is given),
// merges that commit (MergeStrategies::FromSourceBranch), records `squash_commit_sha`, and
// `GET .../repository/commits/:sha/merge_requests` finds the merge request by it.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';

const NOW = '2026-03-02T12:00:00Z';

function fixture(settings: Record<string, unknown> = {}, commits = 2): Fixture {
  const all: { branch: string; message: string; author: string; date: string; files: Record<string, string> }[] = [
    { branch: 'trim', message: 'wip: trim', author: 'alice', date: '2026-03-01T10:00:00Z', files: { 'src/index.js': 'trim 1\n' } },
    { branch: 'trim', message: 'more wip', author: 'alice', date: '2026-03-01T11:00:00Z', files: { 'src/index.js': 'trim 2\n', 'NOTES.md': 'n\n' } },
  ];
  const changes = all.slice(0, commits);
  return {
    users: [
      { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
      { username: 'alice', name: 'Alice Author', email: 'alice@example.com', tokens: [{ token: 'alice-token', scopes: ['api'] }] },
      { username: 'mo', name: 'Mo Maintainer', email: 'mo@example.com', tokens: [{ token: 'mo-token', scopes: ['api'] }] },
    ],
    groups: [{ path: 'acme' }],
    projects: [
      {
        namespace: 'acme',
        path: 'app',
        creator: 'root',
        default_branch: 'main',
        members: [
          { user: 'alice', access_level: 'developer' },
          { user: 'mo', access_level: 'maintainer' },
        ],
        repository: {
          files: { 'src/index.js': 'start\n', 'README.md': '# app\n' },
          branches: { trim: 'main' },
          commits: [...changes, { branch: 'main', message: 'docs: readme', author: 'mo', date: '2026-03-01T12:00:00Z', files: { 'README.md': '# app!\n' } }],
        },
        merge_requests: [{ title: 'fix: trim the name', source_branch: 'trim', description: 'Trims it.', author: 'alice' }],
      },
    ],
  };
}

async function setUp(settings: Record<string, unknown> = {}, commits = 2) {
  const emulator = await createEmulator({ fixture: fixture(settings, commits), clock: { now: NOW, frozen: true } });
  if (Object.keys(settings).length) expect((await api(emulator, 'PUT', '/projects/acme%2Fapp', settings)).status).toBe(200);
  return emulator;
}

async function api(emulator: Emulator, method: string, path: string, json?: unknown, token = 'mo-token') {
  const res = await emulator.handle(
    new Request(`http://gitlab.example.com/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': token, ...(json ? { 'Content-Type': 'application/json' } : {}) },
      body: json ? JSON.stringify(json) : undefined,
    }),
  );
  return { status: res.status, body: res.status === 204 ? null : ((await res.json()) as any) };
}

const commit = async (e: Emulator, sha: string) => (await api(e, 'GET', `/projects/acme%2Fapp/repository/commits/${sha}`)).body;
const mrsOf = async (e: Emulator, sha: string) => ((await api(e, 'GET', `/projects/acme%2Fapp/repository/commits/${sha}/merge_requests`)).body as any[]).map((m) => m.iid);
const tree = async (e: Emulator, ref: string) =>
  Object.fromEntries(
    await Promise.all(
      ['src/index.js', 'README.md', 'NOTES.md'].map(async (f) => {
        const r = await api(e, 'GET', `/projects/acme%2Fapp/repository/files/${encodeURIComponent(f)}?ref=${ref}`);
        return [f, r.status === 200 ? Buffer.from(r.body.content, 'base64').toString() : null];
      }),
    ),
  );

describe('squash on merge', () => {
  it('squashes the merge request into one commit titled as it, then merges that commit', async () => {
    const e = await setUp();
    const before = (await api(e, 'GET', '/projects/acme%2Fapp/merge_requests/1')).body;
    expect(before.squash_commit_sha).toBeNull();
    const merged = await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true });
    expect(merged.status).toBe(200);
    expect(merged.body.state).toBe('merged');
    expect(merged.body.squash).toBe(true);
    const squashSha = merged.body.squash_commit_sha as string;
    expect(squashSha).toMatch(/^[0-9a-f]{40}$/);
    expect(squashSha).not.toBe(before.sha);

    const squash = await commit(e, squashSha);
    expect(squash.title).toBe('fix: trim the name');
    expect(squash.message).toBe('fix: trim the name\n');
    expect(squash.parent_ids).toEqual([before.diff_refs.start_sha]);
    expect([squash.author_name, squash.author_email, squash.committer_name, squash.committer_email]).toEqual(['Alice Author', 'alice@example.com', 'Mo Maintainer', 'mo@example.com']);
    // The head merged into the start: main's later README change stays.
    const result = { 'src/index.js': 'trim 2\n', 'README.md': '# app!\n', 'NOTES.md': 'n\n' };
    expect(await tree(e, squashSha)).toEqual(result);

    const mergeCommit = await commit(e, merged.body.merge_commit_sha);
    expect(mergeCommit.parent_ids).toEqual([(await commit(e, 'main~0')).parent_ids[0], squashSha]);
    expect(await tree(e, 'main')).toEqual(result);
    // The branch's own commits are not on main; the merge request is found by its squash commit.
    const history = ((await api(e, 'GET', '/projects/acme%2Fapp/repository/commits?ref_name=main')).body as any[]).map((c) => c.title);
    expect(history).not.toContain('wip: trim');
    expect(history).toContain('fix: trim the name');
    expect(await mrsOf(e, squashSha)).toEqual([1]);
    expect(await mrsOf(e, merged.body.merge_commit_sha)).toEqual([1]);
    expect(await mrsOf(e, before.sha)).toEqual([1]);
    expect((await api(e, 'GET', '/projects/acme%2Fapp/merge_requests/1')).body.squash_commit_sha).toBe(squashSha);
  });

  it('squashes through GraphQL too (mergeRequestAccept with squash)', async () => {
    const e = await setUp();
    const sha = (await api(e, 'GET', '/projects/acme%2Fapp/merge_requests/1')).body.sha;
    const res = await e.handle(
      new Request('http://gitlab.example.com/api/graphql', {
        method: 'POST',
        headers: { Authorization: 'Bearer mo-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: `mutation { mergeRequestAccept(input: { projectPath: "acme/app", iid: "1", sha: "${sha}", squash: true }) { errors mergeRequest { state } } }` }),
      }),
    );
    expect(((await res.json()) as any).data.mergeRequestAccept).toEqual({ errors: [], mergeRequest: { state: 'merged' } });
    const merged = (await api(e, 'GET', '/projects/acme%2Fapp/merge_requests/1')).body;
    expect((await commit(e, merged.squash_commit_sha)).message).toBe('fix: trim the name\n');
  });

  it('reports the squash merge to hooks as a merge only (the squash it records is no update)', async () => {
    const e = await setUp();
    const hook = (await api(e, 'POST', '/projects/acme%2Fapp/hooks', { url: 'http://127.0.0.1:9/hook', merge_requests_events: true })).body;
    expect((await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true })).status).toBe(200);
    await e.hooks.settled();
    const log = (await api(e, 'GET', `/projects/acme%2Fapp/hooks/${hook.id}/events`)).body as any[];
    expect(log.filter((x) => x.trigger === 'merge_request_hooks').map((x) => x.request_data.object_attributes.action)).toEqual(['merge']);
  });

  it('squashes an automatic merge asked with squash, when the pipeline succeeds', async () => {
    const e = await setUp();
    const ci = e.ci('acme/app');
    const job = ci.job(ci.pipeline({ ref: 'trim' }).id, { name: 'test', status: 'running' }).id;
    const set = await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true, squash_commit_message: 'fix: trim, automatically', auto_merge: true });
    expect(set.body).toMatchObject({ state: 'opened', squash: true, squash_on_merge: true, merge_when_pipeline_succeeds: true, squash_commit_sha: null });
    ci.finish(job, { status: 'success' });
    await e.settled();
    const merged = (await api(e, 'GET', '/projects/acme%2Fapp/merge_requests/1')).body;
    expect(merged.state).toBe('merged');
    expect((await commit(e, merged.squash_commit_sha)).message).toBe('fix: trim, automatically\n');
  });

  it('takes squash_commit_message', async () => {
    const e = await setUp();
    const merged = await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true, squash_commit_message: 'fix: trim\n\nCloses #9' });
    expect((await commit(e, merged.body.squash_commit_sha)).message).toBe('fix: trim\n\nCloses #9\n');
  });

  it('squashes when the merge request asks it (squash set on it), and not otherwise', async () => {
    const e = await setUp();
    expect((await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1', { squash: true })).status).toBe(200);
    const merged = await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', {});
    expect((await commit(e, merged.body.squash_commit_sha)).message).toBe('fix: trim the name\n');

    const plain = await setUp();
    const m = await api(plain, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', {});
    expect(m.body.squash_commit_sha).toBeNull();
    expect((await commit(plain, m.body.merge_commit_sha)).parent_ids[1]).toBe(m.body.sha);
  });

  it('follows the project: always squashes, never squashes', async () => {
    const always = await setUp({ squash_option: 'always' });
    expect((await api(always, 'GET', '/projects/acme%2Fapp/merge_requests/1')).body).toMatchObject({ squash: false, squash_on_merge: true });
    expect((await api(always, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', {})).body.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const never = await setUp({ squash_option: 'never' });
    expect((await api(never, 'PUT', '/projects/acme%2Fapp/merge_requests/1', { squash: true })).body).toMatchObject({ squash: true, squash_on_merge: false });
    const m = await api(never, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true });
    expect(m.status).toBe(200);
    expect(m.body.squash_commit_sha).toBeNull();
  });

  it('keeps a lone commit as it is (nothing to squash) unless a message is given', async () => {
    const e = await setUp({}, 1);
    const head = (await api(e, 'GET', '/projects/acme%2Fapp/merge_requests/1')).body.sha;
    const merged = await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true });
    expect(merged.body.squash_commit_sha).toBe(head);
    expect((await commit(e, merged.body.merge_commit_sha)).parent_ids[1]).toBe(head);

    const withMessage = await setUp({}, 1);
    const m = await api(withMessage, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true, squash_commit_message: 'fix: trim it' });
    expect(m.body.squash_commit_sha).not.toBe(head);
    expect((await commit(withMessage, m.body.squash_commit_sha)).message).toBe('fix: trim it\n');
  });

  it('fast-forwards the target to the squash commit in a fast-forward project', async () => {
    const e = await setUp({ merge_method: 'ff' });
    // The branch must be on top of the target: rebase it first, as GitLab asks.
    expect((await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/rebase')).status).toBe(202);
    await e.runUntilIdle();
    const merged = await api(e, 'PUT', '/projects/acme%2Fapp/merge_requests/1/merge', { squash: true });
    expect(merged.status).toBe(200);
    expect(merged.body.merge_commit_sha).toBeNull();
    const main = await commit(e, 'main');
    expect(main.id).toBe(merged.body.squash_commit_sha);
    expect(main.message).toBe('fix: trim the name\n');
    expect(await mrsOf(e, main.id)).toEqual([1]);
  });
});
