// Participants of issues and merge requests as Participable gathers them: the author, the
// assignees, whoever comments and whoever is mentioned in the description or a note, then only
// those who may read the project (Issuable#visible_participants).
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
    issues: [{ title: 'First issue', author: 'dev', description: 'Ask @mai, not `@gus`; @out and @nobody cannot help.' }],
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev', description: 'cc @rep' }],
  }],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
const names = (body: { username: string }[]) => body.map((u) => u.username);

describe('participants', () => {
  // The order is Participable's: commenters, then the author, then the people mentioned.
  it('count the author, people mentioned in the description, commenters and people they mention, readers only', async () => {
    expect(names((await call('GET', `${APP}/issues/1/participants`, 'dev-token')).body)).toEqual(['dev', 'mai']);
    expect((await call('POST', `${APP}/issues/1/notes`, 'reporter-token', { body: 'What does @gus think?' })).status).toBe(201);
    expect(names((await call('GET', `${APP}/issues/1/participants`, 'dev-token')).body)).toEqual(['rep', 'dev', 'mai', 'gus']);
  });

  it('mentions in an internal note count only for those who may read internal notes', async () => {
    expect((await call('POST', `${APP}/issues/1/notes`, 'dev-token', { body: 'ping @gus and @rep', internal: true })).status).toBe(201);
    expect(names((await call('GET', `${APP}/issues/1/participants`, 'dev-token')).body)).toEqual(['dev', 'rep', 'mai']);
  });

  it('a merge request counts its reviewers, mentions and commenters', async () => {
    expect(names((await call('GET', `${APP}/merge_requests/1/participants`, 'dev-token')).body)).toEqual(['dev', 'rep']);
    await call('POST', `${APP}/merge_requests/1/notes`, 'maintainer-token', { body: 'LGTM' });
    expect(names((await call('GET', `${APP}/merge_requests/1/participants`, 'dev-token')).body)).toEqual(['mai', 'dev', 'rep']);
  });

  it('a mentioned user is subscribed, as a participant is', async () => {
    expect((await call('GET', `${APP}/issues/1`, 'maintainer-token')).body.subscribed).toBe(true);
    expect((await call('GET', `${APP}/issues/1`, 'reporter-token')).body.subscribed).toBe(false);
  });
});

describe('mentionedUsernames', () => {
  it('skips code, email addresses and a trailing dot, and takes long adversarial text', async () => {
    const { mentionedUsernames } = await import('../src/families/issuables/mentions.js');
    expect(mentionedUsernames('hi @Mai. and a@b.c, `@x` ``@y`` \n```\n@z\n```\n@w')).toEqual(['mai', 'w']);
    expect(mentionedUsernames('`'.repeat(1) + ' ``'.repeat(20000) + '@' + '.'.repeat(60000) + '@a'.repeat(20000))).toEqual(['a']);
  });
});
