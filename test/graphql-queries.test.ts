// GraphQL queries compared with REST over the same world: what each caller may see, and the
// same records in the same order, through emulator.handle and through the MSW door with fetch.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { mswDoor } from './support/msw.js';
import { ACME, ORIGIN, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  instance: { tier: 'ultimate' },
  users: TEAM,
  groups: [
    { ...ACME, members: [{ user: 'mai', access_level: 'owner' }] },
    { path: 'tools', parent: 'acme', visibility: 'public', labels: [{ name: 'group-label', color: '#00FF00' }], milestones: [{ title: 'G1' }] },
    { path: 'secret', parent: 'acme', visibility: 'private' },
  ],
  projects: [
    {
      namespace: 'acme', path: 'app', name: 'App', description: 'The app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# app\n', 'src/main.ts': 'x\n', 'docs/a.md': 'a\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
      labels: [{ name: 'bug', color: '#FF0000', description: 'A bug' }, { name: 'feature', color: '#0000FF' }],
      milestones: [{ title: 'v1', due_date: '2024-04-01' }, { title: 'v0', due_date: '2024-01-01' }],
      issues: [
        { title: 'First', author: 'dev', labels: ['bug'], milestone: 'v1', assignees: ['dev'], created_at: '2024-01-01T00:00:00Z' },
        { title: 'Second', author: 'rep', state: 'closed', created_at: '2024-01-02T00:00:00Z' },
        { title: 'Secret', author: 'dev', confidential: true, created_at: '2024-01-03T00:00:00Z' },
        { title: 'Third', author: 'gus', due_date: '2024-05-01', created_at: '2024-01-04T00:00:00Z' },
      ],
      merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev', labels: ['feature'] }],
      notes: [{ issue: 1, body: 'Hello', author: 'rep' }],
    },
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root' },
    { namespace: 'acme/tools', path: 'cli', visibility: 'public', creator: 'root' },
    { namespace: 'acme/tools', path: 'lib', visibility: 'public', creator: 'root' },
    { namespace: 'acme/secret', path: 'vault', visibility: 'private', creator: 'root' },
  ],
};
const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');

async function gql(query: string, token?: string, variables?: Record<string, unknown>): Promise<any> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (token) headers['PRIVATE-TOKEN'] = token;
  const res = await world().handle(new Request(`${ORIGIN}/api/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) }));
  const body = (await res.json()) as any;
  return body;
}
const data = async (query: string, token?: string, variables?: Record<string, unknown>) => {
  const body = await gql(query, token, variables);
  expect(body.errors).toBeUndefined();
  return body.data;
};
const rest = async (path: string, token?: string): Promise<any> => (await apiCall(world(), path, { token })).json();
const gidNum = (gid: string) => Number(gid.split('/').pop());

describe('project', () => {
  it('answers the fields REST answers, and null where REST answers 404', async () => {
    const q = '{ project(fullPath: "acme/app") { id name path fullPath description visibility webUrl httpUrlToRepo nameWithNamespace archived starCount createdAt namespace { fullPath } group { fullPath } } }';
    const { project } = await data(q, 'dev-token');
    const r = await rest('/projects/acme%2Fapp', 'dev-token');
    expect(project).toMatchObject({
      id: `gid://gitlab/Project/${r.id}`, name: r.name, path: r.path, fullPath: r.path_with_namespace, description: r.description, visibility: r.visibility,
      webUrl: r.web_url, httpUrlToRepo: r.http_url_to_repo, nameWithNamespace: r.name_with_namespace, archived: r.archived, starCount: r.star_count,
      namespace: { fullPath: 'acme' }, group: { fullPath: 'acme' },
    });
    expect(Date.parse(project.createdAt)).toBe(Date.parse(r.created_at));
    expect((await apiCall(world(), '/projects/acme%2Fapp', { token: 'outsider-token' })).status).toBe(404);
    expect(await data(q, 'outsider-token')).toEqual({ project: null });
    expect(await data(q)).toEqual({ project: null });
  });

  it('lists issues as REST does for each caller, confidential ones only for those who may see them', async () => {
    const q = '{ project(fullPath: "acme/app") { issues { count nodes { iid title state confidential author { username } labels { nodes { title } } milestone { title } assignees { nodes { username } } } } } }';
    for (const token of ['dev-token', 'guest-token', 'root-token']) {
      const { project } = await data(q, token);
      const r = (await rest('/projects/acme%2Fapp/issues', token)) as any[];
      expect(project.issues.nodes.map((i: any) => i.iid)).toEqual(r.map((i) => String(i.iid)));
      expect(project.issues.count).toBe(r.length);
      for (const [i, n] of project.issues.nodes.entries()) {
        expect(n).toMatchObject({ title: r[i].title, state: r[i].state, confidential: r[i].confidential, author: { username: r[i].author.username } });
        expect(n.labels.nodes.map((l: any) => l.title)).toEqual(r[i].labels);
        expect(n.milestone?.title ?? null).toBe(r[i].milestone?.title ?? null);
        expect(n.assignees.nodes.map((a: any) => a.username)).toEqual(r[i].assignees.map((a: any) => a.username));
      }
    }
    const guest = await data(q, 'guest-token');
    expect(guest.project.issues.nodes.map((i: any) => i.title)).not.toContain('Secret');
    const opened = await data('{ project(fullPath: "acme/app") { issues(state: opened, sort: CREATED_ASC, labelName: ["bug"]) { nodes { title } } } }', 'dev-token');
    expect(opened.project.issues.nodes).toEqual([{ title: 'First' }]);
  });

  it('finds one issue by iid and by global id, with its notes and reference', async () => {
    const { project } = await data('{ project(fullPath: "acme/app") { issue(iid: "1") { id iid reference(full: true) webUrl dueDate notes { nodes { body author { username } } } userNotesCount } } }', 'dev-token');
    expect(project.issue).toMatchObject({ iid: '1', reference: 'acme/app#1', webUrl: `${ORIGIN}/acme/app/-/issues/1`, notes: { nodes: [{ body: 'Hello', author: { username: 'rep' } }] }, userNotesCount: 1 });
    const byId = await data('query($id: IssueID!) { issue(id: $id) { title } }', 'dev-token', { id: project.issue.id });
    expect(byId).toEqual({ issue: { title: 'First' } });
    expect(await data('query($id: IssueID!) { issue(id: $id) { title } }', 'outsider-token', { id: project.issue.id })).toEqual({ issue: null });
    const secret = await data('{ project(fullPath: "acme/app") { issue(iid: "3") { title } } }', 'guest-token');
    expect(secret).toEqual({ project: { issue: null } });
    const bad = await gql('{ issue(id: "gid://gitlab/Project/1") { title } }', 'dev-token');
    expect(bad.errors[0].message).toContain('is not a valid Global ID of type Issue');
  });

  it('lists merge requests, labels and milestones as REST does', async () => {
    const q = `{ project(fullPath: "acme/app") {
      mergeRequests { count nodes { id iid title state draft sourceBranch targetBranch author { username } labels { nodes { title } } webUrl } }
      mergeRequest(iid: "1") { title project { fullPath } }
      labels { nodes { title color description textColor } }
      milestones { nodes { title dueDate state expired } } } }`;
    const { project } = await data(q, 'dev-token');
    const mrs = (await rest('/projects/acme%2Fapp/merge_requests', 'dev-token')) as any[];
    expect(project.mergeRequests.nodes.map((m: any) => [gidNum(m.id), m.iid, m.title, m.state, m.sourceBranch, m.targetBranch, m.webUrl])).toEqual(
      mrs.map((m) => [m.id, String(m.iid), m.title, m.state, m.source_branch, m.target_branch, m.web_url]),
    );
    expect(project.mergeRequest).toEqual({ title: 'Add f', project: { fullPath: 'acme/app' } });
    const labels = (await rest('/projects/acme%2Fapp/labels', 'dev-token')) as any[];
    expect(project.labels.nodes).toEqual(labels.filter((l) => l.is_project_label).map((l) => ({ title: l.name, color: l.color, description: l.description, textColor: l.text_color })));
    expect(project.milestones.nodes.map((m: any) => m.title)).toEqual(['v0', 'v1']);
    expect(project.milestones.nodes[0]).toMatchObject({ dueDate: '2024-01-01T00:00:00Z', state: 'active', expired: true });
  });

  it('reads the repository: root ref and tree, as REST lists it', async () => {
    const q = '{ project(fullPath: "acme/app") { repository { rootRef exists empty tree { blobs { nodes { name path type } } trees { nodes { name path } } } } } }';
    const { project } = await data(q, 'dev-token');
    const tree = (await rest('/projects/acme%2Fapp/repository/tree', 'dev-token')) as any[];
    expect(project.repository.rootRef).toBe('main');
    expect(project.repository.empty).toBe(false);
    expect(project.repository.tree.blobs.nodes.map((b: any) => b.path)).toEqual(tree.filter((t) => t.type === 'blob').map((t) => t.path));
    expect(project.repository.tree.trees.nodes.map((b: any) => b.path)).toEqual(tree.filter((t) => t.type === 'tree').map((t) => t.path));
    const sub = await data('{ project(fullPath: "acme/app") { repository { tree(path: "src", ref: "feature") { blobs { nodes { path } } } } } }', 'dev-token');
    expect(sub.project.repository.tree.blobs.nodes).toEqual([{ path: 'src/main.ts' }]);
    const blobs = await data('{ project(fullPath: "acme/app") { repository { blobs(paths: ["README.md", "nope.txt", "f.txt"], ref: "feature") { nodes { path name size rawTextBlob oid } } } } }', 'dev-token');
    const raw = await (await apiCall(world(), '/projects/acme%2Fapp/repository/files/README.md/raw?ref=feature', { token: 'dev-token' })).text();
    const file = await rest('/projects/acme%2Fapp/repository/files/README.md?ref=feature', 'dev-token');
    expect(blobs.project.repository.blobs.nodes).toEqual([
      { path: 'README.md', name: 'README.md', size: String(raw.length), rawTextBlob: raw, oid: file.blob_id },
      { path: 'f.txt', name: 'f.txt', size: '2', rawTextBlob: 'f\n', oid: expect.stringMatching(/^[0-9a-f]{40}$/) },
    ]);
    expect(await data('{ project(fullPath: "acme/app") { repository { rootRef } } }', 'outsider-token')).toEqual({ project: null });
  });

  it('lists project members with their access levels', async () => {
    const { project } = await data('{ project(fullPath: "acme/app") { projectMembers { nodes { __typename user { username } accessLevel { integerValue stringValue } } } } }', 'dev-token');
    const r = (await rest('/projects/acme%2Fapp/members', 'dev-token')) as any[];
    expect(project.projectMembers.nodes.map((m: any) => [m.user.username, m.accessLevel.integerValue])).toEqual(r.map((m) => [m.username, m.access_level]));
    expect(project.projectMembers.nodes[0]).toMatchObject({ __typename: 'ProjectMember', accessLevel: { stringValue: 'MAINTAINER' } });
  });
});

describe('work items', () => {
  it('shows the issues as work items with their widgets', async () => {
    const q = `{ project(fullPath: "acme/app") { workItems(sort: CREATED_ASC) { nodes { id iid title state webUrl workItemType { name } widgets {
      type ... on WorkItemWidgetAssignees { assignees { nodes { username } } } ... on WorkItemWidgetLabels { labels { nodes { title } } }
      ... on WorkItemWidgetMilestone { milestone { title } } ... on WorkItemWidgetStartAndDueDate { dueDate } ... on WorkItemWidgetDescription { description } } } } } }`;
    const d = await data(q, 'guest-token');
    const issues = (await rest('/projects/acme%2Fapp/issues?sort=asc', 'guest-token')) as any[];
    expect(d.project.workItems.nodes.map((w: any) => [w.iid, w.title, w.state])).toEqual(issues.map((i) => [String(i.iid), i.title, i.state === 'opened' ? 'OPEN' : 'CLOSED']));
    const first = d.project.workItems.nodes[0];
    expect(first).toMatchObject({ webUrl: `${ORIGIN}/acme/app/-/work_items/1`, workItemType: { name: 'Issue' } });
    expect(first.widgets).toEqual([
      { type: 'DESCRIPTION', description: null },
      { type: 'ASSIGNEES', assignees: { nodes: [{ username: 'dev' }] } },
      { type: 'LABELS', labels: { nodes: [{ title: 'bug' }] } },
      { type: 'MILESTONE', milestone: { title: 'v1' } },
      { type: 'START_AND_DUE_DATE', dueDate: null },
    ]);
    const one = await data('query($id: WorkItemID!) { workItem(id: $id) { title } }', 'dev-token', { id: first.id });
    expect(one).toEqual({ workItem: { title: 'First' } });
    expect(await data('query($id: WorkItemID!) { workItem(id: $id) { title } }', 'outsider-token', { id: first.id })).toEqual({ workItem: null });
  });
});

describe('groups and namespaces', () => {
  it('lists a group projects with or without subgroups, and the descendant groups each caller may see', async () => {
    const q = '{ group(fullPath: "acme") { fullName projects(includeSubgroups: true) { count nodes { fullPath } } direct: projects { nodes { fullPath } } descendantGroups { nodes { fullPath } } } }';
    const outsider = await data(q, 'outsider-token');
    const r = (await rest('/groups/acme/projects?include_subgroups=true', 'outsider-token')) as any[];
    expect(outsider.group.projects.nodes.map((p: any) => p.fullPath).sort()).toEqual(r.map((p) => p.path_with_namespace).sort());
    expect(outsider.group.projects.nodes.map((p: any) => p.fullPath)).not.toContain('acme/app');
    expect(outsider.group.direct.nodes.map((p: any) => p.fullPath)).toEqual(['acme/site']);
    expect(outsider.group.descendantGroups.nodes.map((g: any) => g.fullPath)).toEqual(['acme/tools']);
    const root = await data(q, 'root-token');
    expect(root.group.projects.count).toBe(5);
    expect(root.group.descendantGroups.nodes.map((g: any) => g.fullPath)).toEqual(['acme/tools', 'acme/secret']);
    expect(await data('{ group(fullPath: "acme/secret") { id } }', 'dev-token')).toEqual({ group: null });
  });

  it('crawls a group as Backstage does: projects(includeSubgroups) a page at a time by cursor', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 10; page++) {
      const d: any = await data('query($after: String) { group(fullPath: "acme") { projects(includeSubgroups: true, first: 2, after: $after) { nodes { fullPath } pageInfo { hasNextPage endCursor } } } }', 'root-token', { after });
      seen.push(...d.group.projects.nodes.map((p: any) => p.fullPath));
      if (!d.group.projects.pageInfo.hasNextPage) break;
      after = d.group.projects.pageInfo.endCursor;
    }
    const all = await data('{ group(fullPath: "acme") { projects(includeSubgroups: true) { nodes { fullPath } } } }', 'root-token');
    expect(seen).toEqual(all.group.projects.nodes.map((p: any) => p.fullPath));
    expect(seen).toHaveLength(5);
    const cursor = JSON.parse(atob(after!));
    expect(cursor).toMatchObject({ id: expect.stringMatching(/^\d+$/) });
    const back = await data('query($before: String) { group(fullPath: "acme") { projects(includeSubgroups: true, last: 1, before: $before) { nodes { fullPath } pageInfo { hasPreviousPage } } } }', 'root-token', { before: after });
    expect(back.group.projects.nodes.map((p: any) => p.fullPath)).toEqual([seen[2]]);
  });

  it('lists group members with access levels, group labels and milestones', async () => {
    const { group } = await data('{ group(fullPath: "acme") { groupMembers { nodes { user { username } accessLevel { integerValue stringValue humanAccess } } } } tools: group(fullPath: "acme/tools") { labels { nodes { title } } milestones { nodes { title } } } }', 'dev-token').then((d) => ({ group: d }));
    expect(group.group.groupMembers.nodes).toEqual([{ user: { username: 'mai' }, accessLevel: { integerValue: 50, stringValue: 'OWNER', humanAccess: 'Owner' } }]);
    expect(group.tools).toEqual({ labels: { nodes: [{ title: 'group-label' }] }, milestones: { nodes: [{ title: 'G1' }] } });
  });

  it('finds a namespace: a group for those who may see it, a personal one for its owner', async () => {
    expect(await data('{ namespace(fullPath: "acme/tools") { __typename fullPath fullName } }')).toEqual({ namespace: { __typename: 'Namespace', fullPath: 'acme/tools', fullName: 'acme / tools' } });
    expect(await data('{ namespace(fullPath: "dev") { fullPath } }', 'dev-token')).toEqual({ namespace: { fullPath: 'dev' } });
    expect(await data('{ namespace(fullPath: "dev") { fullPath } }', 'reporter-token')).toEqual({ namespace: null });
  });
});

describe('users, the current user, metadata', () => {
  it('finds users by username or id, and lists them', async () => {
    const me = await data('{ currentUser { id username name state webUrl } }', 'dev-token');
    const r = await rest('/user', 'dev-token');
    expect(me.currentUser).toEqual({ id: `gid://gitlab/User/${r.id}`, username: 'dev', name: r.name, state: 'active', webUrl: r.web_url });
    expect(await data('query($id: UserID) { user(id: $id) { username } }', 'reporter-token', { id: me.currentUser.id })).toEqual({ user: { username: 'dev' } });
    expect(await data('{ user(username: "gus") { username } }')).toEqual({ user: { username: 'gus' } });
    expect((await gql('{ user { username } }')).errors[0].message).toBe('Provide either a single username or id');
    const users = await data('{ users(usernames: ["dev", "mai"]) { count nodes { username } } }', 'dev-token');
    expect(users.users.count).toBe(2);
    expect(await data('{ metadata { version enterprise } }')).toEqual({ metadata: null });
    expect((await data('{ metadata { version enterprise } }', 'dev-token')).metadata).toMatchObject({ enterprise: true });
  });

  it('lists the projects a caller may see, as REST does', async () => {
    for (const token of ['outsider-token', 'dev-token']) {
      const d = await data('{ projects { nodes { fullPath } } }', token);
      const r = (await rest('/projects?order_by=id', token)) as any[];
      expect(d.projects.nodes.map((p: any) => p.fullPath)).toEqual(r.map((p) => p.path_with_namespace));
    }
    const mine = await data('{ projects(membership: true) { nodes { fullPath } } }', 'dev-token');
    expect(mine.projects.nodes).toEqual([{ fullPath: 'acme/app' }]);
  });
});

describe('the MSW door', () => {
  const door = mswDoor();

  it('answers GraphQL by fetch as the handler set serves it', async () => {
    door.serve(world());
    const res = await fetch(`${ORIGIN}/api/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer dev-token' },
      body: JSON.stringify({ query: '{ project(fullPath: "acme/app") { issues(first: 2) { nodes { iid } pageInfo { hasNextPage } } } }' }),
    });
    const issues = await (await fetch(`${ORIGIN}/api/v4/projects/acme%2Fapp/issues?per_page=2`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } })).json();
    expect(await res.json()).toEqual({ data: { project: { issues: { nodes: issues.map((i: any) => ({ iid: String(i.iid) })), pageInfo: { hasNextPage: true } } } } });
  });
});
