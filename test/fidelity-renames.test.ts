// Renames with edits, as Gitaly's diff finds them (git's rename detection at its default 50%
// similarity): `renamed_file: true` and the diff of the edit; below the threshold a deletion and
// an addition.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const BODY = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'old.txt': BODY, 'other.txt': 'a\nb\nc\nd\n' } } }],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, json?: unknown) {
  const res = await apiCall(world(), path, { method, token: 'dev-token', json });
  return { status: res.status, body: await res.json() };
}

async function commitDiff(actions: unknown[]) {
  const made = await call('POST', `${APP}/repository/commits`, { branch: 'main', commit_message: 'Move', actions });
  expect(made.status).toBe(201);
  return (await call('GET', `${APP}/repository/commits/${made.body.id}/diff`)).body as Record<string, unknown>[];
}

describe('renames in diffs', () => {
  it('a moved file with a small edit is one renamed file with the diff of its edit', async () => {
    const diffs = await commitDiff([{ action: 'move', previous_path: 'old.txt', file_path: 'new.txt', content: BODY.replace('line 10\n', 'line ten\n') }]);
    expect(diffs).toEqual([expect.objectContaining({
      old_path: 'old.txt', new_path: 'new.txt', renamed_file: true, new_file: false, deleted_file: false,
      diff: '@@ -7,7 +7,7 @@ line 6\n line 7\n line 8\n line 9\n-line 10\n+line ten\n line 11\n line 12\n line 13\n',
    })]);
  });

  it('a moved file rewritten past half is a deletion and an addition', async () => {
    const diffs = await commitDiff([{ action: 'move', previous_path: 'other.txt', file_path: 'moved.txt', content: 'a\nx\ny\nz\n' }]);
    expect(diffs.map((d) => [d.old_path, d.new_path, d.renamed_file, d.new_file, d.deleted_file])).toEqual([
      ['moved.txt', 'moved.txt', false, true, false],
      ['other.txt', 'other.txt', false, false, true],
    ]);
  });

  it('an exact move stays a rename with no diff', async () => {
    const diffs = await commitDiff([{ action: 'move', previous_path: 'old.txt', file_path: 'dir/old.txt' }]);
    expect(diffs).toEqual([expect.objectContaining({ old_path: 'old.txt', new_path: 'dir/old.txt', renamed_file: true, diff: '' })]);
  });
});
