// Auto-merge as a state machine: random runs of set, cancel, pipelines that start, succeed or
// fail, and pushes, against a plain model of AutoMerge::MergeWhenPipelineSucceedsService and
// the merge endpoint's answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: { files: { 'README.md': '# app\n' }, commits: [{ branch: 'feature', message: 'Feature', files: { 'f.txt': 'f\n' } }] },
    merge_requests: [{ title: 'Add f', source_branch: 'feature', author: 'dev' }],
  }],
};
const MR = '/projects/acme%2Fapp/merge_requests/1';

type Op = 'set' | 'cancel' | 'start' | 'succeed' | 'fail' | 'push';

/** What the model knows: whether merged, whether auto-merge is set, the head pipeline's status. */
interface Model {
  merged: boolean;
  auto: boolean;
  pipeline: 'none' | 'running' | 'success' | 'failed';
}

/** The status GitLab answers each operation with, and the model after it. */
function step(m: Model, op: Op): { status?: number; next: Model } {
  switch (op) {
    case 'set':
      // immediately_mergeable? is the head pipeline's success, then mergeable? refuses what is merged (422).
      if (m.merged) return { status: m.pipeline === 'success' ? 422 : 405, next: m };
      if (m.pipeline === 'success') return { status: 200, next: { ...m, merged: true } };
      if (m.pipeline === 'running') return { status: 200, next: { ...m, auto: true } };
      return { status: 405, next: m };
    case 'cancel':
      if (m.merged) return { status: 405, next: m };
      if (!m.auto) return { status: 406, next: m };
      return { status: 201, next: { ...m, auto: false } };
    case 'start':
      return { next: m.merged ? m : { ...m, pipeline: 'running' } };
    case 'succeed':
      if (m.pipeline !== 'running') return { next: m };
      return { next: { ...m, pipeline: 'success', merged: m.merged || m.auto } };
    case 'fail':
      return { next: m.pipeline === 'running' ? { ...m, pipeline: 'failed' } : m };
    case 'push':
      return { status: m.merged ? undefined : 201, next: m.merged ? m : { ...m, pipeline: 'none', auto: false } };
  }
}

describe('auto-merge against a model', () => {
  it('random runs of set, cancel, pipeline outcomes and pushes', async () => {
    const emulator = await createEmulator({ fixture: FIXTURE, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const seeded = emulator.snapshot();
    const op = fc.constantFrom<Op>('set', 'cancel', 'start', 'succeed', 'fail', 'push');
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 14 }), async (ops) => {
        emulator.restore(seeded);
        let m: Model = { merged: false, auto: false, pipeline: 'none' };
        let job: number | null = null;
        let pushes = 0;
        for (const o of ops) {
          const { status, next } = step(m, o);
          const ci = emulator.ci('acme/app');
          if (o === 'set') {
            expect((await apiCall(emulator, `${MR}/merge`, { method: 'PUT', token: 'maintainer-token', json: { merge_when_pipeline_succeeds: true } })).status).toBe(status);
          } else if (o === 'cancel') {
            expect((await apiCall(emulator, `${MR}/cancel_merge_when_pipeline_succeeds`, { method: 'POST', token: 'maintainer-token' })).status).toBe(status);
          } else if (o === 'start' && !m.merged) {
            job = ci.job(ci.pipeline({ ref: 'feature' }).id, { name: 'test', status: 'running' }).id;
          } else if ((o === 'succeed' || o === 'fail') && m.pipeline === 'running' && job !== null) {
            ci.finish(job, { status: o === 'succeed' ? 'success' : 'failed' });
            await emulator.settled();
          } else if (o === 'push' && !m.merged) {
            const res = await apiCall(emulator, '/projects/acme%2Fapp/repository/commits', {
              method: 'POST', token: 'dev-token', json: { branch: 'feature', commit_message: `push ${pushes}`, actions: [{ action: 'create', file_path: `p${pushes++}.txt`, content: 'p\n' }] },
            });
            expect(res.status).toBe(status);
            job = null;
          }
          m = next;
          const mr = await (await apiCall(emulator, MR, { token: 'dev-token' })).json();
          expect({ merged: mr.state === 'merged', auto: mr.merge_when_pipeline_succeeds }).toEqual({ merged: m.merged, auto: m.auto });
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
