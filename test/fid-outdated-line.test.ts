// A push that changes the line a merge request thread is on leaves the thread outdated, and the
// pusher's system note in it says so (Discussions::UpdateDiffPositionService,
// SystemNotes::MergeRequestsService#diff_discussion_outdated).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, updateProject } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'a\nb\nc\nd\ne\n' } }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
  }],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const MR = `${APP}/merge_requests/1`;

async function call(method: string, path: string, json?: unknown, token = 'dev-token') {
  const res = await apiCall(world(), path, { method, token, json });
  return { status: res.status, body: await res.json() };
}
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

type Discussion = { id: string; notes: { body: string; system: boolean; type: string; author: { username: string }; position: unknown; resolved?: boolean; resolvable: boolean }[] };

async function thread(line: number) {
  const refs = (await call('GET', MR)).body.diff_refs;
  return (await call('POST', `${MR}/discussions`, { body: `On line ${line}`, position: { ...refs, position_type: 'text', old_path: 'f.txt', new_path: 'f.txt', new_line: line } })).body as Discussion;
}
async function push(content: string, token = 'maintainer-token') {
  const res = await call('POST', `${APP}/repository/commits`, { branch: 'feature', commit_message: 'Edit', actions: [{ action: 'update', file_path: 'f.txt', content }] }, token);
  expect(res.status).toBe(201);
  return res.body.id as string;
}
const discussion = async (id: string) => ((await call('GET', `${MR}/discussions`)).body as Discussion[]).find((d) => d.id === id)!;

describe('changed this line', () => {
  it('a push that changes the line says so in the thread, as the pusher, linking the new version at the line', async () => {
    const changed = await thread(2);
    const kept = await thread(4);
    const before = (await call('GET', MR)).body.sha as string;
    await push('zero\na\nB\nc\nd\ne\n');
    const notes = (await discussion(changed.id)).notes;
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatchObject({ system: true, type: 'DiffNote', author: { username: 'mai' }, position: changed.notes[0]!.position, resolvable: false });
    // The line (old 2 in the push's diff, removed before the new line 3).
    const m = /^changed this line in \[version 2 of the diff\]\(\/acme\/app\/-\/merge_requests\/1\/diffs\?diff_id=(\d+)&start_sha=([0-9a-f]{40})#([0-9a-f]{40})_2_3\)$/.exec(notes[1]!.body);
    expect(m, notes[1]!.body).not.toBeNull();
    expect(m![2]).toBe(before);
    expect(m![3]).toBe(sha1('f.txt'));
    // A thread the push left alone moves, and says nothing.
    expect((await discussion(kept.id)).notes).toHaveLength(1);
    // The merge request's own activity says nothing of it either.
    const system = ((await call('GET', `${MR}/notes`)).body as { body: string; system: boolean }[]).filter((n) => n.system).map((n) => n.body);
    expect(system.filter((b) => b.startsWith('changed this line'))).toHaveLength(1);
    // The version is the one the push's `added 1 commit` note compares with the previous.
    expect(system.find((b) => b.startsWith('added 1 commit'))).toContain(`diffs?diff_id=${m![1]}&start_sha=${before})`);
  });

  it('an outdated thread says it once; the next version is counted', async () => {
    const changed = await thread(2);
    const later = await thread(5);
    await push('a\nB\nc\nd\ne\n');
    await push('a\nB\nc\nd\nE\n');
    expect((await discussion(changed.id)).notes).toHaveLength(2);
    const notes = (await discussion(later.id)).notes;
    expect(notes).toHaveLength(2);
    expect(notes[1]!.body).toMatch(/^changed this line in \[version 3 of the diff\]\(.*_5_5\)$/);
  });

  it('where the project resolves outdated threads, the thread is resolved', async () => {
    updateProject(world(), 'acme/app', (p) => { p.settings['resolve_outdated_diff_discussions'] = true; });
    const changed = await thread(3);
    const kept = await thread(1);
    await push('a\nb\nC\nd\ne\n');
    expect((await discussion(changed.id)).notes[0]!.resolved).toBe(true);
    expect((await discussion(kept.id)).notes[0]!.resolved).toBe(false);
  });

  it('a thread left alone does not get resolved or noted where the project does not resolve', async () => {
    const changed = await thread(3);
    await push('a\nb\nC\nd\ne\n');
    expect((await discussion(changed.id)).notes[0]!.resolved).toBe(false);
  });
});
