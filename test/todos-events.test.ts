// To-dos made by what happens (TodoService): assignment, review requests, mentions in
// descriptions, titles and comments, and the actor's pending to-do done when they close, merge,
// comment or award an emoji; only for users who may read the target, once while one is pending.
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

let e: Emulator;
const P = '/projects/acme%2Fapp';
const as = (token: string) => async (path: string, method = 'GET', json?: unknown) => {
  const res = await apiCall(e, path, { method, token, json });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
};
const mai = as('maintainer-token');
const dev = as('dev-token');
const rep = as('reporter-token');
const out = as('outsider-token');
const todos = async (who: ReturnType<typeof as>, query = '') =>
  ((await who(`/todos${query}`)).body as any[]).map((t) => ({ action: t.action_name, type: t.target_type, iid: t.target.iid, author: t.author.username, body: t.body, state: t.state }));
const id = async (username: string) => (await mai(`/users?username=${username}`)).body[0].id as number;

beforeEach(async () => {
  e = await createEmulator({
    clock: { now: '2026-05-04T10:00:00Z', frozen: true },
    fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: { 'README.md': '#\n' }, branches: { feature: 'main' } } } as never)] },
  });
});

describe('to-dos from issues', () => {
  it('an assignee gets `assigned` (a mention of them then adds none); others mentioned get `mentioned`; outsiders nothing', async () => {
    const made = await mai(`${P}/issues`, 'POST', { title: 'Broken', description: '@dev please look. cc @rep @out', assignee_ids: [await id('dev')] });
    expect(made.status).toBe(201);
    expect(await todos(dev)).toEqual([{ action: 'assigned', type: 'Issue', iid: made.body.iid, author: 'mai', body: 'Broken', state: 'pending' }]);
    expect(await todos(rep)).toEqual([expect.objectContaining({ action: 'mentioned', author: 'mai' })]);
    expect(await todos(out)).toEqual([]);
  });

  it('a comment finishes its author\'s to-do and addresses the users it opens with, its text the body', async () => {
    const issue = (await mai(`${P}/issues`, 'POST', { title: 'Broken', assignee_ids: [await id('dev')] })).body;
    const note = await dev(`${P}/issues/${issue.iid}/notes`, 'POST', { body: '@mai fixed in the branch' });
    expect(note.status).toBe(201);
    expect(await todos(dev)).toEqual([]);
    expect(await todos(dev, '?state=done')).toEqual([expect.objectContaining({ action: 'assigned', state: 'done' })]);
    expect(await todos(mai)).toEqual([{ action: 'directly_addressed', type: 'Issue', iid: issue.iid, author: 'dev', body: '@mai fixed in the branch', state: 'pending' }]);
  });

  it('an edit mentions only users the old text did not; a new assignee gets `assigned`; closing finishes the closer\'s', async () => {
    const issue = (await mai(`${P}/issues`, 'POST', { title: 'Broken', description: 'cc @rep' })).body;
    await rep('/todos/mark_as_done', 'POST');
    await mai(`${P}/issues/${issue.iid}`, 'PUT', { description: 'cc @rep and @dev' });
    expect(await todos(rep)).toEqual([]);
    expect(await todos(dev)).toEqual([expect.objectContaining({ action: 'mentioned' })]);
    await mai(`${P}/issues/${issue.iid}`, 'PUT', { assignee_ids: [await id('rep')] });
    expect(await todos(rep)).toEqual([expect.objectContaining({ action: 'assigned', author: 'mai' })]);
    // An edit that changes neither title nor description mentions nobody again.
    await dev('/todos/mark_as_done', 'POST');
    await mai(`${P}/issues/${issue.iid}`, 'PUT', { labels: 'bug' });
    expect(await todos(dev)).toEqual([]);
    await rep(`${P}/issues/${issue.iid}`, 'PUT', { state_event: 'close' });
    expect(await todos(rep)).toEqual([]);
  });

  it('a refused write makes no to-do; an internal note mentions only those who may read it', async () => {
    expect((await out(`${P}/issues`, 'POST', { title: 'x', description: '@dev' })).status).toBe(404);
    expect(await todos(dev)).toEqual([]);
    const issue = (await mai(`${P}/issues`, 'POST', { title: 'Quiet' })).body;
    await mai(`${P}/issues/${issue.iid}/notes`, 'POST', { body: 'cc @gus @rep', internal: true });
    expect(await todos(as('guest-token'))).toEqual([]);
    expect(await todos(rep)).toEqual([expect.objectContaining({ action: 'mentioned', body: 'cc @gus @rep' })]);
  });
});

describe('to-dos from merge requests', () => {
  it('reviewers get `review_requested`, assignees `assigned`; awarding an emoji or merging finishes the actor\'s', async () => {
    const mr = (await mai(`${P}/merge_requests`, 'POST', { title: 'Feature', source_branch: 'feature', target_branch: 'main', assignee_id: await id('dev'), reviewer_ids: [await id('rep')] })).body;
    expect(await todos(rep)).toEqual([expect.objectContaining({ action: 'review_requested', type: 'MergeRequest', iid: mr.iid })]);
    expect(await todos(dev)).toEqual([expect.objectContaining({ action: 'assigned', type: 'MergeRequest' })]);
    expect((await rep(`${P}/merge_requests/${mr.iid}/award_emoji`, 'POST', { name: 'thumbsup' })).status).toBe(201);
    expect(await todos(rep)).toEqual([]);
    // One reviewer on the free tier (filter_reviewer keeps the first): mai in rep's place.
    await mai(`${P}/merge_requests/${mr.iid}`, 'PUT', { reviewer_ids: [await id('mai')] });
    expect(await todos(mai)).toEqual([expect.objectContaining({ action: 'review_requested', author: 'mai' })]);
    expect(await todos(rep)).toEqual([]);
  });
});
