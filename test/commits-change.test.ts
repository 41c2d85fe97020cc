// Cherry-pick and revert (lib/api/commits.rb, Commits::ChangeService): the change applied by a
// three-way merge, GitLab's messages, conflicts and empty results, dry runs.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { mergeLines } from '../src/git/merge3.js';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const lines = (s: string) => s.split('').map((c) => `${c}\n`);
const text = (l: string[] | null) => (l === null ? null : l.map((x) => x[0]).join(''));

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'app.txt': '1\n2\n3\n4\n5\n6\n7\n8\n9\n', 'other.txt': 'o\n' },
        branches: { stable: 'main' },
        commits: [
          { message: 'Change line 2', author: 'mai', files: { 'app.txt': '1\nTWO\n3\n4\n5\n6\n7\n8\n9\n' }, date: '2024-01-02T00:00:00Z' },
          { message: 'Add notes', author: 'mai', files: { 'notes.txt': 'n\n' }, date: '2024-01-03T00:00:00Z' },
          { branch: 'stable', message: 'Stable fix', files: { 'app.txt': '1\n2\n3\n4\n5\n6\n7\n8\nNINE\n' }, date: '2024-01-04T00:00:00Z' },
          { branch: 'stable', message: 'Conflicting', files: { 'app.txt': '1\nzwei\n3\n4\n5\n6\n7\n8\nNINE\n' }, date: '2024-01-05T00:00:00Z' },
        ],
      },
    }),
  ],
};

const world = seededWorld(FIXTURE, '2024-02-01T00:00:00Z');
const post = (path: string, json: unknown, token = 'dev-token') => apiCall(world(), `/projects/acme%2Fapp/repository/commits${path}`, { method: 'POST', token, json });
const g = () => world().git('acme/app');

describe('mergeLines', () => {
  it('takes each side’s change where the other kept the base, and refuses overlaps', () => {
    expect(text(mergeLines(lines('abcdefg'), lines('aBcdefg'), lines('abcdefG')))).toBe('aBcdefG');
    expect(text(mergeLines(lines('abc'), lines('aXc'), lines('aYc')))).toBeNull();
    expect(text(mergeLines(lines('abc'), lines('aXc'), lines('aXc')))).toBe('aXc');
    expect(text(mergeLines(lines('abc'), lines('abc'), lines('')))).toBe('');
  });
});

describe('POST /projects/:id/repository/commits/:sha/cherry_pick', () => {
  it('applies the commit to the branch with the cherry-pick message, keeping its author', async () => {
    const pick = (await g().resolve('main'))!;
    const before = g().refs().branches.stable;
    const res = await post(`/${pick}/cherry_pick`, { branch: 'stable' }, 'maintainer-token');
    expect(res.status).toBe(201);
    const c = (await res.json()) as Record<string, unknown>;
    expect(c).toMatchObject({
      title: 'Add notes',
      message: `Add notes\n\n(cherry picked from commit ${pick})`,
      parent_ids: [before],
      author_name: 'Mai Ntainer',
      committer_name: 'Mai Ntainer',
      id: g().refs().branches.stable,
    });
    expect(c).not.toHaveProperty('stats');
    expect(await g().files('stable')).toEqual({ 'app.txt': '1\nzwei\n3\n4\n5\n6\n7\n8\nNINE\n', 'other.txt': 'o\n', 'notes.txt': 'n\n' });
  });

  it('merges line by line when both sides changed the file apart', async () => {
    const res = await post(`/${(await g().resolve('stable~1'))!}/cherry_pick`, { branch: 'main', message: 'Backport' }, 'maintainer-token');
    expect(res.status).toBe(201);
    expect(((await res.json()) as { message: string }).message).toBe('Backport');
    expect(await g().readText('app.txt', 'main')).toBe('1\nTWO\n3\n4\n5\n6\n7\n8\nNINE\n');
  });

  it("answers GitLab's conflict and empty errors, with dry_run", async () => {
    const conflict = {
      message: 'Sorry, we cannot cherry-pick this commit automatically. This commit may already have been cherry-picked, or a more recent commit may have updated some of its content.',
      error_code: 'conflict',
    };
    const stable = (await g().resolve('stable'))!;
    let res = await post(`/${stable}/cherry_pick`, { branch: 'main' }, 'maintainer-token');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(conflict);
    res = await post(`/${stable}/cherry_pick`, { branch: 'main', dry_run: true }, 'maintainer-token');
    expect(await res.json()).toEqual({ ...conflict, dry_run: 'error' });
    res = await post('/main/cherry_pick', { branch: 'main' }, 'maintainer-token');
    expect(await res.json()).toMatchObject({ error_code: 'empty' });
    const before = g().refs().branches;
    res = await post('/main/cherry_pick', { branch: 'stable', dry_run: true }, 'maintainer-token');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ dry_run: 'success' });
    expect(g().refs().branches).toEqual(before);
  });

  it('checks the push, then the commit, then the branch', async () => {
    expect(await (await post('/main/cherry_pick', { branch: 'stable' }, 'reporter-token')).json()).toEqual({ message: '403 Forbidden - You are not allowed to push into this branch' });
    expect(await (await post('/nope/cherry_pick', { branch: 'stable' })).json()).toEqual({ message: '404 Commit Not Found' });
    expect(await (await post('/main/cherry_pick', { branch: 'nope' })).json()).toEqual({ message: '404 Branch Not Found' });
    expect((await post('/main/cherry_pick', { branch: '' })).status).toBe(400);
  });
});

describe('POST /projects/:id/repository/commits/:sha/revert', () => {
  it('reverts with the revert message, authored by the user', async () => {
    const target = (await g().resolve('main~1'))!;
    const res = await post(`/${target}/revert`, { branch: 'main' }, 'maintainer-token');
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      title: 'Revert "Change line 2"',
      message: `Revert "Change line 2"\n\nThis reverts commit ${target}`,
      author_name: 'Mai Ntainer',
    });
    expect(await g().readText('app.txt', 'main')).toBe('1\n2\n3\n4\n5\n6\n7\n8\n9\n');
    expect(await g().readText('notes.txt', 'main')).toBe('n\n');
    const again = await post(`/${target}/revert`, { branch: 'main' }, 'maintainer-token');
    expect(await again.json()).toEqual({
      message: 'Sorry, we cannot revert this commit automatically. This commit may already have been reverted, or a more recent commit may have updated some of its content.',
      error_code: 'empty',
    });
  });
});
