// A merge train in a fast-forward project (MergeRequests::CreateRefService's maybe_rebase!, and
// MergeStrategies::FromTrainRef): each car's train commit is its merge request's commits rebased
// onto what is ahead of it, without a merge commit, and the merge fast-forwards the target to it.
import { describe, expect, it } from 'vitest';
import { seededWorld, jsonCall } from './support/world.js';
import { trainFixture } from './support/trains.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE = trainFixture(
  [
    { branch: 'feature', message: 'Feature one', files: { 'f.txt': 'f\n' } },
    { branch: 'other', start_branch: 'main', message: 'Other one', files: { 'g.txt': 'g\n' } },
    { branch: 'other', message: 'Other two', files: { 'g2.txt': 'g2\n' } },
  ],
  [
    { title: 'Add f', source_branch: 'feature' },
    { title: 'Add g', source_branch: 'other' },
  ],
);
const P = '/projects/acme%2Fapp';

describe('a merge train in a fast-forward project', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, json?: unknown, token = 'maintainer-token') => jsonCall(world(), path, { method, token, json });
  const commit = async (sha: string) => (await call('GET', `${P}/repository/commits/${sha}`)).body;
  const car = async (iid: number) => (await call('GET', `${P}/merge_trains/merge_requests/${iid}`)).body;
  async function finish(pipelineId: number) {
    const ci = world().ci('acme/app');
    for (const j of ci.jobs(pipelineId)) ci.finish(j.id, { status: 'success' });
    await world().settled();
  }

  it('rebases each car onto what is ahead of it and fast-forwards the target to it', async () => {
    await call('PUT', P, { merge_pipelines_enabled: true, merge_trains_enabled: true, merge_method: 'ff' });
    const ci = world().ci('acme/app');
    for (const branch of ['feature', 'other']) ci.job(ci.pipeline({ ref: branch }).id, { name: 'check', status: 'success' });
    await world().settled();
    const main = (await call('GET', `${P}/repository/branches/main`)).body.commit.id;
    const feature = (await call('GET', `${P}/merge_requests/1`)).body.sha;
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`)).status).toBe(201);
    expect((await call('POST', `${P}/merge_trains/merge_requests/2`)).status).toBe(201);

    // The first car is on top of the target already: its train commit is its head.
    const first = await car(1);
    expect(first.pipeline.sha).toBe(feature);
    // The second: its two commits replayed onto the first's, no merge commit.
    const second = await car(2);
    const tip = await commit(second.pipeline.sha);
    expect(tip).toMatchObject({ title: 'Other two' });
    const below = await commit(tip.parent_ids[0]);
    expect(below).toMatchObject({ title: 'Other one', parent_ids: [feature] });

    await finish(first.pipeline.id);
    expect((await call('GET', `${P}/merge_requests/1`)).body).toMatchObject({ state: 'merged', merge_commit_sha: null });
    expect((await call('GET', `${P}/repository/branches/main`)).body.commit.id).toBe(feature);
    // The merge moved the target to the second car's base: it is not rebuilt.
    expect(await car(2)).toMatchObject({ status: 'fresh', pipeline: { id: second.pipeline.id } });

    await finish(second.pipeline.id);
    expect((await call('GET', `${P}/merge_requests/2`)).body).toMatchObject({ state: 'merged', merge_commit_sha: null });
    expect((await call('GET', `${P}/repository/branches/main`)).body.commit.id).toBe(second.pipeline.sha);
    expect((await commit(feature)).parent_ids).toEqual([main]);
  });

  it('squashes a car that asks, the squash commit rebased being the train commit and the merged head', async () => {
    await call('PUT', P, { merge_pipelines_enabled: true, merge_trains_enabled: true, merge_method: 'ff' });
    const ci = world().ci('acme/app');
    for (const branch of ['feature', 'other']) ci.job(ci.pipeline({ ref: branch }).id, { name: 'check', status: 'success' });
    await world().settled();
    const feature = (await call('GET', `${P}/merge_requests/1`)).body.sha;
    await call('POST', `${P}/merge_trains/merge_requests/1`);
    expect((await call('POST', `${P}/merge_trains/merge_requests/2`, { squash: true })).status).toBe(201);
    const second = await car(2);
    expect(await commit(second.pipeline.sha)).toMatchObject({ title: 'Add g', parent_ids: [feature] });
    await finish((await car(1)).pipeline.id);
    await finish(second.pipeline.id);
    expect((await call('GET', `${P}/merge_requests/2`)).body).toMatchObject({ state: 'merged', merge_commit_sha: null, squash_commit_sha: second.pipeline.sha });
    expect((await call('GET', `${P}/repository/branches/main`)).body.commit.id).toBe(second.pipeline.sha);
  });

  it('where merges make merge commits, merges the train commit itself (FromTrainRef), with the merge commit message', async () => {
    await call('PUT', P, { merge_pipelines_enabled: true, merge_trains_enabled: true });
    const ci = world().ci('acme/app');
    for (const branch of ['feature', 'other']) ci.job(ci.pipeline({ ref: branch }).id, { name: 'check', status: 'success' });
    await world().settled();
    await call('POST', `${P}/merge_trains/merge_requests/1`);
    await call('POST', `${P}/merge_trains/merge_requests/2`);
    const first = await car(1);
    const second = await car(2);
    const train = await commit(first.pipeline.sha);
    expect(train.message).toBe("Merge branch 'feature' into 'main'\n\nAdd f\n\nSee merge request acme/app!1");
    await finish(first.pipeline.id);
    expect((await call('GET', `${P}/merge_requests/1`)).body).toMatchObject({ state: 'merged', merge_commit_sha: first.pipeline.sha });
    expect((await call('GET', `${P}/repository/branches/main`)).body.commit.id).toBe(first.pipeline.sha);
    expect(await car(2)).toMatchObject({ status: 'fresh', pipeline: { id: second.pipeline.id } });
    await finish(second.pipeline.id);
    expect((await call('GET', `${P}/merge_requests/2`)).body).toMatchObject({ state: 'merged', merge_commit_sha: second.pipeline.sha });
    expect((await commit(second.pipeline.sha)).parent_ids[0]).toBe(first.pipeline.sha);
  });

  it('in a semi-linear project, rebases each car onto what is ahead of it and merges it with a merge commit', async () => {
    await call('PUT', P, { merge_pipelines_enabled: true, merge_trains_enabled: true, merge_method: 'rebase_merge' });
    const ci = world().ci('acme/app');
    for (const branch of ['feature', 'other']) ci.job(ci.pipeline({ ref: branch }).id, { name: 'check', status: 'success' });
    await world().settled();
    await call('POST', `${P}/merge_trains/merge_requests/1`);
    expect((await call('POST', `${P}/merge_trains/merge_requests/2`, { squash: true })).status).toBe(201);
    const first = await car(1);
    const second = await car(2);
    const train = await commit(second.pipeline.sha);
    expect(train.parent_ids[0]).toBe(first.pipeline.sha);
    expect(await commit(train.parent_ids[1])).toMatchObject({ title: 'Add g', parent_ids: [first.pipeline.sha] });
    await finish(first.pipeline.id);
    await finish(second.pipeline.id);
    expect((await call('GET', `${P}/merge_requests/2`)).body).toMatchObject({ state: 'merged', merge_commit_sha: second.pipeline.sha, squash_commit_sha: train.parent_ids[1] });
    expect((await call('GET', `${P}/repository/branches/main`)).body.commit.id).toBe(second.pipeline.sha);
  });
});
