// Bad input to the issues family's routes in a world that holds issues, labels, epics and merge
// requests: hostile names and values in every parameter, every caller. Never a 500, and a
// request that fails changes nothing.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Snapshot } from '../src/index.js';

const fixture: Fixture = {
  instance: { tier: 'ultimate' },
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'dev', tokens: [{ token: 'dev-token' }] },
    { username: 'gus', tokens: [{ token: 'guest-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'developer' }, { user: 'gus', access_level: 'guest' }], labels: [{ name: 'constructor' }], epics: [{ title: 'E' }], iterations: [{ title: 'S', start_date: '2030-01-01', due_date: '2030-01-14' }] }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root',
    repository: { files: { 'a.txt': 'a\n' }, branches: { __proto__: 'main', fix: 'main' } },
    labels: [{ name: '__proto__' }, { name: '日本' }],
    milestones: [{ title: 'toString', due_date: '2030-02-01' }],
    issues: [{ title: 'One', labels: ['__proto__'], milestone: 'toString', epic: 'E', iteration: 'S' }, { title: 'Two', confidential: true, author: 'dev' }],
    merge_requests: [{ title: 'MR', source_branch: 'fix', description: 'Closes #1' }],
  }],
};

const P = '/projects/acme%2Fapp';
/** Each route of the family with its method, and a few paths no route has. */
const CALLS: [string, string][] = [
  ['GET', '/issues'], ['GET', '/issues_statistics'], ['GET', '/issues/1'], ['GET', '/groups/acme/issues'], ['GET', '/groups/acme/issues_statistics'],
  ['GET', `${P}/issues`], ['POST', `${P}/issues`], ['GET', `${P}/issues_statistics`], ['GET', `${P}/issues/1`], ['PUT', `${P}/issues/1`], ['DELETE', `${P}/issues/2`],
  ['POST', `${P}/issues/1/move`], ['POST', `${P}/issues/1/clone`], ['PUT', `${P}/issues/1/reorder`], ['GET', `${P}/issues/1/participants`], ['POST', `${P}/issues/1/links`], ['GET', `${P}/issues/1/links`], ['DELETE', `${P}/issues/1/links/1`], ['GET', `${P}/issues/1/user_agent_detail`],
  ['POST', `${P}/issues/1/subscribe`], ['POST', `${P}/issues/1/unsubscribe`], ['POST', `${P}/issues/1/todo`], ['GET', `${P}/issues/1/award_emoji`],
  ['POST', `${P}/issues/1/award_emoji`], ['DELETE', `${P}/issues/1/award_emoji/1`], ['POST', `${P}/issues/1/time_estimate`], ['POST', `${P}/issues/1/add_spent_time`],
  ['POST', `${P}/issues/1/reset_spent_time`], ['POST', `${P}/issues/1/reset_time_estimate`], ['GET', `${P}/issues/1/time_stats`], ['GET', `${P}/issues/1/notes`],
  ['GET', `${P}/issues/1/related_merge_requests`], ['GET', `${P}/issues/1/closed_by`], ['GET', `${P}/labels`], ['POST', `${P}/labels`], ['GET', `${P}/labels/__proto__`],
  ['PUT', `${P}/labels/__proto__`], ['DELETE', `${P}/labels/%E6%97%A5%E6%9C%AC`], ['POST', `${P}/labels/constructor/subscribe`], ['GET', '/groups/acme/labels'],
  ['POST', '/groups/acme/labels'], ['PUT', '/groups/acme/labels/constructor'], ['GET', '/todos'], ['POST', '/todos/1/mark_as_done'], ['POST', '/todos/mark_as_done'],
  ['GET', '/merge_requests'], ['GET', '/groups/acme/merge_requests'], ['GET', `${P}/merge_requests`], ['POST', `${P}/merge_requests`], ['GET', `${P}/merge_requests/1`], ['PUT', `${P}/merge_requests/1`], ['PUT', `${P}/merge_requests/1/merge`], ['POST', `${P}/merge_requests/1/add_spent_time`], ['POST', `${P}/merge_requests/1/time_estimate`], ['GET', `${P}/merge_requests/1/notes`], ['DELETE', `${P}/merge_requests/1`], ['POST', `${P}/merge_requests/1/award_emoji`], ['GET', `${P}/merge_requests/1/participants`],
  ['POST', `${P}/merge_requests/1/subscribe`], ['POST', `${P}/merge_requests/1/todo`], ['POST', `${P}/issues/1/notes/1/award_emoji`], ['DELETE', `${P}/merge_requests/1/award_emoji/1`],
  ['GET', `${P}/merge_requests/1/approvals`], ['POST', `${P}/merge_requests/1/approve`], ['POST', `${P}/merge_requests/1/unapprove`], ['GET', '/groups/acme/epics'],
  ['POST', '/groups/acme/epics'], ['GET', '/groups/acme/epics/1'], ['GET', '/groups/acme/iterations'], ['GET', `${P}/iterations`],
  ['GET', `${P}/milestones/1/issues`], ['GET', `${P}/milestones/1/merge_requests`], ['GET', `${P}/issues/%5F%5Fproto%5F%5F`], ['PUT', `${P}/issues/1e3`],
];
const KEYS = [
  'title', 'description', 'labels', 'add_labels', 'remove_labels', 'milestone', 'milestone_id', 'iids', 'search', 'in', 'state', 'state_event', 'scope', 'order_by', 'sort',
  'assignee_id', 'assignee_ids', 'assignee_username', 'author_id', 'author_username', 'due_date', 'created_after', 'updated_before', 'confidential', 'my_reaction_emoji',
  'not[labels]', 'not[iids][]', 'not[milestone_id]', 'not[weight]', 'weight', 'epic_id', 'epic_iid', 'iteration_id', 'iteration_title', 'health_status', 'issue_type',
  'pagination', 'cursor', 'per_page', 'page', 'duration', 'summary', 'name', 'color', 'new_name', 'priority', 'to_project_id', 'move_after_id', 'move_before_id',
  'source_branch', 'target_branch', 'iid', 'created_at', 'sha', 'with_labels_details', 'non_archived', 'parent_id', 'with_counts', '__proto__', 'constructor',
];
const VALUES = fc.oneof(
  fc.constantFrom('', 'None', 'Any', 'Upcoming', 'Started', 'Current', '__proto__', 'constructor', '日本', '🎉', 'a\r\nb', '\ud800', '-1', '0', '1', '2', '999999999999999999', '1.5',
    'true', 'False', 'asc', 'keyset', 'created_at', 'weight', 'all', 'closed', 'close', '1h', '-1w', 'foo', '#1', '~bug', '2030-01-01', 'not-a-date', 'main', 'fix', 'acme/app'),
  fc.string({ maxLength: 8 }),
  fc.integer(),
);
const TOKENS = [undefined, 'root-token', 'dev-token', 'guest-token', 'nope'];

let gitlab: Emulator;
let seeded: Snapshot;
beforeAll(async () => {
  gitlab = await createEmulator({ fixture, clock: { now: '2030-01-05T00:00:00Z', frozen: true } });
  seeded = gitlab.snapshot();
});

describe('the issues family under bad input', () => {
  it('never answers 500, and a failed request changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CALLS), fc.dictionary(fc.constantFrom(...KEYS), VALUES, { maxKeys: 5 }), fc.boolean(), fc.constantFrom(...TOKENS),
        async ([method, path], params, asBody, token) => {
          gitlab.restore(seeded);
          const before = gitlab.state;
          const query = new URLSearchParams();
          if (!asBody || method === 'GET') for (const [k, v] of Object.entries(params)) query.append(k, String(v));
          const headers: Record<string, string> = token ? { 'PRIVATE-TOKEN': token } : {};
          const init: RequestInit = { method, headers };
          if (asBody && method !== 'GET') {
            headers['Content-Type'] = 'application/json';
            init.body = JSON.stringify(params);
          }
          const res = await gitlab.handle(new Request(`https://gitlab.example.com/api/v4${path}${query.size ? `?${query}` : ''}`, init));
          await res.arrayBuffer();
          expect(res.status, `${method} ${path} ${JSON.stringify(params)}`).not.toBe(500);
          if (res.status >= 400) expect(gitlab.state).toBe(before);
        },
      ),
      { numRuns: 400 },
    );
  });
});
