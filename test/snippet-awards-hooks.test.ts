// Emoji Hook for award emoji on a project snippet and on its notes (Gitlab::DataBuilder::Emoji):
// the snippet as `project_snippet` with Snippet#hook_attrs, the URL awarded on its web URL.
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';
import { ACME, TEAM, apiCall, teamProject } from './support/world.js';

let e: Emulator;
const P = '/projects/acme%2Fapp';
const call = (path: string, method = 'POST', json?: unknown) => apiCall(e, `${P}${path}`, { method, token: 'maintainer-token', json });
let sid: number;

beforeEach(async () => {
  e = await createEmulator({
    clock: { now: '2026-05-04T10:00:00Z', frozen: true },
    fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ snippets: [{ title: 'Tips', description: 'Handy', author: 'dev', visibility: 'internal', files: [{ path: 'tips.md', content: '# Tips\n' }, { path: 'z.txt', content: 'z' }] }] })] },
  });
  expect((await call('/hooks', 'POST', { url: 'https://r.example.com/emoji', emoji_events: true, push_events: false })).status).toBe(201);
  e.hooks.pause();
  sid = (await (await call('/snippets', 'GET')).json())[0].id;
});

const payloads = async () => {
  e.hooks.resume();
  await e.hooks.settled();
  return e.hooks.deliveries({ event: 'Emoji Hook' }).map((d) => d.payload as any);
};

describe('Emoji Hook on a project snippet', () => {
  it('an award and its revoke carry the snippet as project_snippet', async () => {
    const award = await (await call(`/snippets/${sid}/award_emoji`, 'POST', { name: '+1' })).json();
    expect((await call(`/snippets/${sid}/award_emoji/${award.id}`, 'DELETE')).status).toBe(204);
    const [given, taken] = await payloads();
    expect([given.event_type, taken.event_type]).toEqual(['award', 'revoke']);
    const web = `${given.project.web_url}/-/snippets/${sid}`;
    expect(given.object_attributes).toMatchObject({ id: award.id, name: 'thumbsup', awardable_type: 'Snippet', awardable_id: sid, action: 'award', awarded_on_url: web });
    expect(given.project_snippet).toEqual({
      id: sid, title: 'Tips', description: 'Handy', content: '# Tips\n', author_id: expect.any(Number), project_id: given.project.id,
      created_at: '2026-05-04 10:00:00 UTC', updated_at: '2026-05-04 10:00:00 UTC', file_name: 'tips.md', type: 'ProjectSnippet', visibility_level: 10, url: web,
    });
    expect(given.issue).toBeUndefined();
    expect(given.note).toBeUndefined();
  });

  it('an award on a snippet\'s note names the note and its snippet', async () => {
    const note = await (await call(`/snippets/${sid}/notes`, 'POST', { body: 'Thanks' })).json();
    expect((await call(`/snippets/${sid}/notes/${note.id}/award_emoji`, 'POST', { name: 'tada' })).status).toBe(201);
    const [p] = await payloads();
    expect(p.object_attributes).toMatchObject({ awardable_type: 'Note', awardable_id: note.id, awarded_on_url: `${p.project.web_url}/-/snippets/${sid}#note_${note.id}` });
    expect(p.note).toMatchObject({ id: note.id, noteable_type: 'Snippet', noteable_id: sid });
    expect(p.project_snippet).toMatchObject({ id: sid, title: 'Tips' });
  });

  it('a refused award sends nothing', async () => {
    expect((await call(`/snippets/${sid}/award_emoji`, 'POST', { name: 'not_an_emoji' })).status).toBe(404);
    expect(await payloads()).toEqual([]);
  });
});
