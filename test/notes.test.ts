// Notes (lib/api/notes.rb, lib/api/helpers/notes_helpers.rb, app/services/notes/*,
// app/models/note.rb): the notes of issues, merge requests, project snippets and epics.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: [...TEAM, { username: 'own', tokens: [{ token: 'owner-token' }] }],
  groups: [{ ...ACME, members: [{ user: 'own', access_level: 'owner' }], epics: [{ title: 'Roadmap', author: 'own' }, { title: 'Second', author: 'own' }] }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
      issues: [{ title: 'First', author: 'dev' }, { title: 'Second', author: 'dev' }, { title: 'Locked', author: 'dev', discussion_locked: true }],
      merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
    },
    { namespace: 'acme', path: 'open', visibility: 'public', creator: 'root', members: TEAM_MEMBERS, issues: [{ title: 'Open', author: 'dev', discussion_locked: true }] },
  ],
};

const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const ISSUE = `${APP}/issues/1/notes`;

async function call(method: string, path: string, token?: string, json?: unknown, headers?: Record<string, string>) {
  const res = await apiCall(world(), path, { method, token, json, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}
const bodies = (list: { body: string }[]) => list.map((n) => n.body);

describe('issue notes: create and read', () => {
  it('needs a signed-in caller even to read, and finds the issue as the caller may', async () => {
    expect(await call('GET', ISSUE)).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await call('GET', ISSUE, 'outsider-token')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await call('GET', `${APP}/issues/99/notes`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
    expect(await call('POST', ISSUE, undefined, { body: 'hi' })).toMatchObject({ status: 401 });
  });

  it('creates a note and renders Entities::Note', async () => {
    const made = await call('POST', ISSUE, 'dev-token', { body: 'hi!' });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual([
      'id', 'type', 'body', 'attachment', 'author', 'created_at', 'updated_at', 'system', 'noteable_id', 'noteable_type', 'project_id', 'resolvable',
      'confidential', 'internal', 'imported', 'imported_from', 'noteable_iid', 'commands_changes',
    ]);
    // The spec's author: id, username, email, name, state, created_at.
    const dev = (await call('GET', '/user', 'dev-token')).body;
    expect(made.body.author).toMatchObject({ id: dev.id, username: 'dev', email: dev.email, name: dev.name, state: 'active', created_at: dev.created_at });
    const issue = (await call('GET', `${APP}/issues/1`, 'dev-token')).body;
    expect(made.body).toMatchObject({
      type: null, body: 'hi!', author: { username: 'dev' }, created_at: NOW, updated_at: NOW, system: false, noteable_id: issue.id, noteable_type: 'Issue',
      project_id: issue.project_id, resolvable: false, confidential: false, internal: false, noteable_iid: 1, commands_changes: {},
    });
    expect(issue.user_notes_count).toBe(1);
    expect((await call('GET', `${ISSUE}/${made.body.id}`, 'guest-token')).body).toMatchObject({ id: made.body.id, body: 'hi!' });
    expect(await call('GET', `${ISSUE}/999999`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('refuses a missing, blank or over-long body with GitLab’s messages', async () => {
    // The spec's envelope for a missing attribute (GitLab's Grape says `body is missing`).
    expect(await call('POST', ISSUE, 'dev-token', {})).toMatchObject({ status: 400, body: { message: '400 Bad request - "body" not given' } });
    expect(await call('POST', ISSUE, 'dev-token', { body: '  ' })).toMatchObject({ status: 400, body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' } });
    const long = await call('POST', ISSUE, 'dev-token', { body: 'x'.repeat(1_000_001) });
    expect(long).toMatchObject({ status: 400, body: { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' } });
    expect((await call('POST', ISSUE, 'dev-token', { body: 'x'.repeat(1_000_000) })).status).toBe(201);
    expect((await call('GET', ISSUE, 'dev-token')).body).toHaveLength(1);
  });

  it('lists newest first by default, by id on equal times, and pages', async () => {
    for (const body of ['one', 'two', 'three']) await call('POST', ISSUE, 'dev-token', { body });
    const list = await call('GET', ISSUE, 'dev-token');
    expect(bodies(list.body)).toEqual(['three', 'two', 'one']);
    expect(list.res.headers.get('x-total')).toBe('3');
    expect(bodies((await call('GET', `${ISSUE}?sort=asc`, 'dev-token')).body)).toEqual(['one', 'two', 'three']);
    const page2 = await call('GET', `${ISSUE}?sort=asc&per_page=2&page=2`, 'dev-token');
    expect(bodies(page2.body)).toEqual(['three']);
    expect(page2.res.headers.get('x-total-pages')).toBe('2');
    // Editing moves `updated_at`, which order_by=updated_at follows.
    world().clock.advance(60_000);
    await call('PUT', `${ISSUE}/${list.body[2].id}`, 'dev-token', { body: 'one, edited' });
    expect(bodies((await call('GET', `${ISSUE}?order_by=updated_at`, 'dev-token')).body)).toEqual(['one, edited', 'three', 'two']);
    expect(await call('GET', `${ISSUE}?sort=up`, 'dev-token')).toMatchObject({ status: 400, body: { error: 'sort does not have a valid value' } });
  });

  it('honours created_at for owners and administrators only', async () => {
    const past = '2023-01-02T03:04:05.000Z';
    expect((await call('POST', ISSUE, 'root-token', { body: 'old', created_at: past })).body).toMatchObject({ created_at: past, updated_at: past });
    expect((await call('POST', ISSUE, 'dev-token', { body: 'now', created_at: past })).body).toMatchObject({ created_at: NOW });
    // An owner of the project's group is an owner of the project.
    expect((await call('POST', ISSUE, 'owner-token', { body: 'owned', created_at: past })).body).toMatchObject({ created_at: past });
  });

  it('a note of one emoji alone is an award of it instead, once per emoji', async () => {
    const award = await call('POST', ISSUE, 'dev-token', { body: ':thumbsup:' });
    expect(award.status).toBe(201);
    expect(award.body).toMatchObject({ name: 'thumbsup', user: { username: 'dev' }, awardable_type: 'Issue', awardable_id: (await call('GET', `${APP}/issues/1`, 'dev-token')).body.id });
    expect((await call('GET', `${APP}/issues/1/award_emoji`, 'dev-token')).body).toEqual([award.body]);
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body).toMatchObject({ upvotes: 1, user_notes_count: 0 });
    // Awarded already, or more than the emoji: a note.
    expect((await call('POST', ISSUE, 'dev-token', { body: ':thumbsup:' })).body).toMatchObject({ body: ':thumbsup:', noteable_type: 'Issue' });
    expect((await call('POST', ISSUE, 'dev-token', { body: ':tada: done' })).body).toMatchObject({ body: ':tada: done' });
    expect((await call('POST', `${APP}/merge_requests/1/notes`, 'reporter-token', { body: ':rocket:\n' })).body).toMatchObject({ name: 'rocket', awardable_type: 'MergeRequest' });
  });

  it('touches the issue', async () => {
    world().clock.advance(3_600_000);
    await call('POST', ISSUE, 'dev-token', { body: 'later' });
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.updated_at).toBe('2024-03-06T13:00:00.000Z');
  });
});

describe('internal notes', () => {
  it('sets both flags from internal or the deprecated confidential, and hides them below Reporter', async () => {
    const a = (await call('POST', ISSUE, 'reporter-token', { body: 'internal', internal: true })).body;
    const b = (await call('POST', ISSUE, 'reporter-token', { body: 'confidential', confidential: true })).body;
    expect(a).toMatchObject({ internal: true, confidential: true });
    expect(b).toMatchObject({ internal: true, confidential: true });
    await call('POST', ISSUE, 'reporter-token', { body: 'public' });
    expect(bodies((await call('GET', ISSUE, 'reporter-token')).body)).toEqual(['public', 'confidential', 'internal']);
    // Unreadable notes leave the page after paging: the headers still count them.
    const guest = await call('GET', ISSUE, 'guest-token');
    expect(bodies(guest.body)).toEqual(['public']);
    expect(guest.res.headers.get('x-total')).toBe('3');
    expect(await call('GET', `${ISSUE}/${a.id}`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Note Not Found' } });
  });

  it('drops internal for those who may not mark notes internal', async () => {
    expect((await call('POST', ISSUE, 'guest-token', { body: 'mine', internal: true })).body).toMatchObject({ internal: false, confidential: false });
  });
});

describe('update and delete', () => {
  it('lets the author and maintainers edit, refuses others and system notes', async () => {
    const note = (await call('POST', ISSUE, 'dev-token', { body: 'draft' })).body;
    expect(await call('PUT', `${ISSUE}/${note.id}`, 'reporter-token', { body: 'x' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('PUT', `${ISSUE}/${note.id}`, 'dev-token', { body: 'final' })).body).toMatchObject({ id: note.id, body: 'final' });
    expect((await call('PUT', `${ISSUE}/${note.id}`, 'maintainer-token', { body: 'by mai' })).body).toMatchObject({ body: 'by mai', author: { username: 'dev' } });
    expect(await call('PUT', `${ISSUE}/${note.id}`, 'dev-token', { body: '' })).toMatchObject({ status: 400, body: { error: 'body is empty' } });
    expect(await call('PUT', `${ISSUE}/${note.id}`, 'dev-token', { body: 'x'.repeat(1_000_001) })).toMatchObject({
      status: 400, body: { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' },
    });
    expect(await call('PUT', `${ISSUE}/${note.id}`, 'dev-token', { confidential: true })).toMatchObject({
      status: 400, body: { message: '400 Bad request - Note {:confidential=>["can not be changed for existing notes"]}' },
    });
    expect(await call('PUT', `${ISSUE}/999999`, 'dev-token', { body: 'x' })).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    await call('POST', `${APP}/issues/1/time_estimate`, 'dev-token', { duration: '1h' });
    const system = (await call('GET', `${ISSUE}?activity_filter=only_activity`, 'dev-token')).body;
    expect(bodies(system)).toEqual(['changed time estimate to 1h']);
    expect((await call('PUT', `${ISSUE}/${system[0].id}`, 'root-token', { body: 'x' })).status).toBe(403);
    expect(bodies((await call('GET', `${ISSUE}?activity_filter=only_comments`, 'dev-token')).body)).toEqual(['by mai']);
  });

  it('deletes once, and honours If-Unmodified-Since', async () => {
    const note = (await call('POST', ISSUE, 'dev-token', { body: 'bye' })).body;
    expect((await call('DELETE', `${ISSUE}/${note.id}`, 'dev-token', undefined, { 'If-Unmodified-Since': 'Tue, 05 Mar 2024 00:00:00 GMT' })).status).toBe(412);
    expect((await call('DELETE', `${ISSUE}/${note.id}`, 'dev-token')).status).toBe(204);
    expect((await call('DELETE', `${ISSUE}/${note.id}`, 'dev-token')).status).toBe(404);
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.user_notes_count).toBe(0);
  });
});

describe('what the issue does is not a note', () => {
  it('closing an issue writes no note', async () => {
    await call('PUT', `${APP}/issues/1`, 'dev-token', { state_event: 'close' });
    expect((await call('GET', ISSUE, 'dev-token')).body).toEqual([]);
  });
});

describe('quick actions in a note', () => {
  it('commands alone answer 202 with what they changed and store no comment', async () => {
    const r = await call('POST', ISSUE, 'dev-token', { body: '/spend 1h\n/estimate 2h' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({
      commands_changes: { time_estimate: 7200, spend_time: { duration: 3600, user_id: expect.any(Number), spent_at: expect.any(String), category: null, note_id: null } },
      summary: ['Added 1h spent time. Set time estimate to 2h.'],
    });
    const issue = (await call('GET', `${APP}/issues/1`, 'dev-token')).body;
    expect(issue).toMatchObject({ user_notes_count: 0, time_stats: { time_estimate: 7200, total_time_spent: 3600 } });
    // Only the system notes GitLab writes for time tracking are there.
    const notes = (await call('GET', `${ISSUE}?sort=asc`, 'dev-token')).body;
    expect(notes.every((n: { system: boolean }) => n.system)).toBe(true);
    expect(bodies(notes)).toEqual(['changed time estimate to 2h', 'added 1h of time spent']);
  });

  it('commands alone that cannot run are 400 and change nothing', async () => {
    expect(await call('POST', ISSUE, 'dev-token', { body: '/spend nonsense' })).toMatchObject({ status: 400, body: { message: '400 Bad request - Failed to apply commands.' } });
    const reopen = await call('POST', ISSUE, 'dev-token', { body: '/reopen' });
    expect(reopen).toMatchObject({ status: 202, body: { commands_changes: {}, summary: ['Could not apply reopen command.'] } });
    expect((await call('GET', ISSUE, 'dev-token')).body).toEqual([]);
  });

  it('text with commands stores the text and runs the commands', async () => {
    const r = await call('POST', ISSUE, 'dev-token', { body: 'Fixed in main\n/close\n/title Crash fixed' });
    expect(r).toMatchObject({ status: 201, body: { body: 'Fixed in main', commands_changes: { state_event: 'close', title: 'Crash fixed' } } });
    const issue = (await call('GET', `${APP}/issues/1`, 'dev-token')).body;
    expect(issue).toMatchObject({ state: 'closed', title: 'Crash fixed', user_notes_count: 1 });
    // Closing is a resource event, not a note; the title change is a system note.
    expect(bodies((await call('GET', `${ISSUE}?sort=asc`, 'dev-token')).body)).toEqual(['Fixed in main', 'changed title from **{-First-}** to **{+Crash fixed+}**']);
    expect((await call('GET', `${APP}/issues/1/resource_state_events`, 'dev-token')).body).toEqual([expect.objectContaining({ state: 'closed', user: expect.objectContaining({ username: 'dev' }) })]);
    // A command the caller may not run is taken out of the text all the same.
    const guest = await call('POST', ISSUE, 'guest-token', { body: 'me too\n/reopen' });
    expect(guest).toMatchObject({ status: 201, body: { body: 'me too', commands_changes: {} } });
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.state).toBe('closed');
  });

  it('an edit runs the commands of its new body; commands alone delete the note', async () => {
    const note = (await call('POST', ISSUE, 'dev-token', { body: 'first words' })).body;
    const edited = await call('PUT', `${ISSUE}/${note.id}`, 'dev-token', { body: 'second words\n/due 2024-04-01' });
    expect(edited).toMatchObject({ status: 200, body: { body: 'second words', commands_changes: { due_date: '2024-04-01' } } });
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.due_date).toBe('2024-04-01');
    expect(await call('PUT', `${ISSUE}/${note.id}`, 'dev-token', { body: '/spend nonsense' })).toMatchObject({
      status: 400, body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' },
    });
    const gone = await call('PUT', `${ISSUE}/${note.id}`, 'dev-token', { body: '/remove_due_date' });
    expect(gone).toMatchObject({ status: 202, body: { commands_changes: { due_date: null }, summary: ['Removed the due date.'] } });
    expect((await call('GET', `${ISSUE}/${note.id}`, 'dev-token')).status).toBe(404);
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body).toMatchObject({ due_date: null, user_notes_count: 0 });
  });

  it('/merge merges a merge request at the head sha the caller saw', async () => {
    const mr = (await call('GET', `${APP}/merge_requests/1`, 'maintainer-token')).body;
    const stale = await call('POST', `${APP}/merge_requests/1/notes`, 'maintainer-token', { body: '/merge', merge_request_diff_head_sha: '0'.repeat(40) });
    // The command runs (GitLab merges asynchronously); the merge itself refuses a moved head.
    expect(stale).toMatchObject({ status: 202, body: { commands_changes: { merge: '0'.repeat(40) }, summary: ['Merged this merge request.'] } });
    expect((await call('GET', `${APP}/merge_requests/1`, 'maintainer-token')).body.state).toBe('opened');
    const merged = await call('POST', `${APP}/merge_requests/1/notes`, 'maintainer-token', { body: '/merge', merge_request_diff_head_sha: mr.sha });
    expect(merged).toMatchObject({ status: 202, body: { commands_changes: { merge: mr.sha } } });
    expect((await call('GET', `${APP}/merge_requests/1`, 'maintainer-token')).body.state).toBe('merged');
    expect((await call('GET', `${APP}/repository/files/f.txt?ref=main`, 'maintainer-token')).status).toBe(200);
  });

  it('a snippet’s note is text: a slash line stays in it', async () => {
    const snippet = (await call('POST', `${APP}/snippets`, 'reporter-token', { title: 'S', file_name: 'a.txt', content: 'a', visibility: 'private' })).body;
    const made = await call('POST', `${APP}/snippets/${snippet.id}/notes`, 'dev-token', { body: '/close' });
    expect(made).toMatchObject({ status: 201, body: { body: '/close', commands_changes: {} } });
  });
});

describe('moved and cloned issues', () => {
  it('a move takes the notes along; a clone only with_notes', async () => {
    await call('POST', ISSUE, 'dev-token', { body: 'first' });
    await call('POST', ISSUE, 'maintainer-token', { body: 'staff', internal: true });
    const moved = (await call('POST', `${APP}/issues/1/move`, 'maintainer-token', { to_project_id: 'acme/open' })).body;
    const notes = (await call('GET', `/projects/acme%2Fopen/issues/${moved.iid}/notes?sort=asc`, 'maintainer-token')).body;
    expect(notes.map((n: { body: string; author: { username: string }; internal: boolean }) => [n.body, n.author.username, n.internal])).toEqual([
      ['first', 'dev', false], ['staff', 'mai', true], ['moved from acme/app#1', 'mai', false],
    ]);
    expect(notes[0]).toMatchObject({ noteable_id: moved.id, noteable_iid: moved.iid, project_id: moved.project_id });
    expect(moved.user_notes_count).toBe(2);
    // The original keeps its notes.
    expect(bodies((await call('GET', `${ISSUE}?sort=asc`, 'maintainer-token')).body)).toEqual(['first', 'staff', `moved to acme/open#${moved.iid}`]);

    await call('POST', `${APP}/issues/2/notes`, 'dev-token', { body: 'on two' });
    const bare = (await call('POST', `${APP}/issues/2/clone`, 'maintainer-token', { to_project_id: 'acme/open' })).body;
    expect(bodies((await call('GET', `/projects/acme%2Fopen/issues/${bare.iid}/notes`, 'maintainer-token')).body)).toEqual(['cloned from acme/app#2']);
    const full = (await call('POST', `${APP}/issues/2/clone`, 'maintainer-token', { to_project_id: 'acme/open', with_notes: true })).body;
    // Copied notes' references are rewritten for the new project (Notes::CopyService): `acme/open#n` is local there.
    expect(bodies((await call('GET', `/projects/acme%2Fopen/issues/${full.iid}/notes?sort=asc`, 'maintainer-token')).body)).toEqual([
      'on two', `cloned to #${bare.iid}`, 'cloned from acme/app#2',
    ]);
  });
});

describe('locked discussions', () => {
  it('take notes from members only', async () => {
    const open = '/projects/acme%2Fopen/issues/1/notes';
    expect(await call('POST', open, 'outsider-token', { body: 'let me in' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('POST', open, 'guest-token', { body: 'member' })).status).toBe(201);
    expect((await call('GET', open, 'outsider-token')).body).toHaveLength(1);
  });
});

describe('merge request, snippet and epic notes', () => {
  it('notes a merge request by iid', async () => {
    const made = await call('POST', `${APP}/merge_requests/1/notes`, 'dev-token', { body: 'LGTM' });
    expect(made.body).toMatchObject({ noteable_type: 'MergeRequest', noteable_iid: 1, body: 'LGTM' });
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.user_notes_count).toBe(1);
    expect(await call('GET', `${APP}/merge_requests/9/notes`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 MergeRequest Not Found' } });
    // An edit of a merge request's note must carry a body (an issue note's may leave it out).
    const note = `${APP}/merge_requests/1/notes/${made.body.id}`;
    expect(await call('PUT', note, 'dev-token', {})).toMatchObject({ status: 400, body: { message: '400 Bad request - "body" not given' } });
    expect((await call('PUT', note, 'dev-token', { body: 'LGTM!' })).body).toMatchObject({ body: 'LGTM!' });
  });

  it('notes a project snippet by id; internal notes are not for snippets', async () => {
    const snippet = (await call('POST', `${APP}/snippets`, 'reporter-token', { title: 'S', file_name: 'a.txt', content: 'a', visibility: 'private' })).body;
    const path = `${APP}/snippets/${snippet.id}/notes`;
    expect((await call('POST', path, 'guest-token', { body: 'nice' })).body).toMatchObject({ noteable_type: 'Snippet', noteable_id: snippet.id, noteable_iid: null });
    expect(await call('POST', path, 'reporter-token', { body: 'secret', internal: true })).toMatchObject({
      status: 400, body: { message: '400 Bad request - Note {:confidential=>["can not be set for this resource"]}' },
    });
    expect(bodies((await call('GET', path, 'dev-token')).body)).toEqual(['nice']);
    expect(await call('GET', `${APP}/snippets/9999/notes`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
  });

  it('notes an epic by id, not iid, at the higher tier', async () => {
    expect((await call('GET', '/groups/acme/epics/1/notes', 'owner-token')).status).toBe(404);
    world().configure({ tier: 'premium' });
    const epic = (await call('GET', '/groups/acme/epics/2', 'owner-token')).body;
    const made = await call('POST', `/groups/acme/epics/${epic.id}/notes`, 'owner-token', { body: 'on the epic', created_at: '2020-01-01T00:00:00Z' });
    expect(made.body).toMatchObject({ noteable_type: 'Epic', noteable_id: epic.id, noteable_iid: null, project_id: null, created_at: NOW });
    expect(bodies((await call('GET', `/groups/acme/epics/${epic.id}/notes`, 'guest-token')).body)).toEqual(['on the epic']);
    expect(await call('GET', '/groups/acme/epics/999/notes', 'owner-token')).toMatchObject({ status: 404, body: { message: '404 Epic Not Found' } });
  });
});

describe('the note creation rate limit', () => {
  it('answers 429 past the instance’s limit per user, until the window passes', async () => {
    world().configure({ settings: { rate_limits: { notes_create: { limit: 2, period_seconds: 60 } } } });
    expect((await call('POST', ISSUE, 'dev-token', { body: '1' })).status).toBe(201);
    expect((await call('POST', ISSUE, 'dev-token', { body: '2' })).status).toBe(201);
    const refused = await call('POST', ISSUE, 'dev-token', { body: '3' });
    expect(refused).toMatchObject({ status: 429, body: { message: { error: 'This endpoint has been requested too many times. Try again later.' } } });
    expect((await call('POST', ISSUE, 'reporter-token', { body: 'other user' })).status).toBe(201);
    world().clock.advance(61_000);
    expect((await call('POST', ISSUE, 'dev-token', { body: '3' })).status).toBe(201);
    expect(bodies((await call('GET', ISSUE, 'dev-token')).body)).toEqual(['3', 'other user', '2', '1']);
  });
});

describe('commit comments', () => {
  it('comments on a commit, on a line of its diff when the diff has it', async () => {
    const path = `${APP}/repository/commits/feature/comments`;
    expect((await call('GET', path, 'dev-token')).body).toEqual([]);
    const plain = await call('POST', path, 'dev-token', { note: 'Nice' });
    expect(plain.status).toBe(201);
    expect(plain.body).toEqual({ note: 'Nice', path: null, line: null, line_type: null, author: expect.objectContaining({ username: 'dev' }), created_at: NOW });
    expect((await call('POST', path, 'dev-token', { note: 'On f', path: 'f.txt', line: 1 })).body).toMatchObject({ path: 'f.txt', line: 1, line_type: 'new' });
    // A line the diff does not have makes a plain comment.
    expect((await call('POST', path, 'dev-token', { note: 'Nowhere', path: 'f.txt', line: 7 })).body).toMatchObject({ path: null, line: null });
    expect(await call('POST', path, 'dev-token', { note: 'x', path: 'f.txt' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "line" not given' } });
    expect(await call('POST', path, 'dev-token', { note: ' ' })).toMatchObject({ status: 400, body: { message: 'Failed to save note {:note=>["can\'t be blank"]}' } });
    expect(await call('POST', `${APP}/repository/commits/nope/comments`, 'dev-token', { note: 'x' })).toMatchObject({ status: 404, body: { message: '404 Commit Not Found' } });
    const sha = (await call('GET', `${APP}/repository/commits/feature`, 'dev-token')).body.id;
    expect((await call('GET', `${APP}/repository/commits/${sha}/comments`, 'reporter-token')).body.map((c: { note: string }) => c.note)).toEqual(['Nice', 'On f', 'Nowhere']);
    expect((await call('POST', path, undefined, { note: 'anon' })).status).toBe(401);
  });
});

describe('notes in a fixture', () => {
  const seeded = seededWorld({
    users: TEAM,
    groups: [{ ...ACME, epics: [{ title: 'E', author: 'root' }], notes: [{ epic: 1, body: 'epic note', author: 'mai' }] }],
    projects: [{
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, issues: [{ title: 'I', author: 'dev' }],
      notes: [
        { issue: 1, body: 'first', author: 'dev', created_at: '2024-01-01T00:00:00Z' },
        { issue: 1, body: 'changed the description', system: true },
        { issue: 1, body: 'staff only', author: 'rep', internal: true },
      ],
    }],
  }, NOW);

  it('seeds comments, system notes and internal notes in order', async () => {
    const e = seeded();
    const list = await (await apiCall(e, `${ISSUE}?sort=asc`, { token: 'reporter-token' })).json();
    expect(list.map((n: { body: string; system: boolean; internal: boolean }) => [n.body, n.system, n.internal])).toEqual([
      ['first', false, false], ['changed the description', true, false], ['staff only', false, true],
    ]);
    expect(list[0]).toMatchObject({ created_at: '2024-01-01T00:00:00.000Z', author: { username: 'dev' } });
    expect(list[1].author.username).toBe('root');
    expect((await (await apiCall(e, `${APP}/issues/1`, { token: 'dev-token' })).json()).user_notes_count).toBe(2);
    e.configure({ tier: 'premium' });
    const epic = await (await apiCall(e, '/groups/acme/epics/1', { token: 'root-token' })).json();
    expect((await (await apiCall(e, `/groups/acme/epics/${epic.id}/notes`, { token: 'root-token' })).json())[0]).toMatchObject({ body: 'epic note', author: { username: 'mai' } });
  });

  it('names what a note hangs on that is not there', async () => {
    const fixture = { users: TEAM, groups: [ACME], projects: [{ namespace: 'acme', path: 'p', notes: [{ issue: 4, body: 'x' }] }] };
    await expect(createEmulator({ fixture })).rejects.toThrow(/project 'acme\/p' has a note on issue #4, which it does not have/);
  });
});
