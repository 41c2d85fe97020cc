// Reopening a merge request (MergeRequests::ReopenService): a locked one is not reopened
// (MergeRequestPolicy's `locked` prevents reopen_merge_request, for everyone), and a reopened one
// reloads its diff: commits pushed to its source branch while it was closed are its own again.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, TEAM, seededWorld, teamProject, jsonCall } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' }, author: 'dev' }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
  })],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const MR = `${APP}/merge_requests/1`;

const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });
type Entity = { state: string; sha: string; diff_refs: { head_sha: string; base_sha: string; start_sha: string } };
const mr = async () => (await call('GET', MR)).body as Entity;
const push = async (path: string) => {
  const r = await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'feature', commit_message: `Add ${path}`, actions: [{ action: 'create', file_path: path, content: 'x\n' }] });
  expect(r.status).toBe(201);
  return r.body.id as string;
};
const commits = async () => ((await call('GET', `${MR}/commits`)).body as { title: string }[]).map((c) => c.title);
const diffs = async () => ((await call('GET', `${MR}/diffs`)).body as { new_path: string }[]).map((d) => d.new_path).sort();
const close = async () => expect((await call('PUT', MR, 'dev-token', { state_event: 'close' })).body.state).toBe('closed');

describe('reopening a merge request', () => {
  it('reloads its diff: the commits pushed while it was closed are its commits and changes', async () => {
    const before = await mr();
    await close();
    const sha = await push('g.txt');
    // Closed, it does not follow its branch.
    expect((await mr()).sha).toBe(before.sha);
    expect(await commits()).toEqual(['Feature']);
    const reopened = await call('PUT', MR, 'dev-token', { state_event: 'reopen' });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ state: 'opened', sha, diff_refs: { head_sha: sha, base_sha: before.diff_refs.base_sha, start_sha: before.diff_refs.start_sha } });
    expect(await commits()).toEqual(['Add g.txt', 'Feature']);
    expect(await diffs()).toEqual(['f.txt', 'g.txt']);
    // Pushes after it reopened refresh it as any open one.
    const next = await push('h.txt');
    expect((await mr()).sha).toBe(next);
  });

  it('/reopen in a note reloads it too', async () => {
    await close();
    const sha = await push('g.txt');
    expect(await call('POST', `${MR}/notes`, 'dev-token', { body: '/reopen' })).toEqual({ status: 202, body: { commands_changes: { state_event: 'reopen' }, summary: ['Reopened this merge request.'] } });
    expect(await mr()).toMatchObject({ state: 'opened', sha });
    expect(await diffs()).toEqual(['f.txt', 'g.txt']);
  });

  it('a locked merge request is not reopened, by anyone: PUT leaves it closed, /reopen cannot apply', async () => {
    await close();
    expect((await call('PUT', MR, 'dev-token', { discussion_locked: true })).body).toMatchObject({ discussion_locked: true });
    await push('g.txt');
    for (const token of ['dev-token', 'maintainer-token', 'root-token']) {
      const r = await call('PUT', MR, token, { state_event: 'reopen' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ state: 'closed', discussion_locked: true });
    }
    expect((await call('POST', `${MR}/notes`, 'maintainer-token', { body: '/reopen' })).body).toEqual({ commands_changes: {}, summary: ['Could not apply reopen command.'] });
    expect((await mr()).state).toBe('closed');
    expect(await commits()).toEqual(['Feature']);
    // Asked with the unlock, the state is decided first, on the merge request still locked; unlocked, it reopens.
    const both = await call('PUT', MR, 'dev-token', { state_event: 'reopen', discussion_locked: false });
    expect(both.body).toMatchObject({ state: 'closed', discussion_locked: false });
    expect((await call('PUT', MR, 'dev-token', { state_event: 'reopen' })).body).toMatchObject({ state: 'opened' });
    expect(await commits()).toEqual(['Add g.txt', 'Feature']);
  });

  it('is not reopened while another open merge request has its branches (validate_branches)', async () => {
    await close();
    const other = await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'feature', target_branch: 'main', title: 'Again' });
    expect(other.status).toBe(201);
    const r = await call('PUT', MR, 'dev-token', { state_event: 'reopen' });
    expect(r).toMatchObject({ status: 200, body: { state: 'closed' } });
    expect((await call('POST', `${MR}/notes`, 'dev-token', { body: '/reopen' })).status).toBe(202);
    expect((await mr()).state).toBe('closed');
    // Once the other is closed, it reopens.
    await call('PUT', `${APP}/merge_requests/2`, 'dev-token', { state_event: 'close' });
    expect((await call('PUT', MR, 'dev-token', { state_event: 'reopen' })).body.state).toBe('opened');
  });

  it('a Reporter may not reopen it', async () => {
    await close();
    expect((await call('PUT', MR, 'reporter-token', { state_event: 'reopen' })).status).toBe(403);
    expect((await mr()).state).toBe('closed');
  });
});
