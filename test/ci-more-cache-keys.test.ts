// Cache keys from files (Seed::Build::Cache#key_from_files): the runner's job payload carries the
// prefix and the SHA-1 of the last commits that changed the named files at the pipeline's commit
// (sorted, unique, joined with `-`), `default` when none of them exists; a commit that does not
// touch them keeps the key, one that changes them makes a new one.
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
    - key: plain-$CI_COMMIT_REF_SLUG
      paths: [tmp/]
`;
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ repository: { files: { 'README.md': '# App\n', 'package-lock.json': '{}\n', 'yarn.lock': 'y\n', '.gitlab-ci.yml': CI } } })],
};
const APP = '/projects/acme%2Fapp';

describe('cache:key:files in the job payload', () => {
  const world = seededWorld(FIXTURE, NOW);
  const api = async (method: string, path: string, json?: unknown, token = 'root-token') => {
    const res = await apiCall(world(), path, { method, token, json });
    return { status: res.status, body: await res.json() };
  };
  async function takeJob(runner: string) {
    const res = await world().handle(new Request('https://gitlab.example.com/api/v4/jobs/request', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: runner }),
    }));
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; token: string; cache: { key: string; paths: string[] }[] };
  }
  const lastCommit = async (path: string, ref: string) => (await api('GET', `${APP}/repository/files/${encodeURIComponent(path)}?ref=${ref}`)).body.last_commit_id as string;
  const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
  const finish = (job: { id: number; token: string }) => world().handle(new Request(`https://gitlab.example.com/api/v4/jobs/${job.id}`, {
    method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: job.token, state: 'success' }),
  }));

  it('keys a cache by the last commits of its files, and moves the key only when they change', async () => {
    const runner = (await api('POST', '/user/runners', { runner_type: 'instance_type' })).body.token as string;
    expect((await api('POST', `${APP}/pipeline`, { ref: 'main' })).status).toBe(201);
    const first = await takeJob(runner);
    const seeded = await lastCommit('package-lock.json', 'main');
    expect(seeded).toBe(await lastCommit('yarn.lock', 'main'));
    expect(first.cache.map((c) => c.key)).toEqual([`npm-${sha1(seeded)}`, 'default', 'plain-$CI_COMMIT_REF_SLUG']);
    await finish(first);

    // A commit elsewhere keeps the key.
    await api('POST', `${APP}/repository/commits`, { branch: 'main', commit_message: 'Docs', actions: [{ action: 'update', file_path: 'README.md', content: 'more\n' }] });
    await world().settled();
    const second = await takeJob(runner);
    expect(second.cache[0]!.key).toBe(first.cache[0]!.key);
    await finish(second);

    // Changing one of the files makes a key of both last commits.
    await api('POST', `${APP}/repository/commits`, { branch: 'main', commit_message: 'Bump', actions: [{ action: 'update', file_path: 'yarn.lock', content: 'z\n' }] });
    await world().settled();
    const third = await takeJob(runner);
    const bumped = await lastCommit('yarn.lock', 'main');
    expect(third.cache[0]!.key).toBe(`npm-${sha1([seeded, bumped].sort().join('-'))}`);
  });
});
