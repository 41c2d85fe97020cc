// Discussions (lib/api/discussions.rb): notes as threads on issues, merge requests, snippets and
// epics; replies; a note alone made a thread by a reply; resolvable merge request threads.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n', 'README.md': '# app\nmore\n' } }] },
    issues: [{ title: 'First', author: 'dev' }, { title: 'Second', author: 'dev' }],
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
    notes: [{ issue: 1, body: 'Alone', author: 'rep' }, { issue: 1, body: 'changed the description', author: 'dev', system: true }],
  }, { namespace: 'acme', path: 'other', visibility: 'private', creator: 'root', members: TEAM_MEMBERS }],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const ISSUE = `${APP}/issues/1/discussions`;
const MR = `${APP}/merge_requests/1/discussions`;

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}
const bodies = (notes: { body: string }[]) => notes.map((n) => n.body);

describe('discussions of an issue', () => {
  it('lists each note alone as a discussion of its own, system notes too', async () => {
    expect(await call('GET', ISSUE)).toMatchObject({ status: 401 });
    const list = await call('GET', ISSUE, 'guest-token');
    expect(list.status).toBe(200);
    expect(list.res.headers.get('x-total')).toBe('2');
    expect(list.body.map((d: { individual_note: boolean; notes: { body: string }[] }) => [d.individual_note, bodies(d.notes)])).toEqual([
      [true, ['Alone']], [true, ['changed the description']],
    ]);
    const [alone] = list.body;
    expect(alone.id).toMatch(/^[0-9a-f]{40}$/);
    expect(Object.keys(alone)).toEqual(['id', 'individual_note', 'notes']);
    expect(alone.notes[0]).toMatchObject({ type: null, resolvable: false, noteable_iid: 1 });
    expect((await call('GET', `${ISSUE}/${alone.id}`, 'guest-token')).body).toEqual(alone);
    expect(await call('GET', `${ISSUE}/${'0'.repeat(40)}`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    expect(await call('GET', `${ISSUE}/${'0'.repeat(40)}/notes`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Notes Not Found' } });
    expect(await call('GET', `${APP}/issues/9/discussions`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Issue Not Found' } });
  });

  it('starts a thread, takes replies, and lists it in order', async () => {
    const started = await call('POST', ISSUE, 'dev-token', { body: 'Shall we?' });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ individual_note: false, notes: [{ type: 'DiscussionNote', body: 'Shall we?', author: { username: 'dev' }, resolvable: false }] });
    const id = started.body.id;
    const reply = await call('POST', `${ISSUE}/${id}/notes`, 'reporter-token', { body: 'Yes' });
    expect(reply).toMatchObject({ status: 201, body: { type: 'DiscussionNote', body: 'Yes', author: { username: 'rep' } } });
    expect(bodies((await call('GET', `${ISSUE}/${id}`, 'guest-token')).body.notes)).toEqual(['Shall we?', 'Yes']);
    expect(bodies((await call('GET', `${ISSUE}/${id}/notes`, 'guest-token')).body)).toEqual(['Shall we?', 'Yes']);
    expect((await call('GET', ISSUE, 'guest-token')).body.map((d: { id: string }) => d.id).slice(2)).toEqual([id]);
    // The thread's notes are notes too; the issue counts them.
    expect(bodies((await call('GET', `${APP}/issues/1/notes?sort=asc`, 'guest-token')).body).slice(2)).toEqual(['Shall we?', 'Yes']);
    expect((await call('GET', `${APP}/issues/1`, 'guest-token')).body.user_notes_count).toBe(3);
    // Edit and delete through the thread's path.
    expect((await call('PUT', `${ISSUE}/${id}/notes/${reply.body.id}`, 'reporter-token', { body: 'Yes!' })).body.body).toBe('Yes!');
    expect((await call('PUT', `${ISSUE}/${id}/notes/${reply.body.id}`, 'guest-token', { body: 'No' })).status).toBe(403);
    expect((await call('GET', `${ISSUE}/${id}/notes/${reply.body.id}`, 'guest-token')).body.body).toBe('Yes!');
    expect((await call('DELETE', `${ISSUE}/${id}/notes/${reply.body.id}`, 'reporter-token')).status).toBe(204);
    expect(bodies((await call('GET', `${ISSUE}/${id}`, 'guest-token')).body.notes)).toEqual(['Shall we?']);
  });

  it('a reply makes a note alone a thread; system notes and snippet notes take none', async () => {
    const [alone, system] = (await call('GET', ISSUE, 'guest-token')).body;
    const reply = await call('POST', `${ISSUE}/${alone.id}/notes`, 'dev-token', { body: 'Replying' });
    expect(reply.status).toBe(201);
    const thread = (await call('GET', `${ISSUE}/${alone.id}`, 'guest-token')).body;
    expect(thread).toMatchObject({ id: alone.id, individual_note: false, notes: [{ type: 'DiscussionNote', body: 'Alone' }, { type: 'DiscussionNote', body: 'Replying' }] });
    expect(await call('POST', `${ISSUE}/${system.id}/notes`, 'dev-token', { body: 'No' })).toMatchObject({
      status: 400, body: { message: '400 Bad request - Discussion can not be replied to.' },
    });
    const snippet = (await call('POST', `${APP}/snippets`, 'dev-token', { title: 'S', file_name: 'a.txt', content: 'a', visibility: 'private' })).body;
    await call('POST', `${APP}/snippets/${snippet.id}/notes`, 'dev-token', { body: 'On a snippet' });
    const [onSnippet] = (await call('GET', `${APP}/snippets/${snippet.id}/discussions`, 'dev-token')).body;
    expect((await call('POST', `${APP}/snippets/${snippet.id}/discussions/${onSnippet.id}/notes`, 'dev-token', { body: 'No' })).status).toBe(400);
    // A snippet thread started as one takes replies.
    const started = (await call('POST', `${APP}/snippets/${snippet.id}/discussions`, 'dev-token', { body: 'Thread' })).body;
    expect((await call('POST', `${APP}/snippets/${snippet.id}/discussions/${started.id}/notes`, 'dev-token', { body: 'Reply' })).status).toBe(201);
  });

  it('runs quick actions; commands alone leave a blank note and change nothing', async () => {
    const made = await call('POST', ISSUE, 'dev-token', { body: 'Done here\n/close' });
    expect(made).toMatchObject({ status: 201, body: { notes: [{ body: 'Done here' }] } });
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.state).toBe('closed');
    expect(await call('POST', ISSUE, 'dev-token', { body: '/reopen' })).toMatchObject({ status: 400, body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' } });
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.state).toBe('closed');
    expect(await call('POST', ISSUE, 'dev-token', {})).toMatchObject({ status: 400 });
    expect(await call('POST', ISSUE, 'outsider-token', { body: 'hi' })).toMatchObject({ status: 404 });
  });

  it('a moved issue keeps its threads', async () => {
    const started = (await call('POST', ISSUE, 'dev-token', { body: 'Thread' })).body;
    await call('POST', `${ISSUE}/${started.id}/notes`, 'dev-token', { body: 'Reply' });
    const moved = (await call('POST', `${APP}/issues/1/move`, 'maintainer-token', { to_project_id: 'acme/other' })).body;
    const list = (await call('GET', `/projects/acme%2Fother/issues/${moved.iid}/discussions`, 'dev-token')).body;
    expect(list.map((d: { individual_note: boolean; notes: { body: string }[] }) => [d.individual_note, bodies(d.notes)])).toEqual([
      [true, ['Alone']], [true, ['changed the description']], [false, ['Thread', 'Reply']], [true, ['moved from acme/app#1']],
    ]);
    expect(list[2].id).not.toBe(started.id);
  });
});

describe('merge request threads resolve', () => {
  it('resolves a note or a whole thread, as its author or a Developer may', async () => {
    const thread = (await call('POST', MR, 'reporter-token', { body: 'Please rename' })).body;
    expect(thread.notes[0]).toMatchObject({ type: 'DiscussionNote', resolvable: true, resolved: false, resolved_by: null, resolved_at: null });
    const reply = (await call('POST', `${MR}/${thread.id}/notes`, 'dev-token', { body: 'Will do' })).body;
    const note = `${MR}/${thread.id}/notes/${thread.notes[0].id}`;
    expect(await call('PUT', note, 'dev-token', { body: 'x', resolved: true })).toMatchObject({ status: 400, body: { error: 'body, resolved are mutually exclusive' } });
    expect(await call('PUT', note, 'dev-token', {})).toMatchObject({ status: 400, body: { error: 'body, resolved are missing, exactly one parameter must be provided' } });
    // A Reporter resolves their own note, not another's.
    expect((await call('PUT', `${MR}/${thread.id}/notes/${reply.id}`, 'reporter-token', { resolved: true })).status).toBe(403);
    expect((await call('PUT', note, 'reporter-token', { resolved: true })).body).toMatchObject({ resolved: true, resolved_by: { username: 'rep' } });
    await call('PUT', note, 'reporter-token', { resolved: false });
    const one = await call('PUT', note, 'dev-token', { resolved: true });
    expect(one).toMatchObject({ status: 200, body: { resolved: true, resolved_by: { username: 'dev' }, resolved_at: NOW } });
    expect((await call('PUT', `${MR}/${thread.id}`, 'reporter-token', { resolved: true })).status).toBe(403);
    // Guests do not see a private project's merge requests.
    expect((await call('PUT', `${MR}/${thread.id}`, 'guest-token', { resolved: true })).status).toBe(404);
    const all = await call('PUT', `${MR}/${thread.id}`, 'dev-token', { resolved: true });
    expect(all.body.notes.map((n: { id: number; resolved: boolean }) => [n.id, n.resolved])).toEqual([[thread.notes[0].id, true], [reply.id, true]]);
    const reopened = await call('PUT', `${MR}/${thread.id}`, 'dev-token', { resolved: false });
    expect(reopened.body.notes.every((n: { resolved: boolean; resolved_by: unknown }) => !n.resolved && n.resolved_by === null)).toBe(true);
    // A note alone is not resolvable; issue threads have no resolve route.
    const alone = (await call('POST', `${APP}/merge_requests/1/notes`, 'dev-token', { body: 'LGTM' })).body;
    const [, single] = (await call('GET', MR, 'dev-token')).body;
    expect(single.notes[0].id).toBe(alone.id);
    expect(await call('PUT', `${MR}/${single.id}/notes/${alone.id}`, 'dev-token', { resolved: true })).toMatchObject({ status: 400, body: { message: '400 Bad request - Note is not resolvable' } });
    expect((await call('PUT', `${ISSUE}/${single.id}`, 'dev-token', { resolved: true })).status).toBe(404);
  });
});

describe('merging only when every thread is resolved', () => {
  it('an unresolved thread blocks the merge where the project asks it, and the merge request says so', async () => {
    const thread = (await call('POST', MR, 'reporter-token', { body: 'Please rename' })).body;
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.blocking_discussions_resolved).toBe(true);
    expect((await call('PUT', APP, 'maintainer-token', { only_allow_merge_if_all_discussions_are_resolved: true })).status).toBe(200);
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.blocking_discussions_resolved).toBe(false);
    expect(await call('PUT', `${APP}/merge_requests/1/merge`, 'maintainer-token')).toMatchObject({ status: 405, body: { message: '405 Method Not Allowed' } });
    expect((await call('POST', `${APP}/merge_requests/1/notes`, 'maintainer-token', { body: '/merge' })).body).toMatchObject({ summary: ['Could not apply merge command.'] });
    await call('PUT', `${MR}/${thread.id}`, 'dev-token', { resolved: true });
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.blocking_discussions_resolved).toBe(true);
    expect((await call('PUT', `${APP}/merge_requests/1/merge`, 'maintainer-token')).body).toMatchObject({ state: 'merged' });
  });
});

describe('threads on lines of a merge request diff', () => {
  it('take a position on a line of the diff, answer GitLab’s errors for one outside it, and pass it to replies', async () => {
    const { diff_refs: refs } = (await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body;
    const at = (more: Record<string, unknown>) => ({ ...refs, position_type: 'text', ...more });
    // An added line by new_line alone, a line of context by both.
    const added = await call('POST', MR, 'dev-token', { body: 'Why f?', position: at({ new_path: 'f.txt', old_path: 'f.txt', new_line: 1 }) });
    expect(added.status).toBe(201);
    expect(added.body.notes[0]).toMatchObject({
      type: 'DiffNote', body: 'Why f?', commit_id: null, resolvable: true, resolved: false,
      position: { ...refs, old_path: 'f.txt', new_path: 'f.txt', position_type: 'text', old_line: null, new_line: 1, line_range: null },
    });
    const keys = Object.keys(added.body.notes[0]);
    expect(keys.slice(keys.indexOf('project_id'), keys.indexOf('resolvable') + 1)).toEqual(['project_id', 'commit_id', 'position', 'resolvable']);
    expect((await call('POST', MR, 'dev-token', { body: 'Context', position: at({ new_path: 'README.md', old_path: 'README.md', old_line: 1, new_line: 1 }) })).status).toBe(201);
    const reply = await call('POST', `${MR}/${added.body.id}/notes`, 'reporter-token', { body: 'Because' });
    expect(reply.body).toMatchObject({ type: 'DiffNote', position: added.body.notes[0].position });
    expect((await call('GET', `${APP}/merge_requests/1/notes?sort=asc`, 'dev-token')).body.map((n: { type: string }) => n.type)).toEqual(['DiffNote', 'DiffNote', 'DiffNote']);
    // A file position names the file only.
    const file = await call('POST', MR, 'dev-token', { body: 'This file', position: { ...refs, position_type: 'file', new_path: 'f.txt', old_path: 'f.txt' } });
    expect(file.body.notes[0].position).toEqual({ ...refs, old_path: 'f.txt', new_path: 'f.txt', position_type: 'file' });

    const lineCode = { status: 400, body: { message: '400 Bad request - Note {:line_code=>["can\'t be blank"]}' } };
    expect(await call('POST', MR, 'dev-token', { body: 'x', position: at({ new_path: 'README.md', new_line: 7 }) })).toMatchObject(lineCode);
    expect(await call('POST', MR, 'dev-token', { body: 'x', position: at({ new_path: 'README.md', new_line: 1 }) })).toMatchObject(lineCode);
    expect(await call('POST', MR, 'dev-token', { body: 'x', position: at({ head_sha: 'f'.repeat(40), new_path: 'f.txt', new_line: 1 }) })).toMatchObject(lineCode);
    expect(await call('POST', MR, 'dev-token', { body: 'x', position: at({}) })).toMatchObject({
      status: 400, body: { message: '400 Bad request - Note {:line_code=>["can\'t be blank"], :position=>["is incomplete"]}' },
    });
    expect(await call('POST', MR, 'dev-token', { body: 'x', position: { ...refs, position_type: 'line', new_path: 'f.txt' } })).toMatchObject({ status: 400, body: { error: 'position[position_type] does not have a valid value' } });
    expect((await call('GET', MR, 'dev-token')).body).toHaveLength(3);
  });
});

describe('discussions through @gitbeaker/rest against the server', () => {
  it('starts, replies to and resolves threads', async () => {
    const emulator = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'dev-token' });
      const thread = await api.IssueDiscussions.create('acme/app', 1, 'Through gitbeaker');
      await api.IssueDiscussions.addNote('acme/app', 1, thread.id, 'A reply');
      expect((await api.IssueDiscussions.show('acme/app', 1, thread.id)).notes!.map((n) => n.body)).toEqual(['Through gitbeaker', 'A reply']);
      const review = await api.MergeRequestDiscussions.create('acme/app', 1, 'Needs a test');
      const resolved = await api.MergeRequestDiscussions.resolve('acme/app', 1, review.id, true);
      expect(resolved.notes!.map((n) => (n as { resolved?: boolean }).resolved)).toEqual([true]);
      expect((await api.MergeRequestDiscussions.all('acme/app', 1)).map((d) => d.id)).toEqual([review.id]);
      // A review bot's comment on a line of the diff.
      const mr = await api.MergeRequests.show('acme/app', 1);
      const refs = mr.diff_refs as { base_sha: string; start_sha: string; head_sha: string };
      const onLine = await api.MergeRequestDiscussions.create('acme/app', 1, 'Typo here', {
        position: { baseSha: refs.base_sha, startSha: refs.start_sha, headSha: refs.head_sha, positionType: 'text', newPath: 'README.md', oldPath: 'README.md', newLine: '2' },
      });
      expect(onLine.notes![0]).toMatchObject({ type: 'DiffNote', position: { new_path: 'README.md', new_line: 2, old_line: null } });
    } finally {
      await server.close();
    }
  });
});
