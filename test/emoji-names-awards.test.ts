// Award emoji names are exactly GitLab's: the names of TanukiEmoji's characters (GitLab's
// fixtures/emojis/digests.json) and their aliases (aliases.json), looked up as
// TanukiEmoji.find_by_alpha_code does (`:code:` or a bare code), and stored as the emoji's name.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COUNT, PACKED, SHA256 } from '../src/families/issuables/emoji-names.js';
import { aliasTable } from '../src/families/issuables/emoji-aliases.js';
import { unpackEmojiNames } from '../src/families/issuables/emoji.js';
import { ISSUE_AND_MR, seededWorld, jsonCall } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const world = seededWorld(ISSUE_AND_MR, NOW);
const ISSUE = '/projects/acme%2Fapp/issues/1';
const MR = '/projects/acme%2Fapp/merge_requests/1';

const call = (method: string, path: string, json?: unknown, token = 'dev-token') => jsonCall(world(), path, { method, token, json });
const award = (path: string, name: unknown) => call('POST', `${path}/award_emoji`, { name });
const names = async (path: string) => (await call('GET', `${path}/award_emoji`)).body.map((a: { name: string }) => a.name);
const notFound = (why: string) => ({ status: 404, body: { message: `404 Award Emoji ${why} Not Found` } });
const INVALID = notFound('Name is not a valid emoji name');

// The model: GitLab's names and aliases as the generated modules hold them.
const NAMES = unpackEmojiNames(PACKED);
const ALIASES = aliasTable();
const canonical = (code: string) => (NAMES.has(code) ? code : ALIASES.get(code));
function modelName(name: string): string | undefined {
  const wrapped = /^:([_+\-a-z0-9]+):$/.exec(name);
  if (wrapped) return canonical(wrapped[1]!);
  return /:[_+\-a-z0-9]+:/.test(name) ? undefined : canonical(name);
}

describe('the generated list', () => {
  it('unpacks to the names it was written from (count and checksum)', () => {
    expect(NAMES.size).toBe(COUNT);
    expect(createHash('sha256').update([...NAMES].sort().join('\n')).digest('hex')).toBe(SHA256);
  });

  it('holds GitLab\'s names, skin tones as GitLab spells them, and none of gemoji\'s', () => {
    for (const name of ['thumbsup', 'thumbsdown', 'tada', '100', '1234', '8ball', 'e-mail', 'thumbsup_tone1', 'thumbsdown_tone5',
      'rightwards_hand_medium_light_skin_tone', 'handshake_light_skin_tone_dark_skin_tone', 'man_in_tuxedo_tone3',
      'man_in_tuxedo_dark_skin_tone', 'person_golfing_dark_skin_tone', 'flag_ad', 'flag_united_nations', 'flag_wales', 'tone1']) {
      expect(NAMES.has(name), name).toBe(true);
    }
    for (const name of ['+1', '-1', 'thumbs_up', 'andorra', 'flag_andorra', 'artist_medium-light_skin_tone', 'baby_angel_tone1',
      'adult', '_1', 'person_golfing', 'golfer_light_skin_tone', 'golfer_tone1', 'thumbsup_tone6']) {
      expect(NAMES.has(name), name).toBe(false);
    }
  });

  it('every alias names one of the names and none is a name itself', () => {
    expect(ALIASES.size).toBeGreaterThan(1500);
    for (const [alias, name] of ALIASES) {
      expect(NAMES.has(name), `${alias} -> ${name}`).toBe(true);
      expect(NAMES.has(alias), alias).toBe(false);
    }
  });

  it('is loaded only behind an import(): no module imports it statically', () => {
    const dir = new URL('../src/', import.meta.url);
    for (const file of readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      expect(text, file).not.toMatch(/from '[^']*emoji-(names|aliases)\.js'/);
    }
  });
});

describe('awarding by name', () => {
  it.each(['thumbsup', 'thumbsdown', 'tada', '100', '1234', 'thumbsup_tone3', 'rightwards_hand_medium_light_skin_tone',
    'handshake_light_skin_tone_dark_skin_tone', 'flag_united_nations', 'e-mail'])('%s is awarded as itself', async (name) => {
    const res = await award(ISSUE, name);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, awardable_type: 'Issue' });
    expect(await names(ISSUE)).toEqual([name]);
  });

  it.each([
    ['+1', 'thumbsup'], ['-1', 'thumbsdown'], ['thumbs_up_medium_skin_tone', 'thumbsup_tone3'], ['+1_tone2', 'thumbsup_tone2'],
    ['hundred_points', '100'], ['party_popper', 'tada'], ['ad', 'flag_ad'], ['flag_andorra', 'flag_ad'], ['satisfied', 'laughing'],
    ['person_golfing', 'golfer'], ['flag_in_hole', 'golf'],
  ])('the alias %s is stored as its emoji\'s name', async (alias, expected) => {
    const name = expected;
    expect(modelName(alias)).toBe(name);
    const res = await award(ISSUE, alias);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe(name);
    expect(await names(ISSUE)).toEqual([name]);
  });

  it.each([[':thumbsup:', 'thumbsup'], [':+1:', 'thumbsup'], [':party_popper:', 'tada'], [':100:', '100']])(
    '%s, in colons, is found as TanukiEmoji finds it and stored as %s', async (wrapped, name) => {
      expect((await award(ISSUE, wrapped)).body.name).toBe(name);
      expect(await award(ISSUE, name)).toEqual(notFound('User has already been taken'));
    },
  );

  it.each(['andorra', 'artist_medium-light_skin_tone', 'baby_angel_tone1', 'adult', '_1', 'japanese_ogre_tone1', 'THUMBSUP',
    'Thumbsup', 'thumbsup_tone6', 'thumbsup ', ' thumbsup', '::thumbsup::', 'x:thumbsup:', ':thumbsup', ':) ', ':)',
    'smile:', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'tone', 'flag_zz', 'ünicode'])(
    '%j is refused as GitLab refuses it and changes nothing', async (name) => {
      expect(await award(ISSUE, name)).toEqual(INVALID);
      expect(await names(ISSUE)).toEqual([]);
    },
  );

  it.each(['', '   '])('the blank name %j is refused with both of the model\'s errors', async (name) => {
    expect(await award(ISSUE, name)).toEqual(notFound('Name can\'t be blank and Name is not a valid emoji name'));
    expect(await names(ISSUE)).toEqual([]);
  });

  it('an unknown name is refused alike on a merge request and on the notes of both', async () => {
    const issueNote = (await call('POST', `${ISSUE}/notes`, { body: 'A note' })).body.id;
    const mrNote = (await call('POST', `${MR}/notes`, { body: 'An MR note' })).body.id;
    for (const path of [MR, `${ISSUE}/notes/${issueNote}`, `${MR}/notes/${mrNote}`]) {
      expect(await award(path, 'andorra'), path).toEqual(INVALID);
      expect(await names(path), path).toEqual([]);
      expect((await award(path, ':+1:')).body.name, path).toBe('thumbsup');
    }
  });

  it('/award takes GitLab\'s names only', async () => {
    await call('POST', `${ISSUE}/notes`, { body: '/award :andorra:' });
    expect(await names(ISSUE)).toEqual([]);
    await call('POST', `${ISSUE}/notes`, { body: '/award :thumbs_up_dark_skin_tone:' });
    expect(await names(ISSUE)).toEqual(['thumbsup_tone5']);
  });

  it('property: the API accepts a name exactly when the generated list holds it, and stores its emoji\'s name', async () => {
    const listed = [...NAMES, ...ALIASES.keys()];
    const member = fc.constantFrom(...listed);
    const candidate = fc.oneof(
      member,
      member.map((n) => `:${n}:`),
      member.map((n) => n.toUpperCase()),
      member.map((n) => n.replaceAll('_', '-')),
      fc.tuple(member, fc.constantFrom('_tone1', '_tone6', 's', '_', ':', '_light_skin_tone')).map(([n, s]) => n + s),
      fc.stringMatching(/^[a-z_:+-]{1,12}$/),
    );
    await fc.assert(fc.asyncProperty(candidate, async (name) => {
      const expected = modelName(name);
      const res = await award(ISSUE, name);
      if (expected === undefined) {
        expect(res).toEqual(INVALID);
      } else {
        expect(res.status).toBe(201);
        expect(res.body.name).toBe(expected);
        expect((await call('DELETE', `${ISSUE}/award_emoji/${res.body.id}`)).status).toBe(204);
      }
    }), { numRuns: 150 });
    expect(await names(ISSUE)).toEqual([]);
  });
});
