// An award emoji's name is its emoji's own (AwardEmojis::BaseService#normalize_name over
// TanukiEmoji's aliases, GitLab's fixtures/emojis/aliases.json): `+1` is stored and answered as
// `thumbsup`, through the API, a note that is the emoji alone and the /award quick action.
import { describe, expect, it } from 'vitest';
import { ISSUE_AND_MR, seededWorld, jsonCall } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const world = seededWorld(ISSUE_AND_MR, NOW);
const ISSUE = '/projects/acme%2Fapp/issues/1';

const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });
const names = async (path: string) => (await call('GET', `${path}/award_emoji`)).body.map((a: { name: string }) => a.name);

describe('award emoji aliases', () => {
  it.each([
    ['+1', 'thumbsup'], ['-1', 'thumbsdown'], ['thumbs_up', 'thumbsup'], ['+1_tone3', 'thumbsup_tone3'],
    ['thumbs_up_dark_skin_tone', 'thumbsup_tone5'], ['satisfied', 'laughing'], ['party_popper', 'tada'],
    ['flag_andorra', 'flag_ad'], ['ad', 'flag_ad'], ['person_facepalming', 'face_palm'], ['tuxedo_tone2', 'man_in_tuxedo_tone2'],
  ])('%s is awarded as %s', async (alias, name) => {
    const res = await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name: alias });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
    expect(await names(ISSUE)).toEqual([name]);
  });

  it('a name that is no alias is kept, and the emoji an alias names are one award', async () => {
    expect((await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name: 'face_palm' })).body.name).toBe('face_palm');
    expect((await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name: 'thumbsup' })).status).toBe(201);
    expect(await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name: '+1' })).toEqual({
      status: 404, body: { message: '404 Award Emoji User has already been taken Not Found' },
    });
    expect(await names(ISSUE)).toEqual(['face_palm', 'thumbsup']);
  });

  it('+1 and -1 count as the issue\'s upvotes and downvotes', async () => {
    await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name: '+1' });
    await call('POST', `${ISSUE}/award_emoji`, 'maintainer-token', { name: '+1' });
    await call('POST', `${ISSUE}/award_emoji`, 'reporter-token', { name: '-1' });
    const issue = (await call('GET', ISSUE)).body;
    expect([issue.upvotes, issue.downvotes]).toEqual([2, 1]);
  });

  it('a note that is :+1: alone awards thumbsup, and a second one is a note', async () => {
    const first = await call('POST', `${ISSUE}/notes`, 'dev-token', { body: ':+1:' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: 'thumbsup', awardable_type: 'Issue' });
    expect(await names(ISSUE)).toEqual(['thumbsup']);
    // The caller has thumbsup already: `:thumbs_up:` is then an ordinary note.
    const second = await call('POST', `${ISSUE}/notes`, 'dev-token', { body: ':thumbs_up:' });
    expect(second.body.body).toBe(':thumbs_up:');
    expect(await names(ISSUE)).toEqual(['thumbsup']);
  });

  it('on a merge request too', async () => {
    const mr = '/projects/acme%2Fapp/merge_requests/1';
    expect((await call('POST', `${mr}/notes`, 'dev-token', { body: ':-1:' })).body.name).toBe('thumbsdown');
    expect((await call('GET', mr)).body.downvotes).toBe(1);
  });

  it('an award on a note names the emoji too', async () => {
    const note = (await call('POST', `${ISSUE}/notes`, 'dev-token', { body: 'Looks good' })).body;
    const res = await call('POST', `${ISSUE}/notes/${note.id}/award_emoji`, 'maintainer-token', { name: '+1' });
    expect(res.body).toMatchObject({ name: 'thumbsup', awardable_type: 'Note', awardable_id: note.id });
  });

  it('/award with an alias toggles the emoji it names', async () => {
    await call('POST', `${ISSUE}/notes`, 'dev-token', { body: '/award :+1:' });
    expect(await names(ISSUE)).toEqual(['thumbsup']);
    await call('POST', `${ISSUE}/notes`, 'dev-token', { body: '/award :thumbsup:' });
    expect(await names(ISSUE)).toEqual([]);
    await call('POST', `${ISSUE}/notes`, 'dev-token', { body: '/award :thumbs_up:' });
    await call('POST', `${ISSUE}/notes`, 'dev-token', { body: '/react :+1:' });
    expect(await names(ISSUE)).toEqual([]);
  });

  it.each(['notanemoji', 'THUMBSUP', '__proto__', 'constructor', 'toString', '+1_tone6'])('%s is still refused', async (name) => {
    expect((await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name })).status).toBe(404);
    expect(await names(ISSUE)).toEqual([]);
  });
});
