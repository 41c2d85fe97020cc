// A moved issue's description and notes keep pointing where they pointed
// (Gitlab::Gfm::ReferenceRewriter): a reference local to the old project gains the old
// project's path (its full path from another namespace), one to the new project becomes local.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, seededWorld, jsonCall } from './support/world.js';

const NOW = '2024-03-06T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME, { path: 'other', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
      issues: [
        { title: 'Moving', author: 'dev', description: 'See #2 and !1, not #99; also other/lib#1 and `#2`.' },
        { title: 'Second', author: 'dev' },
      ],
      merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
    },
    { namespace: 'acme', path: 'web', visibility: 'public', creator: 'root', members: TEAM_MEMBERS },
    { namespace: 'other', path: 'lib', visibility: 'public', creator: 'root', members: TEAM_MEMBERS, issues: [{ title: 'Lib issue', author: 'dev' }] },
  ],
};
const world = seededWorld(FIXTURE, NOW);

const call = (method: string, path: string, token?: string, json?: unknown) => jsonCall(world(), path, { method, token, json });

describe('moving an issue rewrites its references', () => {
  it('to another namespace: local references gain the full path, references to the new project become local', async () => {
    await call('POST', '/projects/acme%2Fapp/issues/1/notes', 'dev-token', { body: 'Duplicate of #2?' });
    const moved = await call('POST', '/projects/acme%2Fapp/issues/1/move', 'maintainer-token', { to_project_id: 'other/lib' });
    expect(moved.status).toBe(201);
    expect(moved.body.description).toBe('See acme/app#2 and acme/app!1, not #99; also #1 and `#2`.');
    const notes = (await call('GET', `/projects/other%2Flib/issues/${moved.body.iid}/notes?sort=asc`, 'dev-token')).body;
    expect(notes.map((n: { body: string }) => n.body)).toContain('Duplicate of acme/app#2?');
    // The original keeps its own text.
    expect((await call('GET', '/projects/acme%2Fapp/issues/1', 'dev-token')).body.description).toBe('See #2 and !1, not #99; also other/lib#1 and `#2`.');
  });

  it('within the namespace: the project path alone', async () => {
    const moved = await call('POST', '/projects/acme%2Fapp/issues/1/move', 'maintainer-token', { to_project_id: 'acme/web' });
    expect(moved.body.description).toBe('See app#2 and app!1, not #99; also other/lib#1 and `#2`.');
  });
});
