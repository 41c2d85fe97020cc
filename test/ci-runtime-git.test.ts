// Pipelines on a push with the real git: each pushed branch gets its pipeline, `-o ci.skip` makes
// none run, and a tag pushed gets its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall } from './support/world.js';

const APP = '/projects/acme%2Fapp';

describe.skipIf(!HAS_GIT)('pipelines on git push', () => {
  let emulator: Emulator;
  let server: Server;
  let git: GitScratch;
  const pipelines = async () => (await (await apiCall(emulator, `${APP}/pipelines`, { token: 'maintainer-token' })).json()) as { ref: string; status: string; source: string }[];

  beforeAll(async () => {
    emulator = await createEmulator({
      fixture: {
        users: TEAM,
        groups: [ACME],
        projects: [{
          namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
          repository: { files: { 'README.md': '# app\n', '.gitlab-ci.yml': 'test:\n  script: [make test]\n' } },
        }],
      },
      clock: { now: '2026-03-01T12:00:00Z', frozen: true },
    });
    server = await emulator.listen({ port: 0 });
    git = new GitScratch();
    await git.ok(['clone', '-q', withCredentials(`${server.url}/acme/app.git`, 'dev', 'dev-token'), 'app']);
  });
  afterAll(async () => {
    await server?.close();
    git?.remove();
  });

  it('makes a pipeline per pushed branch and tag, a skipped one for -o ci.skip', async () => {
    await git.ok(['checkout', '-q', '-b', 'feature'], 'app');
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'Work'], 'app');
    expect((await git.run(['push', '-q', 'origin', 'feature'], 'app')).code).toBe(0);
    expect((await pipelines()).map((p) => [p.ref, p.status, p.source])).toEqual([['feature', 'pending', 'push']]);
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'More'], 'app');
    expect((await git.run(['push', '-q', '-o', 'ci.skip', 'origin', 'feature'], 'app')).code).toBe(0);
    expect((await pipelines())[0]).toMatchObject({ ref: 'feature', status: 'skipped' });
    await git.ok(['tag', 'v1'], 'app');
    expect((await git.run(['push', '-q', 'origin', 'v1'], 'app')).code).toBe(0);
    expect((await pipelines())[0]).toMatchObject({ ref: 'v1', status: 'pending' });
  });
});
