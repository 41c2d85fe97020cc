// Push rules (ee/lib/api/project_push_rule.rb, group_push_rule.rb): from Premium, a project's
// maintainers and a group's owners keep one rule set; none is `null`.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';
import type { Fixture } from '../src/index.js';

const fixture = (tier: 'free' | 'premium'): Fixture => ({ instance: { tier }, users: TEAM, groups: [{ ...ACME, members: TEAM_MEMBERS }], projects: [teamProject()] });
const world = seededWorld(fixture('premium'), '2026-05-04T10:00:00Z');
const free = seededWorld(fixture('free'), '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}, e = world()) => apiCall(e, path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

describe.each([
  ['project', APP, 'maintainer-token', 'Project push rule exists'],
  ['group', '/groups/acme', 'root-token', 'Group push rule exists'],
])('%s push rules', (kind, base, manager, exists) => {
  it('none is null; one is made with defaults, changed and deleted', async () => {
    expect(await body(await call(`${base}/push_rule`, { token: manager }))).toEqual([200, null]);
    const res = await call(`${base}/push_rule`, { method: 'POST', token: manager, json: { deny_delete_tag: true, branch_name_regex: '^(main|feature/.*)$' } });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made).toEqual({
      id: 1, ...(kind === 'project' ? { project_id: expect.any(Number) } : {}), created_at: '2026-05-04T10:00:00.000Z',
      commit_message_regex: null, commit_message_negative_regex: null, branch_name_regex: '^(main|feature/.*)$', deny_delete_tag: true, member_check: false,
      prevent_secrets: false, author_email_regex: null, file_name_regex: null, max_file_size: 0, commit_committer_check: false, commit_committer_name_check: false,
      reject_unsigned_commits: false, reject_non_dco_commits: false,
    });
    expect(await body(await call(`${base}/push_rule`, { method: 'POST', json: { member_check: true } }))).toEqual([422, { error: exists }]);
    const changed = await (await call(`${base}/push_rule`, { method: 'PUT', json: { deny_delete_tag: false, max_file_size: 10 } })).json();
    expect(changed).toMatchObject({ deny_delete_tag: false, max_file_size: 10, branch_name_regex: '^(main|feature/.*)$' });
    expect(await (await call(`${base}/push_rule`)).json()).toEqual(changed);
    expect((await call(`${base}/push_rule`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${base}/push_rule`, { method: 'DELETE' }))).toEqual([404, { message: '404 Push Rule Not Found' }]);
    expect(await body(await call(`${base}/push_rule`, { method: 'PUT', json: { member_check: true } }))).toEqual([404, { message: '404 Push Rule Not Found' }]);
  });

  it('refuses a bad regex, a negative size, no rule at all; a developer; and below Premium there is none', async () => {
    expect(await body(await call(`${base}/push_rule`, { method: 'POST', json: { file_name_regex: '(' , max_file_size: -1 } })))
      .toEqual([400, { message: { file_name_regex: ['not valid RE2 syntax: invalid regular expression'], max_file_size: ['must be greater than or equal to 0'] } }]);
    expect((await call(`${base}/push_rule`, { method: 'POST', json: {} })).status).toBe(400);
    expect(await (await call(`${base}/push_rule`)).json()).toBeNull();
    expect((await call(`${base}/push_rule`, { token: 'dev-token' })).status).toBe(403);
    expect((await call(`${base}/push_rule`, {}, free())).status).toBe(404);
  });
});
