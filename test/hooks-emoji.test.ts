// Emoji Hook: an award emoji given or taken back on an issue, a merge request or a note of one
// reaches the project's hooks with emoji events, with the keys of GitLab's documented sample
// (doc/user/project/integrations/webhook_events.md, "Emoji events").
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

const SAMPLE = {
  top: ['object_kind', 'event_type', 'user', 'project_id', 'project', 'object_attributes'],
  attributes: ['user_id', 'created_at', 'id', 'name', 'awardable_type', 'awardable_id', 'updated_at', 'action', 'awarded_on_url'],
  note: ['attachment', 'author_id', 'change_position', 'commit_id', 'created_at', 'discussion_id', 'id', 'line_code', 'note', 'noteable_id', 'noteable_type', 'original_position', 'position', 'project_id', 'resolved_at', 'resolved_by_id', 'resolved_by_push', 'st_diff', 'system', 'type', 'updated_at', 'updated_by_id', 'description', 'url'],
};

let e: Emulator;
const P = '/projects/acme%2Fapp';
const call = (path: string, method = 'POST', json?: unknown) => apiCall(e, `${P}${path}`, { method, token: 'maintainer-token', json });

beforeEach(async () => {
  e = await createEmulator({ clock: { now: '2026-05-04T10:00:00Z', frozen: true }, fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ repository: { files: { 'README.md': '#\n' } } })] } });
  expect((await call('/hooks', 'POST', { url: 'https://r.example.com/emoji', emoji_events: true, push_events: false })).status).toBe(201);
  expect((await call('/hooks', 'POST', { url: 'https://r.example.com/issues', issues_events: true, push_events: false })).status).toBe(201);
  e.hooks.pause();
  expect((await call('/issues', 'POST', { title: 'Bug' })).status).toBe(201);
});

const emojis = () => e.hooks.deliveries({ event: 'Emoji Hook' });

describe('Emoji Hook', () => {
  it('an award on an issue carries the sample\'s keys, and only hooks with emoji events get it', async () => {
    const res = await call('/issues/1/award_emoji', 'POST', { name: 'thumbsup' });
    expect(res.status).toBe(201);
    const award = await res.json();
    const sent = emojis();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('https://r.example.com/emoji');
    e.hooks.resume();
    await e.hooks.settled();
    const d = e.hooks.deliveries({ event: 'Emoji Hook' })[0]!;
    expect(d.headers['X-Gitlab-Event']).toBe('Emoji Hook');
    const p = d.payload as any;
    expect(Object.keys(p)).toEqual(expect.arrayContaining([...SAMPLE.top, 'issue']));
    expect(Object.keys(p.object_attributes)).toEqual(SAMPLE.attributes);
    expect(p).toMatchObject({ object_kind: 'emoji', event_type: 'award', project_id: p.project.id, user: { username: 'mai' } });
    expect(p.object_attributes).toMatchObject({ id: award.id, name: 'thumbsup', awardable_type: 'Issue', action: 'award', created_at: '2026-05-04 10:00:00 UTC' });
    expect(p.object_attributes.awarded_on_url).toBe(`${p.project.web_url}/-/issues/1`);
    expect(p.issue.iid).toBe(1);
    expect(p.note).toBeUndefined();
  });

  it('taking an award back sends `revoke`; an award on a note names the note and its issue', async () => {
    const note = await (await call('/issues/1/notes', 'POST', { body: 'Looks good' })).json();
    const award = await (await call(`/issues/1/notes/${note.id}/award_emoji`, 'POST', { name: 'tada' })).json();
    expect((await call(`/issues/1/notes/${note.id}/award_emoji/${award.id}`, 'DELETE')).status).toBe(204);
    e.hooks.resume();
    await e.hooks.settled();
    const [given, taken] = emojis().map((d) => d.payload as any);
    expect(given.event_type).toBe('award');
    expect(taken.event_type).toBe('revoke');
    expect(taken.object_attributes.action).toBe('revoke');
    for (const p of [given, taken]) {
      expect(Object.keys(p)).toEqual(expect.arrayContaining([...SAMPLE.top, 'note', 'issue']));
      expect(Object.keys(p.note)).toEqual(expect.arrayContaining(SAMPLE.note));
      expect(p.object_attributes).toMatchObject({ awardable_type: 'Note', awardable_id: note.id, name: 'tada', awarded_on_url: `${p.project.web_url}/-/issues/1#note_${note.id}` });
      expect(p.note.id).toBe(note.id);
    }
  });

  it('a note that is one emoji alone is an award, and reaches the hook as one', async () => {
    expect((await call('/issues/1/notes', 'POST', { body: ':rocket:' })).status).toBe(201);
    const sent = emojis();
    expect(sent).toHaveLength(1);
    e.hooks.resume();
    await e.hooks.settled();
    expect((emojis()[0]!.payload as any).object_attributes).toMatchObject({ name: 'rocket', awardable_type: 'Issue', action: 'award' });
  });

  it('a refused award sends nothing', async () => {
    expect((await call('/issues/1/award_emoji', 'POST', { name: 'thumbsup' })).status).toBe(201);
    expect((await call('/issues/1/award_emoji', 'POST', { name: 'thumbsup' })).status).toBe(404);
    expect(emojis()).toHaveLength(1);
  });
});
