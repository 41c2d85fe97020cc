// Cache keys from files (Build::Cache and Seed::Build::Cache#key_from_files): the runner's job
// payload carries, for `cache:key:files`, the prefix and the SHA-1 of the blob ids of the named
// files at the pipeline's commit (wildcards expanded, sorted, unique, joined with `-`); for
// `cache:key:files_commits`, of the last commits that changed them; `default` when none exists.
// Without a prefix, the cache's index in the job (with the files' stems for `files`) is the prefix.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, apiCall, seededWorld, TEAM, teamProject } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const CI = `
test:
  script: [npm test]
  cache:
    - key:
        files: [package-lock.json, yarn.lock, '']
        prefix: npm
      paths: [node_modules/]
    - key:
        files: [missing.lock]
      paths: [vendor/]
    - key:
        files_commits: [package-lock.json, yarn.lock]
      paths: [tmp/]
    - key: plain-$CI_COMMIT_REF_SLUG
      paths: [tmp/]
globs:
  script: [ls]
  cache:
    - key:
        files: ['*.lock', ./yarn.lock]
      paths: [a/]
    - key:
        files: ['**/*.lock']
        prefix: deep
      paths: [b/]
    - key:
        files: [./yarn.lock, sub]
        prefix: ''
      paths: [c/]
`;
const FILES = { 'README.md': '# App\n', 'package-lock.json': '{}\n', 'yarn.lock': 'y\n', 'sub/dir/a.lock': 'a\n', '.gitlab-ci.yml': CI };
const FIXTURE: Fixture = { users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: FILES } })] };
const APP = '/projects/acme%2Fapp';

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
/** git hash-object: the id of a blob of this text. */
const blob = (text: string) => createHash('sha1').update(`blob ${Buffer.byteLength(text)}\0${text}`).digest('hex');
const digest = (ids: string[]) => sha1([...new Set(ids)].sort().join('-'));

describe('cache:key:files and files_commits in the job payload', () => {
  const world = seededWorld(FIXTURE, NOW);
  const api = async (method: string, path: string, json?: unknown, token = 'root-token') => {
    const res = await apiCall(world(), path, { method, token, json });
    return { status: res.status, body: await res.json() };
  };
  type Payload = { id: number; token: string; job_info: { name: string }; cache: { key: string; paths: string[] }[] };
  async function takeJob(runner: string): Promise<Payload> {
    const res = await world().handle(new Request('https://gitlab.example.com/api/v4/jobs/request', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runner }),
    }));
    expect(res.status).toBe(201);
    return (await res.json()) as Payload;
  }
  /** Both jobs of the pipeline, by name, finished. */
  async function jobs(runner: string): Promise<Record<string, Payload>> {
    const out: Record<string, Payload> = {};
    for (let i = 0; i < 2; i++) {
      const job = await takeJob(runner);
      out[job.job_info.name] = job;
      await finish(job);
    }
    return out;
  }
  const lastCommit = async (path: string, ref: string) => (await api('GET', `${APP}/repository/files/${encodeURIComponent(path)}?ref=${ref}`)).body.last_commit_id as string;
  const finish = (job: { id: number; token: string }) => world().handle(new Request(`https://gitlab.example.com/api/v4/jobs/${job.id}`, {
    method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: job.token, state: 'success' }),
  }));
  const commit = async (path: string, content: string) => {
    await api('POST', `${APP}/repository/commits`, { branch: 'main', commit_message: `Edit ${path}`, actions: [{ action: 'update', file_path: path, content }] });
    await world().settled();
  };

  it('keys by content for files, by last commits for files_commits, with the index as the prefix a file does not give', async () => {
    const runner = (await api('POST', '/user/runners', { runner_type: 'instance_type' })).body.token as string;
    expect((await api('POST', `${APP}/pipeline`, { ref: 'main' })).status).toBe(201);
    const first = await jobs(runner);
    const seeded = await lastCommit('package-lock.json', 'main');
    expect(first.test!.cache.map((c) => c.key)).toEqual([
      `npm-${digest([blob('{}\n'), blob('y\n')])}`,
      '1_missing-default',
      `2-${digest([seeded])}`,
      'plain-$CI_COMMIT_REF_SLUG',
    ]);
    // `*` stops at a slash, `**/` needs one; `./` paths and directories name no blob; a blank prefix is left out.
    expect(first.globs!.cache.map((c) => c.key)).toEqual([`0_*_-${digest([blob('y\n')])}`, `deep-${digest([blob('a\n')])}`, 'default']);

    // A commit elsewhere keeps every key.
    await commit('README.md', 'more\n');
    const second = await jobs(runner);
    expect(second.test!.cache.map((c) => c.key)).toEqual(first.test!.cache.map((c) => c.key));

    // Changing a file moves both kinds of key.
    await commit('yarn.lock', 'z\n');
    const bumped = await lastCommit('yarn.lock', 'main');
    const third = await jobs(runner);
    expect(third.test!.cache[0]!.key).toBe(`npm-${digest([blob('{}\n'), blob('z\n')])}`);
    expect(third.test!.cache[2]!.key).toBe(`2-${digest([seeded, bumped])}`);

    // Putting the content back gives the content key back, but not the commits key.
    await commit('yarn.lock', 'y\n');
    const reverted = await lastCommit('yarn.lock', 'main');
    const fourth = await jobs(runner);
    expect(fourth.test!.cache[0]!.key).toBe(first.test!.cache[0]!.key);
    expect(fourth.test!.cache[2]!.key).toBe(`2-${digest([seeded, reverted])}`);
    expect(fourth.test!.cache[2]!.key).not.toBe(first.test!.cache[2]!.key);
  });

  it('lints a key with both kinds of files, or too many of them', async () => {
    const lint = async (content: string) => (await api('POST', `${APP}/ci/lint`, { content })).body as { valid: boolean; errors: string[] };
    expect(await lint('a:\n  script: x\n  cache: { key: { files: [a], files_commits: [b] } }\n')).toMatchObject({
      valid: false, errors: ['jobs:a:cache:key config must use exactly one of these keys: files, files_commits'],
    });
    expect((await lint('a:\n  script: x\n  cache: { key: { files_commits: [a, b, c] } }\n')).errors).toEqual(['jobs:a:cache:key:files_commits config has too many items (maximum is 2)']);
    expect((await lint(`a:\n  script: x\n  cache: { key: { files: [${Array.from({ length: 11 }, (_, i) => `f${i}`).join(', ')}] } }\n`)).errors)
      .toEqual(['jobs:a:cache:key:files config has too many items (maximum is 10)']);
    expect((await lint(`a:\n  script: x\n  cache: { key: { files: [${Array.from({ length: 10 }, (_, i) => `f${i}`).join(', ')}] } }\n`)).valid).toBe(true);
  });
});
