// GraphQL mutations through the services REST uses: the same records, notes and events; a refused
// mutation changes nothing; a resource the caller may not change is GitLab's top-level error.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      labels: [{ name: 'bug', color: '#FF0000' }, { name: 'doc', color: '#00FF00' }],
      milestones: [{ title: 'v1' }],
      issues: [{ title: 'First', author: 'dev' }],
      repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
      merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
    },
  ],
};
const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');

async function gql(query: string, token: string | undefined, variables?: Record<string, unknown>): Promise<any> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers['PRIVATE-TOKEN'] = token;
  const res = await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) }));
  expect(res.status).toBe(200);
  return res.json();
}
const rest = async (path: string, token = 'dev-token'): Promise<any> => (await apiCall(world(), path, { token })).json();
const ACCESS_ERROR = "The resource that you are attempting to access does not exist or you don't have permission to perform this action";

const CREATE = `mutation($input: CreateIssueInput!) { createIssue(input: $input) { clientMutationId errors issue { iid title description confidential dueDate labels { nodes { title } } author { username } } } }`;

describe('createIssue', () => {
  it('creates the issue REST then reads, with its labels, and the event REST records', async () => {
    const out = await gql(CREATE, 'dev-token', { input: { projectPath: 'acme/app', title: 'From GraphQL', description: 'Body', labels: ['bug'], dueDate: '2024-04-01', clientMutationId: 'c1' } });
    expect(out).toEqual({
      data: { createIssue: { clientMutationId: 'c1', errors: [], issue: { iid: '2', title: 'From GraphQL', description: 'Body', confidential: false, dueDate: '2024-04-01T00:00:00Z', labels: { nodes: [{ title: 'bug' }] }, author: { username: 'dev' } } } },
    });
    const issue = await rest('/projects/acme%2Fapp/issues/2');
    expect(issue).toMatchObject({ title: 'From GraphQL', description: 'Body', labels: ['bug'], due_date: '2024-04-01', author: { username: 'dev' } });
    const events = (await rest('/projects/acme%2Fapp/events?target_type=issue')) as any[];
    expect(events.map((e) => [e.action_name, e.target_iid])).toContainEqual(['opened', 2]);
  });

  it('answers a refused title in errors and keeps nothing', async () => {
    const before = world().state;
    const out = await gql(CREATE, 'dev-token', { input: { projectPath: 'acme/app', title: 'x'.repeat(256) } });
    expect(out.data.createIssue.issue).toBeNull();
    expect(out.data.createIssue.errors[0]).toMatch(/^Title is too long/);
    expect(world().state).toBe(before);
    expect((await rest('/projects/acme%2Fapp/issues')).length).toBe(1);
  });

  it('is the resource error for an outsider, a guest of a private project it cannot see, and anonymous callers', async () => {
    for (const token of ['outsider-token', undefined]) {
      const out = await gql(CREATE, token, { input: { projectPath: 'acme/app', title: 'No' } });
      expect(out.data).toEqual({ createIssue: null });
      expect(out.errors[0]).toMatchObject({ message: ACCESS_ERROR, path: ['createIssue'] });
    }
    expect((await rest('/projects/acme%2Fapp/issues')).length).toBe(1);
  });
});

describe('updateIssue and its setters', () => {
  it('retitles, closes, sets labels by global id and the due date, as REST sees them', async () => {
    const labels = (await rest('/projects/acme%2Fapp/labels')) as any[];
    const bug = labels.find((l) => l.name === 'bug');
    const doc = labels.find((l) => l.name === 'doc');
    const upd = 'mutation($input: UpdateIssueInput!) { updateIssue(input: $input) { errors issue { title state labels { nodes { title } } } } }';
    const out = await gql(upd, 'dev-token', { input: { projectPath: 'acme/app', iid: '1', title: 'Renamed', stateEvent: 'CLOSE', labelIds: [`gid://gitlab/ProjectLabel/${bug.id}`] } });
    expect(out.data.updateIssue).toEqual({ errors: [], issue: { title: 'Renamed', state: 'closed', labels: { nodes: [{ title: 'bug' }] } } });
    const add = await gql(upd, 'dev-token', { input: { projectPath: 'acme/app', iid: '1', addLabelIds: [`gid://gitlab/ProjectLabel/${doc.id}`], removeLabelIds: [`gid://gitlab/ProjectLabel/${bug.id}`] } });
    expect(add.data.updateIssue.issue.labels.nodes).toEqual([{ title: 'doc' }]);
    const due = await gql('mutation { issueSetDueDate(input: { projectPath: "acme/app", iid: "1", dueDate: "2024-06-01T00:00:00Z" }) { errors issue { dueDate } } }', 'dev-token');
    expect(due.data.issueSetDueDate).toEqual({ errors: [], issue: { dueDate: '2024-06-01T00:00:00Z' } });
    expect(await rest('/projects/acme%2Fapp/issues/1')).toMatchObject({ title: 'Renamed', state: 'closed', labels: ['doc'], due_date: '2024-06-01' });
    const notes = (await rest('/projects/acme%2Fapp/issues/1/notes?sort=asc')) as any[];
    expect(notes.filter((n) => n.system).map((n) => n.body)).toEqual(['changed title from **{-First-}** to **{+Renamed+}**', 'changed due date to June 1, 2024']);
    const states = (await rest('/projects/acme%2Fapp/issues/1/resource_state_events')) as any[];
    expect(states.map((e) => e.state)).toEqual(['closed']);
  });

  it('refuses an issue the caller may see but not change, and a missing one', async () => {
    const upd = 'mutation { updateIssue(input: { projectPath: "acme/app", iid: "1", title: "No" }) { issue { title } } }';
    expect((await gql(upd, 'guest-token')).errors[0].message).toBe(ACCESS_ERROR);
    expect((await gql(upd.replace('"1"', '"99"'), 'dev-token')).errors[0].message).toBe(ACCESS_ERROR);
    expect((await rest('/projects/acme%2Fapp/issues/1')).title).toBe('First');
  });
});

describe('issue setters', () => {
  const set = (name: string, input: string, token = 'dev-token') =>
    gql(`mutation { ${name}(input: { projectPath: "acme/app", iid: "1", ${input} }) { errors issue { confidential discussionLocked subscribed assignees { nodes { username } } } } }`, token);

  it('issueSetAssignees replaces, appends and removes by username, as REST then reads (one assignee on this tier)', async () => {
    const names = async () => ((await rest('/projects/acme%2Fapp/issues/1')).assignees as any[]).map((u) => u.username);
    expect((await set('issueSetAssignees', 'assigneeUsernames: ["dev"]')).data.issueSetAssignees.issue.assignees.nodes).toEqual([{ username: 'dev' }]);
    // Free: an issue keeps one assignee (Issue#allows_multiple_assignees?), the first.
    await set('issueSetAssignees', 'assigneeUsernames: ["mai"], operationMode: APPEND');
    expect(await names()).toEqual(['dev']);
    await set('issueSetAssignees', 'assigneeUsernames: ["mai"]');
    expect(await names()).toEqual(['mai']);
    await set('issueSetAssignees', 'assigneeUsernames: ["mai"], operationMode: REMOVE');
    expect(await names()).toEqual([]);
  });

  it('issueSetConfidential and issueSetLocked change the issue and leave GitLab\'s system notes', async () => {
    expect((await set('issueSetConfidential', 'confidential: true')).data.issueSetConfidential).toMatchObject({ errors: [], issue: { confidential: true } });
    expect((await set('issueSetLocked', 'locked: true')).data.issueSetLocked).toMatchObject({ errors: [], issue: { discussionLocked: true } });
    expect(await rest('/projects/acme%2Fapp/issues/1')).toMatchObject({ confidential: true, discussion_locked: true });
    const notes = (await rest('/projects/acme%2Fapp/issues/1/notes?sort=asc')) as any[];
    expect(notes.filter((n) => n.system).map((n) => n.body)).toEqual(['made the issue confidential', 'locked the discussion in this issue']);
  });

  it('issueSetSubscription for a reader, as REST shows `subscribed`; setters refuse those who may not change it', async () => {
    expect((await set('issueSetSubscription', 'subscribedState: true', 'reporter-token')).data.issueSetSubscription.issue.subscribed).toBe(true);
    expect((await apiCall(world(), '/projects/acme%2Fapp/issues/1', { token: 'reporter-token' }).then((r) => r.json())).subscribed).toBe(true);
    expect((await set('issueSetSubscription', 'subscribedState: false', 'reporter-token')).data.issueSetSubscription.issue.subscribed).toBe(false);
    const before = world().state;
    expect((await set('issueSetConfidential', 'confidential: true', 'guest-token')).errors[0].message).toBe(ACCESS_ERROR);
    expect((await set('issueSetLocked', 'locked: true', 'outsider-token')).errors[0].message).toBe(ACCESS_ERROR);
    expect(world().state).toBe(before);
  });
});

describe('createNote', () => {
  it('comments on an issue and on a merge request, as REST lists the notes', async () => {
    const issue = await rest('/projects/acme%2Fapp/issues/1');
    const mr = await rest('/projects/acme%2Fapp/merge_requests/1');
    const q = 'mutation($id: NoteableID!, $body: String!) { createNote(input: { noteableId: $id, body: $body }) { errors note { body author { username } system } } }';
    expect((await gql(q, 'reporter-token', { id: `gid://gitlab/Issue/${issue.id}`, body: 'On the issue' })).data.createNote).toEqual({ errors: [], note: { body: 'On the issue', author: { username: 'rep' }, system: false } });
    expect((await gql(q, 'dev-token', { id: `gid://gitlab/MergeRequest/${mr.id}`, body: 'On the MR' })).data.createNote.note.body).toBe('On the MR');
    expect(((await rest('/projects/acme%2Fapp/issues/1/notes')) as any[]).map((n) => n.body)).toContain('On the issue');
    expect(((await rest('/projects/acme%2Fapp/merge_requests/1/notes')) as any[]).map((n) => n.body)).toContain('On the MR');
    const blank = await gql(q, 'dev-token', { id: `gid://gitlab/Issue/${issue.id}`, body: ' ' });
    expect(blank.data.createNote.note).toBeNull();
    expect(blank.data.createNote.errors.length).toBe(1);
    expect((await gql(q, 'outsider-token', { id: `gid://gitlab/Issue/${issue.id}`, body: 'x' })).errors[0].message).toBe(ACCESS_ERROR);
  });
});

describe('merge request setters, award emoji and to-dos', () => {
  it('sets and clears a merge request draft and its labels, as REST then reads them', async () => {
    const draft = 'mutation($d: Boolean!) { mergeRequestSetDraft(input: { projectPath: "acme/app", iid: "1", draft: $d }) { errors mergeRequest { title draft } } }';
    expect((await gql(draft, 'dev-token', { d: true })).data.mergeRequestSetDraft).toEqual({ errors: [], mergeRequest: { title: 'Draft: Add f', draft: true } });
    expect(await rest('/projects/acme%2Fapp/merge_requests/1')).toMatchObject({ title: 'Draft: Add f', draft: true });
    expect((await gql(draft, 'dev-token', { d: false })).data.mergeRequestSetDraft.mergeRequest).toEqual({ title: 'Add f', draft: false });
    const labels = (await rest('/projects/acme%2Fapp/labels')) as any[];
    const gids = labels.map((l) => `gid://gitlab/ProjectLabel/${l.id}`);
    const set = 'mutation($ids: [LabelID!]!, $mode: MutationOperationMode) { mergeRequestSetLabels(input: { projectPath: "acme/app", iid: "1", labelIds: $ids, operationMode: $mode }) { errors mergeRequest { labels { nodes { title } } } } }';
    expect((await gql(set, 'dev-token', { ids: [gids[0]] })).data.mergeRequestSetLabels.mergeRequest.labels.nodes).toEqual([{ title: 'bug' }]);
    expect((await gql(set, 'dev-token', { ids: [gids[1]], mode: 'APPEND' })).data.mergeRequestSetLabels.mergeRequest.labels.nodes.map((l: any) => l.title).sort()).toEqual(['bug', 'doc']);
    expect((await gql(set, 'dev-token', { ids: [gids[0]], mode: 'REMOVE' })).data.mergeRequestSetLabels.mergeRequest.labels.nodes).toEqual([{ title: 'doc' }]);
    expect((await rest('/projects/acme%2Fapp/merge_requests/1')).labels).toEqual(['doc']);
    expect((await gql(draft, 'guest-token', { d: true })).errors[0].message).toBe(ACCESS_ERROR);
  });

  it('awards an emoji once, as REST lists it, and refuses an unknown name in errors', async () => {
    const issue = await rest('/projects/acme%2Fapp/issues/1');
    const add = 'mutation($id: AwardableID!, $name: String!) { awardEmojiAdd(input: { awardableId: $id, name: $name }) { errors awardEmoji { name user { username } } } }';
    const vars = { id: `gid://gitlab/Issue/${issue.id}`, name: 'thumbsup' };
    expect((await gql(add, 'reporter-token', vars)).data.awardEmojiAdd).toEqual({ errors: [], awardEmoji: { name: 'thumbsup', user: { username: 'rep' } } });
    expect((await gql(add, 'reporter-token', vars)).data.awardEmojiAdd).toEqual({ errors: ['User has already been taken'], awardEmoji: null });
    expect((await gql(add, 'reporter-token', { ...vars, name: 'no_such_emoji' })).data.awardEmojiAdd.errors).toEqual(['Name is not a valid emoji name']);
    // errors.full_messages, one entry each: a blank name fails both validations on name.
    expect((await gql(add, 'reporter-token', { ...vars, name: '' })).data.awardEmojiAdd.errors).toEqual(["Name can't be blank", 'Name is not a valid emoji name']);
    expect(((await rest('/projects/acme%2Fapp/issues/1/award_emoji')) as any[]).map((a) => [a.name, a.user.username])).toEqual([['thumbsup', 'rep']]);
    expect((await gql('{ project(fullPath: "acme/app") { issue(iid: "1") { upvotes } } }', 'dev-token')).data.project.issue.upvotes).toBe(1);
    expect((await gql(add, 'outsider-token', vars)).errors[0].message).toBe(ACCESS_ERROR);
  });

  it('marks a to-do done, only the caller own', async () => {
    const todo = await (await apiCall(world(), '/projects/acme%2Fapp/issues/1/todo', { method: 'POST', token: 'dev-token' })).json();
    const done = 'mutation($id: TodoID!) { todoMarkDone(input: { id: $id }) { errors todo { id state } } }';
    expect((await gql(done, 'reporter-token', { id: `gid://gitlab/Todo/${todo.id}` })).errors[0].message).toBe(ACCESS_ERROR);
    expect((await gql(done, 'dev-token', { id: `gid://gitlab/Todo/${todo.id}` })).data.todoMarkDone).toEqual({ errors: [], todo: { id: `gid://gitlab/Todo/${todo.id}`, state: 'done' } });
    expect(await rest('/todos?state=done')).toEqual([expect.objectContaining({ id: todo.id, state: 'done' })]);
  });
});

describe('updateNote and destroyNote', () => {
  it("edits and deletes a note as its author, and refuses someone else's", async () => {
    const issue = await rest('/projects/acme%2Fapp/issues/1');
    const made = await gql('mutation($id: NoteableID!) { createNote(input: { noteableId: $id, body: "Draft text" }) { note { id } } }', 'reporter-token', { id: `gid://gitlab/Issue/${issue.id}` });
    const id = made.data.createNote.note.id as string;
    const upd = 'mutation($id: NoteID!, $body: String) { updateNote(input: { id: $id, body: $body }) { errors note { body } } }';
    expect((await gql(upd, 'guest-token', { id, body: 'Mine now' })).errors[0].message).toBe(ACCESS_ERROR);
    expect((await gql(upd, 'reporter-token', { id, body: 'Final text' })).data.updateNote).toEqual({ errors: [], note: { body: 'Final text' } });
    expect(((await rest('/projects/acme%2Fapp/issues/1/notes')) as any[]).map((n) => n.body)).toContain('Final text');
    const blank = await gql(upd, 'reporter-token', { id, body: '' });
    expect(blank.data.updateNote.errors.length).toBe(1);
    expect(blank.data.updateNote.note).toEqual({ body: 'Final text' });
    const del = 'mutation($id: NoteID!) { destroyNote(input: { id: $id }) { errors note { id } } }';
    expect((await gql(del, 'guest-token', { id })).errors[0].message).toBe(ACCESS_ERROR);
    expect((await gql(del, 'reporter-token', { id })).data.destroyNote).toEqual({ errors: [], note: null });
    expect(((await rest('/projects/acme%2Fapp/issues/1/notes')) as any[]).map((n) => n.body)).not.toContain('Final text');
  });
});

describe('mergeRequestCreate', () => {
  it('opens a merge request REST then lists, and answers the service refusals in errors', async () => {
    await apiCall(world(), '/projects/acme%2Fapp/repository/branches?branch=topic&ref=feature', { method: 'POST', token: 'dev-token' });
    const create = 'mutation($input: MergeRequestCreateInput!) { mergeRequestCreate(input: $input) { errors mergeRequest { iid title sourceBranch targetBranch labels { nodes { title } } author { username } } } }';
    const out = await gql(create, 'dev-token', { input: { projectPath: 'acme/app', title: 'Topic', sourceBranch: 'topic', targetBranch: 'main', labels: ['doc'] } });
    expect(out.data.mergeRequestCreate).toEqual({ errors: [], mergeRequest: { iid: '2', title: 'Topic', sourceBranch: 'topic', targetBranch: 'main', labels: { nodes: [{ title: 'doc' }] }, author: { username: 'dev' } } });
    expect(await rest('/projects/acme%2Fapp/merge_requests/2')).toMatchObject({ title: 'Topic', source_branch: 'topic', labels: ['doc'] });
    const same = await gql(create, 'dev-token', { input: { projectPath: 'acme/app', title: 'Same', sourceBranch: 'main', targetBranch: 'main' } });
    expect(same.data.mergeRequestCreate).toEqual({ errors: ["You can't use same project/branch for source and target"], mergeRequest: null });
    expect((await gql(create, 'guest-token', { input: { projectPath: 'acme/app', title: 'No', sourceBranch: 'topic', targetBranch: 'main' } })).errors[0].message).toBe(ACCESS_ERROR);
    expect(((await rest('/projects/acme%2Fapp/merge_requests')) as any[]).length).toBe(2);
  });
});

describe('mergeRequestAccept', () => {
  it('merges at the given head as REST then shows it, and refuses a stale head or a reporter', async () => {
    const mr = await rest('/projects/acme%2Fapp/merge_requests/1');
    const accept = 'mutation($sha: String!) { mergeRequestAccept(input: { projectPath: "acme/app", iid: "1", sha: $sha }) { errors mergeRequest { state mergedAt } } }';
    expect((await gql(accept, 'reporter-token', { sha: mr.sha })).errors[0].message).toBe(ACCESS_ERROR);
    const stale = await gql(accept, 'dev-token', { sha: '0'.repeat(40) });
    expect(stale.data.mergeRequestAccept).toEqual({ errors: ['The merge-head is not at the anticipated SHA'], mergeRequest: { state: 'opened', mergedAt: null } });
    const merged = await gql(accept, 'dev-token', { sha: mr.sha });
    expect(merged.data.mergeRequestAccept).toEqual({ errors: [], mergeRequest: { state: 'merged', mergedAt: '2024-03-01T10:00:00Z' } });
    expect(await rest('/projects/acme%2Fapp/merge_requests/1')).toMatchObject({ state: 'merged', merged_by: { username: 'dev' } });
    const files = (await rest('/projects/acme%2Fapp/repository/tree?ref=main')) as any[];
    expect(files.map((f) => f.path)).toContain('f.txt');
    expect((await gql(accept, 'dev-token', { sha: mr.sha })).data.mergeRequestAccept.errors).toEqual(['This branch cannot be merged']);
  });
});
