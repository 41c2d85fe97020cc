// Merge requests follow their branches (MergeRequests::RefreshService): a commit to the source
// branch, through the API or pushed with the real git, moves the merge request's head and notes
// the commits it added; a push that brings the head into the target branch merges it (and
// closes the issues it names); deleting
// the source branch closes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Server } from '../src/index.js';
import { GitScratch, HAS_GIT, withCredentials } from './support/git-cli.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld } from './support/world.js';

const NOW = '2026-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Start the feature', files: { 'f.txt': 'one\n' } }] },
    merge_requests: [{ title: 'The feature', source_branch: 'feature', author: 'dev' }],
  }],
};
const APP = '/projects/acme%2Fapp';

async function call(emulator: Emulator, method: string, path: string, json?: unknown, token = 'maintainer-token') {
  const res = await apiCall(emulator, path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

describe('merge requests follow their branches through the API', () => {
  const world = seededWorld(FIXTURE, NOW);
  const commit = (branch: string, message: string, path: string) =>
    call(world(), 'POST', `${APP}/repository/commits`, { branch, commit_message: message, actions: [{ action: 'create', file_path: path, content: 'x\n' }] }, 'dev-token');

  it('a commit to the source branch moves the head and notes the commit', async () => {
    const before = (await call(world(), 'GET', `${APP}/merge_requests/1`)).body;
    const made = (await commit('feature', 'Finish <the> feature', 'g.txt')).body;
    const mr = (await call(world(), 'GET', `${APP}/merge_requests/1`)).body;
    expect(mr).toMatchObject({ sha: made.id, diff_refs: { base_sha: before.diff_refs.base_sha, head_sha: made.id, start_sha: before.diff_refs.start_sha } });
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/commits`)).body.map((c: { title: string }) => c.title)).toEqual(['Finish <the> feature', 'Start the feature']);
    const diffs = (await call(world(), 'GET', `${APP}/merge_requests/1/diffs`)).body;
    expect(diffs.map((d: { new_path: string; new_file: boolean }) => [d.new_path, d.new_file])).toEqual([['f.txt', true], ['g.txt', true]]);
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/diffs?unidiff=true&per_page=1&page=2`)).body[0].diff).toMatch(/^--- \/dev\/null\n\+\+\+ b\/g.txt\n@@/);
    expect(await call(world(), 'GET', `${APP}/merge_requests/9/commits`)).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/commits`, undefined, 'outsider-token')).status).toBe(404);
    const notes = (await call(world(), 'GET', `${APP}/merge_requests/1/notes`)).body;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      system: true, author: { username: 'dev' },
      body: `added 1 commit\n\n<ul><li>${made.id.slice(0, 8)} - Finish &lt;the&gt; feature</li></ul>\n\n[Compare with previous version](/acme/app/-/merge_requests/1/diffs?diff_id=1&start_sha=${before.sha})`,
    });
    // A commit to another branch leaves it alone.
    await commit('main', 'Elsewhere', 'h.txt');
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/notes`)).body).toHaveLength(1);
    expect((await call(world(), 'GET', `${APP}/merge_requests/1`)).body).toMatchObject({ sha: made.id, state: 'opened' });
  });

  it('a draft commit makes the merge request a draft', async () => {
    await commit('feature', 'Tidy up', 'a.txt');
    const fixup = (await commit('feature', 'fixup! Tidy up', 'b.txt')).body;
    const mr = (await call(world(), 'GET', `${APP}/merge_requests/1`)).body;
    expect(mr).toMatchObject({ title: 'Draft: The feature', draft: true });
    const notes = (await call(world(), 'GET', `${APP}/merge_requests/1/notes?sort=asc`)).body.map((n: { body: string }) => n.body);
    expect(notes.slice(1)).toEqual([expect.stringMatching(/^added 1 commit\n/), `marked this merge request as **draft** from ${fixup.id}`]);
    // Already a draft: nothing more.
    await commit('feature', 'Draft: more', 'c.txt');
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/notes`)).body).toHaveLength(4);
  });

  it('a closed merge request stays as it is until reopened', async () => {
    await call(world(), 'PUT', `${APP}/merge_requests/1`, { state_event: 'close' });
    const head = (await call(world(), 'GET', `${APP}/merge_requests/1`)).body.sha;
    await commit('feature', 'While closed', 'd.txt');
    expect((await call(world(), 'GET', `${APP}/merge_requests/1`)).body.sha).toBe(head);
    await call(world(), 'PUT', `${APP}/merge_requests/1`, { state_event: 'reopen' });
    const made = (await commit('feature', 'Reopened', 'e.txt')).body;
    expect((await call(world(), 'GET', `${APP}/merge_requests/1`)).body.sha).toBe(made.id);
  });

  it('deleting the source branch closes the merge request', async () => {
    expect((await call(world(), 'DELETE', `${APP}/repository/branches/feature`)).status).toBe(204);
    expect((await call(world(), 'GET', `${APP}/merge_requests/1`)).body.state).toBe('closed');
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/resource_state_events`)).body).toEqual([
      expect.objectContaining({ state: 'closed', user: expect.objectContaining({ username: 'mai' }) }),
    ]);
  });

  it('a merge through the API writes no commit note and closes nothing else', async () => {
    const merged = await call(world(), 'PUT', `${APP}/merge_requests/1/merge`, { should_remove_source_branch: true });
    expect(merged).toMatchObject({ status: 200, body: { state: 'merged' } });
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/notes`)).body).toEqual([]);
    expect((await call(world(), 'GET', `${APP}/merge_requests/1/resource_state_events`)).body.map((e: { state: string }) => e.state)).toEqual(['merged']);
  });
});

describe.skipIf(!HAS_GIT)('merge requests follow pushes of the real git', () => {
  let emulator: Emulator;
  let server: Server;
  const git = new GitScratch();
  beforeAll(async () => {
    emulator = await createEmulator({ fixture: FIXTURE, clock: { now: NOW, frozen: true } });
    server = await emulator.listen({ port: 0 });
  });
  afterAll(async () => {
    await server.close();
    git.remove();
  });

  it('a push to the source branch notes its commits; a push of the head to the target merges', async () => {
    const url = withCredentials(`${server.url}/acme/app.git`, 'mai', 'maintainer-token');
    await git.ok(['clone', '-q', url, 'app']);
    await git.ok(['checkout', '-q', 'feature'], 'app');
    for (const n of ['two', 'three']) {
      await git.ok(['commit', '-q', '--allow-empty', '-m', `Step ${n}`], 'app');
    }
    const old = (await call(emulator, 'GET', `${APP}/merge_requests/1`)).body.sha;
    await git.ok(['push', '-q', 'origin', 'feature'], 'app');
    const head = (await git.ok(['rev-parse', 'HEAD'], 'app')).trim();
    const [two, three] = (await git.ok(['rev-list', '--reverse', `${old}..HEAD`], 'app')).trim().split('\n');
    expect((await call(emulator, 'GET', `${APP}/merge_requests/1`)).body.sha).toBe(head);
    const notes = (await call(emulator, 'GET', `${APP}/merge_requests/1/notes`)).body;
    expect(notes.map((n: { body: string }) => n.body)).toEqual([
      `added 2 commits\n\n<ul><li>${two!.slice(0, 8)} - Step two</li><li>${three!.slice(0, 8)} - Step three</li></ul>\n\n` +
      `[Compare with previous version](/acme/app/-/merge_requests/1/diffs?diff_id=1&start_sha=${old})`,
    ]);
    // Each merge request's head is a ref, as `glab mr checkout` fetches it.
    expect(await git.ok(['ls-remote', 'origin', 'refs/merge-requests/*'], 'app')).toBe(`${head}\trefs/merge-requests/1/head\n`);
    await git.ok(['fetch', '-q', 'origin', 'merge-requests/1/head:mr-1'], 'app');
    expect((await git.ok(['rev-parse', 'mr-1'], 'app')).trim()).toBe(head);
    // Fast-forwarding main to the head merges the merge request, by the pusher, and closes
    // the issue its description names.
    const issue = (await call(emulator, 'POST', `${APP}/issues`, { title: 'Needs the feature' })).body;
    await call(emulator, 'PUT', `${APP}/merge_requests/1`, { description: `Closes #${issue.iid}` });
    await git.ok(['push', '-q', 'origin', 'feature:main'], 'app');
    const mr = (await call(emulator, 'GET', `${APP}/merge_requests/1`)).body;
    expect(mr).toMatchObject({ state: 'merged', merged_by: { username: 'mai' } });
    expect((await call(emulator, 'GET', `${APP}/issues/${issue.iid}`)).body).toMatchObject({ state: 'closed', closed_by: { username: 'mai' } });
    const events = (await call(emulator, 'GET', `${APP}/issues/${issue.iid}/resource_state_events`)).body;
    expect(events).toMatchObject([{ state: 'closed', resource_type: 'Issue' }]);
  });
});
