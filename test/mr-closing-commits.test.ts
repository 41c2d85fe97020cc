// The issues a merge request closes as GitLab works them out (MergeRequest#closes_issues,
// #cache_merge_request_closes_issues!, #visible_closing_issues_for): `Closes #n` in its title,
// its description and the messages of its commits, when it targets the default branch, kept
// when it is made, edited while open, reopened or refreshed by a push; what `closes_issues`,
// an issue's `closed_by` and the merge read; kept as it was when the merge request is closed;
// the same in a world exported and seeded again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
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
    }),
    { namespace: 'acme', path: 'secret', visibility: 'private', creator: 'root', issues: [{ title: 'Secret bug', author: 'root' }] },
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

  it('holds the issues the user who worked it out can read: another project\'s private issue joins when one who reads it edits', async () => {
    const refs = async (token: string) => (await call('GET', `${MR(3)}/closes_issues`, token)).body.map((i: { references: { full: string } }) => i.references.full);
    expect((await call('PUT', MR(3), 'dev-token', { description: 'Closes acme/secret#1 and #4' })).status).toBe(200);
    expect(await refs('root-token')).toEqual(['acme/app#4']);
    expect((await call('PUT', MR(3), 'root-token', { title: 'Later, by root' })).status).toBe(200);
    expect((await refs('root-token')).sort()).toEqual(['acme/app#4', 'acme/secret#1']);
    // Each reader sees those of the list they can read.
    expect(await refs('dev-token')).toEqual(['acme/app#4']);
  });

  it('an edit while it is set to merge automatically leaves the list as it was (UpdateService#after_update)', async () => {
    const ci = world().ci('acme/app');
    const job = ci.job(ci.pipeline({ ref: 'later' }).id, { name: 'test', status: 'running' }).id;
    expect((await call('PUT', `${MR(3)}/merge`, 'maintainer-token', { merge_when_pipeline_succeeds: true })).body.merge_when_pipeline_succeeds).toBe(true);
    expect((await call('PUT', MR(3), 'dev-token', { description: 'Closes #4' })).status).toBe(200);
    expect(await closes(3)).toEqual([]);
    ci.finish(job, { status: 'success' });
    await world().settled();
    expect((await call('GET', MR(3))).body.state).toBe('merged');
    expect((await issue(4)).state).toBe('opened');
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

type Op = { kind: 'edit'; closes: number[] } | { kind: 'push'; closes: number } | { kind: 'close' } | { kind: 'reopen' } | { kind: 'merge' };

describe('the list kept, against a plain model of when GitLab works it out', () => {
  const world = seededWorld(FIXTURE, NOW);
  const { call, closes, closedBy, issue, merge, push } = caller(world);
  const ISSUES = [2, 3, 4];
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('edit' as const), closes: fc.subarray(ISSUES) }),
    fc.record({ kind: fc.constant('push' as const), closes: fc.constantFrom(...ISSUES) }),
    fc.constant({ kind: 'close' as const }),
    fc.constant({ kind: 'reopen' as const }),
    fc.constant({ kind: 'merge' as const }),
  );

  it('closes_issues and closed_by follow the model through edits, pushes, closing, reopening and the merge', async () => {
    const seeded = world().snapshot();
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 8 }), async (ops) => {
      world().restore(seeded);
      // The model: the text's and the commits' closing issues, the state, the list kept.
      let text: number[] = [];
      const commits = new Set<number>();
      let state = 'opened';
      let kept = new Set<number>();
      const work = () => (kept = new Set([...text, ...commits]));
      let files = 0;
      for (const o of ops) {
        if (o.kind === 'edit') {
          expect((await call('PUT', MR(3), 'dev-token', { description: o.closes.length ? `Closes ${o.closes.map((n) => `#${n}`).join(', ')}` : 'Nothing' })).status).toBe(200);
          text = o.closes;
          if (state === 'opened') work();
        } else if (o.kind === 'push') {
          if (state !== 'opened') continue;
          await push('later', `Work\n\nFixes #${o.closes}`, `f${files++}.txt`);
          commits.add(o.closes);
          work();
        } else if (o.kind === 'close' || o.kind === 'reopen') {
          if (state === 'merged') continue;
          expect((await call('PUT', MR(3), 'dev-token', { state_event: o.kind })).status).toBe(200);
          if (o.kind === 'close') state = 'closed';
          else if (state === 'closed') {
            state = 'opened';
            work();
          }
        } else {
          if (state !== 'opened') continue;
          await merge(3);
          state = 'merged';
        }
        expect(await closes(3)).toEqual([...kept].sort());
        for (const n of ISSUES) expect(await closedBy(n)).toEqual(kept.has(n) ? [3] : []);
      }
      for (const n of ISSUES) expect((await issue(n)).state).toBe(state === 'merged' && kept.has(n) ? 'closed' : 'opened');
    }), { numRuns: 25 });
  });
});
