// The `/merge` quick action where merge trains are on (MergeRequests::UpdateService's
// merge_from_quick_action, MergeOrchestrationService#execute, AutoMergeService#preferred_strategy):
// with a complete head pipeline the merge request joins the train (merge_train), while the head
// pipeline runs it waits to join (add_to_merge_train_when_checks_pass), each with GitLab's notes
// and answer; where trains are off the command merges, or waits for the pipeline, as before.
import { describe, expect, it } from 'vitest';
import { seededWorld, jsonCall } from './support/world.js';
import { trainFixture } from './support/trains.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE = trainFixture(
  [
    { branch: 'feature', message: 'Feature one', files: { 'f.txt': 'f\n' } },
    { branch: 'other', start_branch: 'main', message: 'Other', files: { 'g.txt': 'g\n' } },
  ],
  [
    { title: 'Add f', source_branch: 'feature' },
    { title: 'Add g', source_branch: 'other' },
  ],
);
const P = '/projects/acme%2Fapp';

function harness() {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });
  const trainsOn = () => call('PUT', P, 'maintainer-token', { merge_pipelines_enabled: true, merge_trains_enabled: true });
  /** A pipeline of a source branch's head with one job in a status; the job's id. */
  function headPipeline(branch: string, status: 'running' | 'success') {
    const ci = world().ci('acme/app');
    return ci.job(ci.pipeline({ ref: branch }).id, { name: 'check', status }).id;
  }
  async function command(iid: number, body: string, token = 'dev-token') {
    const sha = (await call('GET', `${P}/merge_requests/${iid}`)).body.sha as string;
    return call('POST', `${P}/merge_requests/${iid}/notes`, token, { body, merge_request_diff_head_sha: sha });
  }
  const notes = async (iid: number) => ((await call('GET', `${P}/merge_requests/${iid}/notes?sort=asc`)).body as { body: string; system: boolean; author: { username: string } }[])
    .map((n) => `${n.system ? '' : 'comment '}${n.author.username}: ${n.body}`);
  const car = (iid: number) => call('GET', `${P}/merge_trains/merge_requests/${iid}`);
  const mr = async (iid: number) => (await call('GET', `${P}/merge_requests/${iid}`)).body;
  return { world, call, trainsOn, headPipeline, command, notes, car, mr };
}

describe('/merge where merge trains are on', () => {
  const h = harness();

  it('adds the merge request to the train when its head pipeline succeeded, after the comment that asked', async () => {
    await h.trainsOn();
    h.headPipeline('feature', 'success');
    h.headPipeline('other', 'success');
    await h.world().settled();
    const answer = await h.command(1, '/merge');
    expect(answer).toEqual({ status: 202, body: { commands_changes: { merge: (await h.mr(1)).sha }, summary: ['Scheduled to merge this merge request (Merge train).'] } });
    expect(await h.notes(1)).toEqual(['dev: started a merge train']);
    expect(await h.mr(1)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: 'dev' } });
    const first = await h.car(1);
    expect(first.body).toMatchObject({ status: 'fresh', user: { username: 'dev' }, pipeline: { ref: 'refs/merge-requests/1/train' } });

    // A comment with the command: the comment is saved first, then the train's note.
    const second = await h.command(2, 'Ship it\n/merge', 'maintainer-token');
    expect(second.status).toBe(201);
    expect(await h.notes(2)).toEqual(['comment mai: Ship it', 'mai: added this merge request to the merge train at position 2']);
    expect((await h.car(2)).body).toMatchObject({ status: 'fresh', user: { username: 'mai' } });

    // The train merges the first car when its pipeline succeeds.
    const ci = h.world().ci('acme/app');
    for (const j of ci.jobs(first.body.pipeline.id)) ci.finish(j.id, { status: 'success' });
    await h.world().settled();
    expect((await h.mr(1)).state).toBe('merged');
    expect((await h.car(1)).body.status).toBe('merged');
  });

  it('waits for a running head pipeline, then joins the train', async () => {
    await h.trainsOn();
    const job = h.headPipeline('feature', 'running');
    const sha = (await h.mr(1)).sha;
    const answer = await h.command(1, '/merge');
    expect(answer.body.summary).toEqual(['Scheduled to merge this merge request (Add to merge train when checks pass).']);
    expect(await h.notes(1)).toEqual([`dev: enabled automatic add to merge train when the pipeline for ${sha} succeeds`]);
    expect(await h.mr(1)).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
    expect((await h.car(1)).status).toBe(404);
    h.world().ci('acme/app').finish(job, { status: 'success' });
    await h.world().settled();
    expect((await h.car(1)).body).toMatchObject({ status: 'fresh', user: { username: 'dev' } });
    expect((await h.notes(1)).at(-1)).toBe('dev: started a merge train');
  });

  it('does nothing for a head other than the merge request\'s', async () => {
    await h.trainsOn();
    h.headPipeline('feature', 'success');
    await h.world().settled();
    const answer = await h.call('POST', `${P}/merge_requests/1/notes`, 'dev-token', { body: '/merge', merge_request_diff_head_sha: 'f'.repeat(40) });
    expect(answer.status).toBe(202);
    expect(await h.notes(1)).toEqual([]);
    expect((await h.car(1)).status).toBe(404);
    expect((await h.mr(1)).merge_when_pipeline_succeeds).toBe(false);
  });

  it('is not offered to who may not merge', async () => {
    await h.trainsOn();
    h.headPipeline('feature', 'success');
    await h.world().settled();
    const answer = await h.command(1, '/merge', 'reporter-token');
    expect(answer).toMatchObject({ status: 202, body: { commands_changes: {} } });
    expect((await h.car(1)).status).toBe(404);
  });
});

describe('/merge where merge trains are off', () => {
  const h = harness();

  it('merges at once after a successful pipeline', async () => {
    h.headPipeline('feature', 'success');
    await h.world().settled();
    expect((await h.command(1, '/merge')).body.summary).toEqual(['Merged this merge request.']);
    expect((await h.mr(1)).state).toBe('merged');
  });

  it('waits for a running pipeline with merge when pipeline succeeds', async () => {
    h.headPipeline('feature', 'running');
    const sha = (await h.mr(1)).sha;
    expect((await h.command(1, '/merge')).body.summary).toEqual(['Scheduled to merge this merge request (Merge when pipeline succeeds).']);
    expect(await h.notes(1)).toEqual([`dev: enabled an automatic merge when the pipeline for ${sha} succeeds`]);
  });

  it('merges at once on the free tier even with the settings on', async () => {
    await h.trainsOn();
    h.world().store.update((d) => void (d.instance.tier = 'free'));
    h.headPipeline('feature', 'success');
    await h.world().settled();
    expect((await h.command(1, '/merge')).body.summary).toEqual(['Merged this merge request.']);
  });
});
