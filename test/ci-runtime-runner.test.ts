// The runner protocol through the doors (lib/api/ci/runner.rb): a test plays the runner with a
// plain fetch: it verifies its token, asks for jobs by its tags and type, streams its log by
// byte range, uploads artifacts, and reports success or failure, and the pipeline moves on.
import { describe, expect, it } from 'vitest';
import { zipSync, strToU8 } from 'fflate';
import fc from 'fast-check';
import type { Emulator, Fixture } from '../src/index.js';
import { ACME, apiCall, ORIGIN, seededWorld, TEAM, teamProject } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';
const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: { files: { 'README.md': '# App\n' } },
      variables: [
        { key: 'DEPLOY_TOKEN', value: 'secret-deploy-token', masked: true },
        { key: 'PROD_ONLY', value: 'p', protected: true },
        { key: 'STAGING_URL', value: 'https://staging', environment_scope: 'staging' },
      ],
    }),
  ],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

/** A runner registered through the API, as `gitlab-runner register` would. */
async function registerRunner(e: Emulator, body: Record<string, unknown> = {}): Promise<string> {
  const res = await apiCall(e, '/user/runners', { method: 'POST', token: 'root-token', json: { runner_type: 'instance_type', ...body } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

function runnerCall(e: Emulator, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body instanceof Uint8Array || typeof body === 'string') init.body = body as BodyInit;
  else if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  return e.handle(new Request(`${ORIGIN}/api/v4${path}`, init));
}

const variable = (payload: { variables: { key: string; value: string }[] }, key: string) => payload.variables.find((v) => v.key === key)?.value;

describe('a runner', () => {
  it('verifies its token (200), and an unknown one is 403', async () => {
    const e = world();
    const token = await registerRunner(e);
    const ok = await runnerCall(e, 'POST', '/runners/verify', { token });
    expect(ok.status).toBe(200);
    expect((await runnerCall(e, 'POST', '/runners/verify', { token: 'glrt-nope' })).status).toBe(403);
    const shown = await (await apiCall(e, '/runners/all', { token: 'root-token' })).json();
    expect(shown[0]).toMatchObject({ status: 'online', online: true });
  });

  it('takes the oldest pending job with GitLab\'s payload, runs it, streams its log, and succeeds', async () => {
    const e = world();
    const token = await registerRunner(e, { description: 'docker-1' });
    const ci = e.ci('acme/app');
    const p = ci.plan({
      jobs: [
        { name: 'build', stage: 'build', script: ['make'], beforeScript: ['echo hi'], afterScript: ['echo bye'], image: 'node:20', variables: { MODE: 'fast' }, artifacts: { paths: ['dist/'], expireIn: '1 week', reports: [], name: null, when: 'on_success', public: true } },
        { name: 'deploy', stage: 'deploy', environment: { name: 'staging', action: 'start', url: null, onStop: null, autoStopIn: null } },
      ],
    });
    const res = await runnerCall(e, 'POST', '/jobs/request', { token, info: { name: 'gitlab-runner', features: { trace_checksum: true } } });
    expect(res.status).toBe(201);
    const job = await res.json();
    expect(Object.keys(job)).toEqual(['id', 'token', 'allow_git_fetch', 'job_info', 'git_info', 'runner_info', 'variables', 'steps', 'image', 'services', 'artifacts', 'cache', 'credentials', 'features', 'dependencies']);
    const sha = e.git('acme/app').refs().branches.main;
    expect(job.job_info).toMatchObject({ name: 'build', stage: 'build', pipeline_id: p.id, project_full_path: 'acme/app' });
    expect(job.git_info).toMatchObject({ ref: 'main', sha, ref_type: 'branch', refspecs: [`+refs/pipelines/${p.id}:refs/pipelines/${p.id}`, '+refs/heads/main:refs/remotes/origin/main'] });
    expect(job.git_info.repo_url).toBe(`https://gitlab-ci-token:${job.token}@gitlab.example.com/acme/app.git`);
    expect(job.steps).toEqual([
      { name: 'script', script: ['echo hi', 'make'], timeout: 3600, when: 'on_success', allow_failure: false },
      { name: 'after_script', script: ['echo bye'], timeout: 3600, when: 'always', allow_failure: true },
    ]);
    expect(job.image).toMatchObject({ name: 'node:20' });
    expect(job.artifacts[0]).toMatchObject({ paths: ['dist/'], expire_in: '1 week', artifact_type: 'archive' });
    expect(variable(job, 'CI_JOB_TOKEN')).toBe(job.token);
    expect(variable(job, 'CI_PIPELINE_SOURCE')).toBe('push');
    expect(variable(job, 'CI_COMMIT_SHA')).toBe(sha);
    expect(variable(job, 'CI_COMMIT_REF_SLUG')).toBe('main');
    expect(variable(job, 'CI_COMMIT_BRANCH')).toBe('main');
    expect(variable(job, 'CI_PROJECT_PATH')).toBe('acme/app');
    expect(variable(job, 'CI_SERVER_URL')).toBe(ORIGIN);
    expect(variable(job, 'CI_RUNNER_DESCRIPTION')).toBe('docker-1');
    expect(variable(job, 'GITLAB_USER_LOGIN')).toBe('root');
    expect(variable(job, 'MODE')).toBe('fast');
    expect(job.variables.find((v: { key: string }) => v.key === 'DEPLOY_TOKEN')).toEqual({ key: 'DEPLOY_TOKEN', value: 'secret-deploy-token', public: false, masked: true });
    expect(variable(job, 'PROD_ONLY')).toBeUndefined(); // main is not protected
    expect(variable(job, 'STAGING_URL')).toBeUndefined(); // this job has no environment
    expect(ci.getJob(job.id)).toMatchObject({ status: 'running', runner: { description: 'docker-1' } });
    // The job token acts as the job's user while it runs.
    expect((await apiCall(e, '/job', { headers: { 'JOB-TOKEN': job.token } })).status).toBe(200);

    // Nothing else is pending for it now.
    const none = await runnerCall(e, 'POST', '/jobs/request', { token });
    expect(none.status).toBe(204);
    const last = none.headers.get('X-GitLab-Last-Update')!;
    expect((await runnerCall(e, 'POST', '/jobs/request', { token, last_update: last })).status).toBe(204);

    // The log by byte range: a gap is 416 with the size GitLab holds.
    const first = `$ make\n${job.token}\n`;
    const a = await runnerCall(e, 'PATCH', `/jobs/${job.id}/trace`, first, { 'JOB-TOKEN': job.token, 'Content-Range': `0-${first.length - 1}` });
    expect(a.status).toBe(202);
    expect(a.headers.get('Range')).toBe(`0-${first.length}`);
    expect(a.headers.get('Job-Status')).toBe('running');
    const gap = await runnerCall(e, 'PATCH', `/jobs/${job.id}/trace`, 'more', { 'JOB-TOKEN': job.token, 'Content-Range': `${first.length + 5}-${first.length + 8}` });
    expect(gap.status).toBe(416);
    expect(gap.headers.get('Range')).toBe(`0-${first.length}`);
    expect((await runnerCall(e, 'PATCH', `/jobs/${job.id}/trace`, 'x', { 'JOB-TOKEN': job.token })).status).toBe(400);
    expect((await runnerCall(e, 'PATCH', `/jobs/${job.id}/trace`, 'x', { 'JOB-TOKEN': 'wrong', 'Content-Range': '0-0' })).status).toBe(403);
    expect(ci.getJob(job.id).trace).toBe(`$ make\n${'x'.repeat(job.token.length)}\n`);

    // Artifacts: authorize, then the archive.
    const auth = await runnerCall(e, 'POST', `/jobs/${job.id}/artifacts/authorize?token=${job.token}`, {});
    expect(auth.status).toBe(200);
    const form = new FormData();
    form.set('token', job.token);
    form.set('expire_in', '2 days');
    form.set('file', new Blob([zipSync({ 'dist/app.js': strToU8('console.log(1)') })]), 'artifacts.zip');
    const up = await runnerCall(e, 'POST', `/jobs/${job.id}/artifacts`, form);
    expect(up.status).toBe(201);
    expect(ci.getArtifacts(job.id)?.entries.map((x) => x.path)).toEqual(['dist/', 'dist/app.js']);
    expect(ci.getArtifacts(job.id)?.expireAt).toBe(Date.parse(NOW) + 2 * 86400_000);

    const done = await runnerCall(e, 'PUT', `/jobs/${job.id}`, { token: job.token, state: 'success', exit_code: 0 });
    expect(done.status).toBe(200);
    expect(ci.getJob(job.id).status).toBe('success');
    // The job token dies with the run; a second report is 403 with the job's status.
    const again = await runnerCall(e, 'PUT', `/jobs/${job.id}`, { token: job.token, state: 'failed' });
    expect(again.status).toBe(403);
    expect(again.headers.get('Job-Status')).toBe('success');
    expect(await again.json()).toEqual({ message: '403 Forbidden - Job is not running' });

    // The next stage is offered, with the artifacts of the one before and its environment's variables.
    const next = await (await runnerCall(e, 'POST', '/jobs/request', { token })).json();
    expect(next.job_info.name).toBe('deploy');
    expect(next.dependencies).toEqual([{ id: job.id, name: 'build', token: expect.any(String), artifacts_file: { filename: 'artifacts.zip', size: expect.any(Number) } }]);
    expect(variable(next, 'CI_ENVIRONMENT_NAME')).toBe('staging');
    expect(variable(next, 'STAGING_URL')).toBe('https://staging');
    const failed = await runnerCall(e, 'PUT', `/jobs/${next.id}`, { token: next.token, state: 'failed', failure_reason: 'script_failure', exit_code: 2 });
    expect(failed.status).toBe(200);
    expect(ci.getJob(next.id)).toMatchObject({ status: 'failed', failureReason: 'script_failure', exitCode: 2 });
    expect((await (await apiCall(e, `${APP}/pipelines/${p.id}`, { token: 'dev-token' })).json()).status).toBe('failed');
  });

  it('matches jobs by tags, run_untagged, paused, protected refs and runner type', async () => {
    const e = world();
    const tagged = await registerRunner(e, { tag_list: 'docker,linux', run_untagged: false });
    const paused = await registerRunner(e, { paused: true });
    const protectedOnly = await registerRunner(e, { access_level: 'ref_protected' });
    const ci = e.ci('acme/app');
    ci.plan({ jobs: [{ name: 'untagged' }, { name: 'needs-docker', tags: ['docker'] }, { name: 'needs-gpu', tags: ['gpu'] }] });
    expect((await runnerCall(e, 'POST', '/jobs/request', { token: paused })).status).toBe(204);
    expect((await runnerCall(e, 'POST', '/jobs/request', { token: protectedOnly })).status).toBe(204);
    const got = await (await runnerCall(e, 'POST', '/jobs/request', { token: tagged })).json();
    expect(got.job_info.name).toBe('needs-docker');
    expect((await runnerCall(e, 'POST', '/jobs/request', { token: tagged })).status).toBe(204);
    // A project runner of another project sees none of this project's jobs.
    const other = await apiCall(e, '/projects', { method: 'POST', token: 'root-token', json: { name: 'other' } });
    const otherId = ((await other.json()) as { id: number }).id;
    const projectRunner = await registerRunner(e, { runner_type: 'project_type', project_id: otherId });
    expect((await runnerCall(e, 'POST', '/jobs/request', { token: projectRunner })).status).toBe(204);
    const appId = ((await (await apiCall(e, APP, { token: 'root-token' })).json()) as { id: number }).id;
    const mine = await registerRunner(e, { runner_type: 'project_type', project_id: appId });
    expect((await (await runnerCall(e, 'POST', '/jobs/request', { token: mine })).json()).job_info.name).toBe('untagged');
  });

  it('fails a job it reports with an unknown failure reason as unknown_failure, and refuses an unknown state', async () => {
    const e = world();
    const token = await registerRunner(e);
    e.ci('acme/app').plan({ jobs: [{ name: 'a' }] });
    const job = await (await runnerCall(e, 'POST', '/jobs/request', { token })).json();
    expect((await runnerCall(e, 'PUT', `/jobs/${job.id}`, { token: job.token, state: 'exploded' })).status).toBe(400);
    expect((await runnerCall(e, 'PUT', `/jobs/${job.id}`, { token: job.token, state: 'failed', failure_reason: 'gremlins' })).status).toBe(200);
    expect(e.ci('acme/app').getJob(job.id).failureReason).toBe('unknown_failure');
  });
});

describe('a played manual job', () => {
  it('hands the runner the variables it was played with, over the project\'s', async () => {
    const e = world();
    const token = await registerRunner(e);
    const p = e.ci('acme/app').plan({ jobs: [{ name: 'release', when: 'manual', allowFailure: false }] });
    const job = e.ci('acme/app').jobs(p.id)[0]!;
    expect((await runnerCall(e, 'POST', '/jobs/request', { token })).status).toBe(204);
    const played = await apiCall(e, `${APP}/jobs/${job.id}/play`, { method: 'POST', token: 'dev-token', json: { job_variables_attributes: [{ key: 'VERSION', value: '1.2.3' }, { key: 'DEPLOY_TOKEN', value: 'mine' }] } });
    expect(played.status).toBe(200);
    const payload = await (await runnerCall(e, 'POST', '/jobs/request', { token })).json();
    expect(variable(payload, 'VERSION')).toBe('1.2.3');
    expect(variable(payload, 'DEPLOY_TOKEN')).toBe('mine');
    expect(variable(payload, 'CI_JOB_MANUAL')).toBe('true');
    expect(variable(payload, 'GITLAB_USER_LOGIN')).toBe('dev'); // who played it, not the pipeline's user
  });
});

// ---- The property: which job a runner gets, against a plain model of GitLab's matching ----


interface ModelRunner {
  tags: string[];
  runUntagged: boolean;
  paused: boolean;
  protectedOnly: boolean;
}

/** Ci::Runner#can_pick? and the queue's order: the oldest job whose tags it has all of (untagged only with run_untagged), on a protected ref if it asks for one. */
function modelPick(runner: ModelRunner, jobs: { tags: string[]; protectedRef: boolean }[], taken: Set<number>): number | null {
  if (runner.paused) return null;
  for (let i = 0; i < jobs.length; i++) {
    if (taken.has(i)) continue;
    const j = jobs[i]!;
    const tagsOk = j.tags.length === 0 ? runner.runUntagged : j.tags.every((t) => runner.tags.includes(t));
    if (tagsOk && (!runner.protectedOnly || j.protectedRef)) return i;
  }
  return null;
}

describe('runner matching against a model', () => {
  it('hands each runner the job the model picks, for any runners, tags and refs', async () => {
    const e = world();
    const snap = e.snapshot();
    const TAGS = ['docker', 'linux', 'gpu'];
    const tagsArb = fc.subarray(TAGS);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ tags: tagsArb, runUntagged: fc.boolean(), paused: fc.boolean(), protectedOnly: fc.boolean() }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.record({ tags: tagsArb, protectedRef: fc.boolean() }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(2), { minLength: 1, maxLength: 6 }),
        async (runners, given, asks) => {
          e.restore(snap);
          // One pipeline per ref (a second of the same ref would cancel the first): `main`'s jobs are made first.
          const jobs = [...given.filter((j) => j.protectedRef), ...given.filter((j) => !j.protectedRef)];
          // `main` protected, `feature` not: each job runs in its own pipeline, oldest first.
          await apiCall(e, `${APP}/repository/branches`, { method: 'POST', token: 'maintainer-token', json: { branch: 'feature', ref: 'main' } });
          await apiCall(e, `${APP}/protected_branches`, { method: 'POST', token: 'maintainer-token', json: { name: 'main' } });
          const ids: number[] = [];
          for (const ref of ['main', 'feature']) {
            const mine = jobs.map((j, i) => ({ ...j, i })).filter((j) => j.protectedRef === (ref === 'main'));
            if (mine.length === 0) continue;
            const p = e.ci('acme/app').plan({ ref, source: 'web', jobs: mine.map((j) => ({ name: `job${j.i}`, tags: j.tags })) });
            for (const job of e.ci('acme/app').jobs(p.id)) ids.push(job.id);
          }
          const tokens: string[] = [];
          for (const r of runners) {
            tokens.push(await registerRunner(e, { tag_list: r.tags.join(','), run_untagged: r.runUntagged, paused: r.paused, access_level: r.protectedOnly ? 'ref_protected' : 'not_protected' }));
          }
          const taken = new Set<number>();
          for (const ask of asks) {
            const which = ask % runners.length;
            const expected = modelPick(runners[which]!, jobs, taken);
            const res = await runnerCall(e, 'POST', '/jobs/request', { token: tokens[which] });
            if (expected === null) {
              expect(res.status).toBe(204);
            } else {
              expect(res.status).toBe(201);
              expect((await res.json()).id).toBe(ids[expected]);
              taken.add(expected);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
