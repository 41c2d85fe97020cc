// Commit statuses (lib/api/commit_statuses.rb, Ci::CreateCommitStatusService): posting creates
// an external pipeline and a status, a pending or running one is updated, a finished one is
// replaced (the old one retried), and the state machine refuses what CommitStatus refuses.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { transition, type StatusState } from '../src/families/statuses/index.js';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: {
        files: { 'README.md': 'hi\n' },
        branches: { feature: 'main' },
        commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }],
        protected_branches: { main: {} },
      },
    }),
  ],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
const sha = (rev: string) => world().git('acme/app').resolve(rev) as Promise<string>;
const post = async (rev: string, json: Record<string, unknown>, token = 'maintainer-token') =>
  apiCall(world(), `/projects/acme%2Fapp/statuses/${await sha(rev)}`, { method: 'POST', token, json });
const list = async (rev: string, q = '', token = 'dev-token') => apiCall(world(), `/projects/acme%2Fapp/repository/commits/${await sha(rev)}/statuses${q}`, { token });

describe('POST /projects/:id/statuses/:sha', () => {
  it('creates a status in an external pipeline, as Entities::CommitStatus', async () => {
    const res = await post('feature', { state: 'pending', name: 'ci/lint', target_url: 'https://ci.example.com/1', description: 'Linting', coverage: '87.5' });
    expect(res.status).toBe(201);
    const s = (await res.json()) as Record<string, any>;
    expect(Object.keys(s)).toEqual([
      'id', 'sha', 'ref', 'status', 'name', 'target_url', 'description', 'created_at', 'started_at', 'finished_at', 'allow_failure', 'coverage', 'pipeline_id', 'author',
    ]);
    expect(s).toMatchObject({
      sha: await sha('feature'),
      ref: 'feature',
      status: 'pending',
      name: 'ci/lint',
      target_url: 'https://ci.example.com/1',
      description: 'Linting',
      coverage: 87.5,
      created_at: '2024-03-01T10:00:00.000Z',
      started_at: null,
      finished_at: null,
      allow_failure: false,
      author: { username: 'mai' },
    });
  });

  it('updates the pending status of the name, then replaces it once finished', async () => {
    const first = (await (await post('feature', { state: 'pending', context: 'build' })).json()) as { id: number; pipeline_id: number };
    world().clock.advance('1m');
    const running = (await (await post('feature', { state: 'running', context: 'build' })).json()) as Record<string, unknown>;
    expect(running).toMatchObject({ id: first.id, status: 'running', started_at: '2024-03-01T10:01:00.000Z', pipeline_id: first.pipeline_id });
    const done = (await (await post('feature', { state: 'success', context: 'build' })).json()) as Record<string, unknown>;
    expect(done).toMatchObject({ id: first.id, status: 'success', finished_at: '2024-03-01T10:01:00.000Z' });
    const again = (await (await post('feature', { state: 'failed', name: 'build' })).json()) as Record<string, unknown>;
    expect(again).toMatchObject({ status: 'failed', pipeline_id: first.pipeline_id });
    expect(again.id).not.toBe(first.id);
    const latest = (await (await list('feature')).json()) as { id: number }[];
    expect(latest.map((s) => s.id)).toEqual([again.id]);
    const all = (await (await list('feature', '?all=true&sort=desc')).json()) as { id: number }[];
    expect(all.map((s) => s.id)).toEqual([again.id, first.id]);
  });

  it("answers the state machine's refusal, and GitLab's 400s and 404s", async () => {
    await post('feature', { state: 'pending' });
    expect(await (await post('feature', { state: 'pending' })).json()).toEqual({
      message: 'Cannot transition status via :enqueue from :pending (Reason(s): Status cannot transition via "enqueue")',
    });
    await post('feature', { state: 'running' });
    expect(await (await post('feature', { state: 'skipped' })).json()).toEqual({
      message: 'Cannot transition status via :skip from :running (Reason(s): Status cannot transition via "skip")',
    });
    expect(await (await post('feature', { state: 'unknown' })).json()).toEqual({ error: 'state does not have a valid value' });
    expect(await (await post('feature', { state: 'success', coverage: 'lots' })).json()).toEqual({ error: 'coverage is invalid' });
    expect(await (await post('feature', { state: 'success', pipeline_id: 999 })).json()).toEqual({ message: '404 Pipeline for pipeline_id, sha and ref Not Found' });
    const res = await apiCall(world(), '/projects/acme%2Fapp/statuses/nope', { method: 'POST', token: 'dev-token', json: { state: 'success' } });
    expect(await res.json()).toEqual({ message: '404 Commit Not Found' });
  });

  it('needs a developer, and push access for a protected ref', async () => {
    expect((await post('feature', { state: 'success' }, 'reporter-token')).status).toBe(403);
    expect((await post('main', { state: 'success', ref: 'main' }, 'dev-token')).status).toBe(403);
    expect((await post('main', { state: 'success', ref: 'main' }, 'maintainer-token')).status).toBe(201);
    expect((await post('feature', { state: 'success' }, 'dev-token')).status).toBe(201);
    expect((await apiCall(world(), `/projects/acme%2Fapp/statuses/${await sha('main')}`, { method: 'POST', json: { state: 'success' } })).status).toBe(401);
  });

  it('finds the first branch holding the commit when no ref is sent, and filters the list', async () => {
    const s = (await (await post('main', { state: 'success', name: 'a' })).json()) as { ref: string };
    expect(s.ref).toBe('feature');
    await post('main', { state: 'success', name: 'b', ref: 'main' });
    expect(((await (await list('main', '?ref=main')).json()) as { name: string }[]).map((x) => x.name)).toEqual(['b']);
    expect(((await (await list('main', '?name=a')).json()) as { name: string }[]).map((x) => x.name)).toEqual(['a']);
    expect(await (await list('main', '?stage=test')).json()).toEqual([]);
    expect(((await (await list('main', '?stage=external')).json()) as unknown[]).length).toBe(2);
    expect((await list('main', '', 'reporter-token')).status).toBe(200);
  });
});

describe('the state machine', () => {
  const posted = fc.constantFrom('pending' as const, 'running' as const, 'success' as const, 'failed' as const, 'canceled' as const, 'skipped' as const);
  it('never leaves a finished status, leaves skipped only to queue again, and lands where it was posted', () => {
    fc.assert(
      fc.property(fc.array(posted, { maxLength: 8 }), (seq) => {
        let s: StatusState = 'created';
        for (const p of seq) {
          let next: StatusState | null = null;
          try {
            next = transition(s, p);
          } catch {
            next = null;
          }
          if (s === 'success' || s === 'failed' || s === 'canceled') expect(next).toBeNull();
          if (s === 'skipped' && p !== 'pending' && p !== 'running') expect(next).toBeNull();
          if (next !== null) {
            expect(next).toBe(p);
            s = next;
          }
        }
      }),
    );
  });
});
