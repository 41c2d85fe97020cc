// Merge trains against a plain model: for any sequence of merge requests added and train
// pipelines finished, the cars on the train (in order), the merge requests merged (in order) and
// which cars got new pipelines are what the model says. A car whose pipeline fails leaves and the
// cars behind it get new pipelines; the first car merges when its pipeline has succeeded, then
// the next, if its pipeline succeeded already.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture, type Snapshot } from '../src/index.js';
import { ACME, TEAM, TEAM_MEMBERS, apiCall } from './support/world.js';

const CI = 'test:\n  script: echo ok\n  rules:\n    - if: $CI_PIPELINE_SOURCE == "merge_request_event"\n';
const BRANCHES = ['a', 'b', 'c'];
const FIXTURE: Fixture = {
  instance: { tier: 'premium' },
  users: TEAM,
  groups: [ACME],
  projects: [{
    namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: TEAM_MEMBERS,
    repository: {
      files: { 'README.md': '# app\n', '.gitlab-ci.yml': CI },
      commits: BRANCHES.map((b) => ({ branch: b, start_branch: 'main', message: `Add ${b}`, files: { [`${b}.txt`]: `${b}\n` } })),
    },
    merge_requests: BRANCHES.map((b) => ({ title: `Add ${b}`, source_branch: b, author: 'dev' })),
  }],
};
const P = '/projects/acme%2Fapp';

type Action = { kind: 'add'; iid: number } | { kind: 'finish'; iid: number; status: 'success' | 'failed' };

interface Model {
  train: number[];
  /** Cars whose current pipeline succeeded. */
  succeeded: Set<number>;
  merged: number[];
}

function step(m: Model, a: Action): void {
  if (a.kind === 'add') {
    if (m.train.includes(a.iid) || m.merged.includes(a.iid)) return;
    m.train.push(a.iid);
    return;
  }
  const at = m.train.indexOf(a.iid);
  if (at < 0) return;
  if (a.status === 'failed') {
    m.train.splice(at, 1);
    for (const behind of m.train.slice(at)) m.succeeded.delete(behind);
  } else m.succeeded.add(a.iid);
  while (m.train.length && m.succeeded.has(m.train[0]!)) m.merged.push(m.train.shift()!);
}

describe('merge trains, as a model says', () => {
  let emulator: Emulator;
  let seeded: Snapshot;
  beforeAll(async () => {
    emulator = await createEmulator({ fixture: FIXTURE, clock: { now: '2026-03-01T12:00:00.000Z', frozen: true } });
    await apiCall(emulator, P, { method: 'PUT', token: 'maintainer-token', json: { merge_pipelines_enabled: true, merge_trains_enabled: true } });
    seeded = emulator.snapshot();
  });
  async function call(method: string, path: string) {
    const res = await apiCall(emulator, path, { method, token: 'dev-token' });
    return { status: res.status, body: await res.json() };
  }

  it('keeps the train, the merges and the pipelines the model keeps', async () => {
    const action = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), iid: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('finish' as const), iid: fc.integer({ min: 1, max: 3 }), status: fc.constantFrom('success' as const, 'failed' as const) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(action, { maxLength: 10 }), async (actions) => {
      emulator.restore(seeded);
      const model: Model = { train: [], succeeded: new Set(), merged: [] };
      const ci = emulator.ci('acme/app');
      for (const a of actions) {
        if (a.kind === 'add') {
          const res = await call('POST', `${P}/merge_trains/merge_requests/${a.iid}`);
          const expected = model.train.includes(a.iid) || model.merged.includes(a.iid) ? 400 : 201;
          expect(res.status).toBe(expected);
        } else {
          const car = await call('GET', `${P}/merge_trains/merge_requests/${a.iid}`);
          if (car.status === 200 && car.body.status === 'fresh' && car.body.pipeline.status !== 'success') {
            for (const j of ci.jobs(car.body.pipeline.id)) ci.finish(j.id, { status: a.status });
            await emulator.settled();
          } else if (model.train.includes(a.iid) && !model.succeeded.has(a.iid)) {
            throw new Error(`car of !${a.iid} has no running pipeline`);
          } else continue;
        }
        step(model, a);
      }
      const active = (await call('GET', `${P}/merge_trains?scope=active&sort=asc`)).body;
      expect(active.map((c: { merge_request: { iid: number } }) => c.merge_request.iid)).toEqual(model.train);
      const done = (await call('GET', `${P}/merge_trains?scope=complete&sort=asc`)).body;
      expect(done.map((c: { merge_request: { iid: number } }) => c.merge_request.iid)).toEqual(model.merged);
      for (const iid of [1, 2, 3]) {
        const mr = (await call('GET', `${P}/merge_requests/${iid}`)).body;
        expect(mr.state).toBe(model.merged.includes(iid) ? 'merged' : 'opened');
      }
      // Each car's train commit stands on the one ahead of it (the first on the target, or on a merged car's commit).
      for (let i = 1; i < active.length; i++) {
        const commit = (await call('GET', `${P}/repository/commits/${active[i].pipeline.sha}`)).body;
        expect(commit.parent_ids[0]).toBe(active[i - 1].pipeline.sha);
      }
      for (const car of active) expect(car.pipeline.status).toBe(model.succeeded.has(car.merge_request.iid) ? 'success' : 'pending');
    }), { numRuns: 150 });
  }, 120_000);
});
