// A pipeline's life as GitLab computes it: stages and `needs` queue jobs as their predecessors
// finish, `when` and `allow_failure` decide what runs, is skipped or waits, and the pipeline's
// status is its jobs' composite; retry, cancel and play through the API; delayed jobs, timeouts,
// automatic retries and outcomes chosen ahead on the clock. A property test holds the whole
// machine against a plain model of GitLab's rules.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, seededWorld, TEAM, teamProject, jsonCall } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject({ repository: { files: { 'README.md': '# App\n' } } })],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });

const statuses = (pipelineId: number) =>
  Object.fromEntries(world().ci('acme/app').jobs(pipelineId).filter((j) => !j.retried).map((j) => [j.name, j.status]));

describe('progression through stages and needs', () => {
  it('queues the first stage, then each next stage as the one before succeeds', () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'build', stage: 'build' }, { name: 'test', stage: 'test' }, { name: 'lint', stage: 'test' }, { name: 'deploy', stage: 'deploy' }] });
    expect(p.status).toBe('pending');
    expect(statuses(p.id)).toEqual({ build: 'pending', test: 'created', lint: 'created', deploy: 'created' });
    const build = ci.jobs(p.id).find((j) => j.name === 'build')!;
    ci.start(build.id);
    expect(ci.getPipeline(p.id).status).toBe('running');
    ci.finish(build.id, { status: 'success' });
    expect(statuses(p.id)).toEqual({ build: 'success', test: 'pending', lint: 'pending', deploy: 'created' });
    for (const name of ['test', 'lint']) {
      const j = ci.jobs(p.id).find((x) => x.name === name)!;
      ci.start(j.id);
      ci.finish(j.id, { status: name === 'lint' ? 'failed' : 'success' });
    }
    expect(statuses(p.id)).toEqual({ build: 'success', test: 'success', lint: 'failed', deploy: 'skipped' });
    expect(ci.getPipeline(p.id).status).toBe('failed');
  });

  it('runs on_failure jobs only after a failure, always jobs either way, and lets allowed failures pass', () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({
      jobs: [
        { name: 'flaky', stage: 'test', allowFailure: true },
        { name: 'cleanup', stage: 'post', when: 'on_failure' },
        { name: 'notify', stage: 'post', when: 'always' },
      ],
    });
    const flaky = ci.jobs(p.id)[0]!;
    ci.start(flaky.id);
    ci.finish(flaky.id, { status: 'failed' });
    expect(statuses(p.id)).toEqual({ flaky: 'failed', cleanup: 'skipped', notify: 'pending' });
    const notify = ci.jobs(p.id).find((j) => j.name === 'notify')!;
    ci.start(notify.id);
    ci.finish(notify.id, { status: 'success' });
    expect(ci.getPipeline(p.id).status).toBe('success');
  });

  it('starts a DAG job as soon as its needs succeed, before the rest of the earlier stage', () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({
      jobs: [
        { name: 'a', stage: 'build' }, { name: 'slow', stage: 'build' },
        { name: 'after-a', stage: 'test', needs: ['a'] }, { name: 'free', stage: 'test', needs: [] }, { name: 'staged', stage: 'test' },
      ],
    });
    expect(statuses(p.id)).toMatchObject({ a: 'pending', slow: 'pending', free: 'pending', 'after-a': 'created', staged: 'created' });
    const a = ci.jobs(p.id)[0]!;
    ci.start(a.id);
    ci.finish(a.id, { status: 'success' });
    expect(statuses(p.id)).toMatchObject({ 'after-a': 'pending', staged: 'created' });
  });

  it('blocks the next stages on a manual job that may not fail, until it is played through the API', async () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'approve', stage: 'gate', when: 'manual', allowFailure: false }, { name: 'ship', stage: 'deploy' }] });
    expect(p.status).toBe('manual');
    expect(statuses(p.id)).toEqual({ approve: 'manual', ship: 'created' });
    const approve = ci.jobs(p.id)[0]!;
    expect((await call('POST', `${APP}/jobs/${approve.id}/play`, 'reporter-token')).status).toBe(403);
    const played = await call('POST', `${APP}/jobs/${approve.id}/play`);
    expect(played.status).toBe(200);
    expect(played.body).toMatchObject({ status: 'pending', user: { username: 'dev' } });
    ci.start(approve.id);
    ci.finish(approve.id, { status: 'success' });
    expect(statuses(p.id)).toEqual({ approve: 'success', ship: 'pending' });
  });

  it('treats an optional manual job as ignored: the pipeline goes on, and one with only such jobs is skipped', () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'optional', stage: 'a', when: 'manual' }, { name: 'next', stage: 'b' }] });
    expect(statuses(p.id)).toEqual({ optional: 'manual', next: 'pending' });
    const only = ci.plan({ jobs: [{ name: 'optional', when: 'manual' }] });
    expect(only.status).toBe('skipped');
  });
});

describe('retry and cancel', () => {
  it('retries a failed job: a new pending job, the skipped jobs after it created again', async () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'test', stage: 'test' }, { name: 'deploy', stage: 'deploy' }] });
    const test = ci.jobs(p.id)[0]!;
    ci.start(test.id);
    ci.finish(test.id, { status: 'failed' });
    expect(statuses(p.id)).toEqual({ test: 'failed', deploy: 'skipped' });
    const retried = await call('POST', `${APP}/jobs/${test.id}/retry`);
    expect(retried.status).toBe(201);
    expect(retried.body).toMatchObject({ name: 'test', status: 'pending' });
    expect(statuses(p.id)).toEqual({ test: 'pending', deploy: 'created' });
    expect(ci.getPipeline(p.id).status).toBe('pending');
    ci.start(retried.body.id);
    ci.finish(retried.body.id, { status: 'success' });
    expect(statuses(p.id)).toEqual({ test: 'success', deploy: 'pending' });
  });

  it('retries a pipeline: failed and canceled jobs again, skipped ones processed anew', async () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'a', stage: 'one' }, { name: 'b', stage: 'two' }] });
    const a = ci.jobs(p.id)[0]!;
    ci.start(a.id);
    ci.finish(a.id, { status: 'failed' });
    const res = await call('POST', `${APP}/pipelines/${p.id}/retry`);
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending');
    expect(statuses(p.id)).toEqual({ a: 'pending', b: 'created' });
  });

  it('cancels a pipeline: its running, pending and created jobs', async () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'a', stage: 'one' }, { name: 'b', stage: 'one' }, { name: 'c', stage: 'two' }] });
    ci.start(ci.jobs(p.id)[0]!.id);
    const res = await call('POST', `${APP}/pipelines/${p.id}/cancel`);
    expect(res.body.status).toBe('canceled');
    expect(statuses(p.id)).toEqual({ a: 'canceled', b: 'canceled', c: 'canceled' });
  });

  it('cancels the older pipeline of a ref when a newer one starts and nothing uninterruptible runs', () => {
    const ci = world().ci('acme/app');
    const old = ci.plan({ jobs: [{ name: 'test', interruptible: true }, { name: 'deploy', stage: 'deploy' }] });
    ci.start(ci.jobs(old.id)[0]!.id);
    const held = ci.plan({ jobs: [{ name: 'build' }] });
    ci.start(ci.jobs(held.id)[0]!.id);
    ci.plan({ jobs: [{ name: 'test', interruptible: true }] });
    expect(ci.getPipeline(old.id).status).toBe('canceled');
    expect(ci.getPipeline(held.id).status).toBe('running');
  });

  it('keeps older pipelines when the project turned auto-cancel off', async () => {
    const ci = world().ci('acme/app');
    const old = ci.plan({ jobs: [{ name: 'test', interruptible: true }] });
    expect((await call('PUT', APP, 'maintainer-token', { auto_cancel_pending_pipelines: 'disabled' })).status).toBe(200);
    ci.plan({ jobs: [{ name: 'test', interruptible: true }] });
    expect(ci.getPipeline(old.id).status).toBe('pending');
  });
});

describe('on the clock', () => {
  it('schedules a delayed job and queues it when its time comes; playing it starts it at once', () => {
    const e = world();
    const ci = e.ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'later', when: 'delayed', startInSeconds: 300 }] });
    const job = ci.jobs(p.id)[0]!;
    expect(job).toMatchObject({ status: 'scheduled', scheduledAt: Date.parse(NOW) + 300_000 });
    expect(p.status).toBe('scheduled');
    e.clock.advance('4m');
    expect(ci.getJob(job.id).status).toBe('scheduled');
    e.clock.advance('1m');
    e.runUntilIdle();
    expect(ci.getJob(job.id).status).toBe('pending');
  });

  it('fails a running job past its timeout (its own, else the project\'s)', () => {
    const e = world();
    const ci = e.ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'quick', timeoutSeconds: 600 }, { name: 'default' }] });
    const [quick, dflt] = ci.jobs(p.id);
    ci.start(quick!.id);
    ci.start(dflt!.id);
    e.clock.advance('10m');
    e.runUntilIdle.call(e);
    expect(ci.getJob(quick!.id)).toMatchObject({ status: 'failed', failureReason: 'job_execution_timeout' });
    expect(ci.getJob(dflt!.id).status).toBe('failed'); // runUntilIdle reaches its hour too
    expect(ci.getJob(dflt!.id).finishedAt).toBe(Date.parse(NOW) + 3_600_000);
  });

  it('retries a failing job automatically as `retry:` says, and allows the exit codes `allow_failure` names', () => {
    const ci = world().ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'flaky', retry: { max: 1, when: ['script_failure'], exitCodes: [] } }, { name: 'soft', allowFailureExitCodes: [3] }] });
    const [flaky, soft] = ci.jobs(p.id);
    ci.start(flaky!.id);
    ci.finish(flaky!.id, { status: 'failed' });
    const again = ci.jobs(p.id).filter((j) => j.name === 'flaky');
    expect(again.map((j) => [j.status, j.retried])).toEqual([['failed', true], ['pending', false]]);
    ci.start(again[1]!.id);
    ci.finish(again[1]!.id, { status: 'failed' });
    expect(ci.jobs(p.id).filter((j) => j.name === 'flaky')).toHaveLength(2);
    ci.start(soft!.id);
    ci.finish(soft!.id, { status: 'failed', exitCode: 3 });
    expect(ci.getJob(soft!.id)).toMatchObject({ status: 'failed', allowFailure: true, exitCode: 3 });
  });

  it('runs jobs itself with outcomes chosen ahead: `test` fails with exit code 1 after 3 minutes', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    ci.outcomes({ jobs: { test: { status: 'failed', exitCode: 1, after: '3m', log: 'boom\n' } }, otherwise: { status: 'success', after: '1m' } });
    const p = ci.plan({ jobs: [{ name: 'build', stage: 'build' }, { name: 'test', stage: 'test' }, { name: 'deploy', stage: 'deploy' }] });
    expect(statuses(p.id)).toEqual({ build: 'running', test: 'created', deploy: 'created' });
    e.clock.advance('1m');
    await e.settled();
    expect(statuses(p.id)).toEqual({ build: 'success', test: 'running', deploy: 'created' });
    e.clock.advance('2m');
    await e.settled();
    expect(statuses(p.id)).toMatchObject({ test: 'running' });
    e.clock.advance('1m');
    await e.settled();
    expect(statuses(p.id)).toEqual({ build: 'success', test: 'failed', deploy: 'skipped' });
    const test = ci.jobs(p.id).find((j) => j.name === 'test')!;
    expect(test).toMatchObject({ exitCode: 1, failureReason: 'script_failure', trace: 'boom\n', finishedAt: Date.parse(NOW) + 240_000 });
    const res = await call('GET', `${APP}/pipelines/${p.id}`);
    expect(res.body.status).toBe('failed');
    const kinds = e.events.list('pipeline.status').filter((ev) => ev.pipelineId === p.id).map((ev) => ev.status);
    expect(kinds).toEqual(['created', 'running', 'failed']);
  });
});

describe('outcomes in a fixture', () => {
  it('let the emulator run a seeded project\'s jobs as the fixture planned', async () => {
    const e = await createEmulator({
      clock: { now: NOW, frozen: true },
      fixture: { ...FIXTURE, projects: [teamProject({ repository: { files: { 'README.md': 'x' } }, ci_outcomes: { jobs: { lint: { status: 'failed', exit_code: 2, after: '30s' } }, otherwise: { status: 'success', after: '1m' } } })] },
    });
    const ci = e.ci('acme/app');
    const p = ci.plan({ jobs: [{ name: 'lint', allowFailure: true }, { name: 'unit' }] });
    e.clock.advance('1m');
    await e.settled();
    expect(ci.jobs(p.id).map((j) => [j.name, j.status, j.exitCode])).toEqual([['lint', 'failed', 2], ['unit', 'success', 0]]);
    expect(ci.getPipeline(p.id).status).toBe('success');
    await expect(createEmulator({ fixture: { ...FIXTURE, projects: [teamProject({ ci_outcomes: { otherwise: { status: 'success', after: 'soon' } } })] } })).rejects.toThrow(/acme\/app/);
  });
});

// ---- The property: the machine against a plain model of GitLab's rules ----

type When = 'on_success' | 'on_failure' | 'always' | 'manual';
interface ModelJob {
  name: string;
  stageIdx: number;
  when: When;
  allowFailure: boolean;
  needs: string[] | null;
  outcome: 'success' | 'failed';
}

/** Composite, as a table of GitLab's rules read top to bottom. */
function modelComposite(list: { status: string; allowFailure: boolean }[], dag: boolean): string {
  if (list.length === 0) return 'success';
  const kinds = new Set(
    list.map((j) => (j.allowFailure && (j.status === 'failed' || j.status === 'canceled') ? 'warn' : j.allowFailure && j.status === 'manual' ? 'ignored' : j.status)),
  );
  const subset = (...allowed: string[]) => [...kinds].every((k) => allowed.includes(k));
  const has = (...names: string[]) => names.some((n) => kinds.has(n));
  const rules: [boolean, string][] = [
    [dag && has('skipped', 'ignored'), 'skipped'],
    [dag && !subset('success', 'failed', 'canceled', 'skipped', 'warn'), 'pending'],
    [subset('skipped', 'ignored'), 'skipped'],
    [subset('success', 'skipped', 'warn', 'ignored'), 'success'],
    [subset('created', 'warn', 'ignored'), 'created'],
    [subset('canceled', 'success', 'skipped', 'warn', 'ignored'), 'canceled'],
    [subset('pending', 'created', 'skipped', 'warn', 'ignored'), 'pending'],
    [has('running', 'pending'), 'running'],
    [has('manual'), 'manual'],
    [has('created'), 'running'],
  ];
  return rules.find(([holds]) => holds)?.[1] ?? 'failed';
}

/** Where each job ends when every job that runs ends as planned and no manual job is played. */
function modelFinal(jobs: ModelJob[]): Record<string, string> {
  const out: Record<string, string> = {};
  const byStage = [...jobs].sort((a, b) => a.stageIdx - b.stageIdx);
  for (const job of byStage) {
    const preds = job.needs
      ? jobs.filter((j) => job.needs!.includes(j.name))
      : jobs.filter((j) => j.stageIdx < job.stageIdx);
    const pred = modelComposite(preds.map((j) => ({ status: out[j.name]!, allowFailure: j.allowFailure })), job.needs !== null);
    let status: string;
    if (!['success', 'failed', 'canceled', 'skipped'].includes(pred)) status = 'created';
    else {
      const valid = job.when === 'on_failure' ? ['failed'] : job.when === 'always' ? ['success', 'failed', 'skipped'] : job.needs ? ['success'] : ['success', 'skipped'];
      status = !valid.includes(pred) ? 'skipped' : job.when === 'manual' ? 'manual' : job.outcome;
    }
    out[job.name] = status;
  }
  return out;
}

const jobsArb = fc
  .array(
    fc.record({
      stageIdx: fc.integer({ min: 0, max: 2 }),
      when: fc.constantFrom<When>('on_success', 'on_success', 'on_failure', 'always', 'manual'),
      allowFailure: fc.boolean(),
      dag: fc.constantFrom('none', 'none', 'some', 'empty'),
      pick: fc.array(fc.nat(), { maxLength: 3 }),
      outcome: fc.constantFrom<'success' | 'failed'>('success', 'success', 'failed'),
    }),
    { minLength: 1, maxLength: 7 },
  )
  .map((raw) =>
    raw.map((r, i): ModelJob => {
      const earlier = raw.slice(0, i).map((_, k) => k).filter((k) => raw[k]!.stageIdx < r.stageIdx);
      const needs = r.dag === 'none' ? null : r.dag === 'empty' || earlier.length === 0 ? [] : [...new Set(r.pick.map((n) => `j${earlier[n % earlier.length]}`))];
      return { name: `j${i}`, stageIdx: r.stageIdx, when: r.when, allowFailure: r.allowFailure, needs, outcome: r.outcome };
    }),
  );

describe('the status machine against a model of GitLab\'s rules', () => {
  it('ends every job and the pipeline where the model says, for any plan and outcomes', async () => {
    const e = world();
    const snap = e.snapshot();
    await fc.assert(
      fc.asyncProperty(jobsArb, async (jobs) => {
        e.restore(snap);
        const ci = e.ci('acme/app');
        ci.outcomes({ jobs: Object.fromEntries(jobs.map((j) => [j.name, { status: j.outcome, after: '1m' }])) });
        const stages = ['s0', 's1', 's2'];
        const p = ci.plan({
          stages,
          jobs: jobs.map((j) => ({ name: j.name, stage: stages[j.stageIdx]!, when: j.when, allowFailure: j.allowFailure, needs: j.needs })),
        });
        e.runUntilIdle();
        await e.settled();
        const expected = modelFinal(jobs);
        expect(statuses(p.id)).toEqual(expected);
        expect(ci.getPipeline(p.id).status).toBe(modelComposite(jobs.map((j) => ({ status: expected[j.name]!, allowFailure: j.allowFailure })), false));
      }),
      { numRuns: 150 },
    );
  });
});

describe('resource groups', () => {
  it('let one job of a group hold it: the next waits for the resource and takes it when the first ends', () => {
    const ci = world().ci('acme/app');
    const first = ci.plan({ ref: 'main', source: 'web', jobs: [{ name: 'deploy', resourceGroup: 'production' }] });
    const [a] = ci.jobs(first.id);
    expect(a!.status).toBe('pending');
    ci.start(a!.id); // a started job that is not interruptible keeps its pipeline from being canceled by the next
    const second = ci.plan({ ref: 'main', source: 'web', jobs: [{ name: 'deploy', resourceGroup: 'production' }, { name: 'other' }] });
    const [b, other] = ci.jobs(second.id);
    expect(b!.status).toBe('waiting_for_resource');
    expect(other!.status).toBe('pending');
    expect(ci.getPipeline(second.id).status).toBe('running'); // Composite: a pending job beside a waiting one
    ci.finish(a!.id, { status: 'success' });
    expect(ci.getJob(b!.id).status).toBe('pending');
  });
});
