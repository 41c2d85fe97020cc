// Quick actions in notes (QuickActions::InterpretService, Notes::QuickActionsService), the
// system notes GitLab writes for issue and merge request changes, and the resource events
// routes (lib/api/resource_*_events.rb). Notes' quick actions run through the same entry the
// notes routes use (`interpretNoteCommands`, via the world accessor); events are read through
// the API.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, issueRecord, notesOf, runEpicNoteCommands, runNoteCommands, seededWorld } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: [...TEAM, { username: 'pla', name: 'Pla Nner', email: 'pla@example.com', tokens: [{ token: 'planner-token', scopes: ['api'] }] }],
  groups: [{ ...ACME, labels: [{ name: 'group label' }], milestones: [{ title: 'Q1' }] }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: [...TEAM_MEMBERS, { user: 'pla', access_level: 'planner' }],
      repository: {
        files: { 'README.md': '# app\n' },
        commits: [{ branch: 'feature', message: 'Add a feature', files: { 'feature.txt': 'new\n' } }],
      },
      labels: [{ name: 'bug' }, { name: 'feature' }, { name: 'two words' }],
      milestones: [{ title: 'v1' }],
      issues: [
        { title: 'Crash on start', author: 'gus' },
        { title: 'Second', author: 'dev' },
        { title: 'Third', author: 'dev', labels: ['bug'], assignees: ['dev'], due_date: '2024-03-10' },
      ],
      merge_requests: [{ title: 'Fix the crash', source_branch: 'feature', description: 'Closes #1', author: 'dev' }],
    },
    { namespace: 'acme', path: 'other', visibility: 'private', creator: 'root', members: [{ user: 'pla', access_level: 'planner' }] },
  ],
};

const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const PATH = 'acme/app';

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}
const bodies = (iid: number) => notesOf(world(), 'Issue', issueRecord(world(), PATH, iid).id).map((n) => n.body);

describe('quick actions in notes', () => {
  it('/close closes with GitLab’s message and changes, a state event and no note', async () => {
    const r = await runNoteCommands(world(), PATH, { issue: 1 }, 'dev', '/close');
    expect(r).toMatchObject({ content: '', executed: 1, changes: { state_event: 'close' }, messages: ['Closed this issue.'] });
    expect(issueRecord(world(), PATH, 1).state).toBe('closed');
    expect(bodies(1)).toEqual([]);
    const events = await call('GET', `${APP}/issues/1/resource_state_events`, 'dev-token');
    expect(events.status).toBe(200);
    expect(events.body).toEqual([{
      id: 1, user: expect.objectContaining({ username: 'dev' }), created_at: NOW, resource_type: 'Issue', resource_id: issueRecord(world(), PATH, 1).id,
      source_commit: null, source_merge_request_id: null, state: 'closed',
    }]);
    // Closing again: the command is recognised, counted and taken out, but cannot apply.
    const again = await runNoteCommands(world(), PATH, { issue: 1 }, 'dev', 'Still broken\n/close\n/reopen');
    expect(again).toMatchObject({ content: 'Still broken', executed: 2, changes: { state_event: 'reopen' }, messages: ['Could not apply close command.', 'Reopened this issue.'] });
    expect((await call('GET', `${APP}/issues/1/resource_state_events`, 'dev-token')).body.map((e: { state: string }) => e.state)).toEqual(['closed', 'reopened']);
  });

  it('labels, milestones and assignees: messages, commands_changes, events and the assignee note', async () => {
    const r = await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', '/label ~bug ~"two words" ~nope\n/milestone %v1\n/assign @dev rep\n/due 2024-04-01');
    const bug = (await call('GET', `${APP}/labels/bug`, 'dev-token')).body;
    const two = (await call('GET', `${APP}/labels/two%20words`, 'dev-token')).body;
    const v1 = (await call('GET', `${APP}/milestones?title=v1`, 'dev-token')).body[0];
    expect(r.messages).toEqual(['Added ~"bug" ~"two words" labels.', 'Set the milestone to %"v1".', 'Assigned @dev.', 'Set the due date to Apr 1, 2024.']);
    expect(r.changes).toEqual({ due_date: '2024-04-01', add_label_ids: [bug.id, two.id], assignee_ids: [issueRecord(world(), PATH, 1).assigneeIds[0]], milestone_id: v1.id });
    const issue = (await call('GET', `${APP}/issues/1`, 'dev-token')).body;
    expect(issue).toMatchObject({ labels: ['bug', 'two words'], milestone: { title: 'v1' }, assignees: [{ username: 'dev' }], due_date: '2024-04-01' });
    expect(bodies(1)).toEqual(['changed due date to April 1, 2024', 'assigned to @dev']);
    const labelEvents = (await call('GET', `${APP}/issues/1/resource_label_events`, 'dev-token')).body;
    expect(labelEvents.map((e: { action: string; label: { name: string } }) => [e.action, e.label.name])).toEqual([['add', 'bug'], ['add', 'two words']]);
    expect(labelEvents[0]).toMatchObject({ resource_type: 'Issue', label: { id: bug.id, name: 'bug', color: expect.any(String) } });
    const one = await call('GET', `${APP}/issues/1/resource_label_events/${labelEvents[1].id}`, 'dev-token');
    expect(one.body).toEqual(labelEvents[1]);
    const milestoneEvents = (await call('GET', `${APP}/issues/1/resource_milestone_events`, 'dev-token')).body;
    expect(milestoneEvents).toEqual([expect.objectContaining({ action: 'add', state: 'opened', milestone: expect.objectContaining({ id: v1.id, title: 'v1' }) })]);

    const swap = await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', '/relabel ~feature\n/unassign\n/remove_milestone\n/remove_due_date');
    expect(swap.messages).toEqual(['Replaced all labels with ~"feature" label.', 'Removed assignee @dev.', 'Removed %"v1" milestone.', 'Removed the due date.']);
    expect(bodies(1).slice(2)).toEqual(['removed due date', 'unassigned @dev']);
    expect((await call('GET', `${APP}/issues/1/resource_label_events`, 'dev-token')).body.map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`))
      .toEqual(['add bug', 'add two words', 'add feature', 'remove bug', 'remove two words']);
    expect((await call('GET', `${APP}/issues/1/resource_milestone_events`, 'dev-token')).body.map((e: { action: string }) => e.action)).toEqual(['add', 'remove']);
  });

  it('commands that cannot do what they say answer 202 with why, and change nothing', async () => {
    const note = async (body: string) => call('POST', `${APP}/issues/1/notes`, 'planner-token', { body });
    expect((await note('/assign')).body).toEqual({ commands_changes: {}, summary: ['Failed to assign a user because no user was found.'] });
    expect((await note('/assign @nobody'))).toMatchObject({ status: 202, body: { summary: ["Failed to find users for '@nobody'"] } });
    expect((await note('/due notadate'))).toMatchObject({ status: 202, body: { summary: ['Failed to set due date because the date format is invalid.'] } });
    expect(issueRecord(world(), PATH, 1)).toMatchObject({ assigneeIds: [], dueDate: null });
    expect(bodies(1)).toEqual([]);
  });

  it('/due reads its date as Chronic does, from the emulator’s clock (a Wednesday)', async () => {
    const due = async (arg: string) => (await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', `/due ${arg}`)).changes.due_date;
    expect(await due('in 2 days')).toBe('2024-03-08');
    expect(await due('yesterday')).toBe('2024-03-05');
    expect(await due('next monday')).toBe('2024-03-11');
    expect(await due('2027-01-15')).toBe('2027-01-15');
    expect(await due('tomorrow')).toBe('2024-03-07');
    expect(await due('friday')).toBe('2024-03-08');
    expect(await due('jan 15')).toBe('2025-01-15');
    expect(await due('last monday')).toBe('2024-03-04');
    expect(await due('December 31st')).toBe('2024-12-31');
    expect(await due('2024-02-30')).toBeUndefined();
    expect(issueRecord(world(), PATH, 1).dueDate).toBe('2024-12-31');
  });

  it('a caller below Planner runs no metadata command; the command still leaves the text', async () => {
    const r = await runNoteCommands(world(), PATH, { issue: 2 }, 'gus', 'Please look\n/label ~bug\n/todo');
    expect(r).toMatchObject({ content: 'Please look', executed: 2, messages: ['Could not apply label command.', 'Added a to-do item.'], changes: { todo_event: 'add' } });
    expect(issueRecord(world(), PATH, 2).labelIds).toEqual([]);
    expect((await call('GET', '/todos', 'guest-token')).body).toHaveLength(1);
    expect((await runNoteCommands(world(), PATH, { issue: 2 }, 'gus', '/todo')).messages).toEqual(['Could not apply todo command.']);
    expect((await runNoteCommands(world(), PATH, { issue: 2 }, 'gus', '/done')).messages).toEqual(['Marked to-do item as done.']);
  });

  it('commands in code blocks and quotes, unknown words and mid-line slashes are text', async () => {
    const body = 'Text /close\n```\n/close\n```\n>>>\n/close\n>>>\n/closed\n/nothing here\n /close';
    const r = await runNoteCommands(world(), PATH, { issue: 2 }, 'dev', `${body}\r\n  \n`);
    expect(r).toMatchObject({ content: body, executed: 0, changes: {}, messages: [], apply: null });
    expect(issueRecord(world(), PATH, 2).state).toBe('opened');
    // Blank lines right after a command go with it; aliases and upper case are the same command.
    const aliased = await runNoteCommands(world(), PATH, { issue: 2 }, 'pla', 'Before\n/LABELS bug\n\n\nAfter');
    expect(aliased).toMatchObject({ content: 'Before\nAfter', messages: ['Added ~"bug" label.'] });
  });

  it('the title, the lock, confidentiality and time tracking write GitLab’s system notes', async () => {
    // Two /spend: each says its own, the last one is applied (one update param).
    const r = await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', '/title Crash on startup\n/lock\n/confidential\n/estimate 1d\n/spend 1h 2024-03-01\n/spend 30m');
    expect(r.messages).toEqual([
      'Changed the title to "Crash on startup".', 'Locked the discussion.', 'Made this issue confidential.', 'Set time estimate to 1d.', 'Added 1h spent time.', 'Added 30m spent time.',
    ]);
    expect(r.changes).toMatchObject({ confidential: true, time_estimate: 28_800, spend_time: { duration: 1800, user_id: expect.any(Number), note_id: null }, discussion_locked: true, title: 'Crash on startup' });
    expect(Object.keys(r.changes)).toEqual(['confidential', 'time_estimate', 'spend_time', 'discussion_locked', 'title']);
    expect(bodies(1)).toEqual([
      'changed title from **Crash on start** to **Crash on start{+up+}**', 'changed time estimate to 1d', 'added 30m of time spent',
      'locked the discussion in this issue', 'made the issue confidential',
    ]);
    expect(issueRecord(world(), PATH, 1)).toMatchObject({ title: 'Crash on startup', discussionLocked: true, confidential: true, timeEstimate: 28_800, totalTimeSpent: 1800 });
    const dated = await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', '/spend 2h 2024-03-01\n/unlock\n/remove_estimate\n/spend 1h 2099-01-01');
    expect(dated.messages).toEqual(['Added 2h spent time.', 'Unlocked the discussion.', 'Removed time estimate.']);
    expect(bodies(1).slice(5)).toEqual(['removed time estimate', 'added 2h of time spent at 2024-03-01', 'unlocked the discussion in this issue']);
    // SpendTimeAndDateSeparator: a date of another form or place, and a time category.
    const slashed = await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', '/spend 2024/3/2 30m [timecategory:review]');
    expect(slashed.changes.spend_time).toMatchObject({ duration: 1800, spent_at: '2024-03-02', category: 'review' });
    expect(bodies(1).at(-1)).toBe('added 30m of time spent at 2024-03-02');
    await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', '/remove_time_spent');
    expect(bodies(1).at(-1)).toBe('removed time spent');
    expect((await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', '/spend nonsense')).messages).toEqual([]);
    // An update GitLab's validations refuse is not saved: more time subtracted than spent, a title too long.
    const refused = await runNoteCommands(world(), PATH, { issue: 1 }, 'pla', `/spend -5h\n/title ${'x'.repeat(300)}`);
    expect(refused.messages).toEqual(['Subtracted 5h spent time.', `Changed the title to "${'x'.repeat(300)}".`]);
    expect(issueRecord(world(), PATH, 1)).toMatchObject({ title: 'Crash on startup', totalTimeSpent: 0 });
    expect(bodies(1).at(-1)).toBe('removed time spent');
  });

  it('/duplicate closes, notes both issues and relates them; /subscribe and /award act for the caller', async () => {
    const r = await runNoteCommands(world(), PATH, { issue: 2 }, 'pla', '/duplicate #1\n/subscribe\n/award :thumbsup:');
    expect(r.messages).toEqual([
      'Closed this Issue. Marked as related to, and a duplicate of, https://gitlab.example.com/acme/app/-/issues/1.', 'Subscribed to notifications.', 'Toggled :thumbsup: emoji reaction.',
    ]);
    expect(r.changes).toEqual({ canonical_issue_id: issueRecord(world(), PATH, 1).id, emoji_award: 'thumbsup', subscription_event: 'subscribe' });
    expect(bodies(2)).toEqual(['marked this issue as a duplicate of #1', 'marked this issue as related to #1']);
    expect(bodies(1)).toEqual(['marked #2 as a duplicate of this issue', 'marked this issue as related to #2']);
    expect((await call('GET', `${APP}/issues/2`, 'planner-token')).body).toMatchObject({ state: 'closed', subscribed: true, upvotes: 1 });
    expect((await call('GET', `${APP}/issues/2/resource_state_events`, 'dev-token')).body.map((e: { state: string }) => e.state)).toEqual(['closed']);
    expect((await runNoteCommands(world(), PATH, { issue: 2 }, 'pla', '/duplicate #2')).messages).toEqual(['Failed to mark the Issue as duplicate of itself.']);
    expect((await runNoteCommands(world(), PATH, { issue: 2 }, 'pla', '/duplicate #99')).messages).toEqual(['Failed to mark this Issue as a duplicate because referenced item was not found.']);
    expect((await runNoteCommands(world(), PATH, { issue: 2 }, 'pla', '/award :thumbsup:\n/unsubscribe')).messages).toEqual(['Toggled :thumbsup: emoji reaction.', 'Unsubscribed from notifications.']);
    expect((await call('GET', `${APP}/issues/2`, 'planner-token')).body).toMatchObject({ subscribed: false, upvotes: 0 });
  });

  it('merge requests: labels, title and draft notes, and /merge with the head sha', async () => {
    const mr = (await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body;
    const wrong = await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/merge', '0'.repeat(40));
    expect(wrong).toMatchObject({ messages: ['Merged this merge request.'], changes: { merge: '0'.repeat(40) } });
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.state).toBe('opened');
    const r = await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/label ~bug\n/title Draft: Fix the crash\n/due 2024-04-01');
    expect(r.messages).toEqual(['Added ~"bug" label.', 'Changed the title to "Draft: Fix the crash".', 'Could not apply due command.']);
    const mrNotes = () => notesOf(world(), 'MergeRequest', mr.id).map((n) => n.body);
    expect(mrNotes()).toEqual(['marked this merge request as **draft**']);
    expect((await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/merge', mr.sha)).messages).toEqual(['Could not apply merge command.']);
    const draft = await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/draft');
    expect(draft).toMatchObject({ messages: ['Unmarked this merge request as a draft.'], changes: { wip_event: 'unwip' } });
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body).toMatchObject({ title: 'Fix the crash', draft: false });
    expect((await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/draft')).messages).toEqual(['Marked this merge request as a draft.']);
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body).toMatchObject({ title: 'Draft: Fix the crash', draft: true });
    expect(mrNotes()).toEqual(['marked this merge request as **draft**', 'marked this merge request as **ready**', 'marked this merge request as **draft**']);
    await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/title Fix the crash at start');
    expect(mrNotes().slice(3)).toEqual(['marked this merge request as **ready**', 'changed title from **{-Draft: -}Fix the crash** to **Fix the crash{+ at start+}**']);
    const merged = await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/merge', mr.sha);
    expect(merged.messages).toEqual(['Merged this merge request.']);
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body).toMatchObject({ state: 'merged', merged_by: { username: 'dev' } });
    expect((await call('GET', `${APP}/merge_requests/1/resource_state_events`, 'dev-token')).body.map((e: { state: string }) => e.state)).toEqual(['merged']);
    const closedIssue = (await call('GET', `${APP}/issues/1/resource_state_events`, 'dev-token')).body;
    expect(closedIssue).toEqual([expect.objectContaining({ state: 'closed', source_merge_request_id: mr.id })]);
    expect((await call('GET', `${APP}/merge_requests/1/resource_label_events`, 'dev-token')).body.map((e: { label: { name: string } }) => e.label.name)).toEqual(['bug']);
    expect((await runNoteCommands(world(), PATH, { mergeRequest: 1 }, 'dev', '/lock')).messages).toEqual(['Locked the discussion.']);
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.discussion_locked).toBe(true);
    expect(mrNotes().at(-1)).toBe('locked the discussion in this merge request');
    await call('PUT', `${APP}/merge_requests/1`, 'dev-token', { discussion_locked: false });
    expect(mrNotes().at(-1)).toBe('unlocked the discussion in this merge request');
  });
});

describe('system notes and events of API edits', () => {
  it('PUT writes notes for title, description, assignees and confidentiality, events for state, labels and milestone', async () => {
    await call('PUT', `${APP}/issues/3`, 'planner-token', {
      title: 'Third one', description: 'Now described', assignee_ids: [issueRecord(world(), PATH, 1).authorId], labels: 'feature', milestone_id: (await call('GET', `${APP}/milestones`, 'dev-token')).body[0].id,
      state_event: 'close', confidential: true, due_date: '2024-03-12',
    });
    expect(bodies(3)).toEqual([
      'changed title from **Third** to **Third{+ one+}**',
      'changed the description', 'changed due date to March 12, 2024', 'assigned to @gus and unassigned @dev', 'made the issue confidential',
    ]);
    expect((await call('GET', `${APP}/issues/3/resource_state_events`, 'dev-token')).body.map((e: { state: string }) => e.state)).toEqual(['closed']);
    expect((await call('GET', `${APP}/issues/3/resource_label_events`, 'dev-token')).body.map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`)).toEqual(['add feature', 'remove bug']);
    expect((await call('GET', `${APP}/issues/3/resource_milestone_events`, 'dev-token')).body).toEqual([expect.objectContaining({ action: 'add', state: 'closed' })]);
    // A PUT that changes nothing records nothing.
    await call('PUT', `${APP}/issues/3`, 'planner-token', { title: 'Third one' });
    expect(bodies(3)).toHaveLength(5);
  });

  it('a new issue records its due date, milestone and labels as GitLab does on creation; fixtures record nothing', async () => {
    const v1 = (await call('GET', `${APP}/milestones?title=v1`, 'dev-token')).body[0];
    const made = await call('POST', `${APP}/issues`, 'planner-token', { title: 'New', labels: 'bug', milestone_id: v1.id, due_date: '2024-05-01', description: 'x' });
    expect(made.status).toBe(201);
    expect(bodies(made.body.iid)).toEqual(['changed due date to May 1, 2024']);
    expect((await call('GET', `${APP}/issues/${made.body.iid}/resource_label_events`, 'dev-token')).body.map((e: { action: string }) => e.action)).toEqual(['add']);
    expect((await call('GET', `${APP}/issues/${made.body.iid}/resource_milestone_events`, 'dev-token')).body).toHaveLength(1);
    expect(bodies(3)).toEqual([]);
    expect((await call('GET', `${APP}/issues/3/resource_label_events`, 'dev-token')).body).toEqual([]);
  });

  it('an issue or merge request that mentions an issue leaves `mentioned in` on it, once', async () => {
    const made = await call('POST', `${APP}/issues`, 'dev-token', { title: 'Follow-up', description: 'See #1 and #2' });
    expect(bodies(1)).toEqual([`mentioned in issue #${made.body.iid}`]);
    expect(bodies(2)).toEqual([`mentioned in issue #${made.body.iid}`]);
    await call('PUT', `${APP}/issues/${made.body.iid}`, 'dev-token', { description: 'See #1, #2 and #3' });
    expect(bodies(1)).toHaveLength(1);
    expect(bodies(3)).toEqual([`mentioned in issue #${made.body.iid}`]);
    await call('PUT', `${APP}/merge_requests/1`, 'dev-token', { description: 'Closes #1, relates to #2' });
    expect(bodies(2).at(-1)).toBe('mentioned in merge request !1');
    expect(bodies(1).at(-1)).toBe('mentioned in merge request !1');
  });

  it('a `mentioned in` note is read only by those who may read its mentioner, removed after paging', async () => {
    const secret = await call('POST', `${APP}/issues`, 'dev-token', { title: 'Secret', description: 'Caused by #1', confidential: true });
    await call('PUT', `${APP}/merge_requests/1`, 'dev-token', { description: 'Relates to #1' });
    const seen = async (token: string, query = '') => (await call('GET', `${APP}/issues/1/notes${query}`, token)).body.map((n: { body: string }) => n.body);
    const both = ['mentioned in merge request !1', `mentioned in issue #${secret.body.iid}`];
    expect(await seen('reporter-token')).toEqual(both);
    // A guest of a private project sees neither the confidential issue nor the merge requests.
    expect(await seen('guest-token')).toEqual([]);
    expect(await seen('guest-token', '?per_page=1')).toEqual([]);
    const one = await call('GET', `${APP}/issues/1/notes/${(await call('GET', `${APP}/issues/1/notes`, 'reporter-token')).body[1].id}`, 'guest-token');
    expect(one.status).toBe(404);
  });

  it('moving an issue closes the original with a state event and notes both', async () => {
    const moved = await call('POST', `${APP}/issues/2/move`, 'planner-token', { to_project_id: 'acme/other' });
    expect(moved.status).toBe(201);
    expect(bodies(2)).toEqual([`moved to acme/other#${moved.body.iid}`]);
    expect((await call('GET', `${APP}/issues/2/resource_state_events`, 'dev-token')).body.map((e: { state: string }) => e.state)).toEqual(['closed']);
  });

  it('issue links note both issues when made and when removed', async () => {
    const link = await call('POST', `${APP}/issues/1/links`, 'dev-token', { target_project_id: 'acme/app', target_issue_iid: '2' });
    expect(link.status).toBe(201);
    expect(bodies(1)).toEqual(['marked this issue as related to #2']);
    expect(bodies(2)).toEqual(['marked this issue as related to #1']);
    const id = (await call('GET', `${APP}/issues/1/links`, 'dev-token')).body[0].issue_link_id;
    await call('DELETE', `${APP}/issues/1/links/${id}`, 'dev-token');
    expect(bodies(1).at(-1)).toBe('removed the relation with #2');
    expect(bodies(2).at(-1)).toBe('removed the relation with #1');
  });
});

describe('resource events routes', () => {
  it('need authentication, a readable issuable and a known event', async () => {
    await runNoteCommands(world(), PATH, { issue: 1 }, 'dev', '/close');
    expect((await call('GET', `${APP}/issues/1/resource_state_events`)).status).toBe(401);
    expect((await call('GET', `${APP}/issues/1/resource_state_events`, 'outsider-token')).status).toBe(404);
    expect((await call('GET', `${APP}/issues/99/resource_state_events`, 'dev-token')).body).toEqual({ message: '404 Issue Not Found' });
    expect((await call('GET', `${APP}/issues/1/resource_label_events/999`, 'dev-token')).body).toEqual({ message: '404 Not found' });
    expect((await call('GET', `${APP}/merge_requests/9/resource_milestone_events`, 'dev-token')).body).toEqual({ message: '404 MergeRequest Not Found' });
    const list = await call('GET', `${APP}/issues/1/resource_state_events?per_page=1`, 'dev-token');
    expect(list.res.headers.get('x-total')).toBe('1');
    const id = list.body[0].id;
    expect((await call('GET', `${APP}/issues/1/resource_state_events/${id}`, 'dev-token')).body).toEqual(list.body[0]);
    expect((await call('GET', `${APP}/issues/1/resource_state_events/abc`, 'dev-token')).status).toBe(400);
    // The higher tiers' routes are not there on the free tier.
    expect((await call('GET', `${APP}/issues/1/resource_weight_events`, 'dev-token')).status).toBe(404);
  });
});

describe('the higher tier’s commands and events', () => {
  const PREMIUM: Fixture = {
    instance: { tier: 'premium' },
    users: TEAM,
    groups: [{
      ...ACME, members: TEAM_MEMBERS, labels: [{ name: 'roadmap' }],
      epics: [{ title: 'Platform', author: 'mai' }, { title: 'Other', author: 'mai' }],
      iterations: [{ title: 'Sprint 1', start_date: '2024-03-04', due_date: '2024-03-17' }],
    }],
    projects: [{
      namespace: 'acme', path: 'app', visibility: 'public', creator: 'root',
      labels: [{ name: 'bug' }],
      issues: [{ title: 'Weighty', author: 'dev', labels: ['bug', 'roadmap'], description: 'Details' }, { title: 'Plain', author: 'dev', weight: 0 }],
    }],
  };
  const premium = seededWorld(PREMIUM, NOW);
  const get = async (path: string, token = 'dev-token') => {
    const res = await apiCall(premium(), path, { token });
    return { status: res.status, body: await res.json() };
  };

  it('/weight, /clear_weight and /iteration record weight and iteration events', async () => {
    const r = await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', '/weight 3\n/iteration *iteration:"Sprint 1"');
    const issue = issueRecord(premium(), PATH, 1);
    expect(r.messages).toEqual(['Set weight to 3.', `Set the iteration to *iteration:${issue.iterationId}.`]);
    expect(r.changes).toEqual({ weight: 3 });
    await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', '/clear_weight');
    expect((await runNoteCommands(premium(), PATH, { issue: 2 }, 'dev', '/clear_weight')).messages).toEqual(['Could not apply clear_weight command.']);
    const weights = (await get(`${APP}/issues/1/resource_weight_events`)).body;
    expect(weights).toEqual([
      { id: expect.any(Number), user: expect.objectContaining({ username: 'dev' }), created_at: NOW, issue_id: issue.id, weight: 3 },
      { id: expect.any(Number), user: expect.objectContaining({ username: 'dev' }), created_at: NOW, issue_id: issue.id, weight: null },
    ]);
    const iterations = (await get(`${APP}/issues/1/resource_iteration_events`)).body;
    expect(iterations).toEqual([expect.objectContaining({ resource_type: 'Issue', resource_id: issue.id, action: 'add', iteration: expect.objectContaining({ title: 'Sprint 1' }) })]);
    expect((await get(`${APP}/issues/1/resource_iteration_events/${iterations[0].id}`)).body).toEqual(iterations[0]);
    expect((await runNoteCommands(premium(), PATH, { issue: 1 }, 'gus', '/weight 1')).messages).toEqual(['Could not apply weight command.']);
  });

  it('/epic, /remove_epic and /promote', async () => {
    const r = await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', '/epic &1');
    expect(r).toMatchObject({ messages: ['Added an issue to an epic.'], changes: {} });
    expect((await get(`${APP}/issues/1`)).body.epic).toMatchObject({ iid: 1, title: 'Platform' });
    expect((await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', '/epic &1')).messages).toEqual(['Issue #1 has already been added to epic &1.']);
    expect((await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', '/epic &9')).messages).toEqual(["This epic does not exist or you don't have sufficient permission."]);
    expect((await runNoteCommands(premium(), PATH, { issue: 2 }, 'dev', '/epic acme&2')).messages).toEqual(['Added an issue to an epic.']);
    expect((await get(`${APP}/issues/2`)).body.epic).toMatchObject({ iid: 2 });
    expect((await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', '/remove_epic')).messages).toEqual(['Removed an issue from an epic.']);
    expect((await get(`${APP}/issues/1`)).body.epic).toBeNull();
    expect(notesOf(premium(), 'Issue', issueRecord(premium(), PATH, 1).id).map((n) => n.body)).toEqual(['added to epic &1', 'removed from epic &1']);
    const platform = (await get('/groups/acme/epics/1')).body;
    expect(notesOf(premium(), 'Epic', platform.id).map((n) => n.body)).toEqual(['added issue acme/app#1', 'removed issue acme/app#1']);

    expect((await runNoteCommands(premium(), PATH, { issue: 1 }, 'gus', '/promote')).messages).toEqual(['Could not apply promote command.']);
    const promoted = await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', 'Bigger than an issue\n/promote');
    expect(promoted).toMatchObject({ content: 'Bigger than an issue', messages: ['Promoted issue to an epic.'], changes: { promote_to_epic: true } });
    const epic = (await get('/groups/acme/epics/3')).body;
    expect(epic).toMatchObject({ title: 'Weighty', description: 'Details', labels: ['bug', 'roadmap'], author: { username: 'dev' } });
    expect((await get(`${APP}/issues/1`)).body.state).toBe('closed');
    expect(notesOf(premium(), 'Issue', issueRecord(premium(), PATH, 1).id).at(-1)!.body).toBe('promoted to epic &3');
    expect(notesOf(premium(), 'Epic', epic.id).map((n) => n.body)).toEqual(['promoted from issue acme/app#1']);
    expect((await runNoteCommands(premium(), PATH, { issue: 1 }, 'dev', '/promote')).messages).toEqual(['Could not apply promote command.']);
    // The epic's label events, addressed by the epic's id.
    const events = (await get(`/groups/acme/epics/${epic.id}/resource_label_events`)).body;
    expect(events.map((e: { action: string; resource_type: string; label: { name: string } }) => `${e.resource_type} ${e.action} ${e.label.name}`)).toEqual(['Epic add bug', 'Epic add roadmap']);
    expect((await get('/groups/acme/epics/999999/resource_label_events')).body).toEqual({ message: '404 Epic Not Found' });
  });

  it('epic notes close, reopen and label the epic', async () => {
    const platform = (await get('/groups/acme/epics/1')).body;
    const r = runEpicNoteCommands(premium(), 'acme', 1, 'mai', '/close\n/label ~roadmap\n/assign @dev');
    expect(r).toMatchObject({ messages: ['Closed this epic.', 'Added ~"roadmap" label.', 'Could not apply assign command.'], changes: { state_event: 'close' } });
    expect((await get('/groups/acme/epics/1')).body).toMatchObject({ state: 'closed', labels: ['roadmap'] });
    expect((await get(`/groups/acme/epics/${platform.id}/resource_label_events`)).body).toHaveLength(1);
    const made = await apiCall(premium(), '/groups/acme/epics', { method: 'POST', token: 'maintainer-token', json: { title: 'Fresh', labels: 'roadmap' } });
    const fresh = await made.json();
    expect((await get(`/groups/acme/epics/${fresh.id}/resource_label_events`)).body.map((e: { action: string; label: { name: string } }) => `${e.action} ${e.label.name}`)).toEqual(['add roadmap']);
  });
});
