// Award emoji on project snippets and their notes (lib/api/award_emoji.rb's `snippet` awardable):
// found by id among the project's snippets, read as `read_snippet` allows, the names stored as
// GitLab stores them, and gone with their snippet.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { tentries } from '../src/store/table.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject, jsonCall } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({ snippets: [{ title: 'Team notes', author: 'dev', visibility: 'private', files: [{ path: 'a.md', content: 'a\n' }] }] }),
    {
      namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', members: TEAM_MEMBERS,
      snippets: [
        { title: 'Open', author: 'dev', visibility: 'public', files: [{ path: 'o.md', content: 'o\n' }] },
        { title: 'Closed', author: 'dev', visibility: 'private', files: [{ path: 'c.md', content: 'c\n' }] },
      ],
    },
  ],
};

const world = seededWorld(FIXTURE, '2024-05-02T09:00:00.000Z');
const APP = '/projects/acme%2Fapp';
const SITE = '/projects/acme%2Fsite';

const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });

/** The id of a project's snippet by title. */
async function snippetId(project: string, title: string): Promise<number> {
  const list = (await call('GET', `${project}/snippets`, 'root-token')).body as { id: number; title: string }[];
  return list.find((s) => s.title === title)!.id;
}

const names = async (path: string, token = 'dev-token') => (await call('GET', `${path}/award_emoji`, token)).body.map((a: { name: string }) => a.name);

describe('award emoji on a project snippet', () => {
  it('awards, lists, shows and takes back, with the entity GitLab renders', async () => {
    const s = `${APP}/snippets/${await snippetId(APP, 'Team notes')}`;
    const made = await call('POST', `${s}/award_emoji`, 'reporter-token', { name: 'tada' });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: made.body.id, name: 'tada', user: expect.objectContaining({ username: 'rep' }),
      created_at: '2024-05-02T09:00:00.000Z', updated_at: '2024-05-02T09:00:00.000Z',
      awardable_id: await snippetId(APP, 'Team notes'), awardable_type: 'Snippet', url: null,
    });
    expect(Object.keys(made.body)).toEqual(['id', 'name', 'user', 'created_at', 'updated_at', 'awardable_id', 'awardable_type', 'url']);
    await call('POST', `${s}/award_emoji`, 'guest-token', { name: 'rocket' });
    const list = await call('GET', `${s}/award_emoji`);
    expect(list.status).toBe(200);
    expect(list.body.map((a: { name: string; user: { username: string } }) => [a.name, a.user.username])).toEqual([['tada', 'rep'], ['rocket', 'gus']]);
    expect((await call('GET', `${s}/award_emoji/${made.body.id}`)).body).toEqual(made.body);
    expect((await call('DELETE', `${s}/award_emoji/${made.body.id}`, 'reporter-token')).status).toBe(204);
    expect(await names(s)).toEqual(['rocket']);
    expect(await call('GET', `${s}/award_emoji/${made.body.id}`)).toEqual({ status: 404, body: { message: '404 Not found' } });
  });

  it('stores an alias as the emoji it names, and refuses a second award of it', async () => {
    const s = `${APP}/snippets/${await snippetId(APP, 'Team notes')}`;
    expect((await call('POST', `${s}/award_emoji`, 'dev-token', { name: '+1' })).body.name).toBe('thumbsup');
    const again = await call('POST', `${s}/award_emoji`, 'dev-token', { name: 'thumbs_up' });
    expect(again).toEqual({ status: 404, body: { message: '404 Award Emoji User has already been taken Not Found' } });
    // Another user may award the same emoji.
    expect((await call('POST', `${s}/award_emoji`, 'maintainer-token', { name: 'thumbsup' })).status).toBe(201);
    expect(await names(s)).toEqual(['thumbsup', 'thumbsup']);
  });

  it('refuses a name that is no emoji with the award\'s errors, and changes nothing', async () => {
    const s = `${APP}/snippets/${await snippetId(APP, 'Team notes')}`;
    const before = world().state;
    expect(await call('POST', `${s}/award_emoji`, 'dev-token', { name: 'no_such_emoji' })).toEqual({
      status: 404, body: { message: '404 Award Emoji Name is not a valid emoji name Not Found' },
    });
    expect(await call('POST', `${s}/award_emoji`, 'dev-token', { name: ' ' })).toEqual({
      status: 404, body: { message: "404 Award Emoji Name can't be blank and Name is not a valid emoji name Not Found" },
    });
    expect((await call('POST', `${s}/award_emoji`, 'dev-token', {})).status).toBe(400);
    expect(world().state.awardEmoji).toBe(before.awardEmoji);
  });

  it('a snippet the caller may not read is 404 Award Emoji Not Found; a public one takes anyone\'s award', async () => {
    const closed = `${SITE}/snippets/${await snippetId(SITE, 'Closed')}`;
    const open = `${SITE}/snippets/${await snippetId(SITE, 'Open')}`;
    expect(await call('GET', `${closed}/award_emoji`, 'outsider-token')).toEqual({ status: 404, body: { message: '404 Award Emoji Not Found' } });
    expect(await call('POST', `${closed}/award_emoji`, 'outsider-token', { name: 'tada' })).toEqual({ status: 404, body: { message: '404 Award Emoji Not Found' } });
    // A member reads a private snippet of the project.
    expect((await call('POST', `${closed}/award_emoji`, 'guest-token', { name: 'tada' })).status).toBe(201);
    const award = await call('POST', `${open}/award_emoji`, 'outsider-token', { name: 'eyes' });
    expect(award.status).toBe(201);
    expect(await names(open, 'outsider-token')).toEqual(['eyes']);
    // Without a token: 401.
    expect((await apiCall(world(), `${open}/award_emoji`)).status).toBe(401);
  });

  it('finds the snippet among the project\'s: another project\'s or a missing one is 404 Not found; a private project is 404 Project Not Found', async () => {
    const other = await snippetId(SITE, 'Open');
    expect(await call('GET', `${APP}/snippets/${other}/award_emoji`)).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect(await call('POST', `${APP}/snippets/999999/award_emoji`, 'dev-token', { name: 'tada' })).toEqual({ status: 404, body: { message: '404 Not found' } });
    const mine = await snippetId(APP, 'Team notes');
    expect(await call('GET', `${APP}/snippets/${mine}/award_emoji`, 'outsider-token')).toEqual({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await call('GET', `${APP}/snippets/abc/award_emoji`)).toEqual({ status: 400, body: { error: 'snippet_id is invalid' } });
  });

  it('only the awarder or an administrator takes an award back (401 Unauthorized otherwise)', async () => {
    const s = `${APP}/snippets/${await snippetId(APP, 'Team notes')}`;
    const a = (await call('POST', `${s}/award_emoji`, 'dev-token', { name: 'heart' })).body;
    expect(await call('DELETE', `${s}/award_emoji/${a.id}`, 'maintainer-token')).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await names(s)).toEqual(['heart']);
    expect((await call('DELETE', `${s}/award_emoji/${a.id}`, 'root-token')).status).toBe(204);
    expect(await names(s)).toEqual([]);
    expect(await call('DELETE', `${s}/award_emoji/${a.id}`, 'dev-token')).toEqual({ status: 404, body: { message: '404 Not found' } });
  });

  it('takes back one\'s own award on a snippet one may no longer read (DELETE asks no read access)', async () => {
    const id = await snippetId(SITE, 'Open');
    const s = `${SITE}/snippets/${id}`;
    const a = (await call('POST', `${s}/award_emoji`, 'outsider-token', { name: 'eyes' })).body;
    expect((await call('PUT', s, 'dev-token', { visibility: 'private' })).status).toBe(200);
    expect(await call('GET', `${s}/award_emoji`, 'outsider-token')).toEqual({ status: 404, body: { message: '404 Award Emoji Not Found' } });
    expect((await call('DELETE', `${s}/award_emoji/${a.id}`, 'outsider-token')).status).toBe(204);
    expect(await names(s)).toEqual([]);
  });

  it('an award on one snippet is not another\'s', async () => {
    const open = `${SITE}/snippets/${await snippetId(SITE, 'Open')}`;
    const closed = `${SITE}/snippets/${await snippetId(SITE, 'Closed')}`;
    const a = (await call('POST', `${open}/award_emoji`, 'dev-token', { name: 'tada' })).body;
    expect(await call('GET', `${closed}/award_emoji/${a.id}`)).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect(await call('DELETE', `${closed}/award_emoji/${a.id}`)).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect((await call('POST', `${closed}/award_emoji`, 'dev-token', { name: 'tada' })).status).toBe(201);
  });

  it('personal snippets have no award routes', async () => {
    const made = await call('POST', '/snippets', 'dev-token', { title: 'Mine', visibility: 'public', files: [{ file_path: 'm.md', content: 'm' }] });
    expect(made.status).toBe(201);
    expect((await call('POST', `/snippets/${made.body.id}/award_emoji`, 'dev-token', { name: 'tada' })).status).toBe(404);
    expect((await call('GET', `/snippets/${made.body.id}/award_emoji`)).status).toBe(404);
  });
});

describe('award emoji on a project snippet\'s notes', () => {
  it('awards, lists, shows and takes back on a note, read as its snippet is', async () => {
    const s = `${SITE}/snippets/${await snippetId(SITE, 'Closed')}`;
    const note = (await call('POST', `${s}/notes`, 'dev-token', { body: 'Nice one' })).body;
    expect(note.noteable_type).toBe('Snippet');
    const a = await call('POST', `${s}/notes/${note.id}/award_emoji`, 'reporter-token', { name: 'smile' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: 'smile', awardable_type: 'Note', awardable_id: note.id, user: { username: 'rep' } });
    expect(await names(`${s}/notes/${note.id}`)).toEqual(['smile']);
    // The snippet itself has none.
    expect(await names(s)).toEqual([]);
    expect((await call('GET', `${s}/notes/${note.id}/award_emoji/${a.body.id}`)).body).toEqual(a.body);
    expect(await call('GET', `${s}/notes/${note.id}/award_emoji`, 'outsider-token')).toEqual({ status: 404, body: { message: '404 Award Emoji Not Found' } });
    expect(await call('POST', `${s}/notes/${note.id}/award_emoji`, 'reporter-token', { name: 'smile' })).toEqual({
      status: 404, body: { message: '404 Award Emoji User has already been taken Not Found' },
    });
    expect(await call('DELETE', `${s}/notes/${note.id}/award_emoji/${a.body.id}`, 'dev-token')).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
    expect((await call('DELETE', `${s}/notes/${note.id}/award_emoji/${a.body.id}`, 'reporter-token')).status).toBe(204);
    expect(await names(`${s}/notes/${note.id}`)).toEqual([]);
  });

  it('a note of another snippet, or none, is 404 Not found', async () => {
    const open = `${SITE}/snippets/${await snippetId(SITE, 'Open')}`;
    const closed = `${SITE}/snippets/${await snippetId(SITE, 'Closed')}`;
    const note = (await call('POST', `${open}/notes`, 'dev-token', { body: 'Hi' })).body;
    expect(await call('GET', `${closed}/notes/${note.id}/award_emoji`)).toEqual({ status: 404, body: { message: '404 Not found' } });
    expect(await call('POST', `${open}/notes/999999/award_emoji`, 'dev-token', { name: 'tada' })).toEqual({ status: 404, body: { message: '404 Not found' } });
    // An unreadable snippet's missing note: the note is looked up first.
    expect(await call('GET', `${closed}/notes/999999/award_emoji`, 'outsider-token')).toEqual({ status: 404, body: { message: '404 Not found' } });
  });
});

describe('a deleted snippet', () => {
  it('takes its award emoji and its notes\' with it', async () => {
    const id = await snippetId(SITE, 'Open');
    const s = `${SITE}/snippets/${id}`;
    await call('POST', `${s}/award_emoji`, 'dev-token', { name: 'tada' });
    const note = (await call('POST', `${s}/notes`, 'dev-token', { body: 'Hi' })).body;
    await call('POST', `${s}/notes/${note.id}/award_emoji`, 'dev-token', { name: 'eyes' });
    const keys = () => [...tentries(world().state.awardEmoji)].map(([k]) => k).filter((k) => k === `Snippet:${id}` || k === `Note:${note.id}`);
    expect(keys()).toHaveLength(2);
    expect((await call('DELETE', s, 'dev-token')).status).toBe(204);
    expect(keys()).toEqual([]);
    expect([...tentries(world().state.awardKeys)].map(([k]) => k).filter((k) => k.startsWith(`Snippet:${id}:`) || k.startsWith(`Note:${note.id}:`))).toEqual([]);
    expect(await call('GET', `${s}/award_emoji`)).toEqual({ status: 404, body: { message: '404 Not found' } });
  });
});
