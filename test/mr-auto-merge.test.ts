// Auto-merge (lib/api/merge_requests.rb `merge` and `cancel_merge_when_pipeline_succeeds`,
// AutoMerge::MergeWhenPipelineSucceedsService): set while the head pipeline runs, merged when it
// succeeds, left set when it fails, cancelled, aborted by a push; GitLab's 405 when no strategy
// applies, and the pipeline checks of the project.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, updateProject, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
  }],
};
const P = '/projects/acme%2Fapp';
const MR = `${P}/merge_requests/1`;

describe('auto-merge', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
  /** A pipeline of the source branch's head with one running job: the job's id. */
  function runningPipeline(): number {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: 'feature' });
    return ci.job(p.id, { name: 'test', status: 'running' }).id;
  }
  async function finish(jobId: number, status: 'success' | 'failed') {
    world().ci('acme/app').finish(jobId, { status });
    await world().settled();
  }
  const notes = async () => (await call('GET', `${MR}/notes?sort=asc`, 'dev-token')).body.map((n: { body: string }) => n.body);

  it('asked with no pipeline, answers 405 and leaves the merge request open', async () => {
    expect(await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true })).toEqual({ status: 405, body: { message: '405 Method Not Allowed' } });
    expect(await call('PUT', `${MR}/merge`, 'maintainer-token', { auto_merge: true })).toMatchObject({ status: 405 });
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: false, merged_at: null });
  });

  it('is set while the head pipeline runs, and merges as its user when the pipeline succeeds', async () => {
    const job = runningPipeline();
    const head = (await call('GET', MR, 'dev-token')).body;
    expect(head).toMatchObject({ detailed_merge_status: 'mergeable', head_pipeline: { status: 'running' }, pipeline: { status: 'running' } });
    const set = await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true });
    expect(set).toMatchObject({ status: 200, body: { state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: 'mai' }, merged_by: null } });
    expect(await notes()).toEqual([`enabled an automatic merge when the pipeline for ${head.sha} succeeds`]);
    await finish(job, 'success');
    const merged = (await call('GET', MR, 'dev-token')).body;
    expect(merged).toMatchObject({ state: 'merged', merged_by: { username: 'mai' }, merge_user: { username: 'mai' } });
    const main = (await call('GET', `${P}/repository/branches/main`, 'dev-token')).body;
    expect(main.commit.id).toBe(merged.merge_commit_sha);
    // The events API names who set it as the one who merged.
    const events = (await call('GET', `${P}/events?action=merged`, 'dev-token')).body;
    expect(events.map((e: { author: { username: string }; target_iid: number }) => [e.author.username, e.target_iid])).toEqual([['mai', 1]]);
  });

  it('stays set when the pipeline fails, and a later pipeline of the head that succeeds merges it', async () => {
    const job = runningPipeline();
    await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true });
    await finish(job, 'failed');
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true });
    await finish(runningPipeline(), 'success');
    expect((await call('GET', MR, 'dev-token')).body.state).toBe('merged');
  });

  it('asked when the head pipeline succeeded already, merges at once', async () => {
    await finish(runningPipeline(), 'success');
    const merged = await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true });
    expect(merged).toMatchObject({ status: 200, body: { state: 'merged', merge_when_pipeline_succeeds: false } });
  });

  it('is cancelled with GitLab’s answers: 201 status success, 406 when not set, 405 when not open, 401 for who may not merge', async () => {
    runningPipeline();
    expect(await call('POST', `${MR}/cancel_merge_when_pipeline_succeeds`, 'maintainer-token')).toEqual({ status: 406, body: { message: "Can't cancel the automatic merge" } });
    await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true });
    expect((await call('POST', `${MR}/cancel_merge_when_pipeline_succeeds`, 'reporter-token')).status).toBe(401);
    expect((await call('POST', `${P}/merge_requests/9/cancel_merge_when_pipeline_succeeds`, 'maintainer-token')).status).toBe(404);
    // The author may cancel it.
    expect(await call('POST', `${MR}/cancel_merge_when_pipeline_succeeds`, 'dev-token')).toEqual({ status: 201, body: { status: 'success' } });
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ merge_when_pipeline_succeeds: false, merge_user: null });
    expect((await notes()).at(-1)).toBe('canceled the automatic merge');
    await call('PUT', `${MR}`, 'maintainer-token', { state_event: 'close' });
    expect((await call('POST', `${MR}/cancel_merge_when_pipeline_succeeds`, 'maintainer-token')).status).toBe(405);
  });

  it('is aborted by a push of another head, and by closing the merge request', async () => {
    const job = runningPipeline();
    await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true });
    const pushed = await call('POST', `${P}/repository/commits`, 'dev-token', {
      branch: 'feature', commit_message: 'More', actions: [{ action: 'create', file_path: 'g.txt', content: 'g\n' }],
    });
    expect(pushed.status).toBe(201);
    expect((await call('GET', MR, 'dev-token')).body.merge_when_pipeline_succeeds).toBe(false);
    expect((await notes()).at(-1)).toBe('aborted the automatic merge because source branch was updated');
    // The old head's pipeline succeeding merges nothing.
    await finish(job, 'success');
    expect((await call('GET', MR, 'dev-token')).body.state).toBe('opened');
    runningPipeline();
    await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true });
    await call('PUT', MR, 'maintainer-token', { state_event: 'close' });
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ state: 'closed', merge_when_pipeline_succeeds: false });
    expect((await notes()).at(-1)).toBe('aborted the automatic merge because merge request was closed');
  });

  it('where pipelines must succeed: a plain merge needs a successful pipeline; skipped ones count where allowed', async () => {
    updateProject(world(), 'acme/app', (p) => void (p.settings.only_allow_merge_if_pipeline_succeeds = true));
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('ci_must_pass');
    expect((await call('PUT', `${MR}/merge`, 'maintainer-token')).status).toBe(405);
    const job = runningPipeline();
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('ci_still_running');
    expect((await call('PUT', `${MR}/merge`, 'maintainer-token')).status).toBe(405);
    await finish(job, 'failed');
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('ci_must_pass');
    world().ci('acme/app').pipeline({ ref: 'feature', status: 'skipped' });
    expect((await call('PUT', `${MR}/merge`, 'maintainer-token')).status).toBe(405);
    updateProject(world(), 'acme/app', (p) => void (p.settings.allow_merge_on_skipped_pipeline = true));
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('mergeable');
    expect((await call('PUT', `${MR}/merge`, 'maintainer-token')).body.state).toBe('merged');
  });

  it('/merge in a note schedules the merge while the head pipeline runs', async () => {
    const job = runningPipeline();
    const sha = (await call('GET', MR, 'dev-token')).body.sha;
    const note = await call('POST', `${MR}/notes`, 'maintainer-token', { body: '/merge', merge_request_diff_head_sha: sha });
    expect(note).toMatchObject({ status: 202, body: { summary: ['Scheduled to merge this merge request (Merge when pipeline succeeds).'] } });
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ state: 'opened', merge_when_pipeline_succeeds: true, merge_user: { username: 'mai' } });
    await finish(job, 'success');
    expect((await call('GET', MR, 'dev-token')).body.state).toBe('merged');
  });

  it('checks as GitLab orders them: a draft is draft_status, and a merge of one is 405', async () => {
    await call('PUT', MR, 'dev-token', { title: 'Draft: Add f' });
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('draft_status');
    runningPipeline();
    expect((await call('PUT', `${MR}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true })).status).toBe(405);
  });
});
