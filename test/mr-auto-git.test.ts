// What a merge request does with the repository (lib/api/merge_requests.rb, RebaseService,
// MergeToRefService, lib/api/commits.rb): rebase through its worker, the merge ref and its ref,
// its changes, the issues it closes, and the merge requests of a commit; with @gitbeaker/rest
// through the server for the calls a client makes.
import { Gitlab } from '@gitbeaker/rest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, updateProject, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: {
      files: { 'README.md': '# app\n', 'shared.txt': 'one\n' },
      commits: [
        { branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } },
        { branch: 'clash', message: 'Clash', files: { 'shared.txt': 'clash\n' } },
      ],
    },
    issues: [{ title: 'Bug', author: 'dev' }, { title: 'Other', author: 'dev' }],
    merge_requests: [
      { title: 'Add f', source_branch: 'feature', author: 'dev', description: 'Closes #1, see #2' },
      { title: 'Clash', source_branch: 'clash', author: 'dev' },
    ],
  }],
};
const P = '/projects/acme%2Fapp';
const MR = `${P}/merge_requests/1`;

describe('rebase, merge ref, changes and closing issues', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
  const moveMain = (path: string, content: string) => call('POST', `${P}/repository/commits`, 'maintainer-token', {
    branch: 'main', commit_message: `Change ${path}`, actions: [{ action: 'update', file_path: path, content }],
  });

  it('rebases the source branch onto the target through a worker: 202 in progress, then the branch moved', async () => {
    const before = (await call('GET', MR, 'dev-token')).body;
    await moveMain('README.md', '# app, moved\n');
    const main = (await call('GET', `${P}/repository/branches/main`, 'dev-token')).body.commit.id;
    const answer = await call('PUT', `${MR}/rebase`, 'dev-token');
    expect(answer).toEqual({ status: 202, body: { rebase_in_progress: true } });
    const after = (await call('GET', `${MR}?include_rebase_in_progress=true`, 'dev-token')).body;
    expect(after).toMatchObject({ rebase_in_progress: false, merge_error: null, diff_refs: { base_sha: main } });
    expect(after.sha).not.toBe(before.sha);
    const head = (await call('GET', `${P}/repository/commits/${after.sha}`, 'dev-token')).body;
    expect(head).toMatchObject({ parent_ids: [main], title: 'Feature', author_name: 'Administrator', committer_name: 'Dee Veloper' });
    // The rebased branch holds both changes.
    const readme = (await call('GET', `${P}/repository/files/README.md?ref=feature`, 'dev-token')).body;
    expect(Buffer.from(readme.content, 'base64').toString()).toBe('# app, moved\n');
    expect((await call('GET', `${P}/repository/files/f.txt?ref=feature`, 'dev-token')).status).toBe(200);
  });

  it('a rebase that conflicts leaves the branch and says why; a reporter may not; a closed one is 409', async () => {
    await moveMain('shared.txt', 'main\n');
    const mr2 = `${P}/merge_requests/2`;
    const before = (await call('GET', mr2, 'dev-token')).body.sha;
    expect((await call('PUT', `${mr2}/rebase`, 'reporter-token')).body).toEqual({ message: '403 Forbidden - Cannot push to source branch' });
    expect((await call('PUT', `${mr2}/rebase`, 'dev-token')).status).toBe(202);
    const after = (await call('GET', mr2, 'dev-token')).body;
    expect(after).toMatchObject({ sha: before, merge_error: 'Rebase failed: Rebase locally, resolve all conflicts, then push the branch.', detailed_merge_status: 'conflict' });
    // rebase_async refuses a merge request that is not open.
    await call('PUT', mr2, 'dev-token', { state_event: 'close' });
    expect(await call('PUT', `${mr2}/rebase`, 'dev-token')).toEqual({
      status: 409, body: { message: 'Failed to enqueue the rebase operation, possibly due to a long-lived transaction. Try again later.' },
    });
  });

  it('need_rebase where the project fast-forwards and the target moved; rebased, it merges by a fast-forward', async () => {
    updateProject(world(), 'acme/app', (p) => void (p.settings.merge_method = 'ff'));
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('mergeable');
    await moveMain('README.md', '# moved\n');
    // The target moved: the next read starts the check (`checking`), the one after sees its verdict.
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ merge_status: 'checking', detailed_merge_status: 'checking' });
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('need_rebase');
    expect((await call('GET', `${MR}?include_diverged_commits_count=true`, 'dev-token')).body.diverged_commits_count).toBe(1);
    await call('PUT', `${MR}/rebase`, 'dev-token');
    expect((await call('GET', `${MR}?include_diverged_commits_count=true`, 'dev-token')).body.diverged_commits_count).toBe(0);
    // Rebased, it merges by a fast-forward: the target is the head, with no merge commit.
    const { sha: head, detailed_merge_status: status } = (await call('GET', MR, 'dev-token')).body;
    expect(status).toBe('mergeable');
    expect((await call('PUT', `${MR}/merge`, 'maintainer-token')).body).toMatchObject({ state: 'merged', merge_commit_sha: null, sha: head });
    expect((await call('GET', `${P}/repository/branches/main`, 'dev-token')).body.commit.id).toBe(head);
  });

  it('mergeability is checked asynchronously when someone who may update the merge request reads it', async () => {
    await moveMain('shared.txt', 'main\n');
    const mr2 = `${P}/merge_requests/2`;
    expect((await call('GET', `${P}/merge_requests?state=opened`, 'dev-token')).body.map((m: { merge_status: string }) => m.merge_status)).toEqual(['unchecked', 'unchecked']);
    // A reporter's read starts nothing.
    expect((await call('GET', mr2, 'reporter-token')).body).toMatchObject({ merge_status: 'unchecked', detailed_merge_status: 'unchecked' });
    expect((await call('GET', mr2, 'reporter-token')).body.merge_status).toBe('unchecked');
    expect((await call('GET', mr2, 'dev-token')).body).toMatchObject({ merge_status: 'checking', has_conflicts: false });
    expect((await call('GET', mr2, 'reporter-token')).body).toMatchObject({ merge_status: 'cannot_be_merged', detailed_merge_status: 'conflict', has_conflicts: true });
    expect((await call('GET', `${P}/merge_requests?state=opened`, 'dev-token')).body.map((m: { merge_status: string }) => m.merge_status)).toEqual(['cannot_be_merged', 'unchecked']);
  });

  it('the merge ref: a merge commit of head into target, advertised as refs/merge-requests/:iid/merge; 400 on a conflict', async () => {
    const mr = (await call('GET', MR, 'dev-token')).body;
    const ref = await call('GET', `${MR}/merge_ref`, 'dev-token');
    expect(ref.status).toBe(200);
    const commit = (await call('GET', `${P}/repository/commits/${ref.body.commit_id}`, 'dev-token')).body;
    const main = (await call('GET', `${P}/repository/branches/main`, 'dev-token')).body.commit.id;
    expect(commit.parent_ids).toEqual([main, mr.sha]);
    // The same tips give the same ref.
    expect((await call('GET', `${MR}/merge_ref`, 'dev-token')).body.commit_id).toBe(ref.body.commit_id);
    const advertised = await world().handle(new Request('https://gitlab.example.com/acme/app.git/info/refs?service=git-upload-pack', {
      headers: { Authorization: `Basic ${Buffer.from('dev:dev-token').toString('base64')}` },
    }));
    expect(await advertised.text()).toContain(`${ref.body.commit_id} refs/merge-requests/1/merge`);
    await moveMain('shared.txt', 'main\n');
    expect(await call('GET', `${P}/merge_requests/2/merge_ref`, 'dev-token')).toEqual({ status: 400, body: { message: 'Merge request is not mergeable' } });
  });

  it('changes: the merge request with its diffs', async () => {
    const changes = (await call('GET', `${MR}/changes`, 'dev-token')).body;
    expect(changes).toMatchObject({ iid: 1, overflow: false, changes: [{ new_path: 'f.txt', new_file: true, diff: expect.stringContaining('+f') }] });
  });

  it('closes_issues: the issues it closes on merge that the caller sees; a commit’s merge requests', async () => {
    const closes = await call('GET', `${MR}/closes_issues`, 'dev-token');
    expect(closes.body.map((i: { iid: number }) => i.iid)).toEqual([1]);
    expect((await call('GET', `${MR}/closes_issues`, 'outsider-token')).status).toBe(404);
    const head = (await call('GET', MR, 'dev-token')).body.sha;
    const found = await call('GET', `${P}/repository/commits/${head}/merge_requests`, 'dev-token');
    expect(found.body.map((m: { iid: number }) => m.iid)).toEqual([1]);
    expect((await call('GET', `${P}/repository/commits/main/merge_requests`, 'dev-token')).body).toEqual([]);
    expect(await call('GET', `${P}/repository/commits/${'0'.repeat(40)}/merge_requests`, 'dev-token')).toEqual({ status: 404, body: { message: '404 Commit Not Found' } });
    const merged = (await call('PUT', `${MR}/merge`, 'maintainer-token')).body;
    const byMerge = await call('GET', `${P}/repository/commits/${merged.merge_commit_sha}/merge_requests?state=merged`, 'dev-token');
    expect(byMerge.body.map((m: { iid: number; state: string }) => [m.iid, m.state])).toEqual([[1, 'merged']]);
  });
});

describe('through the server with @gitbeaker/rest', () => {
  let server: { url: string; close(): Promise<void> };
  let api: InstanceType<typeof Gitlab>;
  beforeAll(async () => {
    const emulator = await createEmulator({ fixture: { ...FIXTURE, instance: { tier: 'premium' } }, clock: { now: NOW, frozen: true } });
    server = await emulator.listen();
    api = new Gitlab({ host: server.url, token: 'dev-token' });
  });
  afterAll(() => server.close());

  it('reads the changes and closing issues, rebases, and cancels an auto-merge that is not set', async () => {
    const changes = await api.MergeRequests.showChanges('acme/app', 1);
    expect(changes.changes).toHaveLength(1);
    const issues = await api.MergeRequests.allIssuesClosed('acme/app', 1);
    expect(issues.map((i) => i.iid)).toEqual([1]);
    expect(await api.MergeRequests.rebase('acme/app', 1)).toEqual({ rebase_in_progress: true });
    await expect(api.MergeRequests.cancelOnPipelineSuccess('acme/app', 1)).rejects.toMatchObject({ cause: { response: { status: 406 } } });
    // No pipeline: no auto-merge strategy applies.
    const maintainer = new Gitlab({ host: server.url, token: 'maintainer-token' });
    await expect(maintainer.MergeRequests.merge('acme/app', 1, { mergeWhenPipelineSucceeds: true })).rejects.toMatchObject({ cause: { response: { status: 405 } } });
  });

  it('manages approval rules and reads the approval state', async () => {
    const maintainer = new Gitlab({ host: server.url, token: 'maintainer-token' });
    const rule = await maintainer.MergeRequestApprovals.createApprovalRule('acme/app', 'review', 1, { usernames: ['mai'] });
    expect(rule).toMatchObject({ name: 'review', approvals_required: 1, users: [{ username: 'mai' }] });
    expect((await api.MergeRequestApprovals.allApprovalRules('acme/app')).map((r) => r.name)).toEqual(['review']);
    expect(await api.MergeRequestApprovals.showApprovalState('acme/app', 1)).toMatchObject({ approval_rules_overwritten: false, rules: [{ name: 'review', approved: false }] });
    expect(await maintainer.MergeRequestApprovals.editConfiguration('acme/app', { resetApprovalsOnPush: false })).toMatchObject({ reset_approvals_on_push: false });
    await maintainer.MergeRequestApprovals.removeApprovalRule('acme/app', rule.id as number);
    expect(await api.MergeRequestApprovals.allApprovalRules('acme/app')).toEqual([]);
  });
});
