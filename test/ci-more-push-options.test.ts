// Push options that reach CI and auto-merge, with the real git (Gitlab::PushOptions,
// MergeRequests::PushOptionsHandlerService#merge_params, Git::BaseHooksService#pipeline_options):
// `-o merge_request.merge_when_pipeline_succeeds` (or `auto_merge`) sets the merge request to
// merge when the pushed commit's pipeline succeeds, `-o ci.variable="K=V"` gives the push
// pipeline its variables, and `-o ci.skip` skips the branch pipeline and the merge request's
// (MergeRequests::CreatePipelineService hands it the push options).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Server } from '../src/index.js';
import { ciPushOptions } from '../src/families/ci/pipeline-routes.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall } from './support/world.js';

const APP = '/projects/acme%2Fapp';
const CI = [
  'test:',
  '  script: [make test]',
  '  rules:',
  '    - if: $CI_PIPELINE_SOURCE == "push"',
  '    - if: $CI_PIPELINE_SOURCE == "merge_request_event"',
  '',
].join('\n');

describe('ci push options as Gitlab::PushOptions reads them', () => {
  it('splits each ci.variable at its first =, drops those without a key, keeps the last of a key', () => {
    expect(ciPushOptions(['ci.variable=A=1', 'ci.variable=B=x=y', 'ci.variable==z', 'ci.variable=C', 'ci.variable=A=2', 'merge_request.create'])).toEqual({
      skip: false,
      variables: [{ key: 'A', value: '2', variableType: 'env_var' }, { key: 'B', value: 'x=y', variableType: 'env_var' }],
    });
    expect(ciPushOptions(['ci.skip']).skip).toBe(true);
    expect(ciPushOptions(['ci-skip']).skip).toBe(true);
    expect(ciPushOptions(['ci.skipped', 'cis.skip']).skip).toBe(false);
  });
});

describe.skipIf(!HAS_GIT)('push options for auto-merge and CI', () => {
  let emulator: Emulator;
  let server: Server;
  let git: GitScratch;
  const api = async (path: string, token = 'maintainer-token') => (await apiCall(emulator, path, { token })).json();
  const push = async (args: string[]) => {
    const r = await git.run(['push', '-q', ...args], 'app');
    expect(r.code, r.stderr).toBe(0);
    await emulator.settled();
  };

  beforeAll(async () => {
    emulator = await createEmulator({
      fixture: {
        users: TEAM,
        groups: [ACME],
        projects: [{
          namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
          repository: { files: { 'README.md': '# app\n', '.gitlab-ci.yml': CI } },
        }],
      },
      clock: { now: '2026-03-01T12:00:00Z', frozen: true },
    });
    emulator.ci('acme/app').outcomes({ otherwise: { status: 'success', after: '1m' } });
    server = await emulator.listen({ port: 0 });
    git = new GitScratch();
    await git.ok(['clone', '-q', withCredentials(`${server.url}/acme/app.git`, 'dev', 'dev-token'), 'app']);
  });
  afterAll(async () => {
    await server?.close();
    git?.remove();
  });

  it('creates the merge request set to merge when the pushed commit\'s pipeline succeeds, then merges it', async () => {
    await git.ok(['checkout', '-q', '-b', 'feat'], 'app');
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'Feature'], 'app');
    await push(['-o', 'merge_request.create', '-o', 'merge_request.merge_when_pipeline_succeeds', '-o', 'ci.variable=DEPLOY=yes', 'origin', 'feat']);
    const [mr] = await api(`${APP}/merge_requests?state=opened`);
    expect(mr).toMatchObject({ source_branch: 'feat', merge_when_pipeline_succeeds: true, merge_user: { username: 'dev' }, state: 'opened' });
    // The branch pipeline has the push option's variable; the merge request pipeline has none.
    const pipelines = await api(`${APP}/pipelines`);
    const branch = pipelines.find((p: { source: string }) => p.source === 'push');
    const merge = pipelines.find((p: { source: string }) => p.source === 'merge_request_event');
    expect(branch).toMatchObject({ ref: 'feat', status: 'running' });
    expect(await api(`${APP}/pipelines/${branch.id}/variables`)).toEqual([{ key: 'DEPLOY', value: 'yes', variable_type: 'env_var' }]);
    expect(await api(`${APP}/pipelines/${merge.id}/variables`)).toEqual([]);
    // No note: the push option writes the attribute, without AutoMergeService.
    expect((await api(`${APP}/merge_requests/${mr.iid}/notes`)).map((n: { body: string }) => n.body)).not.toContain(expect.stringContaining('automatic merge'));
    emulator.clock.advance('1m');
    await emulator.settled();
    expect(await api(`${APP}/merge_requests/${mr.iid}`)).toMatchObject({ state: 'merged', merged_by: { username: 'dev' } });
  });

  it('sets auto-merge on an open merge request with the newer name, and unsets it with false', async () => {
    await git.ok(['checkout', '-q', '-b', 'second', 'origin/main'], 'app');
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'Second'], 'app');
    await push(['-o', 'merge_request.create', 'origin', 'second']);
    const [mr] = await api(`${APP}/merge_requests?state=opened&source_branch=second`);
    expect(mr.merge_when_pipeline_succeeds).toBe(false);
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'Again'], 'app');
    await push(['-o', 'merge_request.auto_merge', 'origin', 'second']);
    expect(await api(`${APP}/merge_requests/${mr.iid}`)).toMatchObject({ merge_when_pipeline_succeeds: true, merge_user: { username: 'dev' } });
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'Once more'], 'app');
    await push(['-o', 'mr.merge_when_pipeline_succeeds=false', 'origin', 'second']);
    expect(await api(`${APP}/merge_requests/${mr.iid}`)).toMatchObject({ merge_when_pipeline_succeeds: false, state: 'opened' });
  });

  it('skips the branch pipeline and the merge request pipeline with ci.skip', async () => {
    await git.ok(['commit', '-q', '--allow-empty', '-m', 'Skipped'], 'app');
    const sha = (await git.run(['rev-parse', 'HEAD'], 'app')).stdout.trim();
    await push(['-o', 'ci.skip', 'origin', 'second']);
    const of = (await api(`${APP}/pipelines?sha=${sha}`)).map((p: { source: string; status: string }) => [p.source, p.status]).sort();
    expect(of).toEqual([['merge_request_event', 'skipped'], ['push', 'skipped']]);
  });
});
