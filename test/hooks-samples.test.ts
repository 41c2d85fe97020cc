// One test per event kind: the payload carries every key of GitLab's documented sample for it
// (doc/user/project/integrations/webhook_events.md), at the top, in `object_attributes` and in
// the project, with values of the same kind.
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

const PROJECT_KEYS = ['id', 'name', 'description', 'web_url', 'avatar_url', 'git_ssh_url', 'git_http_url', 'namespace', 'visibility_level', 'path_with_namespace', 'default_branch', 'homepage', 'url', 'ssh_url', 'http_url'];
const USER_KEYS = ['id', 'name', 'username', 'avatar_url', 'email'];
const LABEL_KEYS = ['id', 'title', 'color', 'project_id', 'created_at', 'updated_at', 'template', 'description', 'type', 'group_id'];
const COMMIT_KEYS = ['id', 'message', 'title', 'timestamp', 'url', 'author', 'added', 'modified', 'removed'];

const SAMPLES = {
  push: ['object_kind', 'event_name', 'before', 'after', 'ref', 'ref_protected', 'checkout_sha', 'user_id', 'user_name', 'user_username', 'user_email', 'user_avatar', 'project_id', 'project', 'repository', 'commits', 'total_commits_count'],
  tag_push: ['object_kind', 'event_name', 'before', 'after', 'ref', 'ref_protected', 'checkout_sha', 'user_id', 'user_name', 'user_avatar', 'project_id', 'project', 'repository', 'commits', 'total_commits_count'],
  issue: ['object_kind', 'event_type', 'user', 'project', 'object_attributes', 'repository', 'assignees', 'assignee', 'labels', 'changes'],
  issueAttributes: [
    'id', 'title', 'assignee_ids', 'assignee_id', 'author_id', 'project_id', 'created_at', 'updated_at', 'updated_by_id', 'last_edited_at', 'last_edited_by_id', 'relative_position',
    'description', 'milestone_id', 'state_id', 'confidential', 'discussion_locked', 'due_date', 'moved_to_id', 'duplicated_to_id', 'time_estimate', 'total_time_spent', 'time_change',
    'human_total_time_spent', 'human_time_estimate', 'human_time_change', 'weight', 'health_status', 'type', 'iid', 'url', 'state', 'action', 'severity', 'labels',
  ],
  note: ['object_kind', 'event_type', 'user', 'project_id', 'project', 'repository', 'object_attributes', 'issue'],
  noteAttributes: ['id', 'note', 'noteable_type', 'author_id', 'created_at', 'updated_at', 'project_id', 'attachment', 'line_code', 'commit_id', 'noteable_id', 'system', 'st_diff', 'action', 'url'],
  merge_request: ['object_kind', 'event_type', 'user', 'project', 'repository', 'object_attributes', 'labels', 'changes', 'assignees', 'reviewers'],
  mrAttributes: [
    'id', 'iid', 'target_branch', 'source_branch', 'source_project_id', 'author_id', 'assignee_ids', 'assignee_id', 'reviewer_ids', 'title', 'created_at', 'updated_at',
    'last_edited_at', 'last_edited_by_id', 'milestone_id', 'state_id', 'state', 'blocking_discussions_resolved', 'work_in_progress', 'draft', 'first_contribution', 'merge_status',
    'target_project_id', 'description', 'prepared_at', 'total_time_spent', 'time_change', 'human_total_time_spent', 'human_time_change', 'human_time_estimate', 'url', 'source',
    'target', 'last_commit', 'labels', 'action', 'detailed_merge_status',
  ],
  wiki_page: ['object_kind', 'user', 'project', 'wiki', 'object_attributes'],
  wikiAttributes: ['title', 'content', 'format', 'message', 'slug', 'url', 'action', 'diff_url', 'version_id'],
};

let e: Emulator;
const P = '/projects/acme%2Fapp';
const call = (path: string, method = 'POST', json?: unknown) => apiCall(e, `${P}${path}`, { method, token: 'maintainer-token', json });
const keysOf = (o: unknown) => Object.keys(o as object);

beforeEach(async () => {
  e = await createEmulator({ clock: { now: '2026-05-04T10:00:00Z', frozen: true }, fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: { 'README.md': '#\n' } }, labels: [{ name: 'bug' }] } as never)] } });
  e.hooks.pause();
  const flags = ['push_events', 'tag_push_events', 'issues_events', 'note_events', 'merge_requests_events', 'wiki_page_events', 'feature_flag_events'];
  expect((await call('/hooks', 'POST', { url: 'https://r.example.com/', ...Object.fromEntries(flags.map((f) => [f, true])) })).status).toBe(201);
});

async function payloadOf(event: string, act: () => Promise<unknown>): Promise<any> {
  const before = e.hooks.deliveries().length;
  await act();
  e.hooks.resume();
  await e.hooks.settled();
  const found = e.hooks.deliveries().slice(before).find((d) => d.event === event);
  expect(found, event).toBeDefined();
  return found!.payload;
}

const assignee = async () => (await (await apiCall(e, '/users?username=dev', { token: 'root-token' })).json())[0].id;

describe('payloads against GitLab\'s samples', () => {
  it('Push Hook', async () => {
    const p = await payloadOf('Push Hook', () => call('/repository/commits', 'POST', { branch: 'main', commit_message: 'Add a', actions: [{ action: 'create', file_path: 'a', content: 'a' }] }));
    expect(keysOf(p)).toEqual(expect.arrayContaining(SAMPLES.push));
    expect(keysOf(p.project)).toEqual(expect.arrayContaining(PROJECT_KEYS));
    expect(keysOf(p.commits[0])).toEqual(COMMIT_KEYS);
    expect(p.commits[0].timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
  });

  it('Tag Push Hook', async () => {
    const p = await payloadOf('Tag Push Hook', () => call('/repository/tags', 'POST', { tag_name: 'v1', ref: 'main' }));
    expect(keysOf(p)).toEqual(expect.arrayContaining(SAMPLES.tag_push));
    expect(p.before).toBe('0000000000000000000000000000000000000000');
  });

  it('Issue Hook', async () => {
    const p = await payloadOf('Issue Hook', async () => call('/issues', 'POST', { title: 'T', labels: 'bug', assignee_ids: [await assignee()] }));
    expect(keysOf(p)).toEqual(expect.arrayContaining(SAMPLES.issue));
    expect(keysOf(p.object_attributes)).toEqual(expect.arrayContaining(SAMPLES.issueAttributes));
    expect(keysOf(p.labels[0])).toEqual(LABEL_KEYS);
    expect(keysOf(p.user)).toEqual(USER_KEYS);
    expect(p.object_attributes.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('Issue Hook changes carry previous and current values', async () => {
    await call('/issues', 'POST', { title: 'Before' });
    const p = await payloadOf('Issue Hook', () => call('/issues/1', 'PUT', { title: 'After', labels: 'bug' }));
    expect(p.object_attributes.action).toBe('update');
    expect(p.changes.title).toEqual({ previous: 'Before', current: 'After' });
    expect(p.changes.labels.previous).toEqual([]);
    expect(p.changes.labels.current.map((l: any) => l.title)).toEqual(['bug']);
  });

  it('Note Hook on an issue', async () => {
    await call('/issues', 'POST', { title: 'On' });
    const p = await payloadOf('Note Hook', () => call('/issues/1/notes', 'POST', { body: 'hello' }));
    expect(keysOf(p)).toEqual(expect.arrayContaining(SAMPLES.note));
    expect(keysOf(p.object_attributes)).toEqual(expect.arrayContaining(SAMPLES.noteAttributes));
    expect(p.object_attributes).toMatchObject({ note: 'hello', noteable_type: 'Issue', action: 'create' });
    expect(p.object_attributes.url).toMatch(/\/acme\/app\/-\/issues\/1#note_\d+$/);
  });

  it('Merge Request Hook', async () => {
    await call('/repository/branches', 'POST', { branch: 'f', ref: 'main' });
    await call('/repository/commits', 'POST', { branch: 'f', commit_message: 'F', actions: [{ action: 'create', file_path: 'f', content: 'f' }] });
    const p = await payloadOf('Merge Request Hook', async () => call('/merge_requests', 'POST', { source_branch: 'f', target_branch: 'main', title: 'MR', assignee_ids: [await assignee()], reviewer_ids: [await assignee()] }));
    expect(keysOf(p)).toEqual(expect.arrayContaining(SAMPLES.merge_request));
    expect(keysOf(p.object_attributes)).toEqual(expect.arrayContaining(SAMPLES.mrAttributes));
    expect(p.object_attributes.last_commit).toMatchObject({ message: 'F', title: 'F' });
  });

  it('Wiki Page Hook', async () => {
    const p = await payloadOf('Wiki Page Hook', () => call('/wikis', 'POST', { title: 'Page', content: 'text' }));
    expect(keysOf(p)).toEqual(expect.arrayContaining(SAMPLES.wiki_page));
    expect(keysOf(p.object_attributes)).toEqual(expect.arrayContaining(SAMPLES.wikiAttributes));
  });

  it('Feature Flag Hook: only when a flag is switched on or off', async () => {
    expect((await call('/feature_flags', 'POST', { name: 'dark-mode', description: 'Dark', version: 'new_version_flag' })).status).toBe(201);
    expect((await call('/feature_flags/dark-mode', 'PUT', { description: 'Still dark' })).status).toBe(200);
    const p = await payloadOf('Feature Flag Hook', () => call('/feature_flags/dark-mode', 'PUT', { active: false }));
    expect(keysOf(p)).toEqual(['object_kind', 'project', 'user', 'user_url', 'object_attributes']);
    expect(p).toMatchObject({ object_kind: 'feature_flag', user: { username: 'mai' }, object_attributes: { name: 'dark-mode', description: 'Still dark', active: false } });
    expect(p.user_url).toMatch(/\/mai$/);
    expect(keysOf(p.project)).toEqual(expect.arrayContaining(PROJECT_KEYS));
    expect(e.hooks.deliveries({ event: 'Feature Flag Hook' })).toHaveLength(1);
  });
});
