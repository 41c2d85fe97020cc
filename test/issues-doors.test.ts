// Issues through the two network doors: @gitbeaker/rest against the node server (Issues.all with
// filters, time tracking, subscriptions, to-dos, award emoji, labels, merge requests), and plain
// fetch through the MSW handler set.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'dev', name: 'Dee Veloper', tokens: [{ token: 'dev-token' }] },
    { username: 'gus', name: 'Gus Guest', tokens: [{ token: 'guest-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }, { user: 'gus', access_level: 'guest' }], labels: [{ name: 'team' }] }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private',
      repository: { files: { 'README.md': '# App\n' }, commits: [{ branch: 'fix', message: 'Fix it', files: { 'fix.txt': 'fixed\n' } }] },
      labels: [{ name: 'bug', color: '#d9534f' }],
      milestones: [{ title: 'v1', due_date: '2026-03-10' }],
      issues: [
        { title: 'Crash on start', author: 'gus', labels: ['bug'], milestone: 'v1' },
        { title: 'Docs', author: 'dev', labels: ['team'] },
        { title: 'Private matter', author: 'dev', confidential: true },
      ],
    },
  ],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('lists with filters, tracks time, subscribes, marks to-dos, awards emoji, links merge requests', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-04T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'dev-token' });
      const guest = new Gitlab({ host: server.url, token: 'guest-token' });
      const project = 'acme/app';

      expect((await api.Issues.all({ projectId: project, labels: 'bug', state: 'opened' })).map((i) => i.title)).toEqual(['Crash on start']);
      expect((await api.Issues.all({ groupId: 'acme', milestone: 'v1' })).map((i) => i.iid)).toEqual([1]);
      expect((await guest.Issues.all({ projectId: project })).map((i) => i.iid)).toEqual([2, 1]);
      expect((await api.Issues.all({ scope: 'created_by_me' })).map((i) => i.iid)).toEqual([3, 2]);
      expect((await api.Issues.all({ projectId: project, search: 'crash', orderBy: 'title', sort: 'asc' })).map((i) => i.iid)).toEqual([1]);
      const detailed = await api.Issues.all({ projectId: project, withLabelsDetails: true, iids: [1] });
      expect(detailed[0]!.labels).toEqual([expect.objectContaining({ name: 'bug', color: '#d9534f' })]);
      const keyset = await api.Issues.all({ projectId: project, pagination: 'keyset', orderBy: 'created_at', sort: 'desc', perPage: 1 });
      expect(keyset.map((i) => i.iid)).toEqual([3, 2, 1]);
      const offset = await api.Issues.all({ projectId: project, perPage: 1 });
      expect(offset.map((i) => i.iid)).toEqual([3, 2, 1]);

      const made = await api.Issues.create(project, 'From gitbeaker', { labels: 'bug,fresh', description: '- [ ] a task' });
      expect(made).toMatchObject({ iid: 4, labels: ['bug', 'fresh'], has_tasks: true });
      const edited = await api.Issues.edit(project, 4, { stateEvent: 'close', addLabels: 'team' });
      expect(edited).toMatchObject({ state: 'closed', labels: ['bug', 'fresh', 'team'] });

      expect(await api.Issues.addTimeEstimate(project, 1, '1w 2d')).toMatchObject({ time_estimate: 201600, human_time_estimate: '1w 2d' });
      expect(await api.Issues.addSpentTime(project, 1, '90m', { summary: 'Looked into it' })).toMatchObject({ total_time_spent: 5400, human_total_time_spent: '1h 30m' });
      expect(await api.Issues.showTimeStats(project, 1)).toMatchObject({ time_estimate: 201600, total_time_spent: 5400 });
      expect(await api.Issues.resetSpentTime(project, 1)).toMatchObject({ total_time_spent: 0 });

      // The time tracking's system notes made dev a participant, so subscribed already (Participable).
      expect((await api.Issues.unsubscribe(project, 1)).subscribed).toBe(false);
      expect((await api.Issues.subscribe(project, 1)).subscribed).toBe(true);
      const todo = await api.Issues.createTodo(project, 1);
      expect(todo).toMatchObject({ action_name: 'marked', target_type: 'Issue', state: 'pending' });
      expect((await api.TodoLists.all()).map((t) => t.id)).toEqual([todo.id]);
      await api.TodoLists.done({ todoId: todo.id });
      expect(await api.TodoLists.all()).toEqual([]);

      const award = await api.IssueAwardEmojis.award(project, 1, 'thumbsup');
      expect(award).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue' });
      expect((await api.Issues.show(1, { projectId: project })).upvotes).toBe(1);
      expect((await api.Issues.all({ projectId: project, myReactionEmoji: 'thumbsup' })).map((i) => i.iid)).toEqual([1]);

      expect((await api.IssuesStatistics.all({ projectId: project })).statistics.counts).toEqual({ all: 4, closed: 1, opened: 3 });
      expect((await api.ProjectLabels.all(project)).map((l) => l.name)).toEqual(['bug', 'fresh', 'team']);
      await api.ProjectLabels.create(project, 'needs-review', '#00ff00');
      expect((await api.Issues.allParticipants(project, 1)).map((u) => u.username)).toEqual(['dev', 'gus']);

      const mr = await api.MergeRequests.create(project, 'fix', 'main', 'Fix the crash', { description: 'Closes #1' });
      expect(mr).toMatchObject({ iid: 1, source_branch: 'fix', diff_refs: { head_sha: emulator.git(project).refs().branches.fix } });
      expect((await api.Issues.allClosedByMergeRequestst(project, 1)).map((m) => m.iid)).toEqual([1]);
      expect((await api.Issues.allRelatedMergeRequests(project, 1)).map((m) => m.iid)).toEqual([1]);
      expect((await api.MergeRequests.all({ projectId: project, state: 'opened' })).map((m) => m.title)).toEqual(['Fix the crash']);
      const accepted = await api.MergeRequests.accept(project, 1, { shouldRemoveSourceBranch: true });
      expect(accepted).toMatchObject({ state: 'merged', merge_commit_sha: emulator.git(project).refs().branches.main });
      expect((await api.Issues.show(1, { projectId: project })).state).toBe('closed');

      await expect(guest.Issues.addSpentTime(project, 1, '1h')).rejects.toMatchObject({ cause: { response: { status: 403 } } });
      await expect(guest.Issues.remove(project, 2)).rejects.toMatchObject({ cause: { response: { status: 403 } } });
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const door = mswDoor();

  it('creates, lists, edits and tracks time on issues', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-04T12:00:00Z', frozen: true } });
    const api = door.serve(emulator);
    const send = async (path: string, method = 'GET', body?: unknown, token = 'dev-token') => {
      const res = await api(`/projects/acme%2Fapp${path}`, token, method, body);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    expect((await send('/issues', 'POST', { title: 'Through MSW', labels: 'bug' })).status).toBe(201);
    expect((await send('/issues?labels=bug&state=opened')).body.map((i: { title: string }) => i.title)).toEqual(['Through MSW', 'Crash on start']);
    expect((await send('/issues?confidential=true', 'GET', undefined, 'guest-token')).body).toEqual([]);
    expect((await send('/issues/3', 'GET', undefined, 'guest-token')).status).toBe(404);
    expect((await send('/issues/4', 'PUT', { state_event: 'close' })).body.state).toBe('closed');
    expect((await send('/issues/4/time_estimate', 'POST', { duration: '3h30m' })).body.human_time_estimate).toBe('3h 30m');
    expect((await send('/issues/4/todo', 'POST')).status).toBe(201);
    expect((await send('/issues/4/todo', 'POST')).status).toBe(304);
    expect((await send('/issues/4', 'DELETE')).status).toBe(403);
  });
});
