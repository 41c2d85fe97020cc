// A merge request's reviewers and their states (merge_request_reviewers): the list of
// GET .../reviewers, approving and unapproving, a submitted review of draft notes, a reviewer
// removed and added again, `%{reviewed_by}` in a merge commit; and a locked discussion, which
// takes notes (and drafts) from the project's members only.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import type { MergeRequest } from '../src/families/merge-requests/index.js';
import { pget, pset, type Partitioned } from '../src/store/table.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, idOf, seededWorld } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const LATER = '2026-03-02T08:30:00.000Z';
const FIXTURE: Fixture = {
  // Several reviewers need Premium (filter_reviewer keeps the first on the free tier).
  instance: { tier: 'premium' },
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' }, author: 'dev' }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev', reviewers: ['mai', 'rep'] }],
  }, {
    namespace: 'acme', path: 'secret', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# secret\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'g.txt': 'g\n' } }] },
    merge_requests: [{ title: 'Add g', source_branch: 'feature', author: 'dev', reviewers: ['mai'] }],
  }],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const MR = `${APP}/merge_requests/1`;
const REVIEWERS = `${MR}/reviewers`;

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}
type Row = { user: { username: string }; state: string; created_at: string };
const states = async (token = 'dev-token') => {
  const res = await call('GET', REVIEWERS, token);
  expect(res.status).toBe(200);
  return (res.body as Row[]).map((r) => `${r.user.username}:${r.state}`);
};
const review = async (token: string, ...bodies: string[]) => {
  for (const note of bodies) expect((await call('POST', `${MR}/draft_notes`, token, { note })).status).toBe(201);
  expect((await call('POST', `${MR}/draft_notes/bulk_publish`, token)).status).toBe(204);
};

describe('GET /projects/:id/merge_requests/:iid/reviewers', () => {
  it("lists each reviewer with its state and when it was asked, as Entities::MergeRequestReviewer", async () => {
    const res = await call('GET', REVIEWERS, 'dev-token');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total')).toBe('2');
    const rows = res.body as Record<string, unknown>[];
    expect(rows.map((r) => Object.keys(r))).toEqual([['user', 'state', 'created_at'], ['user', 'state', 'created_at']]);
    expect(rows).toMatchObject([
      { user: { username: 'mai', name: 'Mai Ntainer', state: 'active' }, state: 'unreviewed', created_at: NOW },
      { user: { username: 'rep', name: 'Rep Orter' }, state: 'unreviewed', created_at: NOW },
    ]);
    // The merge request's own `reviewers` stay users, with no state.
    const mr = (await call('GET', MR, 'dev-token')).body as { reviewers: Record<string, unknown>[] };
    expect(mr.reviewers.map((u) => u.username)).toEqual(['mai', 'rep']);
    expect(mr.reviewers[0]).not.toHaveProperty('created_at', NOW);
  });

  it('is paginated, is read anonymously where the merge request is public, and is 404 where it is not seen', async () => {
    const page = await call('GET', `${REVIEWERS}?per_page=1&page=2`, 'dev-token');
    expect((page.body as Row[]).map((r) => r.user.username)).toEqual(['rep']);
    expect((await call('GET', REVIEWERS)).status).toBe(200);
    expect(await call('GET', '/projects/acme%2Fsecret/merge_requests/1/reviewers', 'outsider-token')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await call('GET', '/projects/acme%2Fsecret/merge_requests/1/reviewers', 'guest-token')).status).toBe(403);
    expect(await call('GET', `${APP}/merge_requests/99/reviewers`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });
});

describe('reviewer states', () => {
  it('approving makes a reviewer approved and unapproving unapproved; a caller who is no reviewer changes no state', async () => {
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    expect(await states()).toEqual(['mai:approved', 'rep:unreviewed']);
    expect((await call('POST', `${MR}/approve`, 'root-token')).status).toBe(201);
    expect(await states()).toEqual(['mai:approved', 'rep:unreviewed']);
    expect((await call('POST', `${MR}/unapprove`, 'maintainer-token')).status).toBe(201);
    expect(await states()).toEqual(['mai:unapproved', 'rep:unreviewed']);
    // A refused approval (already taken back: 404) changes nothing.
    expect((await call('POST', `${MR}/unapprove`, 'maintainer-token')).status).toBe(404);
    expect(await states()).toEqual(['mai:unapproved', 'rep:unreviewed']);
  });

  it('a submitted review (bulk publish) marks its author reviewed, unless they approved; publishing one draft does not', async () => {
    expect((await call('POST', `${MR}/draft_notes`, 'maintainer-token', { note: 'one' })).status).toBe(201);
    const one = (await call('GET', `${MR}/draft_notes`, 'maintainer-token')).body[0].id as number;
    expect((await call('PUT', `${MR}/draft_notes/${one}/publish`, 'maintainer-token')).status).toBe(204);
    expect(await states()).toEqual(['mai:unreviewed', 'rep:unreviewed']);
    // Nothing to publish: no review.
    expect((await call('POST', `${MR}/draft_notes/bulk_publish`, 'maintainer-token')).status).toBe(204);
    expect(await states()).toEqual(['mai:unreviewed', 'rep:unreviewed']);
    await review('maintainer-token', 'Looks fine', 'A nit');
    expect(await states()).toEqual(['mai:reviewed', 'rep:unreviewed']);
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    await review('maintainer-token', 'After approving');
    expect(await states()).toEqual(['mai:approved', 'rep:unreviewed']);
  });

  it('a reviewer who may not update the merge request (a Reporter) stays as they were after a review', async () => {
    await review('reporter-token', 'From a reporter');
    expect(await states()).toEqual(['mai:unreviewed', 'rep:unreviewed']);
  });

  it('a reviewer removed and added again starts over, asked anew and listed last', async () => {
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    const rep = (await call('GET', '/users?username=rep', 'dev-token')).body[0].id as number;
    const mai = (await call('GET', '/users?username=mai', 'dev-token')).body[0].id as number;
    expect((await call('PUT', MR, 'dev-token', { reviewer_ids: [rep] })).status).toBe(200);
    expect(await states()).toEqual(['rep:unreviewed']);
    world().clock.set(LATER);
    expect((await call('PUT', MR, 'dev-token', { reviewer_ids: [mai, rep] })).status).toBe(200);
    const rows = (await call('GET', REVIEWERS, 'dev-token')).body as Row[];
    expect(rows.map((r) => [r.user.username, r.state, r.created_at])).toEqual([['rep', 'unreviewed', NOW], ['mai', 'unreviewed', LATER]]);
    // The approval itself stays (only the reviewer's state starts over).
    expect((await call('GET', `${MR}/approvals`, 'dev-token')).body.approved_by).toHaveLength(1);
  });

  it('a reviewer an older world kept without a state is unreviewed, asked when the merge request was made, and moves on from there', async () => {
    const e = world();
    const pid = idOf(e, 'acme/app');
    e.store.update((d) => {
      const mrs = (d as unknown as { mergeRequests: Partitioned<MergeRequest> }).mergeRequests;
      const { reviewerStates: _, ...older } = pget(mrs, pid, 1)!;
      pset(mrs, pid, 1, older);
    });
    e.clock.set(LATER);
    expect((await call('GET', REVIEWERS, 'dev-token')).body.map((r: Row) => [r.user.username, r.state, r.created_at])).toEqual([['mai', 'unreviewed', NOW], ['rep', 'unreviewed', NOW]]);
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    const root = (await call('GET', '/users?username=root', 'dev-token')).body[0].id as number;
    const ids = (await call('GET', MR, 'dev-token')).body.reviewers.map((u: { id: number }) => u.id) as number[];
    expect((await call('PUT', MR, 'dev-token', { reviewer_ids: [...ids, root] })).status).toBe(200);
    expect((await call('GET', REVIEWERS, 'dev-token')).body.map((r: Row) => [r.user.username, r.state, r.created_at])).toEqual([['mai', 'approved', NOW], ['rep', 'unreviewed', NOW], ['root', 'unreviewed', LATER]]);
  });

  it('a reviewer kept through an edit keeps its state', async () => {
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    expect((await call('PUT', MR, 'dev-token', { title: 'Add f, renamed' })).status).toBe(200);
    expect(await states()).toEqual(['mai:approved', 'rep:unreviewed']);
  });

  it('follows a plain model of the reviewer state machine', async () => {
    const users = { mai: 'maintainer-token', rep: 'reporter-token', root: 'root-token' } as const;
    type Name = keyof typeof users;
    const ids = Object.fromEntries(await Promise.all((Object.keys(users) as Name[]).map(async (u) => [u, (await call('GET', `/users?username=${u}`, 'dev-token')).body[0].id as number]))) as Record<Name, number>;
    const step = fc.oneof(
      fc.record({ op: fc.constant('approve' as const), who: fc.constantFrom<Name>('mai', 'root') }),
      fc.record({ op: fc.constant('unapprove' as const), who: fc.constantFrom<Name>('mai', 'root') }),
      fc.record({ op: fc.constant('review' as const), who: fc.constantFrom<Name>('mai', 'rep', 'root') }),
      fc.record({ op: fc.constant('set' as const), who: fc.subarray<Name>(['mai', 'rep', 'root']) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 8 }), async (steps) => {
      world().restore(seeded);
      // The model: the reviewers in the order they were asked, each with a state; and who approved.
      let model: { who: Name; state: string }[] = [{ who: 'mai', state: 'unreviewed' }, { who: 'rep', state: 'unreviewed' }];
      const approved = new Set<Name>();
      const set = (who: Name, state: string) => { model = model.map((r) => (r.who === who ? { ...r, state } : r)); };
      for (const s of steps) {
        if (s.op === 'approve') {
          const res = await call('POST', `${MR}/approve`, users[s.who]);
          expect(res.status).toBe(approved.has(s.who) ? 401 : 201);
          if (!approved.has(s.who)) { approved.add(s.who); set(s.who, 'approved'); }
        } else if (s.op === 'unapprove') {
          const res = await call('POST', `${MR}/unapprove`, users[s.who]);
          expect(res.status).toBe(approved.has(s.who) ? 201 : 404);
          if (approved.delete(s.who)) set(s.who, 'unapproved');
        } else if (s.op === 'review') {
          await review(users[s.who], 'note');
          // Reporters may not update the merge request; an approved reviewer stays approved.
          if (s.who !== 'rep' && model.find((r) => r.who === s.who)?.state !== 'approved') set(s.who, 'reviewed');
        } else {
          expect((await call('PUT', MR, 'dev-token', { reviewer_ids: s.who.map((u) => ids[u]) })).status).toBe(200);
          model = [...model.filter((r) => s.who.includes(r.who)), ...s.who.filter((u) => !model.some((r) => r.who === u)).map((who) => ({ who, state: 'unreviewed' }))];
        }
      }
      expect(await states()).toEqual(model.map((r) => `${r.who}:${r.state}`));
    }), { numRuns: 25 });
  });
  let seeded: ReturnType<ReturnType<typeof world>['snapshot']>;
  beforeEach(() => { seeded = world().snapshot(); });
});

describe('the Merge Request Hook', () => {
  it("gives each reviewer its state (and re_requested) in `reviewers`", async () => {
    const e = world();
    e.hooks.pause();
    expect((await call('POST', `${APP}/hooks`, 'maintainer-token', { url: 'https://r.example.com/', merge_requests_events: true })).status).toBe(201);
    expect((await call('POST', `${MR}/approve`, 'maintainer-token')).status).toBe(201);
    const before = e.hooks.deliveries().length;
    expect((await call('PUT', MR, 'maintainer-token', { title: 'Add f, again' })).status).toBe(200);
    e.hooks.resume();
    await e.hooks.settled();
    const hook = e.hooks.deliveries().slice(before).find((d) => d.event === 'Merge Request Hook');
    const reviewers = (hook!.payload as { reviewers: Record<string, unknown>[] }).reviewers;
    expect(reviewers.map((r) => [r.username, r.state, r.re_requested])).toEqual([['mai', 'approved', false], ['rep', 'unreviewed', false]]);
    expect(Object.keys(reviewers[0]!).slice(-2)).toEqual(['state', 're_requested']);
  });
});

describe('%{reviewed_by} in a merge commit template', () => {
  it('names the authors of submitted reviews, each once, in the order they first reviewed, reviewers or not', async () => {
    expect((await call('PUT', APP, 'maintainer-token', { merge_commit_template: 'Merge %{title}\n\n%{reviewed_by}' })).status).toBe(200);
    await review('reporter-token', 'first');
    await review('dev-token', 'by the author');
    await review('reporter-token', 'again');
    const merged = await call('PUT', `${MR}/merge`, 'maintainer-token');
    expect(merged.status).toBe(200);
    const commit = await call('GET', `${APP}/repository/commits/${merged.body.merge_commit_sha}`, 'dev-token');
    const email = async (u: string) => {
      const me = (await call('GET', '/user', `${u}-token`)).body as { commit_email?: string; email: string };
      return me.commit_email ?? me.email;
    };
    expect(commit.body.message).toBe(`Merge Add f\n\nReviewed-by: Rep Orter <${await email('reporter')}>\nReviewed-by: Dee Veloper <${await email('dev')}>`);
  });

  it('is empty when no review was submitted', async () => {
    expect((await call('PUT', APP, 'maintainer-token', { merge_commit_template: 'Merge %{title}\n\n%{reviewed_by}' })).status).toBe(200);
    const merged = await call('PUT', `${MR}/merge`, 'maintainer-token');
    expect((await call('GET', `${APP}/repository/commits/${merged.body.merge_commit_sha}`, 'dev-token')).body.message).toBe('Merge Add f');
  });
});

describe('a locked merge request discussion', () => {
  const lock = async () => expect((await call('PUT', MR, 'maintainer-token', { discussion_locked: true })).body.discussion_locked).toBe(true);

  it('takes notes from anyone signed in while unlocked', async () => {
    expect((await call('POST', `${MR}/notes`, 'outsider-token', { body: 'hello' })).status).toBe(201);
  });

  it("refuses a non-member's note and draft note (403) and changes nothing", async () => {
    await lock();
    const before = (await call('GET', `${MR}/notes`, 'dev-token')).body.length as number;
    expect(await call('POST', `${MR}/notes`, 'outsider-token', { body: 'hello' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('POST', `${MR}/discussions`, 'outsider-token', { body: 'a thread' })).status).toBe(403);
    expect((await call('POST', `${MR}/draft_notes`, 'outsider-token', { note: 'a draft' })).status).toBe(403);
    expect((await call('GET', `${MR}/notes`, 'dev-token')).body).toHaveLength(before);
    expect((await call('GET', `${MR}/draft_notes`, 'outsider-token')).body).toEqual([]);
  });

  it("accepts a Reporter's note and draft, and takes notes from anyone again once unlocked", async () => {
    await lock();
    expect((await call('POST', `${MR}/notes`, 'reporter-token', { body: 'from a member' })).status).toBe(201);
    expect((await call('POST', `${MR}/notes`, 'guest-token', { body: 'from a guest, a member too' })).status).toBe(201);
    expect((await call('POST', `${MR}/draft_notes`, 'reporter-token', { note: 'a draft' })).status).toBe(201);
    expect((await call('PUT', MR, 'maintainer-token', { discussion_locked: false })).status).toBe(200);
    expect((await call('POST', `${MR}/notes`, 'outsider-token', { body: 'hello' })).status).toBe(201);
  });

  it('`/lock` in a note locks it as well', async () => {
    expect((await call('POST', `${MR}/notes`, 'maintainer-token', { body: '/lock' })).status).toBe(202);
    expect((await call('GET', MR, 'dev-token')).body.discussion_locked).toBe(true);
    expect((await call('POST', `${MR}/notes`, 'outsider-token', { body: 'hello' })).status).toBe(403);
  });
});
