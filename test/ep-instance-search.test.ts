// Search (lib/api/search.rb): basic search over the world, per scope, limited to what the caller
// may read and to the group or project searched; a property test against a plain model of the
// word match.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matches } from '../src/families/search/finder.js';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    {
      namespace: 'acme', path: 'app', description: 'The rocket app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# app\n', 'src/main.rb': 'a\nb\nc\nd\nlaunch the rocket\ne\nf\ng\nh\ni\nj\nk\nRocket again\nl\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
      issues: [{ title: 'Rocket crashes on launch', author: 'dev' }, { title: 'Secret rocket plan', author: 'dev', confidential: true }, { title: 'Unrelated', author: 'dev' }],
      merge_requests: [{ title: 'Fix the rocket', source_branch: 'feature', author: 'dev' }],
      notes: [{ issue: 1, body: 'The fuel valve again', author: 'rep' }, { issue: 2, body: 'fuel is secret', author: 'dev' }, { merge_request: 1, body: 'fuel checked', author: 'dev' }],
    },
    { namespace: 'acme', path: 'site', description: 'Rocket website', visibility: 'public', creator: 'root' },
  ],
};
const world = seededWorld(FIXTURE, '2026-05-04T10:00:00Z');
const search = (path: string, token = 'dev-token') => apiCall(world(), path, { token });

describe('GET /search', () => {
  it('finds users by name or username, exact matches first, as UserBasic', async () => {
    const res = await search('/search?scope=users&search=Administrator');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-search-type')).toBe('basic');
    const body = await res.json();
    expect(body[0]).toMatchObject({ id: 1, username: 'root', name: 'Administrator' });
    expect(Object.keys(body[0])).toEqual(expect.arrayContaining(['id', 'username', 'name', 'state', 'avatar_url', 'web_url']));
  });

  it('finds projects, issues and merge requests the caller may read, newest first', async () => {
    const projects = await (await search('/search?scope=projects&search=rocket')).json();
    expect(projects.map((p: any) => p.path_with_namespace).sort()).toEqual(['acme/app', 'acme/site']);
    const outsider = await (await search('/search?scope=projects&search=rocket', 'outsider-token')).json();
    expect(outsider.map((p: any) => p.path_with_namespace)).toEqual(['acme/site']);
    const issues = await (await search('/search?scope=issues&search=rocket')).json();
    expect(issues.map((i: any) => i.title)).toEqual(['Secret rocket plan', 'Rocket crashes on launch']);
    expect(issues[0]).not.toHaveProperty('_links');
    // Guests do not see confidential issues.
    const guest = await (await search('/search?scope=issues&search=rocket', 'guest-token')).json();
    expect(guest.map((i: any) => i.title)).toEqual(['Rocket crashes on launch']);
    const open = await (await search('/search?scope=issues&search=rocket&confidential=false&state=opened')).json();
    expect(open).toHaveLength(1);
    const mrs = await (await search('/search?scope=merge_requests&search=fix rocket')).json();
    expect(mrs.map((m: any) => m.title)).toEqual(['Fix the rocket']);
  });

  it('needs a signed-in caller, a search and a known scope', async () => {
    expect((await apiCall(world(), '/search?scope=users&search=x')).status).toBe(401);
    let res = await search('/search?scope=blobs&search=x');
    expect([res.status, await res.json()]).toEqual([400, { error: 'scope does not have a valid value' }]);
    res = await search('/search?scope=users');
    expect(res.status).toBe(400);
  });
});

describe('group and project search', () => {
  it('a group search covers its projects and members; a project search its own records', async () => {
    const users = await (await search('/groups/acme/search?scope=users&search=e')).json();
    expect(users.map((u: any) => u.username)).not.toContain('out');
    const issues = await (await search('/projects/acme%2Fapp/search?scope=issues&search=crashes')).json();
    expect(issues.map((i: any) => i.iid)).toEqual([1]);
    expect((await search('/projects/acme%2Fsite/search?scope=issues&search=crashes')).status).toBe(200);
    expect(await (await search('/projects/acme%2Fsite/search?scope=issues&search=crashes')).json()).toEqual([]);
    expect((await search('/projects/acme%2Fapp/search?scope=issues&search=x', 'outsider-token')).status).toBe(404);
    expect((await search('/projects/acme%2Fapp/search?scope=projects&search=x')).status).toBe(400);
  });
});

describe('project notes search', () => {
  it('finds the comments the caller may read, with what they are on', async () => {
    const notes = await (await search('/projects/acme%2Fapp/search?scope=notes&search=fuel')).json();
    expect(notes.map((n: any) => [n.body, n.noteable_type, n.noteable_iid])).toEqual([
      ['fuel checked', 'MergeRequest', 1], ['fuel is secret', 'Issue', 2], ['The fuel valve again', 'Issue', 1],
    ]);
    // A guest does not read the confidential issue's comments.
    const guest = await (await search('/projects/acme%2Fapp/search?scope=notes&search=fuel', 'guest-token')).json();
    expect(guest.map((n: any) => n.body)).not.toContain('fuel is secret');
  });
});

describe('project blob search', () => {
  it('finds the lines of the default branch (or a ref) with three lines of context, one chunk per stretch', async () => {
    const blobs = await (await search('/projects/acme%2Fapp/search?scope=blobs&search=rocket')).json();
    expect(blobs).toEqual([
      { basename: 'src/main', data: 'b\nc\nd\nlaunch the rocket\ne\nf\ng\n', path: 'src/main.rb', filename: 'src/main.rb', id: null, ref: 'main', startline: 2, project_id: expect.any(Number) },
      { basename: 'src/main', data: 'i\nj\nk\nRocket again\nl\n', path: 'src/main.rb', filename: 'src/main.rb', id: null, ref: 'main', startline: 10, project_id: expect.any(Number) },
    ]);
    expect(await (await search('/projects/acme%2Fapp/search?scope=blobs&search=rocket&ref=feature')).json()).toHaveLength(2);
    expect(await (await search('/projects/acme%2Fapp/search?scope=blobs&search=nowhere')).json()).toEqual([]);
  });
});

describe('the word match', () => {
  it('holds when every word of the query is in one of the texts, case aside', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-zA-Z]{1,5}$/), { maxLength: 4 }), fc.array(fc.string({ maxLength: 20 }), { maxLength: 3 }), (words, texts) => {
        const model = words.length > 0 && words.every((w) => texts.some((t) => t.toLowerCase().includes(w.toLowerCase())));
        expect(matches(words.join(' '), ...texts)).toBe(model);
      }),
    );
  });
});
