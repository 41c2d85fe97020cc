// Merge trains against a plain model of MergeTrains::Car's state machine: for any sequence of
// merge requests added, cancelled and train pipelines finished, the cars on the train (in order,
// with their statuses), the merge requests merged (in order), which cars got new pipelines and
// what the merge request API shows are what the model says. A new car is answered `idle`; a car
// whose pipeline fails (or that is cancelled) leaves, and the car behind it is `stale` until the
// train's refresh runs (the next request), which gives it and the cars behind new pipelines; the
// first car merges when its pipeline has succeeded, then the next, if its pipeline succeeded already.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Snapshot } from '../src/index.js';
import { apiCall } from './support/world.js';
import { trainFixture } from './support/trains.js';

const BRANCHES = ['a', 'b', 'c'];
const FIXTURE = trainFixture(
  BRANCHES.map((b) => ({ branch: b, start_branch: 'main', message: `Add ${b}`, files: { [`${b}.txt`]: `${b}\n` } })),
  BRANCHES.map((b) => ({ title: `Add ${b}`, source_branch: b })),
);
const P = '/projects/acme%2Fapp';

type Action = { kind: 'add'; iid: number } | { kind: 'cancel'; iid: number } | { kind: 'finish'; iid: number; status: 'success' | 'failed' };

interface Model {
  train: { iid: number; status: 'fresh' | 'stale' }[];
  /** Cars whose current pipeline succeeded. */
  succeeded: Set<number>;
  merged: number[];
  /** A refresh is due: the next request runs it (after answering). */
  due: boolean;
}

/** RefreshService: the stale car and every car behind it get new pipelines; all are fresh. */
function refresh(m: Model): void {
  const from = m.train.findIndex((c) => c.status === 'stale');
  if (from >= 0) for (const c of m.train.slice(from)) m.succeeded.delete(c.iid);
  for (const c of m.train) c.status = 'fresh';
  m.due = false;
  mergeFirst(m);
}

function mergeFirst(m: Model): void {
  while (m.train.length && m.train[0]!.status === 'fresh' && m.succeeded.has(m.train[0]!.iid)) m.merged.push(m.train.shift()!.iid);
}

/** A car leaves; the one behind it is outdated (fresh -> stale) and a refresh is due. */
function leave(m: Model, iid: number): void {
  const at = m.train.findIndex((c) => c.iid === iid);
  m.train.splice(at, 1);
  m.succeeded.delete(iid);
  const next = m.train[at];
  if (next && next.status === 'fresh') next.status = 'stale';
  m.due = true;
}

describe('merge trains, as a model says', () => {
  let emulator: Emulator;
  let seeded: Snapshot;
  beforeAll(async () => {
    emulator = await createEmulator({ fixture: FIXTURE, clock: { now: '2026-03-01T12:00:00.000Z', frozen: true } });
    await apiCall(emulator, P, { method: 'PUT', token: 'maintainer-token', json: { merge_pipelines_enabled: true, merge_trains_enabled: true } });
    // Each merge request's head with a pipeline that succeeded: MergeTrainService wants a complete one.
    const ci = emulator.ci('acme/app');
    for (const ref of BRANCHES) ci.job(ci.pipeline({ ref }).id, { name: 'check', status: 'success' });
    await emulator.settled();
    seeded = emulator.snapshot();
  });
  async function call(method: string, path: string) {
    const res = await apiCall(emulator, path, { method, token: 'dev-token' });
    return { status: res.status, body: await res.json() };
  }

  it('keeps the train, its statuses, the merges and the pipelines the model keeps', async () => {
    const action = fc.oneof(
      fc.record({ kind: fc.constantFrom('add' as const, 'cancel' as const), iid: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('finish' as const), iid: fc.integer({ min: 1, max: 3 }), status: fc.constantFrom('success' as const, 'failed' as const) }),
    );
    await fc.assert(fc.asyncProperty(fc.array(action, { maxLength: 10 }), async (actions) => {
      emulator.restore(seeded);
      const model: Model = { train: [], succeeded: new Set(), merged: [], due: false };
      const ci = emulator.ci('acme/app');
      const statuses = (cars: { merge_request: { iid: number }; status: string }[]) => cars.map((c) => [c.merge_request.iid, c.status]);
      for (const a of actions as Action[]) {
        const on = model.train.some((c) => c.iid === a.iid);
        if (a.kind === 'add') {
          const res = await call('POST', `${P}/merge_trains/merge_requests/${a.iid}`);
          const added = !on && !model.merged.includes(a.iid);
          expect(res.status).toBe(added ? 201 : 400);
          if (added) {
            // Answered before the refresh: the cars as they were (newest first), the new one idle.
            expect(statuses([...res.body].reverse().filter((c: { status: string }) => c.status !== 'merged'))).toEqual([...model.train.map((c) => [c.iid, c.status]), [a.iid, 'idle']]);
            model.train.push({ iid: a.iid, status: 'stale' });
            refresh(model);
          } else if (model.due) refresh(model);
        } else if (a.kind === 'cancel') {
          const res = await call('POST', `${P}/merge_requests/${a.iid}/cancel_merge_when_pipeline_succeeds`);
          if (model.due) refresh(model); // the request ran the due refresh before its own change
          const still = model.train.some((c) => c.iid === a.iid);
          expect(res.status).toBe(still ? 201 : model.merged.includes(a.iid) ? 405 : 406);
          if (still) leave(model, a.iid);
        } else {
          const car = model.train.find((c) => c.iid === a.iid);
          if (!car || model.succeeded.has(a.iid)) continue;
          const shown = (await call('GET', `${P}/merge_trains/merge_requests/${a.iid}`)).body;
          if (model.due) refresh(model);
          expect(shown.status).toBe('fresh');
          for (const j of ci.jobs(shown.pipeline.id)) ci.finish(j.id, { status: a.status });
          await emulator.settled();
          if (a.status === 'failed') leave(model, a.iid);
          else {
            model.succeeded.add(a.iid);
            mergeFirst(model);
          }
        }
        // A read answers what the model holds, then runs any refresh that is due.
        const active = (await call('GET', `${P}/merge_trains?scope=active&sort=asc`)).body;
        expect(statuses(active)).toEqual(model.train.map((c) => [c.iid, c.status]));
        if (model.due) refresh(model);
      }
      const active = (await call('GET', `${P}/merge_trains?scope=active&sort=asc`)).body;
      expect(statuses(active)).toEqual(model.train.map((c) => [c.iid, 'fresh']));
      const done = (await call('GET', `${P}/merge_trains?scope=complete&sort=asc`)).body;
      expect(statuses(done)).toEqual(model.merged.map((iid) => [iid, 'merged']));
      for (const iid of [1, 2, 3]) {
        const mr = (await call('GET', `${P}/merge_requests/${iid}`)).body;
        expect(mr.state).toBe(model.merged.includes(iid) ? 'merged' : 'opened');
        // On a train (or merged by one), the merge request is set to merge, by the user who added it.
        const set = model.merged.includes(iid) || model.train.some((c) => c.iid === iid);
        expect(mr.merge_when_pipeline_succeeds).toBe(set);
        expect(mr.merge_user?.username ?? null).toBe(set ? 'dev' : null);
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
