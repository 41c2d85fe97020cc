// The events API (GET /events, /users/:id/events, /projects/:id/events), read from the event
// stream: what GitLab records for a push, a project's creation, a membership, a milestone and a
// wiki page, its filters, order and visibility; and the stream itself: a failed request adds
// nothing.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2026-03-02T10:00:00Z';

const world = seededWorld(
  {
    users: TEAM,
    groups: [ACME],
    projects: [
      { namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'README.md': '# app\n' } } },
      { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', repository: { files: { 'index.html': '<p>hi</p>\n' } } },
    ],
  },
  NOW,
);

async function body(res: Response): Promise<any> {
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.json();
}

const commit = (project: string, token: string, branch: string, message: string, extra: Record<string, unknown> = {}) =>
  apiCall(world(), `/projects/${encodeURIComponent(project)}/repository/commits`, {
    method: 'POST',
    token,
    json: { branch, commit_message: message, actions: [{ action: 'create', file_path: `${message.replace(/\W+/g, '-')}.txt`, content: message }], ...extra },
  });

describe('events of a push', () => {
  it('a commit through the API is a push: pushed to, with its payload', async () => {
    await body(await commit('acme/app', 'dev-token', 'main', 'Add the first feature\n\nwith a body'));
    const [event] = await body(await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'dev-token' }));
    expect(event).toMatchObject({
      project_id: expect.any(Number),
      action_name: 'pushed to',
      target_id: null,
      target_iid: null,
      target_type: null,
      author_username: 'dev',
      target_title: null,
      created_at: '2026-03-02T10:00:00.000Z',
      push_data: { commit_count: 1, action: 'pushed', ref_type: 'branch', ref: 'main', commit_title: 'Add the first feature', ref_count: null },
      author: { username: 'dev' },
    });
    expect(event.push_data.commit_from).toMatch(/^[0-9a-f]{40}$/);
    expect(event.push_data.commit_to).toMatch(/^[0-9a-f]{40}$/);
    expect(event.push_data.commit_from).not.toBe(event.push_data.commit_to);
  });

  it('a new branch is pushed new, counting the commits its default branch lacks; a deleted one is deleted', async () => {
    await body(await commit('acme/app', 'dev-token', 'feature', 'One', { start_branch: 'main' }));
    await body(await commit('acme/app', 'dev-token', 'feature', 'Two'));
    expect((await apiCall(world(), '/projects/acme%2Fapp/repository/branches/feature', { method: 'DELETE', token: 'maintainer-token' })).status).toBe(204);
    const events = await body(await apiCall(world(), '/projects/acme%2Fapp/events?action=pushed', { token: 'dev-token' }));
    expect(events.map((e: any) => [e.action_name, e.push_data.action, e.push_data.commit_count, e.push_data.commit_title])).toEqual([
      ['deleted', 'removed', 0, null],
      ['pushed to', 'pushed', 1, 'Two'],
      ['pushed new', 'created', 1, 'One'],
    ]);
  });

  it('the first commit of an empty project is a new default branch: pushed new, counting its commits', async () => {
    const made = await body(await apiCall(world(), '/projects', { method: 'POST', token: 'dev-token', json: { name: 'empty' } }));
    await body(await commit(`dev/empty`, 'dev-token', 'main', 'Start here'));
    const [event] = await body(await apiCall(world(), `/projects/${made.id}/events?action=pushed`, { token: 'dev-token' }));
    expect(event).toMatchObject({ action_name: 'pushed new', push_data: { action: 'created', ref: 'main', commit_count: 1, commit_title: 'Start here', commit_from: null } });
  });

  it('a tag made through the API is a tag push of its commit', async () => {
    await body(await apiCall(world(), '/projects/acme%2Fapp/repository/tags', { method: 'POST', token: 'maintainer-token', json: { tag_name: 'v1.0', ref: 'main', message: 'First' } }));
    const [event] = await body(await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'maintainer-token' }));
    expect(event.action_name).toBe('pushed new');
    expect(event.push_data).toMatchObject({ ref_type: 'tag', ref: 'v1.0', action: 'created', commit_count: 1, commit_from: null });
  });

  it('a failed request leaves no event', async () => {
    const before = await body(await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'dev-token' }));
    const res = await commit('acme/app', 'dev-token', 'main', 'Clash', { actions: [{ action: 'update', file_path: 'missing.txt', content: 'x' }] });
    expect(res.status).toBe(400);
    expect(await body(await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'dev-token' }))).toEqual(before);
  });
});

describe('other events GitLab records', () => {
  it('a project made through the API is created, by its creator', async () => {
    const made = await body(await apiCall(world(), '/projects', { method: 'POST', token: 'dev-token', json: { name: 'tools' } }));
    const [event] = await body(await apiCall(world(), `/projects/${made.id}/events`, { token: 'dev-token' }));
    expect(event).toMatchObject({ project_id: made.id, action_name: 'created', target_type: null, author_username: 'dev' });
  });

  it('a member added and removed: joined and left, authored by the member', async () => {
    const outId = (await body(await apiCall(world(), '/users?username=out', { token: 'root-token' })))[0].id;
    await body(await apiCall(world(), '/projects/acme%2Fsite/members', { method: 'POST', token: 'root-token', json: { user_id: outId, access_level: 30 } }));
    const res = await apiCall(world(), `/projects/acme%2Fsite/members/${outId}`, { method: 'DELETE', token: 'root-token' });
    expect(res.status).toBe(204);
    const events = await body(await apiCall(world(), '/projects/acme%2Fsite/events', { token: 'root-token' }));
    expect(events.map((e: any) => [e.action_name, e.author_username])).toEqual([
      ['left', 'out'],
      ['joined', 'out'],
    ]);
    const own = await body(await apiCall(world(), '/users/out/events', { token: 'outsider-token' }));
    expect(own.map((e: any) => e.action_name)).toEqual(['left', 'joined']);
  });

  it('a milestone: opened, closed, opened again, destroyed; once it is gone, its events name no title and its id as iid', async () => {
    const m = await body(await apiCall(world(), '/projects/acme%2Fapp/milestones', { method: 'POST', token: 'maintainer-token', json: { title: 'v1' } }));
    const [opened] = await body(await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'maintainer-token' }));
    expect(opened).toMatchObject({ action_name: 'opened', target_type: 'Milestone', target_id: m.id, target_iid: m.iid, target_title: 'v1' });
    await body(await apiCall(world(), `/projects/acme%2Fapp/milestones/${m.id}`, { method: 'PUT', token: 'maintainer-token', json: { state_event: 'close' } }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/milestones/${m.id}`, { method: 'PUT', token: 'maintainer-token', json: { state_event: 'activate' } }));
    expect((await apiCall(world(), `/projects/acme%2Fapp/milestones/${m.id}`, { method: 'DELETE', token: 'maintainer-token' })).status).toBe(204);
    const events = await body(await apiCall(world(), '/projects/acme%2Fapp/events?target_type=milestone&sort=asc', { token: 'maintainer-token' }));
    expect(events.map((e: any) => [e.action_name, e.target_type, e.target_id, e.target_iid, e.target_title])).toEqual([
      ['opened', 'Milestone', m.id, m.id, null],
      ['closed', 'Milestone', m.id, m.id, null],
      ['opened', 'Milestone', m.id, m.id, null],
      ['destroyed', 'Milestone', m.id, m.id, null],
    ]);
  });

  it('a wiki page: created, updated, destroyed, with wiki_page', async () => {
    await body(await apiCall(world(), '/projects/acme%2Fapp/wikis', { method: 'POST', token: 'dev-token', json: { title: 'Home', content: 'hello' } }));
    await body(await apiCall(world(), '/projects/acme%2Fapp/wikis/Home', { method: 'PUT', token: 'dev-token', json: { content: 'hello again' } }));
    expect((await apiCall(world(), '/projects/acme%2Fapp/wikis/Home', { method: 'DELETE', token: 'maintainer-token' })).status).toBe(204);
    const events = await body(await apiCall(world(), '/projects/acme%2Fapp/events?target_type=wiki', { token: 'dev-token' }));
    expect(events.map((e: any) => e.action_name)).toEqual(['destroyed', 'updated', 'created']);
    expect(events[2]).toMatchObject({ target_type: 'WikiPage::Meta', target_id: expect.any(Number), target_title: 'Home', wiki_page: { format: 'markdown', slug: 'Home', title: 'Home' } });
  });
});

describe('issues, merge requests and comments', () => {
  it('an issue opened, closed and reopened; a comment on it, with the note and the issue\'s title', async () => {
    const issue = await body(await apiCall(world(), '/projects/acme%2Fapp/issues', { method: 'POST', token: 'dev-token', json: { title: 'Broken' } }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/issues/${issue.iid}`, { method: 'PUT', token: 'dev-token', json: { state_event: 'close' } }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/issues/${issue.iid}`, { method: 'PUT', token: 'dev-token', json: { state_event: 'reopen', title: 'Still broken' } }));
    const note = await body(await apiCall(world(), `/projects/acme%2Fapp/issues/${issue.iid}/notes`, { method: 'POST', token: 'reporter-token', json: { body: 'Seen it too' } }));
    const events = await body(await apiCall(world(), '/projects/acme%2Fapp/events?sort=asc', { token: 'dev-token' }));
    expect(events.map((e: any) => [e.action_name, e.target_type, e.target_title, e.author_username])).toEqual([
      ['opened', 'Issue', 'Still broken', 'dev'],
      ['closed', 'Issue', 'Still broken', 'dev'],
      ['opened', 'Issue', 'Still broken', 'dev'],
      ['commented on', 'Note', 'Still broken', 'rep'],
    ]);
    expect(events[0]).toMatchObject({ target_id: issue.id, target_iid: issue.iid });
    expect(events[3]).toMatchObject({ target_id: note.id, target_iid: note.id, note: { id: note.id, body: 'Seen it too', noteable_type: 'Issue', noteable_iid: issue.iid } });
    const reopened = await body(await apiCall(world(), '/projects/acme%2Fapp/events?action=reopened', { token: 'dev-token' }));
    expect(reopened).toHaveLength(1);
    const comments = await body(await apiCall(world(), '/projects/acme%2Fapp/events?target_type=note', { token: 'dev-token' }));
    expect(comments.map((e: any) => e.note.body)).toEqual(['Seen it too']);
  });

  it('a confidential issue and its comments are left out for a guest, and the page comes back short', async () => {
    const issue = await body(await apiCall(world(), '/projects/acme%2Fapp/issues', { method: 'POST', token: 'dev-token', json: { title: 'Secret', confidential: true } }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/issues/${issue.iid}/notes`, { method: 'POST', token: 'dev-token', json: { body: 'hush' } }));
    await body(await apiCall(world(), '/projects/acme%2Fapp/issues', { method: 'POST', token: 'dev-token', json: { title: 'Open' } }));
    const res = await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'guest-token' });
    expect(res.headers.get('x-total')).toBe('3');
    expect((await body(res)).map((e: any) => e.target_title)).toEqual(['Open']);
  });

  it('a merge request opened, approved and merged (accepted)', async () => {
    await body(await commit('acme/app', 'dev-token', 'topic', 'Work', { start_branch: 'main' }));
    const mr = await body(await apiCall(world(), '/projects/acme%2Fapp/merge_requests', { method: 'POST', token: 'dev-token', json: { source_branch: 'topic', target_branch: 'main', title: 'Add work' } }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/merge_requests/${mr.iid}/approve`, { method: 'POST', token: 'maintainer-token' }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/merge_requests/${mr.iid}/merge`, { method: 'PUT', token: 'maintainer-token' }));
    const events = await body(await apiCall(world(), '/projects/acme%2Fapp/events?target_type=merge_request&sort=asc', { token: 'dev-token' }));
    expect(events.map((e: any) => [e.action_name, e.target_iid, e.target_title, e.author_username])).toEqual([
      ['opened', mr.iid, 'Add work', 'dev'],
      ['approved', mr.iid, 'Add work', 'mai'],
      ['accepted', mr.iid, 'Add work', 'mai'],
    ]);
    const merged = await body(await apiCall(world(), '/projects/acme%2Fapp/events?action=merged', { token: 'dev-token' }));
    expect(merged.map((e: any) => e.action_name)).toEqual(['accepted']);
  });
});

describe('who sees which events', () => {
  it("a private project's events are 404 to an outsider, and left out of a user's events", async () => {
    await body(await commit('acme/app', 'dev-token', 'main', 'Private work'));
    await body(await commit('acme/site', 'root-token', 'main', 'Public work'));
    expect((await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'outsider-token' })).status).toBe(404);
    const seen = await body(await apiCall(world(), '/users/dev/events', { token: 'outsider-token' }));
    expect(seen).toEqual([]);
    const own = await body(await apiCall(world(), '/users/dev/events', { token: 'dev-token' }));
    expect(own.map((e: any) => e.push_data.commit_title)).toEqual(['Private work']);
    expect(await body(await apiCall(world(), '/projects/acme%2Fsite/events'))).toHaveLength(1);
  });

  it('a guest sees no pushes of a project whose code needs Reporter', async () => {
    await body(await apiCall(world(), '/projects/acme%2Fapp', { method: 'PUT', token: 'root-token', json: { repository_access_level: 'private' } }));
    await body(await commit('acme/app', 'dev-token', 'main', 'Code'));
    const res = await apiCall(world(), '/projects/acme%2Fapp/events', { token: 'guest-token' });
    // X-Total counts the rows before each row's own ability is checked, as EventsFinder does.
    expect(res.headers.get('x-total')).toBe('1');
    expect(await body(res)).toEqual([]);
  });

  it('GET /events is the caller\'s own; scope=all is every project they are a member of', async () => {
    await body(await commit('acme/app', 'maintainer-token', 'main', 'By mai'));
    await body(await commit('acme/app', 'dev-token', 'main', 'By dev'));
    await body(await commit('acme/site', 'root-token', 'main', 'Elsewhere'));
    const own = await body(await apiCall(world(), '/events', { token: 'dev-token' }));
    expect(own.map((e: any) => e.push_data.commit_title)).toEqual(['By dev']);
    const all = await body(await apiCall(world(), '/events?scope=all', { token: 'dev-token' }));
    expect(all.map((e: any) => e.push_data.commit_title)).toEqual(['By dev', 'By mai']);
    expect((await apiCall(world(), '/events')).status).toBe(401);
  });

  it('a private profile shows its events to its owner and administrators only', async () => {
    await body(await commit('acme/site', 'root-token', 'main', 'Mine'));
    await body(await apiCall(world(), '/users/1', { method: 'PUT', token: 'root-token', json: { private_profile: true } }));
    expect(await body(await apiCall(world(), '/users/root/events', { token: 'dev-token' }))).toEqual([]);
    expect(await body(await apiCall(world(), '/users/root/events', { token: 'root-token' }))).toHaveLength(1);
  });
});

describe('filters and pages', () => {
  it('before and after are days: after excludes its own day, before excludes its own day', async () => {
    await body(await commit('acme/site', 'root-token', 'main', 'Monday'));
    world().clock.set('2026-03-03T10:00:00Z');
    await body(await commit('acme/site', 'root-token', 'main', 'Tuesday'));
    world().clock.set('2026-03-04T10:00:00Z');
    await body(await commit('acme/site', 'root-token', 'main', 'Wednesday'));
    const titles = async (q: string) => (await body(await apiCall(world(), `/projects/acme%2Fsite/events?${q}`))).map((e: any) => e.push_data.commit_title);
    expect(await titles('after=2026-03-02')).toEqual(['Wednesday', 'Tuesday']);
    expect(await titles('before=2026-03-04')).toEqual(['Tuesday', 'Monday']);
    expect(await titles('after=2026-03-02&before=2026-03-04')).toEqual(['Tuesday']);
    expect(await titles('sort=asc&per_page=2')).toEqual(['Monday', 'Tuesday']);
  });

  it('bad filters are 400 with Grape\'s messages; an unknown user is 404', async () => {
    const error = async (q: string) => (await apiCall(world(), `/projects/acme%2Fsite/events?${q}`)).json();
    expect(await error('action=poked')).toEqual({ error: 'action does not have a valid value' });
    expect(await error('target_type=Issue')).toEqual({ error: 'target_type does not have a valid value' });
    expect(await error('before=yesterday')).toEqual({ error: 'before is invalid' });
    expect(await error('sort=up')).toEqual({ error: 'sort does not have a valid value' });
    const res = await apiCall(world(), '/users/nobody/events', { token: 'dev-token' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: '404 User Not Found' });
  });
});

describe('the stream as a test reads it (emulator.events)', () => {
  it('lists every kind, oldest first, with the request\'s user as actor; what a test handle does is nobody\'s', async () => {
    const ci = world().ci('acme/app');
    const pipeline = ci.pipeline({ ref: 'main', user: 'dev' });
    const job = ci.job(pipeline.id, { name: 'test', status: 'pending' });
    ci.start(job.id);
    ci.finish(job.id, { status: 'failed' });
    const res = await apiCall(world(), `/projects/acme%2Fapp/jobs/${job.id}/retry`, { method: 'POST', token: 'dev-token' });
    expect(res.status).toBe(201);
    const retried = await res.json();
    const devId = (await body(await apiCall(world(), '/user', { token: 'dev-token' }))).id;
    const seen = world().events.list('job.status', 'pipeline.status').map((e) => [e.kind, e.status, e.previous, e.actorId]);
    expect(seen).toEqual([
      ['pipeline.status', 'created', null, null],
      ['job.status', 'pending', null, null],
      ['pipeline.status', 'pending', 'created', null],
      ['job.status', 'running', 'pending', null],
      ['pipeline.status', 'running', 'pending', null],
      ['job.status', 'failed', 'running', null],
      ['pipeline.status', 'failed', 'running', null],
      ['job.status', 'pending', null, devId],
      ['pipeline.status', 'pending', 'failed', devId],
    ]);
    expect(world().events.list('job.status').at(-1)).toMatchObject({ jobId: retried.id });
    // What the handle did reached its subscribers in a transaction of its own, before the next request.
    await world().settled();
    expect(world().state.unsettled).toEqual([]);
    expect(world().events.list().every((e, i, all) => i === 0 || e.id > all[i - 1]!.id)).toBe(true);
  });

  it('an issue updated says which fields changed, once for a request that changes several', async () => {
    const issue = await body(await apiCall(world(), '/projects/acme%2Fapp/issues', { method: 'POST', token: 'dev-token', json: { title: 'One', description: 'Text\n\n/label ~bug' } }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/issues/${issue.iid}`, { method: 'PUT', token: 'dev-token', json: { title: 'Two', due_date: '2026-04-01', add_labels: 'ux' } }));
    await body(await apiCall(world(), `/projects/acme%2Fapp/issues/${issue.iid}/notes`, { method: 'POST', token: 'dev-token', json: { body: 'a comment moves only updated_at' } }));
    const kinds = world().events.list('issue.opened', 'issue.updated', 'note.created');
    expect(kinds.map((e) => e.kind)).toEqual(['issue.opened', 'issue.updated', 'note.created']);
    expect(kinds[1]).toMatchObject({ kind: 'issue.updated', iid: issue.iid, changes: expect.arrayContaining(['title', 'due_date', 'labels']) });
  });
});
