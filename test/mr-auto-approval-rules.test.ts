// Approval rules (ee/lib/api/project_approval_rules.rb, merge_request_approval_rules.rb,
// project_approvals.rb, ApprovalState): rules of the project and of a merge request, what they
// ask before a merge, who may approve, approvals reset by a bot and on a push.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  instance: { tier: 'premium' },
  users: TEAM,
  groups: [ACME, { path: 'reviewers', visibility: 'public', members: [{ user: 'mai', access_level: 'developer' }] }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
  }],
};
const P = '/projects/acme%2Fapp';
const MR = `${P}/merge_requests/1`;

describe('approval rules', () => {
  const world = seededWorld(FIXTURE, NOW);
  const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
  const groupId = async () => (await call('GET', '/groups/reviewers', 'root-token')).body.id as number;
  const userId = async (username: string) => (await call('GET', `/users?username=${username}`, 'root-token')).body[0].id as number;

  it('project rules: CRUD with GitLab’s entity, validations and permissions', async () => {
    expect(await call('GET', `${P}/approval_rules`, 'maintainer-token')).toEqual({ status: 200, body: [] });
    const gid = await groupId();
    const made = await call('POST', `${P}/approval_rules`, 'maintainer-token', { name: 'review', approvals_required: 2, group_ids: [gid], user_ids: [await userId('dev'), await userId('out')] });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual([
      'id', 'name', 'rule_type', 'report_type', 'eligible_approvers', 'approvals_required', 'users', 'groups', 'contains_hidden_groups', 'protected_branches', 'applies_to_all_protected_branches',
    ]);
    expect(made.body).toMatchObject({ name: 'review', rule_type: 'regular', approvals_required: 2, groups: [{ path: 'reviewers' }], contains_hidden_groups: false });
    // Users who are no members of the project are left out; the group's members are approvers.
    expect(made.body.users.map((u: { username: string }) => u.username)).toEqual(['dev']);
    expect(made.body.eligible_approvers.map((u: { username: string }) => u.username).sort()).toEqual(['dev', 'mai']);
    expect(await call('POST', `${P}/approval_rules`, 'maintainer-token', { name: 'review', approvals_required: 1 })).toEqual({ status: 400, body: { message: { name: ['has already been taken'] } } });
    expect(await call('POST', `${P}/approval_rules`, 'maintainer-token', { name: 'many', approvals_required: 101 })).toEqual({ status: 400, body: { message: { approvals_required: ['must be less than or equal to 100'] } } });
    expect((await call('POST', `${P}/approval_rules`, 'maintainer-token', { name: 'x' })).status).toBe(400);
    expect((await call('POST', `${P}/approval_rules`, 'dev-token', { name: 'dev', approvals_required: 1 })).status).toBe(403);
    expect((await call('GET', `${P}/approval_rules`, 'reporter-token')).status).toBe(403);
    const id = made.body.id;
    const updated = await call('PUT', `${P}/approval_rules/${id}`, 'maintainer-token', { approvals_required: 1 });
    expect(updated.body).toMatchObject({ id, name: 'review', approvals_required: 1 });
    expect((await call('GET', `${P}/approval_rules/${id}`, 'dev-token')).body.approvals_required).toBe(1);
    expect((await call('GET', `${P}/approval_rules/999`, 'dev-token')).status).toBe(404);
    expect((await call('DELETE', `${P}/approval_rules/${id}`, 'maintainer-token')).status).toBe(204);
    expect((await call('GET', `${P}/approval_rules`, 'dev-token')).body).toEqual([]);
  });

  it('are not there on the free tier', async () => {
    world().configure({ tier: 'free' });
    expect((await call('GET', `${P}/approval_rules`, 'maintainer-token')).status).toBe(404);
  });

  it('a rule’s approvals are asked before a merge, and only its approvers count', async () => {
    const gid = await groupId();
    await call('POST', `${P}/approval_rules`, 'maintainer-token', { name: 'review', approvals_required: 1, group_ids: [gid] });
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('not_approved');
    expect((await call('GET', `${MR}/approvals`, 'dev-token')).body).toMatchObject({
      approved: false, approvals_required: 1, approvals_left: 1, has_approval_rules: true, approval_rules_left: [{ name: 'review', rule_type: 'regular' }],
    });
    expect(await call('PUT', `${MR}/merge`, 'maintainer-token')).toEqual({ status: 422, body: { message: 'Branch cannot be merged' } });
    // root is no approver of the rule.
    expect((await call('POST', `${MR}/approve`, 'root-token')).status).toBe(401);
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).body).toMatchObject({ approved: true, approvals_left: 0, approval_rules_left: [] });
    const state = (await call('GET', `${MR}/approval_state`, 'dev-token')).body;
    expect(state).toMatchObject({ approval_rules_overwritten: false, rules: [{ name: 'review', approved: true, approved_by: [{ username: 'mai' }], code_owner: false }] });
    expect((await call('GET', MR, 'dev-token')).body.detailed_merge_status).toBe('mergeable');
    expect((await call('PUT', `${MR}/merge`, 'maintainer-token')).body.state).toBe('merged');
  });

  it('merge request rules override the project’s, unless the project forbids it', async () => {
    const base = await call('POST', `${P}/approval_rules`, 'maintainer-token', { name: 'review', approvals_required: 2 });
    const own = await call('POST', `${MR}/approval_rules`, 'dev-token', { name: 'mine', approvals_required: 1, approval_project_rule_id: base.body.id, user_ids: [await userId('mai')] });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({ name: 'mine', section: null, source_rule: { approvals_required: 2 }, overridden: true });
    expect((await call('GET', `${MR}/approval_rules`, 'dev-token')).body.map((r: { name: string }) => r.name)).toEqual(['mine']);
    expect((await call('GET', `${MR}/approval_state`, 'dev-token')).body).toMatchObject({ approval_rules_overwritten: true, rules: [{ name: 'mine' }] });
    expect((await call('POST', `${MR}/approval_rules`, 'reporter-token', { name: 'r', approvals_required: 1 })).status).toBe(403);
    expect((await call('POST', `${P}/approvals`, 'maintainer-token', { disable_overriding_approvers_per_merge_request: true })).body).toMatchObject({ disable_overriding_approvers_per_merge_request: true, reset_approvals_on_push: true });
    expect((await call('GET', `${MR}/approval_state`, 'dev-token')).body).toMatchObject({ approval_rules_overwritten: false, rules: [{ name: 'review' }] });
    expect((await call('DELETE', `${MR}/approval_rules/${own.body.id}`, 'dev-token')).status).toBe(403);
  });

  it('reset_approvals is for bots; approvals reset on a push where the project says so', async () => {
    await call('POST', `${MR}/approve`, 'maintainer-token');
    expect((await call('PUT', `${MR}/reset_approvals`, 'maintainer-token')).status).toBe(401);
    const bot = (await call('POST', `${P}/access_tokens`, 'maintainer-token', { name: 'bot', scopes: ['api'], access_level: 30, expires_at: '2026-04-01' })).body;
    expect(await call('PUT', `${MR}/reset_approvals`, bot.token)).toEqual({ status: 202, body: 202 });
    expect((await call('GET', `${MR}/approvals`, 'dev-token')).body.approved_by).toEqual([]);
    await call('POST', `${MR}/approve`, 'maintainer-token');
    const push = (n: number) => call('POST', `${P}/repository/commits`, 'dev-token', { branch: 'feature', commit_message: `c${n}`, actions: [{ action: 'create', file_path: `c${n}.txt`, content: 'c\n' }] });
    await push(1);
    expect((await call('GET', `${MR}/approvals`, 'dev-token')).body.approved_by).toEqual([]);
    const notes = (await call('GET', `${MR}/notes?sort=asc`, 'dev-token')).body.map((n: { body: string }) => n.body);
    expect(notes.at(-1)).toBe('reset approvals from @mai by pushing to the branch');
    await call('POST', `${P}/approvals`, 'maintainer-token', { reset_approvals_on_push: false });
    await call('POST', `${MR}/approve`, 'maintainer-token');
    await push(2);
    expect((await call('GET', `${MR}/approvals`, 'dev-token')).body.approved_by).toHaveLength(1);
  });
});
