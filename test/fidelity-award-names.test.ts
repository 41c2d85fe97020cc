// Award emoji names are GitLab's own (Gitlab::EmojiNameValidator over TanukiEmoji's alpha codes):
// an unknown name is refused by the API and ignored by the /award quick action.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, issues: [{ title: 'First issue', author: 'dev' }] }],
};
const world = seededWorld(FIXTURE, NOW);
const ISSUE = '/projects/acme%2Fapp/issues/1';

const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });

describe('award emoji names', () => {
  it.each(['thumbsup', 'tada', 'slight_smile', 'thumbsup_tone3', '100', '+1', 'woman_wearing_turban_dark_skin_tone'])('%s is an emoji', async (name) => {
    expect((await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name })).status).toBe(201);
  });

  it.each(['notanemoji', 'thumbsup_tone9', 'THUMBSUP', '__proto__', 'constructor'])('%s is refused as GitLab refuses it', async (name) => {
    expect(await call('POST', `${ISSUE}/award_emoji`, 'dev-token', { name })).toEqual({
      status: 404, body: { message: '404 Award Emoji Name is not a valid emoji name Not Found' },
    });
    expect((await call('GET', `${ISSUE}/award_emoji`, 'dev-token')).body).toEqual([]);
  });

  it('the /award quick action ignores an unknown name', async () => {
    await call('POST', `${ISSUE}/notes`, 'dev-token', { body: '/award :notanemoji:' });
    expect((await call('GET', `${ISSUE}/award_emoji`, 'dev-token')).body).toEqual([]);
    await call('POST', `${ISSUE}/notes`, 'dev-token', { body: '/award :rocket:' });
    expect((await call('GET', `${ISSUE}/award_emoji`, 'dev-token')).body.map((a: { name: string }) => a.name)).toEqual(['rocket']);
  });
});
