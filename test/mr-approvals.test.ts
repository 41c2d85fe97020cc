// Merge request approvals (lib/api/merge_request_approvals.rb, MergeRequests::ApprovalService and
// RemoveApprovalService): read, approve (with the head sha), take back, the quick actions, the
// system notes, and the entity of each tier.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

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
const MR = '/projects/acme%2Fapp/merge_requests/1';

describe('merge request approvals', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });

  it('on the free tier: approve, read, take back, with notes and GitLab’s refusals', async () => {
    world().configure({ tier: 'free' });
    expect((await call('GET', `${MR}/approvals`, 'maintainer-token')).body).toEqual({ user_has_approved: false, user_can_approve: true, approved: false, approved_by: [] });
    expect(await call('POST', `${MR}/approve`, 'maintainer-token', { sha: '0'.repeat(40) })).toMatchObject({
      status: 409, body: { message: expect.stringMatching(/^SHA does not match HEAD of source branch: [0-9a-f]{40}$/) },
    });
    const head = (await call('GET', MR, 'maintainer-token')).body.sha;
    const approved = await call('POST', `${MR}/approve`, 'maintainer-token', { sha: head });
    expect(approved).toMatchObject({ status: 201, body: { user_has_approved: true, user_can_approve: false, approved: true, approved_by: [{ user: { username: 'mai' } }] } });
    // Once is enough; a Reporter may not; the author may on the free tier.
    expect(await call('POST', `${MR}/approve`, 'maintainer-token')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await call('POST', `${MR}/approve`, 'reporter-token')).status).toBe(401);
    expect((await call('POST', `${MR}/approve`, 'dev-token')).status).toBe(201);
    expect((await call('GET', `${MR}/approvals`, 'reporter-token')).body.approved_by.map((a: { user: { username: string } }) => a.user.username)).toEqual(['mai', 'dev']);
    expect(await call('POST', `${MR}/unapprove`, 'reporter-token')).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect((await call('POST', `${MR}/unapprove`, 'maintainer-token')).body).toMatchObject({ user_has_approved: false, approved_by: [{ user: { username: 'dev' } }] });
    const notes = (await call('GET', `${MR}/notes?sort=asc`, 'dev-token')).body.map((n: { body: string; author: { username: string } }) => `${n.author.username}: ${n.body}`);
    expect(notes).toEqual(['mai: approved this merge request', 'dev: approved this merge request', 'mai: unapproved this merge request']);
    expect((await call('GET', '/projects/acme%2Fapp/merge_requests/9/approvals', 'dev-token')).status).toBe(404);
    expect((await call('GET', `${MR}/approvals`, 'guest-token')).status).toBe(403);
    expect((await call('POST', `${MR}/approve`)).status).toBe(401);
  });

  it('at the higher tiers: EE’s approval state, and the author may not approve their own', async () => {
    world().configure({ tier: 'premium' });
    const body = (await call('GET', `${MR}/approvals`, 'maintainer-token')).body;
    expect(Object.keys(body)).toEqual([
      'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'merge_status', 'approved', 'approvals_required', 'approvals_left',
      'require_password_to_approve', 'approved_by', 'suggested_approvers', 'approvers', 'approver_groups', 'user_has_approved', 'user_can_approve', 'approval_rules_left',
      'has_approval_rules', 'merge_request_approvers_available', 'multiple_approval_rules_available', 'invalid_approvers_rules',
    ]);
    expect(body).toMatchObject({ iid: 1, title: 'Add f', merge_status: 'can_be_merged', approved: true, approvals_required: 0, approvals_left: 0, user_can_approve: true });
    expect((await call('POST', `${MR}/approve`, 'dev-token')).status).toBe(401);
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).body.approved_by).toEqual([{ user: expect.objectContaining({ username: 'mai' }) }]);
  });

  it('/approve and /unapprove in a note', async () => {
    const approve = await call('POST', `${MR}/notes`, 'maintainer-token', { body: '/approve' });
    expect(approve).toMatchObject({ status: 202, body: { commands_changes: {}, summary: ['Approved the current merge request.'] } });
    expect((await call('GET', `${MR}/approvals`, 'maintainer-token')).body.user_has_approved).toBe(true);
    // Approved already: the command is taken out but cannot apply.
    expect((await call('POST', `${MR}/notes`, 'maintainer-token', { body: '/approve' })).body).toMatchObject({ summary: ['Could not apply approve command.'] });
    expect((await call('POST', `${MR}/notes`, 'maintainer-token', { body: '/unapprove' })).body).toMatchObject({ summary: ['Unapproved the current merge request.'] });
    expect((await call('GET', `${MR}/approvals`, 'maintainer-token')).body.approved_by).toEqual([]);
  });

  it('through @gitbeaker/rest against the server', async () => {
    const emulator = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'maintainer-token' });
      await api.MergeRequestApprovals.approve('acme/app', 1);
      const state = await api.MergeRequestApprovals.showConfiguration('acme/app', { mergerequestIId: 1 });
      expect((state as { approved_by: { user: { username: string } }[] }).approved_by.map((a) => a.user.username)).toEqual(['mai']);
      await api.MergeRequestApprovals.unapprove('acme/app', 1);
    } finally {
      await server.close();
    }
  });
});
