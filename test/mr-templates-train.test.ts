// A merge train's commits take the project's templates as a merge does (MergeRequests::
// CreateRefService#merge_commit_message and #squash_commit_message): the train commit is the
// merge commit, and a squashing car's squash is its second parent.
import { describe, expect, it } from 'vitest';
import { seededWorld, jsonCall } from './support/world.js';
import { trainFixture } from './support/trains.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE = trainFixture(
  [
    { branch: 'other', message: 'Other one', files: { 'g.txt': 'g\n' } },
    { branch: 'other', message: 'Other two\n\nwith a body', files: { 'g2.txt': 'g2\n' } },
  ],
  [{ title: 'Add g', source_branch: 'other' }],
);
const P = '/projects/acme%2Fapp';

describe('a merge train with commit templates', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, json?: unknown, token = 'maintainer-token') => jsonCall(world(), path, { method, token, json });
  const commit = async (sha: string) => (await call('GET', `${P}/repository/commits/${sha}`)).body;

  it('writes the train commit and its squash from the templates, and merges that commit', async () => {
    await call('PUT', P, {
      merge_pipelines_enabled: true, merge_trains_enabled: true,
      merge_commit_template: '%{title} (%{reference}) by %{merged_by}\n\n%{approved_by}', squash_commit_template: '%{all_commits}',
    });
    const ci = world().ci('acme/app');
    ci.job(ci.pipeline({ ref: 'other' }).id, { name: 'check', status: 'success' });
    await world().settled();
    expect((await call('POST', `${P}/merge_trains/merge_requests/1`, { squash: true })).status).toBe(201);
    const car = (await call('GET', `${P}/merge_trains/merge_requests/1`)).body;
    const train = await commit(car.pipeline.sha);
    expect(train.message).toBe('Add g (acme/app!1) by Mai Ntainer <mai@example.com>');
    expect((await commit(train.parent_ids[1])).message).toBe('* Other two\n\nwith a body\n\n* Other one\n');
    for (const j of ci.jobs(car.pipeline.id)) ci.finish(j.id, { status: 'success' });
    await world().settled();
    expect((await call('GET', `${P}/merge_requests/1`)).body).toMatchObject({ state: 'merged', merge_commit_sha: car.pipeline.sha, squash_commit_sha: train.parent_ids[1] });
  });
});
