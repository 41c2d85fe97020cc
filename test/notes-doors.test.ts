// Notes through the two network doors: @gitbeaker/rest against the node server (IssueNotes,
// MergeRequestNotes, ProjectSnippetNotes, EpicNotes, commit comments), and plain fetch through
// the MSW handler set.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'dev', name: 'Dee Veloper', tokens: [{ token: 'dev-token' }] },
    { username: 'gus', name: 'Gus Guest', tokens: [{ token: 'guest-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'owner' }, { user: 'gus', access_level: 'guest' }], epics: [{ title: 'Plan', author: 'dev' }] }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private',
      repository: { files: { 'README.md': '# App\n' }, commits: [{ branch: 'fix', message: 'Fix it', files: { 'fix.txt': 'fixed\n' } }] },
      issues: [{ title: 'Crash on start', author: 'gus' }],
      merge_requests: [{ title: 'Fix the crash', source_branch: 'fix', author: 'dev' }],
      notes: [{ issue: 1, body: 'Seen it too', author: 'gus' }],
    },
  ],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('writes and reads the notes of issues, merge requests, snippets, epics and commits', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-04T12:00:00Z', frozen: true } });
    emulator.configure({ tier: 'premium' });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'dev-token' });
      const guest = new Gitlab({ host: server.url, token: 'guest-token' });
      const project = 'acme/app';

      const note = await api.IssueNotes.create(project, 1, 'Looking into it');
      expect(note).toMatchObject({ body: 'Looking into it', noteable_type: 'Issue', noteable_iid: 1, author: { username: 'dev' } });
      const internal = await api.IssueNotes.create(project, 1, 'Staff only', { internal: true });
      expect(internal).toMatchObject({ internal: true, confidential: true });
      expect((await api.IssueNotes.all(project, 1, { sort: 'asc' })).map((n) => n.body)).toEqual(['Seen it too', 'Looking into it', 'Staff only']);
      expect((await guest.IssueNotes.all(project, 1)).map((n) => n.body)).toEqual(['Looking into it', 'Seen it too']);
      expect(await api.IssueNotes.edit(project, 1, note.id, { body: 'Fixed in !1' })).toMatchObject({ id: note.id, body: 'Fixed in !1' });
      expect(await api.IssueNotes.show(project, 1, note.id)).toMatchObject({ body: 'Fixed in !1' });
      await api.IssueNotes.remove(project, 1, internal.id);
      await expect(api.IssueNotes.show(project, 1, internal.id)).rejects.toMatchObject({ cause: { response: { status: 404 } } });

      // Quick actions: a note of commands alone answers what they did, and the issue is closed.
      expect(await api.IssueNotes.create(project, 1, '/close')).toEqual({ commands_changes: { state_event: 'close' }, summary: ['Closed this issue.'] });
      expect(await api.Issues.show(1, { projectId: project })).toMatchObject({ state: 'closed' });
      expect((await api.IssueStateEvents.all(project, 1)).map((e) => e.state)).toEqual(['closed']);

      expect(await api.MergeRequestNotes.create(project, 1, 'Ship it')).toMatchObject({ noteable_type: 'MergeRequest', noteable_iid: 1 });
      expect((await api.MergeRequestNotes.all(project, 1)).map((n) => n.body)).toEqual(['Ship it']);

      const snippet = await api.ProjectSnippets.create(project, 'Notes', { files: [{ filePath: 'a.txt', content: 'a' }], visibility: 'private' });
      expect(await guest.ProjectSnippetNotes.create(project, snippet.id, 'Handy')).toMatchObject({ noteable_type: 'Snippet', noteable_id: snippet.id });

      const epic = await api.Epics.show('acme', 1);
      expect(await api.EpicNotes.create('acme', epic.id, 'On the plan')).toMatchObject({ noteable_type: 'Epic', noteable_id: epic.id });
      expect((await guest.EpicNotes.all('acme', epic.id)).map((n) => n.body)).toEqual(['On the plan']);

      expect(await api.Commits.createComment(project, 'fix', 'Good fix', { path: 'fix.txt', line: 1, lineType: 'new' })).toMatchObject({ note: 'Good fix', path: 'fix.txt', line: 1 });
      expect((await api.Commits.allComments(project, 'fix')).map((c) => c.note)).toEqual(['Good fix']);
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, driven by fetch', () => {
  const door = mswDoor();

  it('creates, lists, edits and deletes notes', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-04T12:00:00Z', frozen: true } });
    const api = door.serve(emulator);
    const send = async (path: string, method = 'GET', body?: unknown, token = 'dev-token') => {
      const res = await api(`/projects/acme%2Fapp${path}`, token, method, body);
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    };
    const made = await send('/issues/1/notes', 'POST', { body: 'Through MSW' });
    expect(made).toMatchObject({ status: 201, body: { body: 'Through MSW', noteable_iid: 1 } });
    expect((await send('/issues/1/notes')).body.map((n: { body: string }) => n.body)).toEqual(['Through MSW', 'Seen it too']);
    expect((await send(`/issues/1/notes/${made.body.id}`, 'PUT', { body: 'edited' })).body.body).toBe('edited');
    expect((await send(`/issues/1/notes/${made.body.id}`, 'PUT', { body: 'by a guest' }, 'guest-token')).status).toBe(403);
    expect((await send(`/issues/1/notes/${made.body.id}`, 'DELETE')).status).toBe(204);
    expect((await send('/issues/1')).body.user_notes_count).toBe(1);
    expect((await send('/merge_requests/1/notes', 'POST', { body: 'LGTM' })).status).toBe(201);
    expect(await send('/issues/1/notes', 'POST', { body: 'Done\n/close' })).toMatchObject({ status: 201, body: { body: 'Done', commands_changes: { state_event: 'close' } } });
    expect((await send('/issues/1')).body.state).toBe('closed');
    expect(await send('/issues/1/notes', 'POST', { body: '/close' })).toMatchObject({ status: 202, body: { summary: ['Could not apply close command.'] } });
    // Discussions: a thread started and replied to.
    const thread = await send('/merge_requests/1/discussions', 'POST', { body: 'A thread' });
    expect(thread).toMatchObject({ status: 201, body: { individual_note: false, notes: [{ body: 'A thread', resolvable: true }] } });
    expect((await send(`/merge_requests/1/discussions/${thread.body.id}/notes`, 'POST', { body: 'A reply' })).status).toBe(201);
    expect((await send(`/merge_requests/1/discussions/${thread.body.id}`, 'PUT', { resolved: true })).body.notes.map((n: { resolved: boolean }) => n.resolved)).toEqual([true, true]);
    expect((await send('/repository/commits/fix/comments', 'POST', { note: 'Nice' })).status).toBe(201);
  });
});
