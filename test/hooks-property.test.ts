// For random hook configurations (event flags, branch filters) and random sequences of actions
// (issues, confidential or not; comments, internal or not; commits to branches), the deliveries
// queued are exactly those a plain model of GitLab's routing selects, in order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

const BRANCHES = ['main', 'release/1', 'feature/a'] as const;
const FILTERS = [
  { push_events_branch_filter: '' },
  { push_events_branch_filter: 'main' },
  { push_events_branch_filter: 'release/*' },
  { push_events_branch_filter: '^feat', branch_filter_strategy: 'regex' },
  { push_events_branch_filter: 'main', branch_filter_strategy: 'all_branches' },
] as const;

const hookArb = fc.record({
  push_events: fc.boolean(), issues_events: fc.boolean(), confidential_issues_events: fc.boolean(), note_events: fc.boolean(),
  confidential_note_events: fc.boolean(), filter: fc.constantFrom(...FILTERS),
});
type HookConf = typeof hookArb extends fc.Arbitrary<infer T> ? T : never;

const actionArb = fc.oneof(
  fc.record({ kind: fc.constant('issue' as const), confidential: fc.boolean() }),
  fc.record({ kind: fc.constant('note' as const), internal: fc.boolean(), on: fc.nat() }),
  fc.record({ kind: fc.constant('commit' as const), branch: fc.constantFrom(...BRANCHES) }),
);

/** ActiveHookFilter, plainly. */
function branchTaken(f: HookConf['filter'], branch: string): boolean {
  const strategy = 'branch_filter_strategy' in f ? f.branch_filter_strategy : 'wildcard';
  if (strategy === 'all_branches' || f.push_events_branch_filter === '') return true;
  if (strategy === 'regex') return new RegExp(f.push_events_branch_filter).test(branch);
  const pattern = f.push_events_branch_filter;
  return pattern.includes('*') ? branch.startsWith(pattern.slice(0, pattern.indexOf('*'))) : pattern === branch;
}

describe('hook routing', () => {
  it('delivers what the model selects', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hookArb, { minLength: 1, maxLength: 4 }), fc.array(actionArb, { minLength: 1, maxLength: 8 }), async (hooks, actions) => {
        const e = await createEmulator({
          clock: { now: '2026-05-04T10:00:00Z', frozen: true },
          fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: { 'README.md': '#\n' } } })] },
        });
        e.hooks.pause();
        const call = (path: string, json: unknown) => apiCall(e, `/projects/acme%2Fapp${path}`, { method: 'POST', token: 'maintainer-token', json });
        const ids: number[] = [];
        for (const h of hooks) {
          const { filter, ...flags } = h;
          ids.push((await (await call('/hooks', { url: 'https://r.example.com/', ...flags, ...filter })).json()).id);
        }
        const expected: [number, string][] = [];
        const issues: boolean[] = [];
        const branches = new Set<string>(['main']);
        let n = 0;
        for (const a of actions) {
          if (a.kind === 'issue') {
            expect((await call('/issues', { title: `i${issues.length}`, confidential: a.confidential })).status).toBe(201);
            issues.push(a.confidential);
            hooks.forEach((h, i) => {
              if (a.confidential ? h.confidential_issues_events : h.issues_events) expected.push([ids[i]!, a.confidential ? 'Confidential Issue Hook' : 'Issue Hook']);
            });
          } else if (a.kind === 'note') {
            if (issues.length === 0) continue;
            const on = a.on % issues.length;
            expect((await call(`/issues/${on + 1}/notes`, { body: 'c', internal: a.internal })).status).toBe(201);
            const secret = a.internal || issues[on]!;
            hooks.forEach((h, i) => {
              if (secret ? h.confidential_note_events : h.note_events) expected.push([ids[i]!, secret ? 'Confidential Note Hook' : 'Note Hook']);
            });
          } else {
            const fresh = !branches.has(a.branch);
            const res = await call('/repository/commits', { branch: a.branch, ...(fresh ? { start_branch: 'main' } : {}), commit_message: `c${n}`, actions: [{ action: 'create', file_path: `f${n++}.txt`, content: 'x' }] });
            expect(res.status).toBe(201);
            branches.add(a.branch);
            hooks.forEach((h, i) => {
              if (h.push_events && branchTaken(h.filter, a.branch)) expected.push([ids[i]!, 'Push Hook']);
            });
          }
        }
        const got = e.hooks.deliveries().map((d) => [d.hookId, d.event]);
        expect(got).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  });
});
