// Merge requests as data (lib/api/merge_requests.rb), an issue's related_merge_requests and
// closed_by (lib/api/issues.rb), and a milestone's issues and merge requests.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, notesOf, seededWorld } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [{ ...ACME, milestones: [{ title: 'Q1' }] }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      repository: {
        files: { 'README.md': '# app\n' },
        commits: [
          { branch: 'feature', message: 'Add a feature', files: { 'feature.txt': 'new\n', 'README.md': '# app, featured\n' } },
          { branch: 'other', message: 'Other work', files: { 'other.txt': 'x\n' } },
          { branch: 'clash', message: 'Clash', files: { 'README.md': '# app, clashing\n' } },
        ],
      },
      milestones: [{ title: 'v1' }],
      issues: [
        { title: 'Bug', author: 'dev', milestone: 'v1' },
        { title: 'Task', author: 'dev', milestone: 'Q1' },
        { title: 'Secret', author: 'rep', confidential: true },
      ],
      merge_requests: [
        { title: 'Fix the bug', source_branch: 'feature', description: 'Closes #1 and relates to #2', author: 'dev', milestone: 'v1', labels: ['backend'] },
      ],
    },
  ],
};

const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}

describe('merge requests', () => {
  it('a seeded merge request carries the repository’s SHAs and the full record', async () => {
    const branches = (await call('GET', `${APP}/repository/branches`, 'dev-token')).body as { name: string; commit: { id: string } }[];
    const tip = (n: string) => branches.find((b) => b.name === n)!.commit.id;
    const { status, body } = await call('GET', `${APP}/merge_requests/1`, 'dev-token');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      iid: 1, title: 'Fix the bug', state: 'opened', source_branch: 'feature', target_branch: 'main', sha: tip('feature'), labels: ['backend'],
      author: { username: 'dev' }, changes_count: '2', milestone: { title: 'v1' }, references: { short: '!1', full: 'acme/app!1' },
      diff_refs: { base_sha: tip('main'), head_sha: tip('feature'), start_sha: tip('main') }, user: { can_merge: true },
      web_url: 'https://gitlab.example.com/acme/app/-/merge_requests/1',
    });
    for (const key of ['merge_status', 'merge_commit_sha', 'squash_commit_sha', 'discussion_locked', 'should_remove_source_branch', 'force_remove_source_branch',
      'reference', 'time_stats', 'squash', 'task_completion_status', 'head_pipeline', 'merge_error', 'draft', 'work_in_progress', 'pipeline']) expect(body).toHaveProperty(key);
  });

  it('shows the pipeline of its source branch at its head as head_pipeline, and none before there is one', async () => {
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body).toMatchObject({ head_pipeline: null, pipeline: null });
    const ci = world().ci('acme/app');
    const other = ci.pipeline({ ref: 'main', user: 'dev' }); // another ref: not this merge request's
    const pipeline = ci.pipeline({ ref: 'feature', user: 'dev' });
    const job = ci.job(pipeline.id, { name: 'test', stage: 'test' });
    ci.finish(job.id, { status: 'success' });
    const { body } = await call('GET', `${APP}/merge_requests/1`, 'dev-token');
    expect(body.head_pipeline).toMatchObject({ id: pipeline.id, ref: 'feature', sha: body.sha, status: 'success' });
    expect(body.pipeline).toMatchObject({ id: pipeline.id, status: 'success' });
    expect(other.id).not.toBe(pipeline.id);
  });

  it('creates a merge request from real branches and refuses missing or equal ones', async () => {
    const made = await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'other', target_branch: 'main', title: 'Draft: other', description: 'Fixes #2' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ iid: 2, draft: true, work_in_progress: true, changes_count: '1' });
    expect((await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'nope', target_branch: 'main', title: 'x' })).body).toEqual({
      message: ['Source branch "nope" does not exist'],
    });
    expect((await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'main', target_branch: 'main', title: 'x' })).status).toBe(422);
    expect((await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'other', target_branch: 'main', title: 'again' })).body).toEqual({
      message: ['Another open merge request already exists for this source branch: !2'],
    });
    expect((await call('POST', `${APP}/merge_requests`, 'guest-token', { source_branch: 'other', target_branch: 'feature', title: 'x' })).status).toBe(403);
    const list = (await call('GET', `${APP}/merge_requests?state=opened`, 'reporter-token')).body;
    expect(list.map((m: { iid: number }) => m.iid)).toEqual([2, 1]);
    expect((await call('GET', `${APP}/merge_requests?source_branch=feature`, 'dev-token')).body.map((m: { iid: number }) => m.iid)).toEqual([1]);
    expect((await call('GET', '/merge_requests', 'dev-token')).body.map((m: { iid: number }) => m.iid)).toEqual([2, 1]);
    expect((await call('GET', '/merge_requests')).status).toBe(401);
    expect((await call('GET', '/merge_requests?scope=all')).body).toEqual([]);
    const group = (await call('GET', '/groups/acme/merge_requests?state=opened', 'reporter-token')).body;
    expect(group.map((m: { references: { relative: string } }) => m.references.relative)).toEqual(['app!2', 'app!1']);
    expect((await call('GET', '/groups/acme/merge_requests', 'outsider-token')).body).toEqual([]);
  });

  it('"Closes #n" makes closed_by, related_merge_requests and merge_requests_count', async () => {
    const closedBy = await call('GET', `${APP}/issues/1/closed_by`, 'dev-token');
    expect(closedBy.body.map((m: { iid: number }) => m.iid)).toEqual([1]);
    expect(closedBy.body[0]).not.toHaveProperty('diff_refs');
    expect((await call('GET', `${APP}/issues/2/closed_by`, 'dev-token')).body).toEqual([]);
    const related = await call('GET', `${APP}/issues/2/related_merge_requests`, 'dev-token');
    expect(related.body.map((m: { iid: number }) => m.iid)).toEqual([1]);
    expect(related.body[0]).toHaveProperty('diff_refs');
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.merge_requests_count).toBe(1);
    expect((await call('GET', `${APP}/issues/2`, 'dev-token')).body.merge_requests_count).toBe(0);
    // Editing the description moves the closing reference.
    await call('PUT', `${APP}/merge_requests/1`, 'dev-token', { description: 'Resolves #2' });
    expect((await call('GET', `${APP}/issues/1/closed_by`, 'dev-token')).body).toEqual([]);
    expect((await call('GET', `${APP}/issues/2/closed_by`, 'dev-token')).body.map((m: { iid: number }) => m.iid)).toEqual([1]);
    const closed = await call('PUT', `${APP}/merge_requests/1`, 'dev-token', { state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', closed_by: { username: 'dev' } });
    expect((await call('PUT', `${APP}/merge_requests/1`, 'dev-token', {})).status).toBe(400);
  });

  it('checks mergeability: a conflict once the target moved, unchecked in lists until read', async () => {
    const clash = await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'clash', target_branch: 'main', title: 'Clash' });
    expect(clash.body).toMatchObject({ merge_status: 'can_be_merged', detailed_merge_status: 'mergeable', has_conflicts: false });
    // Merging the feature changes README.md on main, as the clash branch does.
    expect((await call('PUT', `${APP}/merge_requests/1/merge`, 'maintainer-token')).body).toMatchObject({ state: 'merged' });
    const listed = (await call('GET', `${APP}/merge_requests?state=opened`, 'dev-token')).body;
    expect(listed).toEqual([expect.objectContaining({ iid: clash.body.iid, merge_status: 'unchecked', detailed_merge_status: 'unchecked', has_conflicts: false })]);
    // A read by who may update it starts the check (its worker runs before the next request).
    expect((await call('GET', `${APP}/merge_requests/${clash.body.iid}`, 'dev-token')).body).toMatchObject({ merge_status: 'checking', detailed_merge_status: 'checking' });
    expect((await call('GET', `${APP}/merge_requests/${clash.body.iid}`, 'dev-token')).body).toMatchObject({
      merge_status: 'cannot_be_merged', detailed_merge_status: 'conflict', has_conflicts: true,
    });
    expect(await call('PUT', `${APP}/merge_requests/${clash.body.iid}/merge`, 'maintainer-token')).toMatchObject({ status: 422, body: { message: 'Branch cannot be merged' } });
    // A commit to the source branch is checked at once: still in conflict.
    await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'clash', commit_message: 'More', actions: [{ action: 'create', file_path: 'm.txt', content: 'm\n' }] });
    expect((await call('GET', `${APP}/merge_requests?state=opened`, 'dev-token')).body[0]).toMatchObject({ merge_status: 'cannot_be_merged', has_conflicts: true });
  });

  it('deletes a merge request for owners and administrators, with what hangs on it', async () => {
    await call('POST', `${APP}/merge_requests/1/notes`, 'dev-token', { body: 'LGTM' });
    await call('POST', `${APP}/merge_requests/1/award_emoji`, 'dev-token', { name: 'thumbsup' });
    expect(await call('DELETE', `${APP}/merge_requests/1`, 'maintainer-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await call('DELETE', `${APP}/merge_requests/9`, 'root-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await call('DELETE', `${APP}/merge_requests/1`, 'root-token')).status).toBe(204);
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).status).toBe(404);
    expect(await call('GET', `${APP}/merge_requests/1/notes`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 MergeRequest Not Found' } });
    expect((await call('GET', `${APP}/merge_requests`, 'dev-token')).body).toEqual([]);
    expect((await call('GET', `${APP}/issues/1/closed_by`, 'dev-token')).body).toEqual([]);
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.merge_requests_count).toBe(0);
    // A push to its branch finds nothing to refresh; the next merge request does not reuse the iid.
    const pushed = await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'feature', commit_message: 'More', actions: [{ action: 'create', file_path: 'm.txt', content: 'm\n' }] });
    expect(pushed.status).toBe(201);
    const again = await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'feature', target_branch: 'main', title: 'Again' });
    expect(again.body).toMatchObject({ iid: 2, user_notes_count: 0, upvotes: 0 });
  });

  it('counts a release milestone’s issues in issue_stats, closed ones apart', async () => {
    const made = await call('POST', `${APP}/releases`, 'maintainer-token', { tag_name: 'v1.0', ref: 'main', milestones: ['v1'] });
    expect(made.status).toBe(201);
    const stats = (body: { milestones: { title: string; issue_stats: unknown }[] }) => Object.fromEntries(body.milestones.map((m) => [m.title, m.issue_stats]));
    expect(stats(made.body)).toEqual({ v1: { total: 1, closed: 0 } });
    expect((await call('PUT', `${APP}/issues/1`, 'dev-token', { state_event: 'close' })).status).toBe(200);
    expect(stats((await call('GET', `${APP}/releases/v1.0`, 'dev-token')).body)).toEqual({ v1: { total: 1, closed: 1 } });
  });

  it('lists the issues and merge requests of a milestone', async () => {
    const milestones = (await call('GET', `${APP}/milestones`, 'dev-token')).body as { id: number; title: string }[];
    const v1 = milestones.find((m) => m.title === 'v1')!;
    expect((await call('GET', `${APP}/milestones/${v1.id}/issues`, 'dev-token')).body.map((i: { title: string }) => i.title)).toEqual(['Bug']);
    expect((await call('GET', `${APP}/milestones/${v1.id}/merge_requests`, 'dev-token')).body.map((m: { iid: number }) => m.iid)).toEqual([1]);
    expect((await call('GET', `${APP}/milestones/999/issues`, 'dev-token')).body).toEqual({ message: '404 Not found' });
    const q1 = (await call('GET', '/groups/acme/milestones', 'dev-token')).body[0];
    expect((await call('GET', `/groups/acme/milestones/${q1.id}/issues`, 'dev-token')).body.map((i: { title: string }) => i.title)).toEqual(['Task']);
  });

  it('merges with a real merge commit, closes the issues it names, and refuses what cannot merge', async () => {
    const e = world();
    const before = e.git('acme/app').refs().branches;
    expect((await call('PUT', `${APP}/merge_requests/1/merge`, 'reporter-token')).status).toBe(401);
    // check_sha_param! names the merge request's head, not the sha sent.
    expect((await call('PUT', `${APP}/merge_requests/1/merge`, 'dev-token', { sha: 'abc' })).body).toEqual({ message: `SHA does not match HEAD of source branch: ${before.feature}` });
    const merged = await call('PUT', `${APP}/merge_requests/1/merge`, 'dev-token', { should_remove_source_branch: true });
    expect(merged.status).toBe(200);
    const refs = e.git('acme/app').refs().branches;
    expect(merged.body).toMatchObject({ state: 'merged', merged_by: { username: 'dev' }, merge_commit_sha: refs.main });
    expect(refs.feature).toBeUndefined();
    const log = await e.git('acme/app').log('main');
    expect(log[0]!.commit.message).toBe("Merge branch 'feature' into 'main'\n\nFix the bug\n\nCloses #1\n\nSee merge request acme/app!1");
    expect(log[0]!.commit.parents).toEqual([before.main, before.feature]);
    expect(await e.git('acme/app').readText('feature.txt', 'main')).toBe('new\n');
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body).toMatchObject({ state: 'closed', closed_by: { username: 'dev' } });
    expect((await call('PUT', `${APP}/merge_requests/1/merge`, 'dev-token')).status).toBe(405);

    // Diverged but apart: a three-way merge keeps both sides; a path both changed is a conflict.
    const other = await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'other', target_branch: 'main', title: 'Other' });
    expect((await call('PUT', `${APP}/merge_requests/${other.body.iid}/merge`, 'dev-token')).status).toBe(200);
    expect(await e.git('acme/app').readText('other.txt', 'main')).toBe('x\n');
    expect(await e.git('acme/app').readText('feature.txt', 'main')).toBe('new\n');
    const clash = await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'clash', target_branch: 'main', title: 'Clash' });
    expect((await call('PUT', `${APP}/merge_requests/${clash.body.iid}/merge`, 'dev-token')).body).toEqual({ message: 'Branch cannot be merged' });
    expect((await call('GET', `${APP}/merge_requests/${clash.body.iid}`, 'dev-token')).body.state).toBe('opened');
  });

  it('runs the quick actions of its description on create and edit, as MergeRequests::CreateService and UpdateService do', async () => {
    const made = await call('POST', `${APP}/merge_requests`, 'dev-token', {
      source_branch: 'other', target_branch: 'main', title: 'Other', description: 'Work\n/draft\n/assign me\n/milestone %v1\n/estimate 2h\n/spend 1h\n/close\n/due tomorrow',
    });
    // What needs the merge request to exist (/close) and what merge requests do not take (/due) leave the text and do nothing.
    expect(made.body).toMatchObject({
      title: 'Draft: Other', draft: true, description: 'Work', state: 'opened', assignees: [{ username: 'dev' }], milestone: { title: 'v1' },
      time_stats: { time_estimate: 7200, total_time_spent: 3600 },
    });
    const edited = await call('PUT', `${APP}/merge_requests/${made.body.iid}`, 'dev-token', { description: 'Done\n/draft\n/title Other work\n/unassign\n/lock' });
    expect(edited.body).toMatchObject({ title: 'Other work', draft: false, description: 'Done', assignees: [], discussion_locked: true });
    expect(notesOf(world(), 'MergeRequest', made.body.id).map((n) => n.body)).toEqual([
      'changed time estimate to 2h', 'added 1h of time spent', 'marked this merge request as **ready**', 'changed title from **{-Draft: Other-}** to **{+Other work+}**',
      'changed the description', 'locked the discussion in this merge request', 'unassigned @dev',
    ]);
    const closed = await call('PUT', `${APP}/merge_requests/${made.body.iid}`, 'dev-token', { description: 'Done\n/close\n/approve' });
    expect(closed.body).toMatchObject({ state: 'closed', description: 'Done' });
    expect((await call('GET', `${APP}/merge_requests/${made.body.iid}/approvals`, 'dev-token')).body).toMatchObject({ approved_by: [{ user: { username: 'dev' } }] });
  });

  it('tracks time on merge requests, with their system notes', async () => {
    expect((await call('POST', `${APP}/merge_requests/1/time_estimate`, 'dev-token', { duration: '1d' })).body).toMatchObject({ time_estimate: 28800, human_time_estimate: '1d' });
    expect((await call('POST', `${APP}/merge_requests/1/add_spent_time`, 'dev-token', { duration: '45m' })).status).toBe(201);
    expect((await call('POST', `${APP}/merge_requests/1/add_spent_time`, 'dev-token', { duration: '-2h' })).body).toEqual({ message: { base: ['Time to subtract exceeds the total time spent'] } });
    expect((await call('GET', `${APP}/merge_requests/1/time_stats`, 'reporter-token')).body).toEqual({ time_estimate: 28800, total_time_spent: 2700, human_time_estimate: '1d', human_total_time_spent: '45m' });
    expect((await call('POST', `${APP}/merge_requests/1/time_estimate`, 'reporter-token', { duration: '1h' })).status).toBe(403);
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.time_stats.total_time_spent).toBe(2700);
    const mr = (await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body;
    const notes = notesOf(world(), 'MergeRequest', mr.id);
    expect(notes.map((n) => n.body)).toEqual(['changed time estimate to 1d', 'added 45m of time spent']);
    expect(notes[0]).toMatchObject({ system: true, noteableType: 'MergeRequest', noteableId: mr.id });
  });
});
