// Assignees and reviewers a caller sends, as the services filter them (IssuableBaseService#
// filter_assignees, MergeRequests::BaseService#filter_reviewer): the first only on the free tier,
// and of those the users who can read the merge request; none readable leaves them as they were,
// `0` alone clears them. The API's create and update, as the quick actions already did.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const fixture = (tier: 'free' | 'premium'): Fixture => ({
  instance: { tier },
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' }, author: 'dev' }, { branch: 'other', message: 'Other', files: { 'o.txt': 'o\n' }, author: 'dev' }, { branch: 'third', message: 'Third', files: { 't.txt': 't\n' }, author: 'dev' }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }, { title: 'From a reporter', source_branch: 'other', author: 'rep' }],
  })],
});
const MR = '/projects/acme%2Fapp/merge_requests/1';

function caller(world: ReturnType<typeof seededWorld>, token = 'dev-token') {
  return async (method: string, path: string, json?: unknown) => {
    const res = await apiCall(world(), path, { method, token, json });
    return { status: res.status, body: await res.json() };
  };
}
const names = (users: { username: string }[]) => users.map((u) => u.username);

describe('assignees and reviewers sent to the API', () => {
  const freeWorld = seededWorld(fixture('free'), NOW);
  const free = caller(freeWorld);
  const premium = caller(seededWorld(fixture('premium'), NOW));

  it('keep the first only on the free tier, every one on Premium', async () => {
    const ids = async (call: typeof free) => {
      const users = (await call('GET', '/users?per_page=100')).body as { id: number; username: string }[];
      const id = (u: string) => users.find((x) => x.username === u)!.id;
      return { mai: id('mai'), rep: id('rep'), out: id('out'), gus: id('gus') };
    };
    const f = await ids(free);
    const set = await free('PUT', MR, { assignee_ids: [f.mai, f.rep], reviewer_ids: [f.rep, f.mai] });
    expect([names(set.body.assignees), names(set.body.reviewers)]).toEqual([['mai'], ['rep']]);
    const p = await ids(premium);
    const both = await premium('PUT', MR, { assignee_ids: [p.mai, p.rep], reviewer_ids: [p.rep, p.mai] });
    expect([names(both.body.assignees), names(both.body.reviewers)]).toEqual([['mai', 'rep'], ['rep', 'mai']]);
    // Those who cannot read the merge request go; if none can, nothing changes; 0 clears.
    expect(names((await premium('PUT', MR, { reviewer_ids: [p.out, p.mai] })).body.reviewers)).toEqual(['mai']);
    expect(names((await premium('PUT', MR, { reviewer_ids: [p.out] })).body.reviewers)).toEqual(['mai']);
    expect(names((await premium('PUT', MR, { reviewer_ids: [0] })).body.reviewers)).toEqual([]);
    // The first of those sent, before who may read is asked: an outsider first leaves none on the free tier.
    expect(names((await free('PUT', MR, { reviewer_ids: [f.out, f.mai] })).body.reviewers)).toEqual(['rep']);
  });

  it('apply when a merge request is created too', async () => {
    const users = (await free('GET', '/users?per_page=100')).body as { id: number; username: string }[];
    const id = (u: string) => users.find((x) => x.username === u)!.id;
    const made = await free('POST', '/projects/acme%2Fapp/merge_requests', { source_branch: 'third', target_branch: 'main', title: 'Third', assignee_ids: [id('rep'), id('mai')], reviewer_ids: [id('out'), id('mai')] });
    expect(made.status).toBe(201);
    expect([names(made.body.assignees), names(made.body.reviewers)]).toEqual([['rep'], []]);
  });

  it('are dropped, with the lock, for an author who may not set metadata (a Reporter): the title still changes', async () => {
    const reporter = caller(freeWorld, 'reporter-token');
    const users = (await free('GET', '/users?per_page=100')).body as { id: number; username: string }[];
    const mai = users.find((x) => x.username === 'mai')!.id;
    const mine = '/projects/acme%2Fapp/merge_requests/2';
    const edited = await reporter('PUT', mine, { title: 'Retitled', assignee_ids: [mai], reviewer_ids: [mai], discussion_locked: true });
    expect(edited.status).toBe(200);
    expect([edited.body.title, names(edited.body.assignees), names(edited.body.reviewers), edited.body.discussion_locked]).toEqual(['Retitled', [], [], null]);
    // A Developer may.
    const set = await free('PUT', mine, { assignee_ids: [mai], discussion_locked: true });
    expect([names(set.body.assignees), set.body.discussion_locked]).toEqual([['mai'], true]);
  });
});
