// The reviewer quick actions of a merge request (merge_request_actions.rb: `/assign_reviewer`
// and `/reviewer`, `/request_review`, `/unassign_reviewer` and `/remove_reviewer`, EE's
// `/reassign_reviewer`) through a note: the 202 answer, the merge request's reviewers and their
// states, the system note; the free tier's one reviewer; a caller without `admin_merge_request`.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' }, author: 'dev' }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
  }],
};
const world = seededWorld(FIXTURE, NOW);
const MR = '/projects/acme%2Fapp/merge_requests/1';

const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
const note = (body: string, token = 'dev-token') => call('POST', `${MR}/notes`, token, { body });
const reviewers = async () => ((await call('GET', `${MR}/reviewers`, 'dev-token')).body as { user: { username: string }; state: string }[]).map((r) => `${r.user.username}:${r.state}`);
const systemNotes = async () => ((await call('GET', `${MR}/notes?sort=asc`, 'dev-token')).body as { body: string; system: boolean }[]).filter((n) => n.system).map((n) => n.body);
const id = async (username: string) => ((await call('GET', `/users?username=${username}`, 'root-token')).body as { id: number }[])[0]!.id;

describe('reviewer quick actions at the higher tiers', () => {
  const premium = () => world().configure({ tier: 'premium' });

  it('/assign_reviewer adds each user named, with the message, commands_changes, states and the note', async () => {
    premium();
    const [mai, rep] = [await id('mai'), await id('rep')];
    expect(await note('/assign_reviewer @mai @rep')).toEqual({ status: 202, body: { commands_changes: { reviewer_ids: [mai, rep] }, summary: ['Assigned @mai and @rep as reviewers.'] } });
    expect(await reviewers()).toEqual(['mai:unreviewed', 'rep:unreviewed']);
    expect(await systemNotes()).toEqual(['requested review from @mai and @rep']);
    // `/reviewer` adds to those there.
    expect((await note('/reviewer @root')).body).toEqual({ commands_changes: { reviewer_ids: [mai, rep, await id('root')] }, summary: ['Assigned @root as reviewer.'] });
    expect(await reviewers()).toEqual(['mai:unreviewed', 'rep:unreviewed', 'root:unreviewed']);
    // The merge request's own reviewers, as PUT with reviewer_ids leaves them.
    expect(((await call('GET', MR, 'dev-token')).body as { reviewers: { username: string }[] }).reviewers.map((u) => u.username)).toEqual(['mai', 'rep', 'root']);
  });

  it('/assign_reviewer with no user or an unknown one says so and changes nothing', async () => {
    premium();
    expect((await note('/assign_reviewer')).body).toEqual({ commands_changes: {}, summary: ['Failed to assign a reviewer because no user was specified.'] });
    expect((await note('/assign_reviewer @nobody')).body).toEqual({ commands_changes: {}, summary: ["Failed to find users for '@nobody'"] });
    expect(await reviewers()).toEqual([]);
    expect(await systemNotes()).toEqual([]);
  });

  it('/unassign_reviewer and /remove_reviewer remove those named, or all without a name', async () => {
    premium();
    await note('/assign_reviewer @mai @rep @root');
    const root = await id('root');
    expect(await note('/unassign_reviewer @mai @rep')).toEqual({ status: 202, body: { commands_changes: { reviewer_ids: [root] }, summary: ['Removed reviewers @mai and @rep.'] } });
    expect(await reviewers()).toEqual(['root:unreviewed']);
    expect((await note('/remove_reviewer')).body).toEqual({ commands_changes: { reviewer_ids: [] }, summary: ['Removed reviewer @root.'] });
    expect(await reviewers()).toEqual([]);
    expect(await systemNotes()).toEqual([
      'requested review from @mai, @rep, and @root', 'removed review request for @mai and @rep', 'removed review request for @root',
    ]);
    // With no reviewer left it cannot apply.
    expect((await note('/unassign_reviewer')).body).toEqual({ commands_changes: {}, summary: ['Could not apply unassign_reviewer command.'] });
  });

  it('/reassign_reviewer replaces the reviewers; one kept keeps its state', async () => {
    premium();
    await note('/assign_reviewer @mai @rep');
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    expect(await reviewers()).toEqual(['mai:approved', 'rep:unreviewed']);
    expect(await note('/reassign_reviewer @mai @root')).toEqual({ status: 202, body: { commands_changes: { reviewer_ids: [await id('mai'), await id('root')] }, summary: ['Changed reviewers.'] } });
    expect(await reviewers()).toEqual(['mai:approved', 'root:unreviewed']);
    expect((await systemNotes()).at(-1)).toBe('requested review from @root and removed review request for @rep');
  });

  it('/request_review adds a new reviewer, and asks one already there again: unreviewed, with its note', async () => {
    premium();
    await note('/assign_reviewer @mai');
    await call('POST', '/projects/acme%2Fapp/merge_requests/1/draft_notes', 'maintainer-token', { note: 'Looks fine' });
    expect((await call('POST', `${MR}/draft_notes/bulk_publish`, 'maintainer-token')).status).toBe(204);
    expect(await reviewers()).toEqual(['mai:reviewed']);
    const answer = await note('/request_review @mai @rep');
    expect(answer).toEqual({ status: 202, body: { commands_changes: { reviewer_ids: [await id('mai'), await id('rep')] }, summary: ['Requested a review from @mai and @rep.'] } });
    expect(await reviewers()).toEqual(['mai:unreviewed', 'rep:unreviewed']);
    expect((await systemNotes()).slice(-2)).toEqual(['requested review from @mai', 'requested review from @rep']);
    expect((await note('/request_review')).body).toEqual({ commands_changes: {}, summary: ['Failed to request a review because no user was specified.'] });
  });

  it('/request_review of a reviewer who approved takes their approval back, in the same note', async () => {
    premium();
    await note('/assign_reviewer @mai');
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    expect((await note('/request_review @mai')).body.summary).toEqual(['Requested a review from @mai.']);
    expect(await reviewers()).toEqual(['mai:unreviewed']);
    expect(((await call('GET', `${MR}/approvals`, 'dev-token')).body as { approved_by: unknown[] }).approved_by).toEqual([]);
    expect((await systemNotes()).slice(-2)).toEqual(['approved this merge request', 'requested review from @mai and removed approval']);
  });

  it("a new merge request's description sets its reviewers, taken out of the text", async () => {
    premium();
    await call('POST', '/projects/acme%2Fapp/repository/branches?branch=other&ref=feature', 'dev-token');
    const made = await call('POST', '/projects/acme%2Fapp/merge_requests', 'dev-token', { source_branch: 'other', target_branch: 'main', title: 'Other', description: 'Text\n/assign_reviewer @mai @rep' });
    expect(made.status).toBe(201);
    expect(made.body.description).toBe('Text');
    expect((made.body.reviewers as { username: string }[]).map((u) => u.username)).toEqual(['mai', 'rep']);
  });

  it('sends the Merge Request Hook of an update, with the reviewers changed', async () => {
    premium();
    const e = world();
    e.hooks.pause();
    expect((await call('POST', '/projects/acme%2Fapp/hooks', 'maintainer-token', { url: 'https://r.example.com/', merge_requests_events: true })).status).toBe(201);
    await note('/assign_reviewer @mai');
    e.hooks.resume();
    await e.hooks.settled();
    const hooks = e.hooks.deliveries({ event: 'Merge Request Hook' });
    expect(hooks).toHaveLength(1);
    const payload = hooks[0]!.payload as { object_attributes: { action: string }; changes: { reviewers: { previous: unknown[]; current: { username: string }[] } } };
    expect(payload.object_attributes.action).toBe('update');
    expect(payload.changes.reviewers.previous).toEqual([]);
    expect(payload.changes.reviewers.current.map((u) => u.username)).toEqual(['mai']);
  });

  it('leaves out a user who cannot read the merge request, as filter_reviewer does', async () => {
    premium();
    expect((await call('PUT', '/projects/acme%2Fapp', 'root-token', { merge_requests_access_level: 'private' })).status).toBe(200);
    const answer = await note('/assign_reviewer @out @mai');
    expect(answer.body.summary).toEqual(['Assigned @out and @mai as reviewers.']);
    expect(await reviewers()).toEqual(['mai:unreviewed']);
    await note('/assign_reviewer @out');
    expect(await reviewers()).toEqual(['mai:unreviewed']);
  });

  it('a Reporter may not: the commands cannot apply', async () => {
    premium();
    expect((await note('/assign_reviewer @mai\n/reassign_reviewer @mai', 'reporter-token')).body).toEqual({
      commands_changes: {}, summary: ['Could not apply assign_reviewer command. Could not apply reassign_reviewer command.'],
    });
    expect(await reviewers()).toEqual([]);
  });
});

describe('reviewer quick actions on the free tier', () => {
  it('take one reviewer: the first named replaces the one there; /reassign_reviewer is no command', async () => {
    const [mai, rep] = [await id('mai'), await id('rep')];
    expect(await note('/assign_reviewer @mai @rep')).toEqual({ status: 202, body: { commands_changes: { reviewer_ids: [mai] }, summary: ['Assigned @mai as reviewer.'] } });
    expect(await reviewers()).toEqual(['mai:unreviewed']);
    expect((await note('/reviewer @rep')).body).toEqual({ commands_changes: { reviewer_ids: [rep] }, summary: ['Assigned @rep as reviewer.'] });
    expect(await reviewers()).toEqual(['rep:unreviewed']);
    expect(await systemNotes()).toEqual(['requested review from @mai', 'requested review from @rep and removed review request for @mai']);
    // A second reviewer asked for is left out, as MergeRequests::UpdateService keeps the first of reviewer_ids.
    await note('/request_review @mai');
    expect(await reviewers()).toEqual(['rep:unreviewed']);
    // Names count only where several reviewers are allowed: every reviewer goes.
    expect((await note('/unassign_reviewer @mai')).body).toEqual({ commands_changes: { reviewer_ids: [] }, summary: ['Removed reviewer @rep.'] });
    expect(await reviewers()).toEqual([]);
    const r = await note('/reassign_reviewer @mai');
    expect(r.status).toBe(201);
    expect(r.body.body).toBe('/reassign_reviewer @mai');
  });
});
