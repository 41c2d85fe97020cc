// Award emoji, subscriptions and to-dos of merge requests (lib/api/award_emoji.rb,
// subscriptions.rb, todos.rb, Entities::AwardEmoji and Entities::Todo), and the quick actions
// that make them in a merge request's notes (/todo, /done, /subscribe, /unsubscribe, /award).
// Issue 1 and merge request 1 share their global id, so each check also shows the two kept apart.
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
    repository: {
      files: { 'README.md': '# app\n' },
      commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }, { branch: 'second', message: 'Second', files: { 's.txt': 's\n' } }],
    },
    issues: [{ title: 'First issue', author: 'dev' }],
    merge_requests: [
      { title: 'Add f', source_branch: 'feature', author: 'dev', assignees: ['rep'] },
      { title: 'Add s', source_branch: 'second', author: 'mai' },
    ],
  }],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const MR = `${APP}/merge_requests/1`;

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}

describe('award emoji on a merge request', () => {
  it('awards, lists, shows and removes, as the issue routes do', async () => {
    const mr = (await call('GET', MR, 'dev-token')).body;
    const issue = (await call('GET', `${APP}/issues/1`, 'dev-token')).body;
    expect(mr.id).toBe(issue.id);
    const a = await call('POST', `${MR}/award_emoji`, 'dev-token', { name: 'thumbsup' });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      id: a.body.id, name: 'thumbsup', user: expect.objectContaining({ username: 'dev' }), created_at: NOW, updated_at: NOW,
      awardable_id: mr.id, awardable_type: 'MergeRequest', url: null,
    });
    expect(await call('POST', `${MR}/award_emoji`, 'dev-token', { name: 'thumbsup' })).toMatchObject({
      status: 404, body: { message: '404 Award Emoji User has already been taken Not Found' },
    });
    expect((await call('POST', `${MR}/award_emoji`, 'dev-token', { name: 'Not an emoji' })).status).toBe(404);
    // The issue of the same id is another awardable.
    expect((await call('POST', `${APP}/issues/1/award_emoji`, 'dev-token', { name: 'thumbsup' })).status).toBe(201);
    expect((await call('GET', `${APP}/issues/1/award_emoji`, 'dev-token')).body.map((x: { awardable_type: string }) => x.awardable_type)).toEqual(['Issue']);
    expect((await call('GET', `${MR}/award_emoji`, 'reporter-token')).body).toEqual([a.body]);
    expect((await call('GET', `${MR}/award_emoji/${a.body.id}`, 'reporter-token')).body).toEqual(a.body);
    expect(await call('GET', `${MR}/award_emoji/999`, 'reporter-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await call('GET', `${APP}/merge_requests/9/award_emoji`, 'reporter-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await call('GET', `${MR}/award_emoji`)).status).toBe(401);
    // Guests do not read a private project's merge requests: the merge request is found, its awards are not.
    expect(await call('GET', `${MR}/award_emoji`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Award Emoji Not Found' } });
    expect(await call('POST', `${MR}/award_emoji`, 'guest-token', { name: 'tada' })).toMatchObject({ status: 404, body: { message: '404 Award Emoji Not Found' } });
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ upvotes: 1, downvotes: 0 });
    await call('POST', `${MR}/award_emoji`, 'reporter-token', { name: 'thumbsdown' });
    expect((await call('GET', `${APP}/merge_requests`, 'dev-token')).body.find((m: { iid: number }) => m.iid === 1)).toMatchObject({ upvotes: 1, downvotes: 1 });
    expect(await call('DELETE', `${MR}/award_emoji/${a.body.id}`, 'reporter-token')).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await call('DELETE', `${MR}/award_emoji/${a.body.id}`, 'dev-token')).status).toBe(204);
    expect((await call('GET', `${MR}/award_emoji`, 'dev-token')).body.map((x: { name: string }) => x.name)).toEqual(['thumbsdown']);
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body.upvotes).toBe(1);
  });
});

describe('award emoji on a note', () => {
  it('awards a note of an issue or a merge request, not a system note, and forgets them with the note', async () => {
    const note = (await call('POST', `${MR}/notes`, 'dev-token', { body: 'Ready for review' })).body;
    const path = `${MR}/notes/${note.id}/award_emoji`;
    const a = await call('POST', path, 'reporter-token', { name: 'eyes' });
    expect(a).toMatchObject({ status: 201, body: { name: 'eyes', user: { username: 'rep' }, awardable_id: note.id, awardable_type: 'Note' } });
    expect(await call('POST', path, 'reporter-token', { name: 'eyes' })).toMatchObject({ status: 404, body: { message: '404 Award Emoji User has already been taken Not Found' } });
    expect((await call('GET', path, 'dev-token')).body).toEqual([a.body]);
    expect((await call('GET', `${path}/${a.body.id}`, 'dev-token')).body).toEqual(a.body);
    // Not the merge request's own awards, and not another noteable's note.
    expect((await call('GET', `${MR}/award_emoji`, 'dev-token')).body).toEqual([]);
    expect(await call('GET', `${APP}/merge_requests/2/notes/${note.id}/award_emoji`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await call('GET', `${MR}/notes/99999/award_emoji`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await call('GET', path, 'guest-token')).status).toBe(404);
    expect((await call('DELETE', `${path}/${a.body.id}`, 'dev-token')).status).toBe(401);
    await call('PUT', `${APP}/issues/1`, 'dev-token', { title: 'Renamed' });
    const [renamed] = (await call('GET', `${APP}/issues/1/notes`, 'dev-token')).body;
    expect(renamed.system).toBe(true);
    expect(await call('POST', `${APP}/issues/1/notes/${renamed.id}/award_emoji`, 'dev-token', { name: 'tada' })).toMatchObject({
      status: 404, body: { message: '404 Award Emoji Awardable cannot be awarded emoji Not Found' },
    });
    const hi = (await call('POST', `${APP}/issues/1/notes`, 'dev-token', { body: 'Hi' })).body;
    expect((await call('POST', `${APP}/issues/1/notes/${hi.id}/award_emoji`, 'reporter-token', { name: 'wave' })).status).toBe(201);
    expect((await call('DELETE', `${MR}/notes/${note.id}`, 'dev-token')).status).toBe(204);
    expect(await call('GET', path, 'dev-token')).toMatchObject({ status: 404 });
  });
});

describe('subscriptions to a merge request', () => {
  it('the author and assignees are subscribed; subscribe and unsubscribe answer 201 or 304', async () => {
    const participants = await call('GET', `${MR}/participants`, 'reporter-token');
    expect(participants.body.map((u: { username: string }) => u.username)).toEqual(['rep', 'dev']);
    expect(participants.res.headers.get('x-total')).toBe('2');
    expect((await call('GET', `${MR}/participants`, 'guest-token')).status).toBe(403);
    expect(await call('GET', `${APP}/merge_requests/9/participants`, 'reporter-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await call('GET', MR, 'dev-token')).body.subscribed).toBe(true);
    expect((await call('GET', MR, 'reporter-token')).body.subscribed).toBe(true);
    expect((await call('GET', MR, 'maintainer-token')).body.subscribed).toBe(false);
    expect((await call('POST', `${MR}/subscribe`, 'dev-token')).status).toBe(304);
    const un = await call('POST', `${MR}/unsubscribe`, 'dev-token');
    expect(un).toMatchObject({ status: 201, body: { iid: 1, title: 'Add f', subscribed: false } });
    expect(un.body.changes_count).toBe('1');
    expect((await call('POST', `${MR}/unsubscribe`, 'dev-token')).status).toBe(304);
    expect((await call('GET', MR, 'dev-token')).body.subscribed).toBe(false);
    // The issue of the same id keeps its own subscriptions.
    expect((await call('POST', `${APP}/issues/1/subscribe`, 'dev-token')).status).toBe(304);
    expect((await call('POST', `${MR}/subscribe`, 'maintainer-token')).body.subscribed).toBe(true);
    expect((await call('GET', MR, 'maintainer-token')).body.subscribed).toBe(true);
    expect((await call('POST', `${MR}/subscribe`, 'dev-token')).body.subscribed).toBe(true);
  });

  it('takes update_merge_request: 403 for a Reporter on another’s merge request, 404 for none', async () => {
    expect(await call('POST', `${APP}/merge_requests/2/subscribe`, 'reporter-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('POST', `${MR}/unsubscribe`, 'reporter-token')).status).toBe(201);
    expect(await call('POST', `${APP}/merge_requests/9/subscribe`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await call('POST', `${APP}/merge_requests/abc/subscribe`, 'dev-token')).status).toBe(404);
    expect((await call('POST', `${MR}/subscribe`)).status).toBe(401);
  });
});

describe('to-dos of merge requests', () => {
  it('marks a to-do once, lists it by type and marks it done', async () => {
    const mr = (await call('GET', MR, 'dev-token')).body;
    const todo = await call('POST', `${MR}/todo`, 'dev-token');
    expect(todo.status).toBe(201);
    expect(todo.body).toMatchObject({
      action_name: 'marked', target_type: 'MergeRequest', state: 'pending', body: 'Add f',
      target: { id: mr.id, iid: 1, title: 'Add f', subscribed: false, changes_count: '1', user: { can_merge: false } },
      target_url: 'https://gitlab.example.com/acme/app/-/merge_requests/1', project: { path_with_namespace: 'acme/app' }, author: { username: 'dev' },
    });
    expect(Object.keys(todo.body)).toEqual(['id', 'project', 'author', 'action_name', 'target_type', 'target', 'target_url', 'body', 'state', 'created_at', 'updated_at']);
    expect(todo.body.target).not.toHaveProperty('head_pipeline');
    expect((await call('POST', `${MR}/todo`, 'dev-token')).status).toBe(304);
    // The issue of the same id takes its own to-do.
    const issueTodo = await call('POST', `${APP}/issues/1/todo`, 'dev-token');
    expect(issueTodo.status).toBe(201);
    const ids = async (query = '') => (await call('GET', `/todos${query}`, 'dev-token')).body.map((t: { id: number }) => t.id);
    expect(await ids()).toEqual([issueTodo.body.id, todo.body.id]);
    expect(await ids('?type=MergeRequest')).toEqual([todo.body.id]);
    expect(await ids('?type=Issue')).toEqual([issueTodo.body.id]);
    const listed = (await call('GET', '/todos?type=MergeRequest', 'dev-token')).body[0];
    expect(listed).toMatchObject({ target_type: 'MergeRequest', target: { iid: 1 }, target_url: todo.body.target_url });
    const done = await call('POST', `/todos/${todo.body.id}/mark_as_done`, 'dev-token');
    expect(done).toMatchObject({ status: 201, body: { state: 'done', target_type: 'MergeRequest' } });
    expect(await ids('?type=MergeRequest')).toEqual([]);
    expect(await ids('?type=MergeRequest&state=done')).toEqual([todo.body.id]);
    expect((await call('POST', `${MR}/todo`, 'dev-token')).status).toBe(201);
    expect((await call('POST', '/todos/mark_as_done', 'dev-token')).status).toBe(204);
    expect(await ids()).toEqual([]);
    expect(await call('POST', `${APP}/merge_requests/9/todo`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    // find_merge_request_with_access: read_merge_request, else 403.
    expect(await call('POST', `${MR}/todo`, 'guest-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('hides the to-dos of merge requests the user can no longer read', async () => {
    expect((await call('POST', `${MR}/todo`, 'reporter-token')).status).toBe(201);
    expect((await call('GET', '/todos', 'reporter-token')).body).toHaveLength(1);
    const rep = (await call('GET', '/users?username=rep', 'root-token')).body[0];
    expect((await call('DELETE', `${APP}/members/${rep.id}`, 'root-token')).status).toBe(204);
    expect((await call('GET', '/todos', 'reporter-token')).body).toEqual([]);
  });
});

describe('quick actions in a merge request’s notes', () => {
  it('/unsubscribe, /todo and /award act for the caller, answering 202 with commands_changes', async () => {
    const r = await call('POST', `${MR}/notes`, 'dev-token', { body: '/unsubscribe\n/todo\n/award :thumbsup:' });
    expect(r).toMatchObject({
      status: 202,
      body: {
        commands_changes: { emoji_award: 'thumbsup', todo_event: 'add', subscription_event: 'unsubscribe' },
        summary: ['Unsubscribed from notifications. Added a to-do item. Toggled :thumbsup: emoji reaction.'],
      },
    });
    expect(Object.keys(r.body.commands_changes)).toEqual(['emoji_award', 'todo_event', 'subscription_event']);
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ subscribed: false, upvotes: 1 });
    // The award finishes the to-do /todo added: IssuableBaseService runs change_todo, then toggle_award,
    // whose AddService marks the awarder's pending to-dos on the target done.
    expect((await call('GET', '/todos?type=MergeRequest', 'dev-token')).body).toEqual([]);
    expect((await call('GET', '/todos?type=MergeRequest&state=done', 'dev-token')).body).toEqual([expect.objectContaining({ action_name: 'marked', target: expect.objectContaining({ iid: 1 }) })]);
    expect((await call('POST', `${MR}/notes`, 'dev-token', { body: '/todo' })).status).toBe(202);
    // The issue of the same id is untouched.
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body).toMatchObject({ subscribed: true, upvotes: 0 });
    expect((await call('GET', '/todos?type=Issue', 'dev-token')).body).toEqual([]);

    // Each condition is judged on the merge request as it was before the note: /unsubscribe cannot apply.
    const back = await call('POST', `${MR}/notes`, 'dev-token', { body: 'Looked again\n/done\n/subscribe\n/award :thumbsup:\n/unsubscribe' });
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ body: 'Looked again', commands_changes: { emoji_award: 'thumbsup', todo_event: 'done', subscription_event: 'subscribe' } });
    expect((await call('GET', MR, 'dev-token')).body).toMatchObject({ subscribed: true, upvotes: 0 });
    expect((await call('GET', '/todos', 'dev-token')).body).toEqual([]);

    const refused = await call('POST', `${MR}/notes`, 'dev-token', { body: '/done\n/subscribe' });
    expect(refused).toMatchObject({ status: 202, body: { commands_changes: {}, summary: ['Could not apply done command. Could not apply subscribe command.'] } });
    expect((await call('POST', `${MR}/notes`, 'maintainer-token', { body: '/subscribe' })).body.summary).toEqual(['Subscribed to notifications.']);
    expect((await call('GET', MR, 'maintainer-token')).body.subscribed).toBe(true);
  });
});

describe('merge request award emoji, subscriptions and to-dos through @gitbeaker/rest against the server', () => {
  it('awards, unsubscribes, marks a to-do and lists it', async () => {
    const emulator = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'dev-token' });
      const award = await api.MergeRequestAwardEmojis.award('acme/app', 1, 'tada');
      expect(award).toMatchObject({ name: 'tada', awardable_type: 'MergeRequest' });
      expect((await api.MergeRequestAwardEmojis.all('acme/app', 1)).map((x) => x.name)).toEqual(['tada']);
      expect((await api.MergeRequestAwardEmojis.show('acme/app', 1, award.id)).id).toBe(award.id);
      expect((await api.MergeRequests.unsubscribe('acme/app', 1)).subscribed).toBe(false);
      expect((await api.MergeRequests.subscribe('acme/app', 1)).subscribed).toBe(true);
      const todo = await api.MergeRequests.createTodo('acme/app', 1);
      expect(todo).toMatchObject({ target_type: 'MergeRequest', state: 'pending' });
      expect((await api.TodoLists.all({ type: 'MergeRequest' })).map((t) => t.id)).toEqual([todo.id]);
      expect((await api.TodoLists.done({ todoId: todo.id })).state).toBe('done');
      await api.MergeRequestAwardEmojis.remove('acme/app', 1, award.id);
      expect(await api.MergeRequestAwardEmojis.all('acme/app', 1)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
