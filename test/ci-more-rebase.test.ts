// A rebase's pipelines (MergeRequests::RebaseService with `skip_ci`, which Gitaly's rebase
// pushes with the `ci.skip` push option): without it the rebased head gets its branch and merge
// request pipelines; with it both are created skipped, so nothing runs for it.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const CI = 'test:\n  script: [make]\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "push"\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"\n';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n', '.gitlab-ci.yml': CI }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
  }],
};
const P = '/projects/acme%2Fapp';
const MR = `${P}/merge_requests/1`;

describe('rebase and skip_ci', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });
  async function rebase(query: string): Promise<{ sha: string; pipelines: [string, string, string][] }> {
    await call('POST', `${P}/repository/commits`, 'maintainer-token', { branch: 'main', commit_message: 'Move main', actions: [{ action: 'update', file_path: 'README.md', content: 'moved\n' }] });
    expect(await call('PUT', `${MR}/rebase${query}`)).toEqual({ status: 202, body: { rebase_in_progress: true } });
    await world().settled();
    const mr = (await call('GET', MR)).body;
    const list = (await call('GET', `${P}/pipelines?sha=${mr.sha}`)).body as { id: number }[];
    const pipelines = await Promise.all(list.map(async (p) => (await call('GET', `${P}/pipelines/${p.id}`)).body as { source: string; status: string; user: { username: string } }));
    return { sha: mr.sha, pipelines: pipelines.map((p) => [p.source, p.status, p.user.username] as [string, string, string]).sort() };
  }

  it('runs the pipelines of the rebased head as the user who rebased', async () => {
    const { pipelines } = await rebase('');
    expect(pipelines).toEqual([['merge_request_event', 'pending', 'dev'], ['push', 'pending', 'dev']]);
  });

  it('with skip_ci=true, the rebased head\'s pipelines are skipped', async () => {
    const { pipelines } = await rebase('?skip_ci=true');
    expect(pipelines).toEqual([['merge_request_event', 'skipped', 'dev'], ['push', 'skipped', 'dev']]);
    // The head pipeline of the merge request is that skipped one.
    expect((await call('GET', MR)).body.head_pipeline).toMatchObject({ status: 'skipped', source: 'merge_request_event' });
  });

  it('skip_ci=false is a plain rebase', async () => {
    const { pipelines } = await rebase('?skip_ci=false');
    expect(pipelines.map((p) => p[1])).toEqual(['pending', 'pending']);
  });
});
