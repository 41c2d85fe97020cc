// Merge trains (ee/lib/api/merge_trains.rb, MergeTrains::Car, MergeTrains::AddMergeRequestService,
// MergeTrains::RefreshService): Premium, with the project's merge trains on; a car per merge
// request, a train pipeline of the merge request merged onto the target and the cars ahead, the
// merge when the first car's pipeline succeeds, a failed car leaving the train.
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../src/index.js';
import { apiCall, seededWorld, jsonCall } from './support/world.js';
import { MR_PIPELINE_CI, trainFixture } from './support/trains.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE = trainFixture(
  [
    { branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } },
    { branch: 'other', start_branch: 'main', message: 'Other', files: { 'g.txt': 'g\n' } },
  ],
  [
    { title: 'Add f', source_branch: 'feature' },
    { title: 'Add g', source_branch: 'other' },
  ],
);
const P = '/projects/acme%2Fapp';

/** The merge requests' heads with pipelines that succeeded: MergeTrainService wants a complete head pipeline. */
async function passHeads(world: () => Emulator, branches = ['feature', 'other']) {
  const ci = world().ci('acme/app');
  for (const ref of branches) ci.job(ci.pipeline({ ref }).id, { name: 'check', status: 'success' });
  await world().settled();
}

describe('merge trains', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
  const enable = async () => {
    const set = await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    await passHeads(world);
    return set;
  };
  /** Every job of a pipeline finished with one status, and what that set off settled. */
  async function finishPipeline(pipelineId: number, status: 'success' | 'failed') {
    const ci = world().ci('acme/app');
    for (const j of ci.jobs(pipelineId)) ci.finish(j.id, { status });
    await world().settled();
  }

  it('answers 403 while the project has merge trains off, 404 to who may not see a private project, 403 below Developer', async () => {
    expect(await call('GET', `${P}/merge_trains`, 'dev-token')).toEqual({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(403);
    const set = await enable();
    expect(set.body).toMatchObject({ merge_pipelines_enabled: true, merge_trains_enabled: true });
    expect(await call('GET', `${P}/merge_trains`, 'dev-token')).toEqual({ status: 200, body: [] });
    expect((await call('GET', `${P}/merge_trains`, 'outsider-token')).status).toBe(404);
    expect((await call('GET', `${P}/merge_trains`, 'reporter-token')).status).toBe(403);
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, 'reporter-token')).status).toBe(403);
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(404);
    expect((await call('POST', `${P}/merge_trains/merge_requests/9`, 'dev-token')).status).toBe(404);
    expect((await call('GET', `${P}/merge_trains?scope=bogus`, 'dev-token')).status).toBe(400);
  });

  it('adds a merge request: a car with a train pipeline of the merge onto the target, merged when it succeeds', async () => {
    await enable();
    const mr = (await call('GET', `${P}/merge_requests/1`, 'dev-token')).body;
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token', { sha: 'f'.repeat(40) })).status).toBe(409);
    const added = await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token', { sha: mr.sha });
    expect(added.status).toBe(201);
    expect(added.body).toHaveLength(1);
    // Answered as GitLab's worker has not run yet: the car idle, without a pipeline.
    expect(added.body[0]).toMatchObject({ status: 'idle', pipeline: null, merge_request: { iid: 1 } });
    const car = (await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body;
    expect(car.id).toBe(added.body[0].id);
    expect(car).toMatchObject({
      merge_request: { id: mr.id, iid: 1, project_id: mr.project_id, title: 'Add f', state: 'opened', web_url: mr.web_url },
      user: { username: 'dev' }, target_branch: 'main', status: 'fresh', merged_at: null, duration: null,
      pipeline: { ref: 'refs/merge-requests/1/train', status: 'pending', source: 'merge_request_event' },
    });
    expect(Object.keys(car).sort()).toEqual(['created_at', 'duration', 'id', 'merge_request', 'merged_at', 'pipeline', 'status', 'target_branch', 'updated_at', 'user']);
    expect(Object.keys(car.merge_request).sort()).toEqual(['created_at', 'description', 'id', 'iid', 'project_id', 'state', 'title', 'updated_at', 'web_url']);
    // The train commit: the merge request merged onto the target's tip.
    const main = (await call('GET', `${P}/repository/branches/main`, 'dev-token')).body.commit.id;
    const commit = (await call('GET', `${P}/repository/commits/${car.pipeline.sha}`, 'dev-token')).body;
    expect(commit.parent_ids).toEqual([main, mr.sha]);
    // Once on the train, not again.
    expect(await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token')).toEqual({ status: 400, body: { message: '400 Bad request - Merge request is already set to Auto-Merge' } });
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body).toEqual(car);
    expect((await call('GET', `${P}/merge_trains/main`, 'dev-token')).body).toEqual([car]);
    expect((await call('GET', `${P}/merge_trains?scope=complete`, 'dev-token')).body).toEqual([]);

    await finishPipeline(car.pipeline.id, 'success');
    const merged = (await call('GET', `${P}/merge_requests/1`, 'dev-token')).body;
    expect(merged).toMatchObject({ state: 'merged', merged_by: { username: 'dev' } });
    const after = (await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body;
    expect(after).toMatchObject({ status: 'merged', merged_at: merged.merged_at, pipeline: { id: car.pipeline.id, status: 'success' } });
    expect(typeof after.duration).toBe('number');
    expect((await call('GET', `${P}/merge_trains?scope=active`, 'dev-token')).body).toEqual([]);
    expect((await call('GET', `${P}/merge_trains?scope=complete`, 'dev-token')).body.map((c: { id: number }) => c.id)).toEqual([car.id]);
  });

  it('runs the second car on the first: merged in order; a failed first car leaves and the next gets a new pipeline', async () => {
    await enable();
    await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token');
    await call('POST', `${P}/merge_trains/merge_requests/2`, 'maintainer-token');
    const first = (await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body;
    const second = (await call('GET', `${P}/merge_trains/merge_requests/2`, 'dev-token')).body;
    const behind = (await call('GET', `${P}/repository/commits/${second.pipeline.sha}`, 'dev-token')).body;
    expect(behind.parent_ids[0]).toBe(first.pipeline.sha);
    const list = (await call('GET', `${P}/merge_trains`, 'dev-token')).body;
    expect(list.map((c: { id: number }) => c.id)).toEqual([second.id, first.id]);
    expect((await call('GET', `${P}/merge_trains?sort=asc`, 'dev-token')).body.map((c: { id: number }) => c.id)).toEqual([first.id, second.id]);

    await finishPipeline(first.pipeline.id, 'failed');
    // The car behind is outdated and awaits the train's refresh, which the next request lets run.
    expect((await call('GET', `${P}/merge_trains/merge_requests/2`, 'dev-token')).body).toMatchObject({ status: 'stale', pipeline: { id: second.pipeline.id } });
    expect((await call('GET', `${P}/merge_requests/1`, 'dev-token')).body.state).toBe('opened');
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(404);
    const moved = (await call('GET', `${P}/merge_trains/merge_requests/2`, 'dev-token')).body;
    expect(moved.pipeline.id).not.toBe(second.pipeline.id);
    expect(moved.status).toBe('fresh');
    const main = (await call('GET', `${P}/repository/branches/main`, 'dev-token')).body.commit.id;
    expect((await call('GET', `${P}/repository/commits/${moved.pipeline.sha}`, 'dev-token')).body.parent_ids[0]).toBe(main);
    // The old pipeline of the second car was canceled.
    expect((await call('GET', `${P}/pipelines/${second.pipeline.id}`, 'dev-token')).body.status).toBe('canceled');

    // A car behind that succeeds first waits for the one ahead.
    await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token');
    const again = (await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body;
    await finishPipeline(again.pipeline.id, 'success');
    expect((await call('GET', `${P}/merge_requests/1`, 'dev-token')).body.state).toBe('opened');
    await finishPipeline(moved.pipeline.id, 'success');
    expect((await call('GET', `${P}/merge_requests/2`, 'dev-token')).body.state).toBe('merged');
    expect((await call('GET', `${P}/merge_requests/1`, 'dev-token')).body.state).toBe('merged');
    const done = (await call('GET', `${P}/merge_trains/main?scope=complete&sort=asc`, 'dev-token')).body;
    expect(done.map((c: { merge_request: { iid: number }; status: string }) => [c.merge_request.iid, c.status])).toEqual([[2, 'merged'], [1, 'merged']]);
  });

});

describe('merge trains and pushes', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
  const push = (branch: string, file: string) => call('POST', `${P}/repository/commits`, 'maintainer-token', {
    branch, commit_message: `Add ${file}`, actions: [{ action: 'create', file_path: file, content: 'x\n' }],
  });

  it('without a train pipeline to run, the add fails and leaves no car', async () => {
    await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    await passHeads(world);
    const removed = await call('POST', `${P}/repository/commits`, 'maintainer-token', {
      branch: 'main', commit_message: 'No CI', actions: [{ action: 'delete', file_path: '.gitlab-ci.yml' }],
    });
    expect(removed.status).toBe(201);
    expect(await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token')).toEqual({ status: 400, body: { message: '400 Bad request - Failed to merge' } });
    expect((await call('GET', `${P}/merge_trains`, 'dev-token')).body).toEqual([]);
    expect((await call('GET', `${P}/merge_requests/1/pipelines`, 'dev-token')).body.filter((p: { ref: string }) => p.ref.endsWith('/train'))).toEqual([]);
  });

  it('a draft has no merge train strategy', async () => {
    await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    await passHeads(world);
    await call('PUT', `${P}/merge_requests/1`, 'dev-token', { title: 'Draft: Add f' });
    expect(await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token')).toEqual({ status: 400, body: { message: '400 Bad request - No available merge train strategy' } });
  });

  it('a push to the target rebuilds the train on it; a push to a source branch takes its car off', async () => {
    await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    await passHeads(world);
    await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token');
    const first = (await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body;
    expect((await push('main', 'h.txt')).status).toBe(201);
    // CheckStatusService: the first car is stale until the refresh runs.
    expect((await call('GET', `${P}/merge_trains?scope=active`, 'dev-token')).body.map((c: { status: string }) => c.status)).toEqual(['stale']);
    const main = (await call('GET', `${P}/repository/branches/main`, 'dev-token')).body.commit.id;
    const rebuilt = (await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body;
    expect(rebuilt.pipeline.id).not.toBe(first.pipeline.id);
    expect((await call('GET', `${P}/repository/commits/${rebuilt.pipeline.sha}`, 'dev-token')).body.parent_ids[0]).toBe(main);
    expect((await call('GET', `${P}/pipelines/${first.pipeline.id}`, 'dev-token')).body.status).toBe('canceled');
    expect((await push('feature', 'i.txt')).status).toBe(201);
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(404);
    expect((await call('GET', `${P}/merge_trains?scope=active`, 'dev-token')).body).toEqual([]);
  });
});

describe('merge trains and closed merge requests', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });

  it('a closed merge request leaves the train, and the car behind it is rebuilt on the target', async () => {
    await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    await passHeads(world);
    await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token');
    await call('POST', `${P}/merge_trains/merge_requests/2`, 'dev-token');
    const second = (await call('GET', `${P}/merge_trains/merge_requests/2`, 'dev-token')).body;
    expect((await call('PUT', `${P}/merge_requests/1`, 'dev-token', { state_event: 'close' })).body.state).toBe('closed');
    expect((await call('GET', `${P}/merge_trains/merge_requests/2`, 'dev-token')).body.status).toBe('stale');
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(404);
    const moved = (await call('GET', `${P}/merge_trains/merge_requests/2`, 'dev-token')).body;
    expect(moved.pipeline.id).not.toBe(second.pipeline.id);
    const main = (await call('GET', `${P}/repository/branches/main`, 'dev-token')).body.commit.id;
    expect((await call('GET', `${P}/repository/commits/${moved.pipeline.sha}`, 'dev-token')).body.parent_ids[0]).toBe(main);
  });
});

describe('merge train pipelines', () => {
  const TRAIN_CI = `${MR_PIPELINE_CI}train:\n  script: echo "$CI_MERGE_REQUEST_TARGET_BRANCH_SHA $CI_MERGE_REQUEST_SOURCE_BRANCH_SHA"\n  rules:\n    - if: $CI_MERGE_REQUEST_EVENT_TYPE == "merge_train"\n`;
  const world = seededWorld({
    ...FIXTURE,
    projects: [{ ...FIXTURE.projects![0]!, repository: { ...FIXTURE.projects![0]!.repository!, files: { 'README.md': '# app\n', '.gitlab-ci.yml': TRAIN_CI } } }],
  }, NOW);

  it('are merge_train merge request pipelines: jobs whose rules ask for them run there only', async () => {
    await apiCall(world(), P, { method: 'PUT', token: 'maintainer-token', json: { merge_pipelines_enabled: true, merge_trains_enabled: true } });
    const mine = await apiCall(world(), `${P}/merge_requests/1/pipelines`, { method: 'POST', token: 'dev-token' });
    expect(mine.status).toBe(200);
    const detached = (await mine.json()) as { id: number };
    expect(world().ci('acme/app').jobs(detached.id).map((j) => j.name)).toEqual(['test']);
    // The merge request's own pipeline is its head's: complete, it lets the merge request join the train.
    for (const j of world().ci('acme/app').jobs(detached.id)) world().ci('acme/app').finish(j.id, { status: 'success' });
    await world().settled();
    expect((await apiCall(world(), `${P}/merge_trains/merge_requests/1`, { method: 'POST', token: 'dev-token' })).status).toBe(201);
    const car = await (await apiCall(world(), `${P}/merge_trains/merge_requests/1`, { token: 'dev-token' })).json();
    expect(world().ci('acme/app').jobs(car.pipeline.id).map((j) => j.name).sort()).toEqual(['test', 'train']);
  });
});

describe('merge trains: adding once the checks pass', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
  /** A pipeline of the source branch's head with one running job: the job's id. */
  function runningHead(): number {
    const ci = world().ci('acme/app');
    return ci.job(ci.pipeline({ ref: 'feature' }).id, { name: 'check', status: 'running' }).id;
  }

  it('while the head pipeline runs, answers 202 with the train as it is, and adds the car when the pipeline succeeds', async () => {
    await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    await passHeads(world);
    const job = runningHead();
    expect(await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token', { auto_merge: true })).toEqual({ status: 202, body: [] });
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(404);
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body.message).toBe('400 Bad request - Merge request is already set to Auto-Merge');
    world().ci('acme/app').finish(job, { status: 'success' });
    await world().settled();
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).body).toMatchObject({ status: 'fresh', user: { username: 'dev' }, pipeline: { ref: 'refs/merge-requests/1/train' } });
  });

  it('with a complete head pipeline, adds at once; a push of another head drops the waiting add', async () => {
    await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    await passHeads(world);
    expect((await call('POST', `${P}/merge_trains/merge_requests/2`, 'dev-token', { auto_merge: true })).status).toBe(201);
    const job = runningHead();
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token', { when_pipeline_succeeds: true })).status).toBe(202);
    await call('POST', `${P}/repository/commits`, 'dev-token', { branch: 'feature', commit_message: 'More', actions: [{ action: 'create', file_path: 'z.txt', content: 'z\n' }] });
    world().ci('acme/app').finish(job, { status: 'success' });
    await world().settled();
    expect((await call('GET', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(404);
    // The new head has no pipeline yet: no strategy; once one succeeds, the merge request joins.
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(400);
    await passHeads(world, ['feature']);
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token')).status).toBe(201);
  });
});

describe('merge trains below Premium', () => {
  const world = seededWorld({ ...FIXTURE, instance: { tier: 'free' } }, NOW);
  it('has no routes, as GitLab\'s free edition does not mount the EE API', async () => {
    await apiCall(world(), P, { method: 'PUT', token: 'maintainer-token', json: { merge_trains_enabled: true } });
    expect((await apiCall(world(), `${P}/merge_trains`, { token: 'dev-token' })).status).toBe(404);
    expect((await apiCall(world(), `${P}/merge_trains/merge_requests/1`, { method: 'POST', token: 'dev-token' })).status).toBe(404);
  });
});
