// What python-gitlab's repository tests ask of the emulator: a project's snapshot (a tar of its
// bare repository, for administrators) and the merge requests that hold a commit.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { apiCall, seededWorld } from './support/world.js';

const fixture: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'dev', tokens: [{ token: 'dev-token' }] },
    { username: 'gus', tokens: [{ token: 'gus-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'private', members: [{ user: 'dev', access_level: 'maintainer' }] }],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private',
    repository: { files: { 'README.md': '# app\n' }, branches: { fix: 'main', other: 'main' }, tags: { v1: 'main' } },
    merge_requests: [{ title: 'Fix', source_branch: 'fix' }, { title: 'Other', source_branch: 'other' }],
  }],
};

const world = seededWorld(fixture, '2030-01-01T00:00:00Z');
const P = '/projects/acme%2Fapp';
const call = (path: string, token: string, init: Parameters<typeof apiCall>[2] = {}) => apiCall(world(), path, { token, ...init });

describe('GET /projects/:id/snapshot', () => {
  it('is a tar of the bare repository that git reads, for administrators only', async () => {
    const res = await call(`${P}/snapshot`, 'root-token');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-tar');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="app-20300101T000000\.tar"$/);
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-'));
    writeFileSync(join(dir, 's.tar'), new Uint8Array(await res.arrayBuffer()));
    execFileSync('tar', ['-xf', 's.tar', '-C', dir], { cwd: dir });
    execFileSync('git', ['--git-dir', dir, 'fsck', '--strict'], { stdio: 'pipe' });
    const main = world().git('acme/app').refs().branches.main;
    expect(execFileSync('git', ['--git-dir', dir, 'rev-parse', 'main', 'v1']).toString().trim().split('\n')).toEqual([main, main]);
    expect(execFileSync('git', ['--git-dir', dir, 'show', 'main:README.md']).toString()).toBe('# app\n');
    expect((await call(`${P}/snapshot`, 'dev-token')).status).toBe(403);
    expect((await apiCall(world(), `${P}/snapshot`)).status).toBe(401);
    expect((await call('/projects/acme%2Fnone/snapshot', 'root-token')).status).toBe(404);
  });
});

describe('GET /projects/:id/repository/commits/:sha/merge_requests', () => {
  it('lists the merge requests whose commits hold it, as MergeRequestBasic', async () => {
    const commit = async (branch: string) => (await (await call(`${P}/repository/commits`, 'dev-token', { method: 'POST', json: { branch, commit_message: `on ${branch}`, actions: [{ action: 'create', file_path: `${branch}.txt`, content: 'x' }] } })).json()).id as string;
    const onFix = await commit('fix');
    await commit('other');
    const listed = async (sha: string, query = '') => (await (await call(`${P}/repository/commits/${sha}/merge_requests${query}`, 'dev-token')).json()).map((m: { title: string }) => m.title);
    expect(await listed(onFix)).toEqual(['Fix']);
    expect(await listed('main')).toEqual([]);
    expect(await listed(onFix, '?state=closed')).toEqual([]);
    const res = await call(`${P}/repository/commits/${onFix}/merge_requests`, 'dev-token');
    expect(res.headers.get('x-total')).toBe('1');
    expect((await res.json())[0]).toMatchObject({ iid: 1, project_id: expect.any(Number), state: 'opened', source_branch: 'fix', target_branch: 'main' });
    expect(await (await call(`${P}/repository/commits/${'0'.repeat(40)}/merge_requests`, 'dev-token')).json()).toEqual({ message: '404 Commit Not Found' });
    expect((await call(`${P}/repository/commits/${onFix}/merge_requests`, 'gus-token')).status).toBe(404);
  });
});

describe('a commit’s discussions', () => {
  it('are started, listed, replied to, edited and deleted as python-gitlab’s test does', async () => {
    const main = world().git('acme/app').refs().branches.main!;
    const base = `${P}/repository/commits/${main}/discussions`;
    const started = await call(base, 'dev-token', { method: 'POST', json: { body: 'Discussion body' } });
    expect(started.status).toBe(201);
    const d = await started.json();
    expect(d).toMatchObject({ individual_note: false, notes: [{ body: 'Discussion body', type: 'DiscussionNote', noteable_type: 'Commit', noteable_id: null }] });
    expect((await (await call(base, 'dev-token')).json()).map((x: { id: string }) => x.id)).toEqual([d.id]);
    const reply = await (await call(`${base}/${d.id}/notes`, 'dev-token', { method: 'POST', json: { body: 'first note' } })).json();
    expect((await (await call(`${base}/${d.id}/notes/${reply.id}`, 'dev-token')).json()).body).toBe('first note');
    expect((await (await call(`${base}/${d.id}/notes/${reply.id}`, 'dev-token', { method: 'PUT', json: { body: 'updated body' } })).json()).body).toBe('updated body');
    expect((await (await call(`${base}/${d.id}`, 'dev-token')).json()).notes.map((n: { body: string }) => n.body)).toEqual(['Discussion body', 'updated body']);
    expect((await call(`${base}/${d.id}/notes/${reply.id}`, 'dev-token', { method: 'DELETE' })).status).toBe(204);
    // The commit's comments are the same notes.
    expect((await (await call(`${P}/repository/commits/${main}/comments`, 'dev-token')).json()).map((c: { note: string }) => c.note)).toEqual(['Discussion body']);
    // A short sha or a branch names the same commit; an unknown one is 404, and so is a project the caller cannot see.
    expect((await (await call(`${P}/repository/commits/main/discussions`, 'dev-token')).json())).toHaveLength(1);
    expect(await (await call(`${P}/repository/commits/${'0'.repeat(40)}/discussions`, 'dev-token')).json()).toEqual({ message: '404 Commit Not Found' });
    expect((await call(base, 'gus-token')).status).toBe(404);
  });
});
