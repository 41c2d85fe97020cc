// Draft notes (lib/api/draft_notes.rb): a review's comments, seen by their author only, then
// published one at a time or all at once as the notes and threads of the merge request.
import { Gitlab } from '@gitbeaker/rest';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, jsonCall } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n', 'README.md': '# app\nmore\n' } }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
    notes: [{ merge_request: 1, body: 'changed the description', author: 'dev', system: true }],
  }, {
    namespace: 'acme', path: 'secret', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# secret\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'g.txt': 'g\n' } }] },
    merge_requests: [{ title: 'Add g', source_branch: 'feature', author: 'dev' }],
  }],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const DRAFTS = `${APP}/merge_requests/1/draft_notes`;
const DISCUSSIONS = `${APP}/merge_requests/1/discussions`;

const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });
const NO_POSITION = { base_sha: null, start_sha: null, head_sha: null, old_path: null, new_path: null, position_type: 'text', old_line: null, new_line: null, line_range: null };
const notFound = { status: 404, body: { message: '404 Not found' } };
async function refs() {
  return (await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.diff_refs as { base_sha: string; start_sha: string; head_sha: string };
}
const threads = async () => (await call('GET', DISCUSSIONS, 'dev-token')).body as { id: string; individual_note: boolean; notes: { body: string; type: string | null; resolved?: boolean; position?: unknown; system: boolean }[] }[];

describe('a draft note', () => {
  it('is made, read, edited and deleted by its author alone', async () => {
    expect(await call('GET', DRAFTS)).toMatchObject({ status: 401 });
    const made = await call('POST', DRAFTS, 'reporter-token', { note: 'Looks odd' });
    expect(made.status).toBe(201);
    const mr = (await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body;
    const users = (await call('GET', '/users?username=rep', 'root-token')).body;
    expect(made.body).toEqual({
      id: made.body.id, author_id: users[0].id, merge_request_id: mr.id, resolve_discussion: false, discussion_id: null,
      note: 'Looks odd', commit_id: null, line_code: null, position: NO_POSITION,
    });
    expect(Object.keys(made.body)).toEqual(['id', 'author_id', 'merge_request_id', 'resolve_discussion', 'discussion_id', 'note', 'commit_id', 'line_code', 'position']);
    expect((await call('GET', DRAFTS, 'reporter-token')).body).toEqual([made.body]);
    expect((await call('GET', `${DRAFTS}/${made.body.id}`, 'reporter-token')).body).toEqual(made.body);
    // Another user sees none of it, and cannot touch it.
    expect((await call('GET', DRAFTS, 'dev-token')).body).toEqual([]);
    expect(await call('GET', `${DRAFTS}/${made.body.id}`, 'dev-token')).toMatchObject(notFound);
    expect(await call('PUT', `${DRAFTS}/${made.body.id}`, 'dev-token', { note: 'Mine now' })).toMatchObject(notFound);
    expect(await call('DELETE', `${DRAFTS}/${made.body.id}`, 'dev-token')).toMatchObject(notFound);
    expect(await call('PUT', `${DRAFTS}/${made.body.id}/publish`, 'dev-token')).toMatchObject(notFound);
    expect(await call('GET', `${DRAFTS}/${made.body.id + 100}`, 'reporter-token')).toMatchObject(notFound);
    // Drafts are not notes.
    expect(await threads()).toHaveLength(1);

    const edited = await call('PUT', `${DRAFTS}/${made.body.id}`, 'reporter-token', { note: 'Looks odd to me' });
    expect(edited).toMatchObject({ status: 200, body: { ...made.body, note: 'Looks odd to me' } });
    expect(await call('PUT', `${DRAFTS}/${made.body.id}`, 'reporter-token', {})).toMatchObject({ status: 400, body: { message: '400 Bad request - Missing params to modify' } });
    expect(await call('PUT', `${DRAFTS}/${made.body.id}`, 'reporter-token', { note: '' })).toMatchObject({ status: 400, body: { error: 'note is empty' } });
    expect((await call('GET', `${DRAFTS}/${made.body.id}`, 'reporter-token')).body.note).toBe('Looks odd to me');
    expect((await call('DELETE', `${DRAFTS}/${made.body.id}`, 'reporter-token')).status).toBe(204);
    expect(await call('GET', `${DRAFTS}/${made.body.id}`, 'reporter-token')).toMatchObject(notFound);
    expect((await call('GET', DRAFTS, 'reporter-token')).body).toEqual([]);
  });

  it('answers GitLab’s errors, and a refused one changes nothing', async () => {
    expect(await call('POST', DRAFTS, 'dev-token', {})).toMatchObject({ status: 400, body: { message: '400 Bad request - "note" not given' } });
    expect(await call('POST', `${APP}/merge_requests/9/draft_notes`, 'dev-token', { note: 'x' })).toMatchObject(notFound);
    expect(await call('POST', '/projects/acme%2Fsecret/merge_requests/1/draft_notes', 'outsider-token', { note: 'x' })).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const base = (text: string) => ({ status: 400, body: { message: { base: [text] } } });
    expect(await call('POST', DRAFTS, 'dev-token', { note: 'x', in_reply_to_discussion_id: 'f'.repeat(40) })).toMatchObject(base('Thread to reply to cannot be found'));
    expect(await call('POST', DRAFTS, 'dev-token', { note: 'x', resolve_discussion: true })).toMatchObject(base('User is not allowed to resolve thread'));
    const system = (await threads())[0]!;
    expect(system.notes[0]!.system).toBe(true);
    expect(await call('POST', DRAFTS, 'dev-token', { note: 'x', in_reply_to_discussion_id: system.id })).toMatchObject(base('Replies to system notes are not allowed'));
    // One draft reply per thread and author.
    const thread = (await call('POST', DISCUSSIONS, 'dev-token', { body: 'Thread' })).body;
    expect((await call('POST', DRAFTS, 'dev-token', { note: 'r1', in_reply_to_discussion_id: thread.id })).body.discussion_id).toBe(thread.id);
    expect(await call('POST', DRAFTS, 'dev-token', { note: 'r2', in_reply_to_discussion_id: thread.id })).toMatchObject({ status: 400, body: { message: { author_id: ['has already been taken'] } } });
    // A reporter may not resolve the thread.
    expect(await call('POST', DRAFTS, 'reporter-token', { note: 'x', in_reply_to_discussion_id: thread.id, resolve_discussion: true })).toMatchObject(base('User is not allowed to resolve thread'));
    const r = await refs();
    expect(await call('POST', DRAFTS, 'dev-token', { note: 'x', position: { ...r, position_type: 'line', new_path: 'f.txt' } }))
      .toMatchObject({ status: 400, body: { error: 'position[position_type] does not have a valid value' } });
    expect(await call('POST', DRAFTS, 'dev-token', { note: 'x', commit_id: 'bad SHA' })).toMatchObject({ status: 400, body: { message: { commit_id: ['does not match the diff refs'] } } });
    // Only the first reply was kept; the next draft takes the next id.
    const kept = (await call('GET', DRAFTS, 'dev-token')).body;
    expect(kept.map((d: { note: string }) => d.note)).toEqual(['r1']);
    expect((await call('POST', DRAFTS, 'dev-token', { note: 'next' })).body.id).toBe(kept[0].id + 1);
  });

  it('is refused once the project is archived, and its author may no longer publish', async () => {
    expect((await call('POST', DRAFTS, 'outsider-token', { note: 'Drive-by' })).status).toBe(201);
    expect((await call('POST', `${APP}/archive`, 'root-token')).status).toBe(201);
    expect(await call('POST', DRAFTS, 'outsider-token', { note: 'Again' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    // PublishService refuses (`Not allowed to create notes`): GitLab answers `status 500`, and nothing changes.
    expect(await call('POST', `${DRAFTS}/bulk_publish`, 'outsider-token')).toMatchObject({ status: 500, body: 500 });
    const left = (await call('GET', DRAFTS, 'outsider-token')).body;
    expect(left.map((d: { note: string }) => d.note)).toEqual(['Drive-by']);
    expect(await call('PUT', `${DRAFTS}/${left[0].id}/publish`, 'outsider-token')).toMatchObject({ status: 500, body: 500 });
    expect((await threads()).length).toBe(1);
  });

  it('keeps a position off the diff, with no line code, and publishing it makes no note', async () => {
    const r = await refs();
    const position = { ...r, position_type: 'text', new_path: 'README.md', new_line: 7 };
    const made = await call('POST', DRAFTS, 'dev-token', { note: 'Nowhere', position });
    expect(made).toMatchObject({ status: 201, body: { line_code: null, position: { ...position, old_path: null, old_line: null, line_range: null } } });
    const before = (await threads()).length;
    expect((await call('POST', `${DRAFTS}/bulk_publish`, 'dev-token')).status).toBe(204);
    expect((await threads()).length).toBe(before);
    expect((await call('GET', DRAFTS, 'dev-token')).body).toEqual([]);
  });

  it('keeps a diff position, with its line code, and an edit without one drops it', async () => {
    const r = await refs();
    const position = { ...r, position_type: 'text', new_path: 'f.txt', old_path: 'f.txt', new_line: 1 };
    const made = await call('POST', DRAFTS, 'dev-token', { note: 'On f', position });
    expect(made.status).toBe(201);
    expect(made.body.position).toEqual({ ...position, old_line: null, line_range: null });
    expect(made.body.line_code).toMatch(/^[0-9a-f]{40}_0_1$/);
    const moved = await call('PUT', `${DRAFTS}/${made.body.id}`, 'dev-token', { note: 'On README', position: { ...r, position_type: 'text', new_path: 'README.md', old_path: 'README.md', new_line: 2 } });
    expect(moved.body).toMatchObject({ note: 'On README', position: { new_path: 'README.md', new_line: 2 } });
    expect(moved.body.line_code).toMatch(/_2_2$/);
    expect((await call('PUT', `${DRAFTS}/${made.body.id}`, 'dev-token', { note: 'Anywhere' })).body.position).toEqual(NO_POSITION);
  });
});

describe('publishing', () => {
  it('makes one draft a resolvable thread of its own, with its event, and the draft goes', async () => {
    const made = (await call('POST', DRAFTS, 'dev-token', { note: 'Published alone' })).body;
    expect(await call('PUT', `${DRAFTS}/${made.id}/publish`, 'dev-token')).toEqual({ status: 204, body: null });
    expect(await call('GET', `${DRAFTS}/${made.id}`, 'dev-token')).toMatchObject(notFound);
    const last = (await threads()).at(-1)!;
    expect(last).toMatchObject({ individual_note: false, notes: [{ body: 'Published alone', type: 'DiscussionNote', resolved: false }] });
    const events = (await call('GET', `${APP}/events?target_type=note`, 'dev-token')).body;
    expect(events.map((e: { action_name: string; note: { body: string } }) => [e.action_name, e.note.body])).toEqual([['commented on', 'Published alone']]);    // A mention in a draft is a todo only once published.
    await call('POST', DRAFTS, 'dev-token', { note: 'Ping @rep' });
    expect((await call('GET', '/todos', 'reporter-token')).body).toEqual([]);
    await call('POST', `${DRAFTS}/bulk_publish`, 'dev-token');
    expect((await call('GET', '/todos', 'reporter-token')).body.map((t: { action_name: string; body: string }) => [t.action_name, t.body])).toEqual([['mentioned', 'Ping @rep']]);
  });

  it('publishes all the caller’s drafts in order as one review: replies in their threads, resolutions, diff notes', async () => {
    const r = await refs();
    const open = (await call('POST', DISCUSSIONS, 'maintainer-token', { body: 'Please fix' })).body;
    const resolved = (await call('POST', DISCUSSIONS, 'maintainer-token', { body: 'Done already?' })).body;
    await call('PUT', `${DISCUSSIONS}/${resolved.id}`, 'maintainer-token', { resolved: true });
    const position = { ...r, position_type: 'text', new_path: 'f.txt', old_path: 'f.txt', new_line: 1 };
    await call('POST', DRAFTS, 'dev-token', { note: 'First' });
    await call('POST', DRAFTS, 'dev-token', { note: 'Fixed', in_reply_to_discussion_id: open.id, resolve_discussion: true });
    await call('POST', DRAFTS, 'dev-token', { note: 'On a line', position });
    await call('POST', DRAFTS, 'dev-token', { note: 'Not quite', in_reply_to_discussion_id: resolved.id });
    const theirs = (await call('POST', DRAFTS, 'reporter-token', { note: 'Someone else’s' })).body;
    expect(await call('POST', `${DRAFTS}/bulk_publish`, 'dev-token')).toEqual({ status: 204, body: null });

    expect((await call('GET', DRAFTS, 'dev-token')).body).toEqual([]);
    expect((await call('GET', DRAFTS, 'reporter-token')).body).toEqual([theirs]);
    const all = await threads();
    expect(all.map((d) => d.notes.map((n) => [n.body, n.type, n.resolved ?? null]))).toEqual([
      [['changed the description', null, null]],
      [['Please fix', 'DiscussionNote', true], ['Fixed', 'DiscussionNote', true]],
      // A reply that does not resolve its thread reopens it (set_discussion_resolve_status).
      [['Done already?', 'DiscussionNote', false], ['Not quite', 'DiscussionNote', false]],
      [['First', 'DiscussionNote', false]],
      [['On a line', 'DiffNote', false]],
    ]);
    expect(all[4]!.notes[0]!.position).toEqual({ ...position, old_line: null, line_range: null });
    const notes = (await call('GET', `${APP}/merge_requests/1/notes?sort=asc`, 'dev-token')).body.map((n: { body: string }) => n.body);
    expect(notes.slice(-4)).toEqual(['First', 'Fixed', 'On a line', 'Not quite']);
    // Nothing left: a bulk publish of none is still 204.
    expect((await call('POST', `${DRAFTS}/bulk_publish`, 'dev-token')).status).toBe(204);
  });

  it('makes a note alone a thread when a draft replies to it', async () => {
    const alone = (await call('POST', `${APP}/merge_requests/1/notes`, 'reporter-token', { body: 'A remark' })).body;
    const thread = (await threads()).find((d) => d.notes[0]!.body === 'A remark')!;
    expect(thread.individual_note).toBe(true);
    // A note alone is not resolvable: a draft may not resolve it.
    expect(await call('POST', DRAFTS, 'dev-token', { note: 'x', in_reply_to_discussion_id: thread.id, resolve_discussion: true }))
      .toMatchObject({ status: 400, body: { message: { base: ['User is not allowed to resolve thread'] } } });
    const reply = (await call('POST', DRAFTS, 'dev-token', { note: 'Agreed', in_reply_to_discussion_id: thread.id })).body;
    expect((await call('PUT', `${DRAFTS}/${reply.id}/publish`, 'dev-token')).status).toBe(204);
    const now = (await threads()).find((d) => d.id === thread.id)!;
    expect(now).toMatchObject({ individual_note: false, notes: [{ id: alone.id, body: 'A remark', type: 'DiscussionNote' }, { body: 'Agreed', type: 'DiscussionNote' }] });
  });

  it('runs the quick actions of a draft, and a blank draft publishes to nothing', async () => {
    const blank = (await call('POST', DRAFTS, 'dev-token', { note: '' })).body;
    expect(blank.note).toBe('');
    await call('POST', DRAFTS, 'dev-token', { note: 'Closing\n/close' });
    expect((await call('POST', `${DRAFTS}/bulk_publish`, 'dev-token')).status).toBe(204);
    expect((await call('GET', DRAFTS, 'dev-token')).body).toEqual([]);
    expect((await call('GET', `${APP}/merge_requests/1`, 'dev-token')).body.state).toBe('closed');
    const bodies = (await threads()).flatMap((d) => d.notes.filter((n) => !n.system).map((n) => n.body));
    expect(bodies).toEqual(['Closing']);
  });
});

describe('drafts against a plain model', () => {
  type Op =
    | { kind: 'create'; who: number; note: string }
    | { kind: 'update'; who: number; pick: number; note: string }
    | { kind: 'delete'; who: number; pick: number }
    | { kind: 'publish'; who: number; pick: number }
    | { kind: 'bulk'; who: number };
  const TOKENS = ['dev-token', 'reporter-token'];
  const who = fc.integer({ min: 0, max: 1 });
  const note = fc.stringMatching(/^[a-z]{1,6}$/);
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('create' as const), who, note }),
    fc.record({ kind: fc.constant('update' as const), who, pick: fc.nat(5), note }),
    fc.record({ kind: fc.constant('delete' as const), who, pick: fc.nat(5) }),
    fc.record({ kind: fc.constant('publish' as const), who, pick: fc.nat(5) }),
    fc.record({ kind: fc.constant('bulk' as const), who }),
  );

  it('lists, edits, deletes and publishes as the model says', async () => {
    const seed = world().snapshot();
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
      world().restore(seed);
      const drafts: { id: number; who: number; note: string }[] = [];
      const published: string[] = [];
      for (const o of ops) {
        const token = TOKENS[o.who]!;
        const mine = drafts.filter((d) => d.who === o.who);
        // An id of one's own, or another user's (not found), or none at all.
        const any = drafts[('pick' in o ? o.pick : 0) % Math.max(drafts.length, 1)];
        const target = 'pick' in o ? (any?.id ?? 999) : 0;
        const ownsIt = mine.some((d) => d.id === target);
        if (o.kind === 'create') {
          const res = await call('POST', DRAFTS, token, { note: o.note });
          expect(res.status).toBe(201);
          drafts.push({ id: res.body.id, who: o.who, note: o.note });
        } else if (o.kind === 'update') {
          const res = await call('PUT', `${DRAFTS}/${target}`, token, { note: o.note });
          expect(res.status).toBe(ownsIt ? 200 : 404);
          if (ownsIt) drafts.find((d) => d.id === target)!.note = o.note;
        } else if (o.kind === 'delete' || o.kind === 'publish') {
          const res = await call(o.kind === 'delete' ? 'DELETE' : 'PUT', `${DRAFTS}/${target}${o.kind === 'publish' ? '/publish' : ''}`, token);
          expect(res.status).toBe(ownsIt ? 204 : 404);
          if (ownsIt) {
            const i = drafts.findIndex((d) => d.id === target);
            if (o.kind === 'publish') published.push(drafts[i]!.note);
            drafts.splice(i, 1);
          }
        } else {
          expect((await call('POST', `${DRAFTS}/bulk_publish`, token)).status).toBe(204);
          published.push(...mine.map((d) => d.note));
          for (const d of mine) drafts.splice(drafts.indexOf(d), 1);
        }
        for (const [i, t] of TOKENS.entries()) {
          const listed = (await call('GET', DRAFTS, t)).body.map((d: { id: number; note: string }) => [d.id, d.note]);
          expect(listed).toEqual(drafts.filter((d) => d.who === i).map((d) => [d.id, d.note]));
        }
      }
      const bodies = (await call('GET', `${APP}/merge_requests/1/notes?sort=asc`, 'dev-token')).body.filter((n: { system: boolean }) => !n.system).map((n: { body: string }) => n.body);
      expect(bodies).toEqual(published);
    }), { numRuns: 25 });
  });
});

describe('drafts in the world', () => {
  it('are exported with it, and go with their project', async () => {
    const made = (await call('POST', DRAFTS, 'dev-token', { note: 'Kept in the export' })).body;
    const fixture = await world().exportFixture();
    const again = await createEmulator({ fixture });
    const listed = await (await apiCall(again, '/projects/acme%2Fapp/merge_requests/1/draft_notes', { token: 'dev-token' })).json();
    expect(listed).toEqual([made]);
    expect((await call('DELETE', APP, 'root-token')).status).toBe(202);
    expect((await call('GET', APP, 'root-token')).status).toBe(404);
    expect(JSON.stringify(await world().exportFixture())).not.toContain('Kept in the export');
  });
});

describe('a review through @gitbeaker/rest against the server', () => {
  it('drafts comments, lists them, and publishes them at once', async () => {
    const emulator = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'dev-token' });
      const first = await api.MergeRequestDraftNotes.create('acme/app', 1, 'Nit: naming');
      await api.MergeRequestDraftNotes.create('acme/app', 1, 'Needs a test');
      expect((await api.MergeRequestDraftNotes.all('acme/app', 1)).map((d) => d.note)).toEqual(['Nit: naming', 'Needs a test']);
      expect((await api.MergeRequestDraftNotes.show('acme/app', 1, first.id)).note).toBe('Nit: naming');
      await api.MergeRequestDraftNotes.publishBulk('acme/app', 1);
      expect(await api.MergeRequestDraftNotes.all('acme/app', 1)).toEqual([]);
      const notes = await api.MergeRequestNotes.all('acme/app', 1, { sort: 'asc' });
      expect(notes.filter((n) => !n.system).map((n) => n.body)).toEqual(['Nit: naming', 'Needs a test']);
    } finally {
      await server.close();
    }
  });
});
