// `gitlab-emulator import`: a served emulator is crawled through its REST API and git over HTTP,
// the fixture it writes seeds a new emulator, and the read routes of both answer the same,
// apart from what docs/import.md says is not carried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import type { Fixture } from '../src/families/world.js';
import { importFromGitlab, type ImportResult } from '../src/importer/index.js';

const WORLD: Fixture = {
  instance: { tier: 'ultimate' },
  users: [
    { username: 'alice', name: 'Alice Liddell', admin: true, public_email: 'alice@example.com', tokens: [{ token: 'alice-secret-token' }] },
    { username: 'bob', name: 'Bob Builder', tokens: [{ token: 'bob-secret-token' }] },
    { username: 'carol', name: 'Carol Danvers' },
    // Mentioned only as a commit's author: found by the email of the commit.
    { username: 'dave', name: 'Dave', email: 'dave@example.com', public_email: 'dave@example.com' },
  ],
  groups: [
    { path: 'acme', name: 'Acme', visibility: 'internal', description: 'The company', members: [{ user: 'alice', access_level: 'owner' }],
      labels: [{ name: 'group-label', color: '#112233' }], milestones: [{ title: 'G1', due_date: '2026-09-01' }],
      variables: [{ key: 'GROUP_PLAIN', value: 'visible' }] },
  ],
  projects: [
    {
      namespace: 'acme', path: 'app', name: 'App', visibility: 'private', description: 'The app', creator: 'alice', topics: ['demo'],
      default_branch: 'main',
      members: [{ user: 'bob', access_level: 'developer' }, { user: 'carol', access_level: 'reporter', expires_at: '2030-01-01' }],
      repository: {
        commits: [
          { message: 'Initial commit', author: 'alice', date: '2026-01-01T10:00:00.000Z', files: { 'README.md': '# app\n', 'src/index.js': 'console.log(1)\n' } },
          { message: 'Add a script\n\nWith a body.', author: 'bob', date: '2026-01-02T10:00:00.000Z', files: { 'bin/run': '#!/bin/sh\necho run\n' }, base64: { 'logo.bin': 'AAECAwQ=' }, executable: ['bin/run'] },
          { branch: 'feature', start_branch: 'main', message: 'Feature work', author: 'bob', date: '2026-01-03T10:00:00.000Z', files: { 'src/feature.js': 'export {}\n' } },
          { message: 'Remove the binary', author: 'alice', date: '2026-01-04T10:00:00.000Z', files: { 'logo.bin': null, 'docs/guide.md': 'Guide\n' } },
          { branch: 'feature', message: 'More feature work', author: 'dave', date: '2026-01-05T10:00:00.000Z', files: { 'src/index.js': 'console.log(2)\n' } },
        ],
        tags: { 'v1.0': 'main~1', 'v1.1': { ref: 'main', message: 'Release 1.1' } },
      },
      labels: [{ name: 'bug', color: '#d9534f', description: 'Broken', priority: 1 }, { name: 'feature', color: '#5cb85c' }],
      milestones: [{ title: 'v1', description: 'First', due_date: '2026-07-01', start_date: '2026-06-01' }, { title: 'v0', state: 'closed' }],
      issues: [
        { title: 'Crash on start', description: 'It crashes', author: 'bob', assignees: ['alice'], labels: ['bug', 'group-label'], milestone: 'v1', created_at: '2026-02-01T09:00:00.000Z', due_date: '2026-06-30', time_estimate: '1h', time_spent: '30m' },
        { title: 'Closed one', author: 'carol', state: 'closed', confidential: true, created_at: '2026-02-02T09:00:00.000Z', milestone: 'G1' },
      ],
      merge_requests: [{ title: 'Add the feature', source_branch: 'feature', description: 'Closes #1', author: 'bob', assignees: ['bob'], reviewers: ['alice'], labels: ['feature'], milestone: 'v1', created_at: '2026-02-03T09:00:00.000Z' }],
      notes: [
        { issue: 1, body: 'I see it too', author: 'carol', created_at: '2026-02-01T10:00:00.000Z' },
        { issue: 1, body: 'Internal remark', author: 'alice', internal: true, created_at: '2026-02-01T11:00:00.000Z' },
        { merge_request: 1, body: 'Looks good', author: 'alice', created_at: '2026-02-03T10:00:00.000Z' },
      ],
      releases: [{ tag_name: 'v1.0', name: 'First', description: 'Notes', author: 'alice', released_at: '2026-03-01T00:00:00.000Z', milestones: ['v1'], links: [{ name: 'linux', url: 'https://example.com/app-linux', direct_asset_path: '/bin/app', link_type: 'package' }] }],
      variables: [
        { key: 'PLAIN', value: 'hello', environment_scope: 'production' },
        { key: 'MASKED', value: 'masked-secret-value', masked: true, protected: true },
        { key: 'HIDDEN', value: 'hidden-secret-value', masked_and_hidden: true },
      ],
    },
    { namespace: 'bob', path: 'notes', name: 'Notes', visibility: 'public', creator: 'bob', repository: { files: { 'a.txt': 'a\n' } } },
  ],
};

const ADMIN = 'alice-secret-token';

let source: Emulator;
let url: string;
let close: () => Promise<void>;
let result: ImportResult;
let progress: string[] = [];

beforeAll(async () => {
  source = await createEmulator({ fixture: WORLD });
  const server = await source.listen({ port: 0 });
  url = server.url;
  close = () => server.close();
  result = await importFromGitlab({ from: url, token: ADMIN, groups: ['acme'], projects: ['bob/notes'], progress: (l) => progress.push(l) });
}, 60_000);

afterAll(async () => {
  await close?.();
});

async function read(e: { handle(r: Request): Promise<Response> }, path: string, token = ADMIN): Promise<unknown> {
  const res = await e.handle(new Request(`http://gitlab.test/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': token } }));
  expect(res.status, path).toBe(200);
  return res.json();
}

describe('import from a served emulator', () => {
  it('reports progress on stderr lines and copies no token', () => {
    expect(progress.some((l) => /project acme\/app/.test(l))).toBe(true);
    expect(progress.some((l) => /cloning/.test(l))).toBe(true);
    const text = JSON.stringify(result.fixture);
    expect(text).not.toContain('alice-secret-token');
    expect(text).not.toContain('bob-secret-token');
    expect(text).not.toContain('hidden-secret-value');
    expect(text).not.toContain('masked-secret-value');
    expect(Object.keys(result.tokens).sort()).toEqual(['alice', 'bob', 'carol', 'dave']);
    expect(result.placeholders).toEqual(['acme/app: MASKED', 'acme/app: HIDDEN']);
  });

  it('seeds a world that answers the read routes as the source does', async () => {
    const copy = await createEmulator({ fixture: result.fixture });
    const token = result.tokens.alice!;
    const p = (path: string) => `/projects/${encodeURIComponent('acme/app')}${path}`;
    const same = async (path: string, pick: (v: unknown) => unknown = (v) => v) => {
      expect(pick(await read(copy, path, token)), path).toEqual(pick(await read(source, path)));
    };
    const fields = (...keys: string[]) => (v: unknown) => (v as Record<string, unknown>[]).map((x) => Object.fromEntries(keys.map((k) => [k, pickPath(x, k)])));
    await same(p(''), (v) => pickKeys(v, ['name', 'path_with_namespace', 'visibility', 'description', 'default_branch', 'topics']));
    await same('/groups/acme', (v) => pickKeys(v, ['name', 'full_path', 'visibility', 'description']));
    await same(p('/issues?sort=asc'), fields('iid', 'title', 'description', 'state', 'author.username', 'assignees.0.username', 'labels', 'milestone.title', 'confidential', 'created_at', 'due_date', 'time_stats.human_time_estimate', 'time_stats.human_total_time_spent'));
    await same(p('/merge_requests?sort=asc'), fields('iid', 'title', 'description', 'state', 'author.username', 'assignees.0.username', 'reviewers.0.username', 'labels', 'milestone.title', 'source_branch', 'target_branch', 'created_at'));
    await same(p('/issues/1/notes?sort=asc'), fields('body', 'author.username', 'internal', 'system', 'created_at'));
    await same(p('/merge_requests/1/notes?sort=asc'), fields('body', 'author.username', 'internal', 'system', 'created_at'));
    await same(p('/labels?include_ancestor_groups=true'), fields('name', 'color', 'description', 'priority'));
    await same(p('/milestones'), fields('iid', 'title', 'description', 'state', 'due_date', 'start_date'));
    await same('/groups/acme/milestones', fields('title', 'due_date'));
    await same(p('/releases'), fields('tag_name', 'name', 'description', 'released_at', 'author.username', 'milestones.0.title', 'assets.links.0.name', 'assets.links.0.url', 'assets.links.0.link_type', 'assets.links.0.direct_asset_url'));
    await same(p('/members'), fields('username', 'access_level', 'expires_at'));
    await same('/groups/acme/members', fields('username', 'access_level'));
    await same(p('/repository/branches'), fields('name', 'commit.title', 'commit.message', 'commit.author_name', 'commit.authored_date'));
    await same(p('/repository/tags'), fields('name', 'message', 'commit.title'));
    await same(p('/repository/tree?recursive=true&per_page=100'), fields('path', 'type', 'mode', 'id'));
    await same(p('/repository/tree?recursive=true&per_page=100&ref=feature'), fields('path', 'type', 'mode', 'id'));
    await same(p('/repository/commits?ref_name=feature&per_page=100'), fields('title', 'message', 'author_name', 'author_email', 'authored_date'));
    await same(p('/repository/commits?per_page=100'), fields('title', 'message', 'author_name', 'authored_date'));
    await same(p('/variables'), fields('key', 'variable_type', 'protected', 'masked', 'hidden', 'environment_scope'));
    await same(`/projects/${encodeURIComponent('bob/notes')}/repository/tree`, fields('path', 'id'));
    await same('/users?per_page=100&order_by=username&sort=asc', fields('username', 'name', 'state'));
  });

  it('turns hidden and masked values into placeholders, and copies plain ones', async () => {
    const copy = await createEmulator({ fixture: result.fixture });
    const vars = (await read(copy, `/projects/${encodeURIComponent('acme/app')}/variables`, result.tokens.alice)) as { key: string; value: string | null }[];
    expect(Object.fromEntries(vars.map((v) => [v.key, v.value]))).toEqual({ PLAIN: 'hello', MASKED: 'IMPORT_PLACEHOLDER_MASKED', HIDDEN: null });
  });
});

function pickPath(v: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o === null || o === undefined ? o : (o as Record<string, unknown>)[k]), v);
}

function pickKeys(v: unknown, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (v as Record<string, unknown>)[k]]));
}
