// A merge train as the merge request API sees it (AutoMergeService with AutoMerge::MergeTrainService
// and AddToMergeTrainWhenChecksPassService, SystemNotes::MergeTrainService): set by `PUT .../merge`
// with auto-merge where trains are on, shown as merge_when_pipeline_succeeds and merge_user,
// cancelled by cancel_merge_when_pipeline_succeeds (the car behind rebuilt), with GitLab's notes;
// squashing cars; and a merge past the train recorded as a skip_merged car.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { seededWorld, jsonCall } from './support/world.js';
import { trainFixture } from './support/trains.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE = trainFixture(
  [
    { branch: 'feature', message: 'Feature one', files: { 'f.txt': 'f\n' } },
    { branch: 'feature', message: 'Feature two', files: { 'f2.txt': 'f2\n' } },
    { branch: 'other', start_branch: 'main', message: 'Other', files: { 'g.txt': 'g\n' } },
    { branch: 'third', start_branch: 'main', message: 'Third', files: { 'h.txt': 'h\n' } },
  ],
  [
    { title: 'Add f', source_branch: 'feature' },
    { title: 'Add g', source_branch: 'other' },
    { title: 'Add h', source_branch: 'third' },
  ],
);
const P = '/projects/acme%2Fapp';

function harness(fixture: Fixture = FIXTURE) {
  const world = seededWorld(fixture, NOW);
  const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });
  /** Merge trains on, and each merge request's head with a pipeline that succeeded (MergeTrainService wants a complete one). */
  async function enable(extra: Record<string, unknown> = {}) {
    const set = await call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true, ...extra });
    for (const branch of ['feature', 'other', 'third']) headPipeline(branch, 'success');
    await world().settled();
    return set;
  }
  const car = async (iid: number) => (await call('GET', `${P}/merge_trains/merge_requests/${iid}`)).body;
  const notes = async (iid: number) => ((await call('GET', `${P}/merge_requests/${iid}/notes?sort=asc`)).body as { body: string; system: boolean; author: { username: string } }[])
    .filter((n) => n.system).map((n) => `${n.author.username}: ${n.body}`);
  async function finish(pipelineId: number, status: 'success' | 'failed') {
    const ci = world().ci('acme/app');
    for (const j of ci.jobs(pipelineId)) ci.finish(j.id, { status });
    await world().settled();
  }
  /** A pipeline of a source branch's head with one job in a status. */
  function headPipeline(branch: string, status: 'running' | 'success') {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: branch });
    return ci.job(p.id, { name: 'check', status }).id;
  }
  return { world, call, enable, car, notes, finish, headPipeline };
}

describe('the merge request API and a merge train', () => {
  const h = harness();

  it('shows a merge request on a train as set to merge, and cancels it with the car behind rebuilt', async () => {
    await h.enable();
    expect((await h.call('POST', `${P}/merge_trains/merge_requests/1`)).status).toBe(201);
    expect((await h.call('POST', `${P}/merge_trains/merge_requests/2`, 'maintainer-token')).status).toBe(201);
    const mr = (await h.call('GET', `${P}/merge_requests/1`)).body;
    expect(mr).toMatchObject({ merge_when_pipeline_succeeds: true, merge_user: { username: 'dev' }, state: 'opened' });
    expect(await h.notes(1)).toEqual(['dev: started a merge train']);
    expect(await h.notes(2)).toEqual(['mai: added this merge request to the merge train at position 2']);
    const first = await h.car(1);
    const second = await h.car(2);
    expect([first.status, second.status]).toEqual(['fresh', 'fresh']);

    // AutoMergeService#cancel: the car leaves with its note, its pipeline canceled; the car behind goes stale, then gets a new pipeline.
    expect(await h.call('POST', `${P}/merge_requests/1/cancel_merge_when_pipeline_succeeds`)).toEqual({ status: 201, body: { status: 'success' } });
    expect((await h.call('GET', `${P}/merge_trains/merge_requests/1`)).status).toBe(404);
    expect(await h.car(2)).toMatchObject({ status: 'stale', pipeline: { id: second.pipeline.id } });
    const rebuilt = await h.car(2);
    expect(rebuilt.status).toBe('fresh');
    expect(rebuilt.pipeline.id).not.toBe(second.pipeline.id);
    const main = (await h.call('GET', `${P}/repository/branches/main`)).body.commit.id;
    expect((await h.call('GET', `${P}/repository/commits/${rebuilt.pipeline.sha}`)).body.parent_ids[0]).toBe(main);
    expect((await h.call('GET', `${P}/pipelines/${first.pipeline.id}`)).body.status).toBe('canceled');
    expect((await h.call('GET', `${P}/merge_requests/1`)).body).toMatchObject({ merge_when_pipeline_succeeds: false, merge_user: null });
    expect(await h.notes(1)).toEqual(['dev: started a merge train', 'dev: removed this merge request from the merge train']);
    // Nothing set any more.
    expect((await h.call('POST', `${P}/merge_requests/1/cancel_merge_when_pipeline_succeeds`)).status).toBe(406);
  });

  it('notes why a car left: its pipeline, a push to its source branch', async () => {
    await h.enable();
    await h.call('POST', `${P}/merge_trains/merge_requests/1`);
    await h.call('POST', `${P}/merge_trains/merge_requests/2`);
    await h.finish((await h.car(1)).pipeline.id, 'failed');
    expect((await h.call('GET', `${P}/merge_requests/1`)).body.merge_when_pipeline_succeeds).toBe(false);
    expect(await h.notes(1)).toEqual(['dev: started a merge train', 'dev: removed this merge request from the merge train because pipeline did not succeed']);
    await h.call('POST', `${P}/repository/commits`, 'maintainer-token', { branch: 'other', commit_message: 'More', actions: [{ action: 'create', file_path: 'x.txt', content: 'x\n' }] });
    expect((await h.notes(2)).filter((n) => n.includes('merge train'))).toEqual([
      'dev: added this merge request to the merge train at position 2',
      'mai: removed this merge request from the merge train because source branch was updated',
    ]);
    expect((await h.call('GET', `${P}/merge_trains?scope=active`)).body).toEqual([]);
  });
});

describe('PUT .../merge with auto-merge where merge trains are on', () => {
  const h = harness();

  it('adds the merge request to the train when its head pipeline is complete', async () => {
    await h.enable();
    h.headPipeline('feature', 'success');
    const mr = (await h.call('GET', `${P}/merge_requests/1`)).body;
    expect((await h.call('PUT', `${P}/merge_requests/1/merge`, 'dev-token', { auto_merge: true, sha: 'f'.repeat(40) })).status).toBe(409);
    const set = await h.call('PUT', `${P}/merge_requests/1/merge`, 'dev-token', { auto_merge: true, sha: mr.sha });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: 'dev' } });
    expect(await h.car(1)).toMatchObject({ status: 'fresh', pipeline: { ref: 'refs/merge-requests/1/train' } });
    expect(await h.notes(1)).toEqual(['dev: started a merge train']);
    // Asked again, it stays as it is.
    expect((await h.call('PUT', `${P}/merge_requests/1/merge`, 'dev-token', { merge_when_pipeline_succeeds: true })).body.merge_when_pipeline_succeeds).toBe(true);
    expect((await h.call('GET', `${P}/merge_trains?scope=active`)).body).toHaveLength(1);
  });

  it('waits for a running head pipeline (add when checks pass), and cancels the wait', async () => {
    await h.enable();
    const job = h.headPipeline('feature', 'running');
    const mr = (await h.call('GET', `${P}/merge_requests/1`)).body;
    const set = await h.call('PUT', `${P}/merge_requests/1/merge`, 'dev-token', { merge_when_pipeline_succeeds: true });
    expect(set.body).toMatchObject({ merge_when_pipeline_succeeds: true, merge_user: { username: 'dev' } });
    expect((await h.call('GET', `${P}/merge_trains/merge_requests/1`)).status).toBe(404);
    expect(await h.notes(1)).toEqual([`dev: enabled automatic add to merge train when the pipeline for ${mr.sha} succeeds`]);
    expect(await h.call('POST', `${P}/merge_requests/1/cancel_merge_when_pipeline_succeeds`)).toEqual({ status: 201, body: { status: 'success' } });
    expect((await h.notes(1)).at(-1)).toBe('dev: cancelled automatic add to merge train');
    h.world().ci('acme/app').finish(job, { status: 'success' });
    await h.world().settled();
    expect((await h.call('GET', `${P}/merge_trains/merge_requests/1`)).status).toBe(404);
    expect((await h.call('GET', `${P}/merge_requests/1`)).body.merge_when_pipeline_succeeds).toBe(false);
  });

  it('joins the train once the head pipeline it waited for succeeds', async () => {
    await h.enable();
    const job = h.headPipeline('feature', 'running');
    await h.call('PUT', `${P}/merge_requests/1/merge`, 'dev-token', { auto_merge: true });
    h.world().ci('acme/app').finish(job, { status: 'success' });
    await h.world().settled();
    expect(await h.car(1)).toMatchObject({ status: 'fresh', user: { username: 'dev' } });
    expect((await h.notes(1)).at(-1)).toBe('dev: started a merge train');
  });
});

describe('merge train strategies', () => {
  const h = harness();

  it('without a complete head pipeline there is none, unless asked to wait for a running one', async () => {
    await h.call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
    expect(await h.call('POST', `${P}/merge_trains/merge_requests/1`)).toEqual({ status: 400, body: { message: '400 Bad request - No available merge train strategy' } });
    expect((await h.call('PUT', `${P}/merge_requests/1/merge`, 'dev-token', { auto_merge: true })).status).toBe(405);
    h.headPipeline('feature', 'running');
    expect((await h.call('POST', `${P}/merge_trains/merge_requests/1`)).status).toBe(400);
    expect((await h.call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token', { auto_merge: true, squash: true })).status).toBe(202);
    expect((await h.call('GET', `${P}/merge_requests/1`)).body).toMatchObject({ squash: true, merge_when_pipeline_succeeds: true });
    expect(await h.notes(1)).toHaveLength(1);
  });
});

describe('squashing cars', () => {
  const h = harness();

  it('squash the train commit and the merge, as a squashing merge does', async () => {
    await h.enable();
    const mr = (await h.call('GET', `${P}/merge_requests/1`)).body;
    expect((await h.call('POST', `${P}/merge_trains/merge_requests/1`, 'dev-token', { squash: true })).status).toBe(201);
    const car = await h.car(1);
    const main = (await h.call('GET', `${P}/repository/branches/main`)).body.commit.id;
    const train = (await h.call('GET', `${P}/repository/commits/${car.pipeline.sha}`)).body;
    // The train commit merges one squash commit of the head's tree onto the target.
    expect(train.parent_ids[0]).toBe(main);
    expect(train.parent_ids[1]).not.toBe(mr.sha);
    const squashed = (await h.call('GET', `${P}/repository/commits/${train.parent_ids[1]}`)).body;
    expect(squashed).toMatchObject({ title: 'Add f', parent_ids: [mr.diff_refs.base_sha] });
    const files = async (sha: string) => ((await h.call('GET', `${P}/repository/tree?ref=${sha}&recursive=true`)).body as { path: string }[]).map((e) => e.path).sort();
    expect(await files(squashed.id)).toEqual(await files(mr.sha));

    await h.finish(car.pipeline.id, 'success');
    const merged = (await h.call('GET', `${P}/merge_requests/1`)).body;
    expect(merged.state).toBe('merged');
    expect(merged.squash_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const merge = (await h.call('GET', `${P}/repository/commits/${merged.merge_commit_sha}`)).body;
    expect(merge.parent_ids).toEqual([main, merged.squash_commit_sha]);
    expect((await h.call('GET', `${P}/repository/commits/${merged.squash_commit_sha}`)).body).toMatchObject({ title: 'Add f', parent_ids: [mr.diff_refs.base_sha] });
  });

  it('a merge through the API with squash writes its squash commit too', async () => {
    const merged = (await h.call('PUT', `${P}/merge_requests/2/merge`, 'maintainer-token', { squash: true, squash_commit_message: 'One commit' })).body;
    expect(merged).toMatchObject({ state: 'merged', squash: true });
    const squash = (await h.call('GET', `${P}/repository/commits/${merged.squash_commit_sha}`)).body;
    expect(squash).toMatchObject({ title: 'One commit', author_name: expect.any(String) });
    expect((await h.call('GET', `${P}/repository/commits/${merged.merge_commit_sha}`)).body.parent_ids[1]).toBe(squash.id);
    // The squash commit belongs to its merge request.
    expect((await h.call('GET', `${P}/repository/commits/${squash.id}/merge_requests`)).body.map((m: { iid: number }) => m.iid)).toEqual([2]);
    // Without squash there is none.
    expect((await h.call('PUT', `${P}/merge_requests/3/merge`, 'maintainer-token')).body.squash_commit_sha).toBeNull();
  });
});

describe('merging past the train', () => {
  const h = harness();

  it('with skip_merge_train where the project allows it: a skip_merged car, and the train is not outdated', async () => {
    await h.enable({ merge_trains_skip_train_allowed: true });
    expect((await h.call('GET', P)).body.merge_trains_skip_train_allowed).toBe(true);
    await h.call('POST', `${P}/merge_trains/merge_requests/1`);
    const first = await h.car(1);
    const merged = (await h.call('PUT', `${P}/merge_requests/2/merge`, 'maintainer-token', { skip_merge_train: true })).body;
    expect(merged.state).toBe('merged');
    const skipped = await h.car(2);
    expect(skipped).toMatchObject({ status: 'skip_merged', pipeline: null, user: { username: 'mai' }, merged_at: merged.merged_at, duration: null });
    expect((await h.call('GET', `${P}/merge_trains?scope=complete`)).body.map((c: { status: string }) => c.status)).toEqual(['skip_merged']);
    expect(await h.car(1)).toMatchObject({ status: 'fresh', pipeline: { id: first.pipeline.id } });
    // Its pipeline still succeeds on the train as it was: the car merges on the target as it is now.
    await h.finish(first.pipeline.id, 'success');
    expect((await h.call('GET', `${P}/merge_requests/1`)).body.state).toBe('merged');
    expect((await h.car(1)).status).toBe('merged');
  });

  it('a merge request on the train merged past it leaves its car for a skip_merged one; the car behind is rebuilt', async () => {
    await h.enable({ merge_trains_skip_train_allowed: true });
    await h.call('POST', `${P}/merge_trains/merge_requests/1`);
    await h.call('POST', `${P}/merge_trains/merge_requests/2`);
    const second = await h.car(2);
    expect((await h.call('PUT', `${P}/merge_requests/1/merge`, 'maintainer-token', { skip_merge_train: true })).body.state).toBe('merged');
    // The first read after the merge still sees the car behind stale (it runs the refresh that is due).
    expect(await h.car(2)).toMatchObject({ status: 'stale', pipeline: { id: second.pipeline.id } });
    expect(await h.car(1)).toMatchObject({ status: 'skip_merged', pipeline: null });
    const rebuilt = await h.car(2);
    expect(rebuilt.status).toBe('fresh');
    const main = (await h.call('GET', `${P}/repository/branches/main`)).body.commit.id;
    expect((await h.call('GET', `${P}/repository/commits/${rebuilt.pipeline.sha}`)).body.parent_ids[0]).toBe(main);
    expect((await h.notes(1)).filter((n) => n.includes('merge train'))).toEqual(['dev: started a merge train']);
  });

  it('without it, the merge moves the target and the first car goes stale, then is rebuilt', async () => {
    await h.enable();
    await h.call('POST', `${P}/merge_trains/merge_requests/1`);
    const first = await h.car(1);
    expect((await h.call('PUT', `${P}/merge_requests/2/merge`, 'maintainer-token', { skip_merge_train: true })).body.state).toBe('merged');
    expect((await h.call('GET', `${P}/merge_trains/merge_requests/2`)).status).toBe(404);
    expect(await h.car(1)).toMatchObject({ status: 'stale', pipeline: { id: first.pipeline.id } });
    const rebuilt = await h.car(1);
    expect(rebuilt.status).toBe('fresh');
    expect(rebuilt.pipeline.id).not.toBe(first.pipeline.id);
  });
});
