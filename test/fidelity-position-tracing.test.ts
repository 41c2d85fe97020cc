// Diff notes follow later pushes (Gitlab::Diff::PositionTracer, Discussions::UpdateDiffPositionService):
// a note on a line the push leaves alone moves to that line's new number in the new diff; a note
// on a line the push changed keeps its position, outdated.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

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

async function call(method: string, path: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token: 'dev-token', json });
  return { status: res.status, body: await res.json() };
}

describe('diff note positions after a push', () => {
  it('trace an untouched line to its new number and leave a changed one outdated', async () => {
    const refs = (await call('GET', MR)).body.diff_refs;
    const at = (line: number) => ({ ...refs, position_type: 'text', old_path: 'f.txt', new_path: 'f.txt', new_line: line });
    const kept = (await call('POST', `${MR}/discussions`, { body: 'On d', position: at(4) })).body;
    const changed = (await call('POST', `${MR}/discussions`, { body: 'On b', position: at(2) })).body;
    const pushed = await call('POST', `${APP}/repository/commits`, {
      branch: 'feature', commit_message: 'Edit', actions: [{ action: 'update', file_path: 'f.txt', content: 'zero\na\nB\nc\nd\ne\n' }],
    });
    expect(pushed.status).toBe(201);
    const after = (await call('GET', MR)).body.diff_refs;
    expect(after.head_sha).toBe(pushed.body.id);
    const discussions = (await call('GET', `${MR}/discussions`)).body as { id: string; notes: { position: Record<string, unknown> }[] }[];
    const position = (id: string) => discussions.find((d) => d.id === id)!.notes[0]!.position;
    expect(position(kept.id)).toEqual({ ...after, position_type: 'text', old_path: 'f.txt', new_path: 'f.txt', old_line: null, new_line: 5, line_range: null });
    expect(position(changed.id)).toEqual(changed.notes[0].position);
  });
});
