// Issues (lib/api/issues.rb, app/finders/issues_finder.rb, lib/api/entities/issue.rb) and labels.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, issueRecord, notesOf, seededWorld, updateProject } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z'; // a Wednesday

const FIXTURE: Fixture = {
  users: [...TEAM, { username: 'pla', tokens: [{ token: 'planner-token' }] }, { username: 'own', tokens: [{ token: 'owner-token' }] }],
  groups: [{ ...ACME, labels: [{ name: 'group-label', color: '#ff0000' }], milestones: [{ title: 'G1', due_date: '2024-04-01', start_date: '2024-03-01' }] }, { path: 'sub', parent: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root',
      members: [...TEAM_MEMBERS, { user: 'pla', access_level: 'planner' }, { user: 'own', access_level: 'owner' }],
      labels: [{ name: 'bug', color: '#d9534f', description: 'Broken', priority: 1 }, { name: 'feature', color: '#5cb85c' }],
      milestones: [{ title: 'v1', due_date: '2024-03-20' }, { title: 'v2', due_date: '2024-05-01' }, { title: 'old', due_date: '2024-01-01' }],
      issues: [
        { title: 'First bug', author: 'dev', labels: ['bug'], milestone: 'v1', due_date: '2024-03-06', created_at: '2024-01-01T00:00:00Z', assignees: ['dev'] },
        { title: 'Feature request', description: '- [x] one\n- [ ] two', author: 'gus', labels: ['feature', 'group-label'], due_date: '2024-03-10', created_at: '2024-01-02T00:00:00Z' },
        { title: 'Secret', author: 'rep', confidential: true, created_at: '2024-01-03T00:00:00Z', milestone: 'v2' },
        { title: 'Closed one', author: 'dev', state: 'closed', labels: ['bug', 'feature'], created_at: '2024-01-04T00:00:00Z', due_date: '2024-02-01', milestone: 'G1' },
        { title: 'Guest secret', author: 'gus', confidential: true, created_at: '2024-01-05T00:00:00Z', time_estimate: '1d', time_spent: '2h' },
      ],
    },
    { namespace: 'acme/sub', path: 'lib', visibility: 'public', creator: 'root', issues: [{ title: 'Lib issue', author: 'out', created_at: '2024-01-06T00:00:00Z' }] },
  ],
};

const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, token?: string, json?: unknown, headers?: Record<string, string>) {
  const res = await apiCall(world(), path, { method, token, json, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, res };
}
const titles = (list: { title: string }[]) => list.map((i) => i.title);

describe('GET /projects/:id/issues/:issue_iid', () => {
  it('renders the Issue entity in GitLab order, with subscribed', async () => {
    const { status, body } = await call('GET', `${APP}/issues/2`, 'dev-token');
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual([
      'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'closed_at', 'closed_by', 'labels', 'milestone', 'assignees',
      'author', 'type', 'assignee', 'user_notes_count', 'merge_requests_count', 'upvotes', 'downvotes', 'due_date', 'confidential', 'discussion_locked',
      'issue_type', 'web_url', 'time_stats', 'task_completion_status', 'has_tasks', 'task_status', '_links', 'references', 'severity', 'subscribed',
      'moved_to_id', 'imported', 'imported_from', 'service_desk_reply_to',
    ]);
    expect(body).toMatchObject({
      iid: 2, title: 'Feature request', state: 'opened', labels: ['feature', 'group-label'], type: 'ISSUE', issue_type: 'issue', severity: 'UNKNOWN',
      web_url: 'https://gitlab.example.com/acme/app/-/issues/2', has_tasks: true, task_status: '1 of 2 checklist items completed',
      task_completion_status: { count: 2, completed_count: 1 }, references: { short: '#2', relative: '#2', full: 'acme/app#2' },
      author: { username: 'gus' }, subscribed: false,
    });
    expect(body._links.closed_as_duplicate_of).toBeNull();
    expect(body._links.self).toBe(`https://gitlab.example.com/api/v4/projects/${body.project_id}/issues/2`);
  });

  it('hides confidential issues from guests who neither wrote nor are assigned them', async () => {
    expect((await call('GET', `${APP}/issues/3`, 'guest-token')).body).toEqual({ message: '404 Not found' });
    expect((await call('GET', `${APP}/issues/5`, 'guest-token')).status).toBe(200);
    expect((await call('GET', `${APP}/issues/3`, 'planner-token')).status).toBe(200);
    expect((await call('GET', `${APP}/issues/99`, 'dev-token')).body).toEqual({ message: '404 Not found' });
    expect((await call('GET', `${APP}/issues/1`, 'outsider-token')).body).toEqual({ message: '404 Project Not Found' });
  });

  it('shows time stats from the fixture in the human form', async () => {
    const { body } = await call('GET', `${APP}/issues/5`, 'root-token');
    expect(body.time_stats).toEqual({ time_estimate: 28800, total_time_spent: 7200, human_time_estimate: '1d', human_total_time_spent: '2h' });
  });
});

describe('GET /projects/:id/issues', () => {
  const list = async (q: string, token = 'dev-token') => {
    const r = await call('GET', `${APP}/issues?${q}`, token);
    if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return titles(r.body);
  };

  it('lists newest first, without subscribed, confidential ones by role', async () => {
    const { body, res } = await call('GET', `${APP}/issues`, 'guest-token');
    expect(titles(body)).toEqual(['Guest secret', 'Closed one', 'Feature request', 'First bug']);
    expect(res.headers.get('x-total')).toBe('4');
    expect(body[0]).not.toHaveProperty('subscribed');
    expect(await list('')).toEqual(['Guest secret', 'Closed one', 'Secret', 'Feature request', 'First bug']);
  });

  it('filters by state, labels (all of them, None, Any, unknown) and not[labels]', async () => {
    expect(await list('state=closed')).toEqual(['Closed one']);
    expect(await list('labels=bug,feature')).toEqual(['Closed one']);
    expect(await list('labels=bug')).toEqual(['Closed one', 'First bug']);
    expect(await list('labels=None')).toEqual(['Guest secret', 'Secret']);
    expect(await list('labels=any')).toEqual(['Closed one', 'Feature request', 'First bug']);
    expect(await list('labels=nope')).toEqual([]);
    expect(await list('labels=group-label')).toEqual(['Feature request']);
    expect(await list('not[labels]=bug')).toEqual(['Guest secret', 'Secret', 'Feature request']);
    expect(await list('labels[]=bug&labels[]=feature')).toEqual(['Closed one']);
  });

  it('filters by milestone title, None/Any and milestone_id Upcoming/Started', async () => {
    expect(await list('milestone=v1')).toEqual(['First bug']);
    expect(await list('milestone=None')).toEqual(['Guest secret', 'Feature request']);
    expect(await list('milestone=Any')).toEqual(['Closed one', 'Secret', 'First bug']);
    // Upcoming: per owner, the active milestone due soonest after today: v1 in the project, G1 in the group.
    expect(await list('milestone_id=Upcoming')).toEqual(['Closed one', 'First bug']);
    expect(await list('milestone_id=Started')).toEqual(['Closed one']);
    expect(await list('not[milestone_id]=Started')).toEqual([]);
    const r = await call('GET', `${APP}/issues?milestone=v1&milestone_id=Any`, 'dev-token');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'milestone_id, milestone are mutually exclusive' });
  });

  it('filters by author, assignee (None/Any), iids, search with in, confidential', async () => {
    expect(await list('author_username=gus')).toEqual(['Guest secret', 'Feature request']);
    const devId = (await call('GET', `${APP}/issues/1`, 'dev-token')).body.author.id;
    expect(await list(`author_id=${devId}`)).toEqual(['Closed one', 'First bug']);
    expect(await list('assignee_id=None')).toEqual(['Guest secret', 'Closed one', 'Secret', 'Feature request']);
    expect(await list('assignee_id=Any')).toEqual(['First bug']);
    expect(await list('assignee_username=dev')).toEqual(['First bug']);
    expect(await list('iids[]=1&iids[]=2')).toEqual(['Feature request', 'First bug']);
    expect(await list('not[iids][]=1&state=opened')).toEqual(['Guest secret', 'Secret', 'Feature request']);
    expect(await list('search=BUG')).toEqual(['First bug']);
    expect(await list('search=one&in=description')).toEqual(['Feature request']);
    expect(await list('search=one&in=title')).toEqual(['Closed one']);
    expect(await list('confidential=true')).toEqual(['Guest secret', 'Secret']);
    expect(await list('not[author_username]=gus')).toEqual(['Closed one', 'Secret', 'First bug']);
    expect((await call('GET', `${APP}/issues?assignee_id=foo`, 'dev-token')).body).toEqual({ error: 'assignee_id does not have a valid value' });
    expect((await call('GET', `${APP}/issues?assignee_username[]=dev&assignee_username[]=gus`, 'dev-token')).body).toEqual({
      error: 'assignee_username allows one value, but found 2: dev, gus',
    });
    expect((await call('GET', `${APP}/issues?author_id=1&author_username=dev`, 'dev-token')).body).toEqual({ error: 'author_id, author_username are mutually exclusive' });
  });

  it('filters by inclusive dates and due date windows from the clock', async () => {
    expect(await list('created_after=2024-01-04T00:00:00Z')).toEqual(['Guest secret', 'Closed one']);
    expect(await list('created_before=2024-01-02T00:00:00Z')).toEqual(['Feature request', 'First bug']);
    expect(await list('due_date=today')).toEqual(['First bug']);
    expect(await list('due_date=overdue')).toEqual(['Closed one']);
    expect(await list('due_date=week')).toEqual(['Feature request', 'First bug']);
    expect(await list('due_date=0')).toEqual(['Guest secret', 'Secret']);
    expect(await list('due_date=month')).toEqual(['Feature request', 'First bug']);
    expect((await call('GET', `${APP}/issues?due_date=someday`, 'dev-token')).body).toEqual({ error: 'due_date does not have a valid value' });
  });

  it('orders by the asked column with id descending as tie-break, nulls last for due dates', async () => {
    expect(await list('order_by=due_date&sort=asc')).toEqual(['Closed one', 'First bug', 'Feature request', 'Guest secret', 'Secret']);
    expect(await list('order_by=due_date&sort=desc')).toEqual(['Feature request', 'First bug', 'Closed one', 'Guest secret', 'Secret']);
    expect(await list('order_by=title&sort=asc')).toEqual(['Closed one', 'Feature request', 'First bug', 'Guest secret', 'Secret']);
    expect(await list('sort=asc')).toEqual(['First bug', 'Feature request', 'Secret', 'Closed one', 'Guest secret']);
    expect((await call('GET', `${APP}/issues?order_by=size`, 'dev-token')).body).toEqual({ error: 'order_by does not have a valid value' });
  });

  it('renders labels with details on request', async () => {
    const { body } = await call('GET', `${APP}/issues?iids[]=1&with_labels_details=true`, 'dev-token');
    expect(body[0].labels).toEqual([{ id: expect.any(Number), name: 'bug', color: '#d9534f', description: 'Broken', description_html: '<p dir="auto">Broken</p>', text_color: '#FFFFFF', remove_on_close: false }]);
  });

  it('pages with keyset cursors, each issue once', async () => {
    const seen: string[] = [];
    let url: string | null = `${APP}/issues?pagination=keyset&per_page=2&order_by=created_at&sort=desc`;
    while (url) {
      const r = await call('GET', url, 'dev-token');
      seen.push(...titles(r.body));
      const next = /<([^>]+)>; rel="next"/.exec(r.res.headers.get('link') ?? '');
      url = next ? next[1]!.replace('https://gitlab.example.com/api/v4', '') : null;
    }
    expect(seen).toEqual(['Guest secret', 'Closed one', 'Secret', 'Feature request', 'First bug']);
  });

  it('a keyset page follows its cursor even when the issue it names is gone', async () => {
    const first = await call('GET', `${APP}/issues?pagination=keyset&per_page=2&order_by=created_at&sort=desc`, 'dev-token');
    expect(titles(first.body)).toEqual(['Guest secret', 'Closed one']);
    expect((await call('DELETE', `${APP}/issues/4`, 'owner-token')).status).toBe(204);
    const next = /<([^>]+)>; rel="next"/.exec(first.res.headers.get('link')!)![1]!.replace('https://gitlab.example.com/api/v4', '');
    expect(titles((await call('GET', next, 'dev-token')).body)).toEqual(['Secret', 'Feature request']);
    expect((await call('GET', `${APP}/issues?pagination=keyset&cursor=bm9wZQ`, 'dev-token')).body).toEqual({ error: 'cursor is invalid' });
    expect((await call('GET', `${APP}/issues?pagination=keyset&order_by=label_priority`, 'dev-token')).status).toBe(405);
    expect((await call('GET', `${APP}/issues?order_by=weight`, 'dev-token')).body).toEqual({ error: 'order_by does not have a valid value' });
  });
});

describe('GET /issues and /groups/:id/issues', () => {
  it('/issues needs a user unless scope=all, and defaults to the caller’s own issues', async () => {
    expect((await call('GET', '/issues')).status).toBe(401);
    expect(titles((await call('GET', '/issues?scope=all')).body)).toEqual(['Lib issue']);
    expect(titles((await call('GET', '/issues', 'dev-token')).body)).toEqual(['Closed one', 'First bug']);
    expect(titles((await call('GET', '/issues?scope=assigned-to-me', 'dev-token')).body)).toEqual(['First bug']);
    const r = await call('GET', '/issues?scope=all&iids[]=1', 'dev-token');
    expect(r.body.map((i: { references: unknown }) => i.references)).toEqual([
      { short: '#1', relative: 'acme/sub/lib#1', full: 'acme/sub/lib#1' },
      { short: '#1', relative: 'acme/app#1', full: 'acme/app#1' },
    ]);
  });

  it('the group list includes subgroups and references relative to the group', async () => {
    const { body } = await call('GET', '/groups/acme/issues?state=opened', 'guest-token');
    expect(titles(body)).toEqual(['Lib issue', 'Guest secret', 'Feature request', 'First bug']);
    expect(body[0].references.relative).toBe('acme/sub/lib#1');
    expect(body[1].references.relative).toBe('app#5');
    expect(titles((await call('GET', '/groups/acme/issues')).body)).toEqual(['Lib issue']);
  });

  it('leaves out archived projects unless non_archived=false', async () => {
    updateProject(world(), 'acme/sub/lib', (p) => void (p.archived = true));
    expect(titles((await call('GET', '/issues?scope=all')).body)).toEqual([]);
    expect(titles((await call('GET', '/issues?scope=all&non_archived=false')).body)).toEqual(['Lib issue']);
    expect(titles((await call('GET', '/groups/acme/issues?non_archived=false')).body)).toEqual(['Lib issue']);
  });

  it('issues_statistics counts at all three levels', async () => {
    expect((await call('GET', `${APP}/issues_statistics`, 'dev-token')).body).toEqual({ statistics: { counts: { all: 5, closed: 1, opened: 4 } } });
    expect((await call('GET', '/groups/acme/issues_statistics?labels=bug', 'dev-token')).body).toEqual({ statistics: { counts: { all: 2, closed: 1, opened: 1 } } });
    expect((await call('GET', '/issues_statistics', 'dev-token')).body).toEqual({ statistics: { counts: { all: 2, closed: 1, opened: 1 } } });
    expect((await call('GET', '/issues_statistics')).status).toBe(401);
  });
});

describe('POST, PUT and DELETE /projects/:id/issues', () => {
  it('creates with the next iid, creating unknown labels; never reuses a deleted iid', async () => {
    const { status, body } = await call('POST', `${APP}/issues`, 'dev-token', { title: 'New', labels: 'bug,brand-new', assignee_ids: [1] });
    expect(status).toBe(201);
    expect(body).toMatchObject({ iid: 6, labels: ['brand-new', 'bug'], subscribed: true, state: 'opened', confidential: false, discussion_locked: false });
    const labels = (await call('GET', `${APP}/labels`, 'dev-token')).body;
    expect(labels.find((l: { name: string }) => l.name === 'brand-new')).toMatchObject({ color: '#6699cc', is_project_label: true });
    expect((await call('DELETE', `${APP}/issues/6`, 'owner-token')).status).toBe(204);
    expect((await call('POST', `${APP}/issues`, 'dev-token', { title: 'Next' })).body.iid).toBe(7);
  });

  it('refuses a missing title and a duplicated iid; iid and created_at only for owners', async () => {
    expect((await call('POST', `${APP}/issues`, 'dev-token', {})).body).toEqual({ message: '400 Bad request - "title" not given' });
    expect((await call('POST', `${APP}/issues`, 'owner-token', { title: 'x', iid: 2 })).body).toEqual({ message: 'Duplicated issue' });
    const own = await call('POST', `${APP}/issues`, 'owner-token', { title: 'x', iid: 40, created_at: '2020-01-01T00:00:00Z' });
    expect(own.body).toMatchObject({ iid: 40, created_at: '2020-01-01T00:00:00.000Z' });
    const dev = await call('POST', `${APP}/issues`, 'dev-token', { title: 'y', iid: 50, created_at: '2020-01-01T00:00:00Z' });
    expect(dev.body).toMatchObject({ iid: 41, created_at: NOW });
    expect((await call('POST', `${APP}/issues`, 'dev-token', { title: 'x'.repeat(256) })).body).toEqual({ message: { title: ['is too long (maximum is 255 characters)'] } });
  });

  it('takes an incident type and a severity, and refuses an unknown severity', async () => {
    const made = await call('POST', `${APP}/issues`, 'dev-token', { title: 'Down', issue_type: 'incident', severity: 'critical' });
    expect(made.body).toMatchObject({ type: 'INCIDENT', issue_type: 'incident', severity: 'CRITICAL' });
    expect((await call('POST', `${APP}/issues`, 'dev-token', { title: 'x', severity: 'apocalyptic' })).body).toEqual({ error: 'severity does not have a valid value' });
    expect((await call('GET', `${APP}/issues?issue_type=incident`, 'dev-token')).body.map((i: { title: string }) => i.title)).toEqual(['Down']);
  });

  it('guests create issues without labels or assignees', async () => {
    const { body } = await call('POST', `${APP}/issues`, 'guest-token', { title: 'From a guest', labels: 'bug' });
    expect(body.labels).toEqual([]);
  });

  it('closes and reopens, adds and removes labels, and needs one parameter', async () => {
    const closed = await call('PUT', `${APP}/issues/1`, 'dev-token', { state_event: 'close' });
    expect(closed.body).toMatchObject({ state: 'closed', closed_at: NOW, closed_by: { username: 'dev' } });
    const reopened = await call('PUT', `${APP}/issues/1`, 'dev-token', { state_event: 'reopen', add_labels: 'feature', remove_labels: 'bug' });
    expect(reopened.body).toMatchObject({ state: 'opened', closed_at: null, closed_by: null, labels: ['feature'] });
    const none = await call('PUT', `${APP}/issues/1`, 'dev-token', {});
    expect(none.status).toBe(400);
    expect(none.body.error).toMatch(/are missing, at least one parameter must be provided$/);
    expect((await call('PUT', `${APP}/issues/1`, 'guest-token', { title: 'nope' })).status).toBe(403);
    expect((await call('GET', `${APP}/issues?labels=bug`, 'dev-token')).body.map((i: { iid: number }) => i.iid)).toEqual([4]);
  });

  it('deletes for owners only, with If-Unmodified-Since', async () => {
    expect((await call('DELETE', `${APP}/issues/1`, 'maintainer-token')).status).toBe(403);
    expect((await call('DELETE', `${APP}/issues/99`, 'owner-token')).body).toEqual({ message: '404 Issue Not Found' });
    const stale = await call('DELETE', `${APP}/issues/1`, 'owner-token', undefined, { 'If-Unmodified-Since': 'Mon, 01 Jan 2018 00:00:00 GMT' });
    expect(stale.status).toBe(412);
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).status).toBe(200);
  });
});

describe('time tracking', () => {
  it('estimates, spends, subtracts and resets in the duration language', async () => {
    expect((await call('POST', `${APP}/issues/1/time_estimate`, 'dev-token', { duration: '1mo 2w 3d 4h 5m' })).body).toEqual({
      time_estimate: 965100, total_time_spent: 0, human_time_estimate: '1mo 2w 3d 4h 5m', human_total_time_spent: null,
    });
    const spent = await call('POST', `${APP}/issues/1/add_spent_time`, 'dev-token', { duration: '2h' });
    expect(spent.status).toBe(201);
    expect(spent.body.human_total_time_spent).toBe('2h');
    expect((await call('POST', `${APP}/issues/1/add_spent_time`, 'dev-token', { duration: '-1h' })).body.total_time_spent).toBe(3600);
    expect((await call('POST', `${APP}/issues/1/add_spent_time`, 'dev-token', { duration: '-1w' })).body).toEqual({ message: { base: ['Time to subtract exceeds the total time spent'] } });
    expect((await call('POST', `${APP}/issues/1/time_estimate`, 'dev-token', { duration: 'foo' })).status).toBe(400);
    expect((await call('POST', `${APP}/issues/1/time_estimate`, 'dev-token', { duration: '-1' })).status).toBe(400);
    expect((await call('POST', `${APP}/issues/1/time_estimate`, 'dev-token', { duration: '3' })).body.time_estimate).toBe(10800);
    expect((await call('POST', `${APP}/issues/1/reset_spent_time`, 'dev-token')).body.total_time_spent).toBe(0);
    expect((await call('POST', `${APP}/issues/1/reset_time_estimate`, 'dev-token')).body.time_estimate).toBe(0);
    expect((await call('GET', `${APP}/issues/1/time_stats`, 'guest-token')).body.time_estimate).toBe(0);
    expect((await call('POST', `${APP}/issues/1/time_estimate`, 'guest-token', { duration: '1h' })).status).toBe(403);
    expect((await call('POST', `${APP}/issues/1/time_estimate`, undefined, { duration: '1h' })).status).toBe(401);
    const notes = notesOf(world(), 'Issue', issueRecord(world(), 'acme/app', 1).id).map((n) => n.body);
    expect(notes).toEqual([
      'changed time estimate to 1mo 2w 3d 4h 5m', 'added 2h of time spent', 'subtracted 1h of time spent', 'changed time estimate to 3h', 'removed time spent', 'removed time estimate',
    ]);
  });
});

describe('subscriptions, to-dos, award emoji, participants', () => {
  it('subscribe and unsubscribe answer 201 or 304; authors are subscribed', async () => {
    expect((await call('POST', `${APP}/issues/1/subscribe`, 'dev-token')).status).toBe(304);
    const un = await call('POST', `${APP}/issues/1/unsubscribe`, 'dev-token');
    expect(un.status).toBe(201);
    expect(un.body.subscribed).toBe(false);
    expect((await call('POST', `${APP}/issues/1/unsubscribe`, 'dev-token')).status).toBe(304);
    expect((await call('POST', `${APP}/issues/1/subscribe`, 'reporter-token')).body.subscribed).toBe(true);
  });

  it('a to-do once, listed in GET /todos until done', async () => {
    const todo = await call('POST', `${APP}/issues/2/todo`, 'dev-token');
    expect(todo.status).toBe(201);
    expect(todo.body).toMatchObject({ action_name: 'marked', target_type: 'Issue', state: 'pending', target: { iid: 2 }, target_url: 'https://gitlab.example.com/acme/app/-/issues/2' });
    expect((await call('POST', `${APP}/issues/2/todo`, 'dev-token')).status).toBe(304);
    expect((await call('GET', '/todos', 'dev-token')).body.map((t: { id: number }) => t.id)).toEqual([todo.body.id]);
    expect((await call('POST', `/todos/${todo.body.id}/mark_as_done`, 'dev-token')).body.state).toBe('done');
    expect((await call('GET', '/todos', 'dev-token')).body).toEqual([]);
    expect((await call('POST', `${APP}/issues/2/todo`, 'dev-token')).status).toBe(201);
  });

  it('award emoji make upvotes and my_reaction_emoji real', async () => {
    const a = await call('POST', `${APP}/issues/2/award_emoji`, 'dev-token', { name: 'thumbsup' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue', user: { username: 'dev' } });
    expect((await call('POST', `${APP}/issues/2/award_emoji`, 'dev-token', { name: 'thumbsup' })).status).toBe(404);
    expect((await call('GET', `${APP}/issues/2`, 'dev-token')).body.upvotes).toBe(1);
    expect(titles((await call('GET', `${APP}/issues?my_reaction_emoji=thumbsup`, 'dev-token')).body)).toEqual(['Feature request']);
    expect(titles((await call('GET', `${APP}/issues?my_reaction_emoji=Any`, 'guest-token')).body)).toEqual([]);
    expect(titles((await call('GET', `${APP}/issues?order_by=popularity&state=opened`, 'dev-token')).body)[0]).toBe('Feature request');
    expect((await call('DELETE', `${APP}/issues/2/award_emoji/${a.body.id}`, 'guest-token')).status).toBe(401);
    expect((await call('DELETE', `${APP}/issues/2/award_emoji/${a.body.id}`, 'dev-token')).status).toBe(204);
    expect((await call('GET', `${APP}/issues/2/award_emoji`, 'dev-token')).body).toEqual([]);
  });

  it('reorders by relative position between neighbours', async () => {
    const ids = Object.fromEntries(((await call('GET', `${APP}/issues`, 'dev-token')).body as { iid: number; id: number }[]).map((i) => [i.iid, i.id]));
    expect((await call('PUT', `${APP}/issues/1/reorder`, 'dev-token', { move_after_id: ids[4] })).status).toBe(200);
    expect((await call('PUT', `${APP}/issues/2/reorder`, 'dev-token', { move_before_id: ids[4] })).status).toBe(200);
    expect((await call('PUT', `${APP}/issues/3/reorder`, 'dev-token', { move_after_id: ids[4], move_before_id: ids[1] })).status).toBe(200);
    const order = (await call('GET', `${APP}/issues?order_by=relative_position&sort=asc`, 'dev-token')).body.map((i: { iid: number }) => i.iid);
    expect(order.slice(0, 4)).toEqual([2, 4, 3, 1]);
    expect((await call('PUT', `${APP}/issues/1/reorder`, 'dev-token', { move_after_id: 999_999 })).body).toEqual({ message: { error: 'Unprocessable Entity' } });
    // An empty id counts as given (Grape's at_least_one_of) but names no neighbour.
    expect(await call('PUT', `${APP}/issues/1/reorder?move_after_id=`, 'dev-token')).toMatchObject({ status: 422, body: { message: { error: 'Unprocessable Entity' } } });
    expect((await call('PUT', `${APP}/issues/1/reorder`, 'dev-token', {})).status).toBe(400);
  });

  it('a to-do of a deleted issue is no longer listed', async () => {
    expect((await call('POST', `${APP}/issues/2/todo`, 'dev-token')).status).toBe(201);
    expect((await call('DELETE', `${APP}/issues/2`, 'owner-token')).status).toBe(204);
    expect((await call('GET', '/todos', 'dev-token')).body).toEqual([]);
  });

  it('participants are the author and the assignees', async () => {
    expect((await call('GET', `${APP}/issues/1/participants`, 'dev-token')).body.map((u: { username: string }) => u.username)).toEqual(['dev']);
  });

  it('moves and clones between projects', async () => {
    const moved = await call('POST', `${APP}/issues/1/move`, 'root-token', { to_project_id: 'acme/sub/lib' });
    expect(moved.status).toBe(201);
    expect(moved.body).toMatchObject({ iid: 2, title: 'First bug', references: { full: 'acme/sub/lib#2' } });
    expect((await call('GET', `${APP}/issues/1`, 'dev-token')).body).toMatchObject({ state: 'closed', moved_to_id: moved.body.id });
    expect((await call('POST', `${APP}/issues/1/move`, 'root-token', { to_project_id: 'acme/sub/lib' })).body).toEqual({ message: 'Cannot move issue, it has been moved before!' });
    expect((await call('POST', `${APP}/issues/2/clone`, 'dev-token', { to_project_id: 999 })).body).toEqual({ message: '404 Project Not Found' });
    const clone = await call('POST', `${APP}/issues/2/clone`, 'root-token', { to_project_id: 'acme/sub/lib' });
    expect(clone.body).toMatchObject({ iid: 3, state: 'opened' });
  });
});

describe('labels', () => {
  it('lists project and group labels by title, creates and refuses duplicates', async () => {
    const { body } = await call('GET', `${APP}/labels?with_counts=true`, 'guest-token');
    expect(body.map((l: { name: string }) => l.name)).toEqual(['bug', 'feature', 'group-label']);
    expect(body[0]).toMatchObject({ name: 'bug', open_issues_count: 1, closed_issues_count: 1, priority: 1, is_project_label: true, subscribed: false });
    expect(body[2]).toMatchObject({ is_project_label: false, text_color: '#FFFFFF' });
    expect((await call('POST', `${APP}/labels`, 'planner-token', { name: 'bug', color: '#000000' })).body).toEqual({ message: 'Label already exists' });
    expect((await call('POST', `${APP}/labels`, 'planner-token', { name: 'x', color: 'nope' })).body).toEqual({ message: { color: ['must be a valid color code'] } });
    expect((await call('POST', `${APP}/labels`, 'guest-token', { name: 'x', color: '#000' })).status).toBe(403);
    expect((await call('POST', '/groups/acme/labels', 'root-token', { name: 'constructor', color: '#fff' })).status).toBe(201);
    expect((await call('GET', '/groups/acme/labels/constructor', 'guest-token')).body).toMatchObject({ name: 'constructor', text_color: '#1F1E24' });
    const sub = await call('POST', `${APP}/labels/bug/subscribe`, 'guest-token');
    expect(sub.status).toBe(201);
    expect(sub.body).toMatchObject({ name: 'bug', subscribed: true });
    expect((await call('POST', `${APP}/labels/bug/subscribe`, 'guest-token')).status).toBe(304);
    expect((await call('GET', `${APP}/labels/bug`, 'guest-token')).body.subscribed).toBe(true);
    expect((await call('POST', `${APP}/labels/bug/unsubscribe`, 'guest-token')).body.subscribed).toBe(false);
    expect((await call('POST', '/groups/acme/labels/nope/subscribe', 'guest-token')).body).toEqual({ message: '404 Label Not Found' });
    expect((await call('DELETE', `${APP}/labels/bug`, 'planner-token')).status).toBe(204);
    expect((await call('GET', `${APP}/issues/4`, 'dev-token')).body.labels).toEqual(['feature']);
  });
});

describe('quick actions in descriptions', () => {
  it('applies label, assign, milestone, due, estimate and spend on create, and leaves the text', async () => {
    const made = await call('POST', `${APP}/issues`, 'dev-token', {
      title: 'Quick', description: 'Some text\n/label ~bug ~"brand new"\n/assign @rep\n/milestone %v2\n/due 2024-04-01\n/estimate 2h\n/spend 30m\n```\n/label ~feature\n```',
    });
    expect(made.status).toBe(201);
    // `/label` names existing labels only (find_labels), in a description as in a note: no `brand new` is made.
    expect(made.body).toMatchObject({
      description: 'Some text\n```\n/label ~feature\n```', labels: ['bug'], assignees: [{ username: 'rep' }], milestone: { title: 'v2' },
      due_date: '2024-04-01', time_stats: { time_estimate: 7200, total_time_spent: 1800 },
    });
    expect((await call('GET', `${APP}/labels/brand%20new`, 'dev-token')).status).toBe(404);
  });

  it('on edit, runs what the issue as it is allows, but not again what its stored description asked', async () => {
    const edited = await call('PUT', `${APP}/issues/1`, 'dev-token', { description: 'Now\n/relabel ~feature\n/close\n/due next monday' });
    expect(edited.body).toMatchObject({ description: 'Now', labels: ['feature'], state: 'closed', due_date: '2024-03-11' });
    // A guest's command is taken out of the text and not run; a later edit by someone who may runs it.
    const guest = await call('POST', `${APP}/issues`, 'guest-token', { title: 'G', description: 'Mine\n/label ~bug' });
    expect(guest.body).toMatchObject({ description: 'Mine', labels: [] });
    const added = await call('PUT', `${APP}/issues/${guest.body.iid}`, 'dev-token', { description: '/label ~bug\nMore' });
    expect(added.body).toMatchObject({ description: 'More', labels: ['bug'] });
  });

  it('/duplicate closes as a duplicate and links it; a guest’s commands are not run', async () => {
    const dup = await call('PUT', `${APP}/issues/2`, 'dev-token', { description: 'Same as the first\n/duplicate #1' });
    expect(dup.body).toMatchObject({ state: 'closed', description: 'Same as the first', closed_by: { username: 'dev' } });
    expect(dup.body._links.closed_as_duplicate_of).toBe(`https://gitlab.example.com/api/v4/projects/${dup.body.project_id}/issues/1`);
    expect(notesOf(world(), 'Issue', issueRecord(world(), 'acme/app', 2).id).map((n) => n.body)).toContain('marked this issue as a duplicate of #1');
    const guest = await call('POST', `${APP}/issues`, 'guest-token', { title: 'G', description: '/label ~bug\n/estimate 1h' });
    // Commands the caller may not run are taken out of the text all the same (the extractor knows every command) and do nothing.
    expect(guest.body).toMatchObject({ labels: [], description: null, time_stats: { time_estimate: 0 } });
    const reopened = await call('PUT', `${APP}/issues/2`, 'dev-token', { state_event: 'reopen' });
    expect(reopened.body._links.closed_as_duplicate_of).toBeNull();
  });
});

describe('what clients send', () => {
  it('python-gitlab style: fields in the query with an empty JSON body, JSON arrays, capitalised booleans', async () => {
    const res = await apiCall(world(), `${APP}/issues?title=From%20the%20query&confidential=True`, { method: 'POST', token: 'dev-token', json: {} });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ title: 'From the query', confidential: true });
    const arr = await call('POST', `${APP}/issues`, 'dev-token', { title: 'Array labels', labels: ['bug', 'feature'] });
    expect(arr.body.labels).toEqual(['bug', 'feature']);
    const get = await apiCall(world(), `${APP}/issues?labels=bug,feature&state=opened`, { token: 'dev-token', headers: { 'Content-Type': 'application/json' } });
    expect(titles(await get.json())).toEqual(['Array labels']);
  });

  it('records the user agent of the request that made an issue, for administrators', async () => {
    const made = await apiCall(world(), `${APP}/issues`, { method: 'POST', token: 'dev-token', json: { title: 'UA' }, headers: { 'User-Agent': 'python-gitlab/4.0', 'X-Forwarded-For': '203.0.113.9, 10.0.0.1' } });
    const iid = (await made.json()).iid;
    expect((await call('GET', `${APP}/issues/${iid}/user_agent_detail`, 'root-token')).body).toEqual({ user_agent: 'python-gitlab/4.0', ip_address: '203.0.113.9', akismet_submitted: false });
    expect((await call('GET', `${APP}/issues/1/user_agent_detail`, 'root-token')).body).toEqual({ message: '404 UserAgentDetail Not Found' });
    expect((await call('GET', `${APP}/issues/${iid}/user_agent_detail`, 'dev-token')).status).toBe(403);
  });

  it('GET /issues/:id is for administrators, by global id', async () => {
    const one = (await call('GET', `${APP}/issues/1`, 'dev-token')).body;
    expect((await call('GET', `/issues/${one.id}`, 'root-token')).body).toMatchObject({ iid: 1, references: { full: 'acme/app#1' } });
    expect((await call('GET', `/issues/${one.id}`, 'dev-token')).status).toBe(403);
    expect((await call('GET', `/issues/${one.id}`)).status).toBe(401);
    expect((await call('GET', '/issues/999999', 'root-token')).body).toEqual({ message: '404 Not found' });
  });
});
