// The issues a merge request closes as GitLab works them out (MergeRequest#closes_issues,
// #cache_merge_request_closes_issues!, #visible_closing_issues_for): `Closes #n` in its title,
// its description and the messages of its commits, when it targets the default branch, kept
// when it is made, edited while open, reopened or refreshed by a push; what `closes_issues`,
// an issue's `closed_by` and the merge read; kept as it was when the merge request is closed;
// the same in a world exported and seeded again.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
      repository: {
        files: { 'README.md': '# app\n' },
        branches: { release: 'main' },
        commits: [
          { branch: 'feature', message: 'Fix the parser\n\nCloses #1', files: { 'a.txt': 'a\n' }, author: 'dev' },
          { branch: 'feature', message: 'Tidy up', files: { 'b.txt': 'b\n' }, author: 'dev' },
          { branch: 'side', message: 'Side fix\n\nCloses #2', files: { 's.txt': 's\n' }, author: 'dev' },
          { branch: 'later', message: 'Start', files: { 'l.txt': 'l\n' }, author: 'dev' },
        ],
      },
      issues: [
        { title: 'Parser bug', author: 'dev' }, { title: 'Side bug', author: 'dev' }, { title: 'Later bug', author: 'dev' }, { title: 'Fourth', author: 'dev' },
      ],
      merge_requests: [
        { title: 'Parser', source_branch: 'feature', author: 'dev', description: 'Makes the parser work' },
        { title: 'Side', source_branch: 'side', target_branch: 'release', author: 'dev' },
        { title: 'Later', source_branch: 'later', author: 'dev' },
      ],
    },
  ],
};
const P = '/projects/acme%2Fapp';
const MR = (iid: number) => `${P}/merge_requests/${iid}`;

function caller(emulator: () => Emulator) {
  const call = async (method: string, path: string, token = 'maintainer-token', json?: unknown) => {
    const res = await apiCall(emulator(), path, { method, token, json });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const iidsOf = (body: { iid: number }[]) => body.map((x) => x.iid).sort((a, b) => a - b);
  return {
    call,
    closes: async (iid: number) => iidsOf((await call('GET', `${MR(iid)}/closes_issues`)).body),
    closedBy: async (issue: number) => iidsOf((await call('GET', `${P}/issues/${issue}/closed_by`)).body),
    issue: async (iid: number) => (await call('GET', `${P}/issues/${iid}`)).body as { state: string; closed_by: { username: string } | null },
    merge: async (iid: number) => {
      const r = await call('PUT', `${MR(iid)}/merge`);
      expect(r.status).toBe(200);
      return r.body;
    },
    push: async (branch: string, message: string, file: string) => {
      const r = await call('POST', `${P}/repository/commits`, 'dev-token', { branch, commit_message: message, actions: [{ action: 'create', file_path: file, content: 'x\n' }] });
      expect(r.status).toBe(201);
      await emulator().settled();
    },
  };
}

describe('the issues a merge request closes, from its commits', () => {
  const world = seededWorld(FIXTURE, NOW);
  const { call, closes, closedBy, issue, merge, push } = caller(world);

  it("lists what its commits' messages close, before the merge, and closes them on merge", async () => {
    expect(await closes(1)).toEqual([1]);
    expect(await closedBy(1)).toEqual([1]);
    await merge(1);
    const closed = await issue(1);
    expect(closed.state).toBe('closed');
    expect(closed.closed_by?.username).toBe('mai');
    expect(await closes(1)).toEqual([1]);
    expect(await closedBy(1)).toEqual([1]);
  });

  it('one into another branch than the default closes nothing its commits name', async () => {
    expect(await closes(2)).toEqual([]);
    expect(await closedBy(2)).toEqual([]);
    await merge(2);
    expect((await issue(2)).state).toBe('opened');
  });

  it("closes nothing where the project does not close referenced issues (`autoclose_referenced_issues: false`)", async () => {
    expect((await call('PUT', P, 'maintainer-token', { autoclose_referenced_issues: false })).status).toBe(200);
    expect(await closes(1)).toEqual([]);
    await merge(1);
    expect((await issue(1)).state).toBe('opened');
  });

  it('a push that adds a closing commit to an open merge request adds its issue', async () => {
    expect(await closes(3)).toEqual([]);
    expect(await closedBy(3)).toEqual([]);
    await push('later', 'Finish\n\nResolves #3', 'm.txt');
    expect(await closes(3)).toEqual([3]);
    expect(await closedBy(3)).toEqual([3]);
    // An edit of the text keeps what the commits close, beside what the text closes.
    expect((await call('PUT', MR(3), 'dev-token', { description: 'Closes #4' })).status).toBe(200);
    expect(await closes(3)).toEqual([3, 4]);
    await merge(3);
    expect((await issue(3)).state).toBe('closed');
    expect((await issue(4)).state).toBe('closed');
  });

  it('a new target decides again: into another branch nothing, back into the default what the commits close', async () => {
    expect((await call('PUT', MR(1), 'dev-token', { target_branch: 'release' })).status).toBe(200);
    expect(await closes(1)).toEqual([]);
    expect(await closedBy(1)).toEqual([]);
    expect((await call('PUT', MR(1), 'dev-token', { target_branch: 'main' })).status).toBe(200);
    expect(await closes(1)).toEqual([1]);
  });

  it('closed without a merge, it keeps its list, which an edit leaves alone until it is reopened', async () => {
    expect((await call('PUT', MR(1), 'dev-token', { state_event: 'close' })).body.state).toBe('closed');
    expect(await closes(1)).toEqual([1]);
    expect(await closedBy(1)).toEqual([1]);
    expect((await call('PUT', MR(1), 'dev-token', { description: 'Closes #4' })).status).toBe(200);
    expect(await closes(1)).toEqual([1]);
    expect(await closedBy(4)).toEqual([]);
    expect((await call('PUT', MR(1), 'dev-token', { state_event: 'reopen' })).body.state).toBe('opened');
    expect(await closes(1)).toEqual([1, 4]);
    expect(await closedBy(4)).toEqual([1]);
    expect((await issue(1)).state).toBe('opened');
  });

  it('an issue made after the list was kept is not on it until the merge request is edited', async () => {
    expect((await call('PUT', MR(3), 'dev-token', { description: 'Closes #5' })).status).toBe(200);
    expect(await closes(3)).toEqual([]);
    expect((await call('POST', `${P}/issues`, 'dev-token', { title: 'Fifth' })).body.iid).toBe(5);
    expect(await closes(3)).toEqual([]);
    expect((await call('PUT', MR(3), 'dev-token', { title: 'Later, again' })).status).toBe(200);
    expect(await closes(3)).toEqual([5]);
  });

  it('a world exported and seeded again answers the same', async () => {
    await push('later', 'Finish\n\nResolves #3', 'm.txt');
    expect((await call('PUT', MR(2), 'dev-token', { state_event: 'close' })).status).toBe(200);
    await merge(1);
    // Lists that differ from what the text names now: a merged request's, edited since; an
    // open one's, kept before the issue it names was made.
    expect((await call('PUT', MR(1), 'dev-token', { description: 'Closes #4' })).status).toBe(200);
    expect((await call('PUT', MR(3), 'dev-token', { description: 'Closes #5' })).status).toBe(200);
    expect((await call('POST', `${P}/issues`, 'dev-token', { title: 'Fifth' })).body.iid).toBe(5);
    const before = { one: await closes(1), two: await closes(2), three: await closes(3), by1: await closedBy(1), by3: await closedBy(3), by4: await closedBy(4), by5: await closedBy(5) };
    expect(before).toEqual({ one: [1], two: [], three: [3], by1: [1], by3: [3], by4: [], by5: [] });
    const again = await createEmulator({ fixture: await world().exportFixture(), clock: { now: NOW, frozen: true } });
    const other = caller(() => again);
    expect({
      one: await other.closes(1), two: await other.closes(2), three: await other.closes(3),
      by1: await other.closedBy(1), by3: await other.closedBy(3), by4: await other.closedBy(4), by5: await other.closedBy(5),
    }).toEqual(before);
    await other.merge(3);
    expect((await other.issue(3)).state).toBe('closed');
    expect((await other.issue(5)).state).toBe('opened');
  });
});
