// Pipelines and jobs as data (lib/api/ci/pipelines.rb, lib/api/ci/jobs.rb, entities/ci/*),
// seeded by fixtures and driven by `emulator.ci`; job tokens on the routes that take them.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { ACME, apiCall, seededWorld, TEAM, teamProject, updateProject } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      repository: { files: { 'README.md': '# App\n' }, branches: { 'feature/x': 'main' }, tags: { 'v1.0': 'main' } },
      variables: [{ key: 'DEPLOY_KEY', value: 'super-secret-value', masked: true }],
      pipelines: [
        {
          ref: 'main',
          user: 'dev',
          jobs: [
            { name: 'build', stage: 'build', status: 'success', log: 'built\n', coverage: 87.5, tags: ['docker', 'linux'] },
            { name: 'lint', stage: 'test', status: 'failed', failure_reason: 'script_failure', allow_failure: true },
            { name: 'deploy', stage: 'deploy', status: 'manual' },
          ],
        },
      ],
    }),
    { namespace: 'acme', path: 'other', visibility: 'private', creator: 'root', members: [{ user: 'dev', access_level: 'developer' }] },
  ],
};

const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, init: { token?: string; json?: unknown; headers?: Record<string, string> } = {}) {
  const res = await apiCall(world(), path, { method, token: init.token, json: init.json, headers: init.headers });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* text */
  }
  return { status: res.status, body: body as any, res };
}

describe('pipelines', () => {
  it('lists a project\'s pipelines newest first with PipelineBasic, and shows one with Pipeline', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    const p2 = ci.pipeline({ ref: 'feature/x', user: 'mai' });
    const list = await call('GET', `${APP}/pipelines`, { token: 'reporter-token' });
    expect(list.status).toBe(200);
    expect(list.body.map((p: { ref: string }) => p.ref)).toEqual(['feature/x', 'main']);
    expect(Object.keys(list.body[0])).toEqual(['id', 'iid', 'project_id', 'sha', 'ref', 'status', 'source', 'created_at', 'updated_at', 'web_url']);
    expect(list.body[0]).toMatchObject({ id: p2.id, iid: 2, status: 'created', source: 'push', sha: e.git('acme/app').refs().branches['feature/x'] });
    expect(list.body[1].status).toBe('success');
    const one = await call('GET', `${APP}/pipelines/${list.body[1].id}`, { token: 'reporter-token' });
    expect(one.body).toMatchObject({ ref: 'main', tag: false, before_sha: expect.any(String), user: { username: 'dev' }, detailed_status: { group: 'success', text: 'Passed' } });
    expect((await call('GET', `${APP}/pipelines?ref=main`, { token: 'reporter-token' })).body).toHaveLength(1);
    expect((await call('GET', `${APP}/pipelines?status=created`, { token: 'reporter-token' })).body).toHaveLength(1);
    expect((await call('GET', `${APP}/pipelines/999`, { token: 'reporter-token' })).body).toEqual({ message: '404 Not found' });
  });

  it('answers the latest pipeline of a ref\'s current commit, 403 when there is none; job tokens read pipelines', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    const newer = ci.pipeline({ ref: 'main', user: 'dev' });
    expect((await call('GET', `${APP}/pipelines/latest`, { token: 'reporter-token' })).body).toMatchObject({ id: newer.id, ref: 'main' });
    expect((await call('GET', `${APP}/pipelines/latest?ref=feature/x`, { token: 'reporter-token' })).body).toEqual({ message: '403 Forbidden' });
    const job = ci.job(newer.id, { name: 'reader' });
    expect((await call('GET', `${APP}/pipelines/${newer.id}`, { headers: { 'JOB-TOKEN': job.token } })).body.id).toBe(newer.id);
    expect((await call('GET', `${APP}/pipelines?job_token=${job.token}`)).status).toBe(200);
  });

  it('a tag pipeline is a tag; an unknown ref is refused', async () => {
    const ci = world().ci('acme/app');
    expect(ci.pipeline({ ref: 'v1.0' }).tag).toBe(true);
    expect(() => ci.pipeline({ ref: 'nope' })).toThrow(/no branch or tag 'nope'/);
  });

  it('is 404 to outsiders of a private project, 403 to guests when jobs are not public; 401 on jobs for anonymous callers', async () => {
    expect((await call('GET', `${APP}/pipelines`, { token: 'outsider-token' })).status).toBe(404);
    expect((await call('GET', `${APP}/pipelines`, { token: 'guest-token' })).status).toBe(200);
    updateProject(world(), 'acme/app', (p) => void (p.settings.public_jobs = false));
    expect((await call('GET', `${APP}/pipelines`, { token: 'guest-token' })).status).toBe(403);
    expect((await call('GET', `${APP}/pipelines`, { token: 'reporter-token' })).status).toBe(200);
    expect((await call('GET', `${APP}/jobs`)).status).toBe(401);
  });
});

describe('jobs', () => {
  it('renders the Job entity with its commit, user, pipeline, runner and artifacts, in GitLab\'s order', async () => {
    const list = await call('GET', `${APP}/jobs`, { token: 'reporter-token' });
    expect(list.status).toBe(200);
    expect(list.body.map((j: { name: string }) => j.name)).toEqual(['deploy', 'lint', 'build']);
    const build = list.body[2];
    expect(Object.keys(build)).toEqual([
      'id', 'status', 'stage', 'name', 'ref', 'tag', 'coverage', 'allow_failure', 'created_at', 'started_at', 'finished_at', 'erased_at', 'duration',
      'queued_duration', 'user', 'commit', 'pipeline', 'web_url', 'project', 'artifacts', 'runner', 'runner_manager', 'artifacts_expire_at', 'archived', 'tag_list',
    ]);
    expect(build).toMatchObject({
      status: 'success', stage: 'build', coverage: 87.5, user: { username: 'dev' }, commit: { title: 'Initial commit' }, pipeline: { ref: 'main', status: 'success' },
      web_url: 'https://gitlab.example.com/acme/app/-/jobs/' + build.id, tag_list: ['docker', 'linux'], artifacts: [{ file_type: 'trace', filename: 'job.log', file_format: 'raw', size: 6 }],
      runner: { description: 'emulator-runner', is_shared: true },
    });
    expect(list.body[1]).toMatchObject({ status: 'failed', failure_reason: 'script_failure', allow_failure: true });
    expect(list.body[0]).not.toHaveProperty('failure_reason');
  });

  it('filters by scope[] (or one scope), and refuses an unknown one', async () => {
    const names = async (q: string) => (await call('GET', `${APP}/jobs?${q}`, { token: 'reporter-token' })).body.map((j: { name: string }) => j.name);
    expect(await names('scope[]=success&scope[]=failed')).toEqual(['lint', 'build']);
    expect(await names('scope=manual')).toEqual(['deploy']);
    expect((await call('GET', `${APP}/jobs?scope[]=bogus`, { token: 'reporter-token' })).body).toEqual({ error: 'scope does not have a valid value' });
  });

  it('counts GET /projects/:id/jobs against the instance\'s jobs_index limit', async () => {
    world().configure({ settings: { rate_limits: { jobs_index: { limit: 2, period_seconds: 60 } } } });
    for (let i = 0; i < 2; i++) expect((await call('GET', `${APP}/jobs`, { token: 'reporter-token' })).status).toBe(200);
    expect((await call('GET', `${APP}/jobs`, { token: 'reporter-token' })).status).toBe(429);
    expect((await call('GET', `${APP}/jobs`, { token: 'dev-token' })).status).toBe(200);
  });

  it('gets one job, 404 for another project\'s or an unknown one; lists a pipeline\'s jobs', async () => {
    const [deploy] = (await call('GET', `${APP}/jobs`, { token: 'reporter-token' })).body;
    expect((await call('GET', `${APP}/jobs/${deploy.id}`, { token: 'reporter-token' })).body.name).toBe('deploy');
    expect((await call('GET', `${APP}/jobs/99999`, { token: 'reporter-token' })).body).toEqual({ message: '404 Not found' });
    expect((await call('GET', `/projects/acme%2Fother/jobs/${deploy.id}`, { token: 'dev-token' })).status).toBe(404);
    const jobs = await call('GET', `${APP}/pipelines/${deploy.pipeline.id}/jobs?scope[]=manual`, { token: 'reporter-token' });
    expect(jobs.body.map((j: { name: string }) => j.name)).toEqual(['deploy']);
  });

  it('serves the log as text, with the job token and masked variables masked', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: 'main', user: 'dev' });
    const job = ci.job(p.id, { name: 'test' });
    ci.log(job.id, `token=${job.token} key=super-secret-value\n`);
    const trace = await call('GET', `${APP}/jobs/${job.id}/trace`, { token: 'reporter-token' });
    expect(trace.status).toBe(200);
    expect(trace.res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(trace.res.headers.get('content-disposition')).toBe(`infile; filename="${job.id}.log"`);
    expect(trace.body).toBe('token=[MASKED] key=[MASKED]\n');
  });

  it('retries a finished job (201, a new pending job; the old one hidden) and refuses a running one', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: 'main', user: 'dev' });
    const job = ci.job(p.id, { name: 'flaky' });
    expect((await call('POST', `${APP}/jobs/${job.id}/retry`, { token: 'dev-token' })).body).toEqual({ message: '403 Forbidden - Job is not retryable' });
    ci.finish(job.id, { status: 'failed' });
    expect((await call('POST', `${APP}/jobs/${job.id}/retry`, { token: 'reporter-token' })).status).toBe(403);
    const r = await call('POST', `${APP}/jobs/${job.id}/retry`, { token: 'dev-token' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: 'flaky', status: 'pending', user: { username: 'dev' } });
    expect((await call('GET', `${APP}/pipelines/${p.id}/jobs`, { token: 'dev-token' })).body.map((j: { id: number }) => j.id)).toEqual([r.body.id]);
    expect((await call('GET', `${APP}/pipelines/${p.id}/jobs?include_retried=true`, { token: 'dev-token' })).body).toHaveLength(2);
    expect((await call('GET', `${APP}/pipelines/${p.id}`, { token: 'dev-token' })).body.status).toBe('pending');
  });

  it('cancels an active job (201); a finished one is answered as it is', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: 'main', user: 'dev' });
    const job = ci.job(p.id, { name: 'slow' });
    const r = await call('POST', `${APP}/jobs/${job.id}/cancel`, { token: 'dev-token' });
    expect(r).toMatchObject({ status: 201, body: { status: 'canceled' } });
    expect((await call('POST', `${APP}/jobs/${job.id}/cancel`, { token: 'dev-token' })).body.status).toBe('canceled');
    expect((await call('GET', `${APP}/pipelines/${p.id}`, { token: 'dev-token' })).body.status).toBe('canceled');
  });
});

describe('fixtures', () => {
  it('refuse what GitLab would, naming the record, and seed nothing', async () => {
    const base = { users: TEAM, groups: [ACME] };
    await expect(createEmulator({ fixture: { ...base, projects: [teamProject({ repository: { files: { a: 'a' } }, pipelines: [{ ref: 'nope' }] })] } }))
      .rejects.toThrow("project 'acme/app': project 1 has no branch or tag 'nope'");
    await expect(createEmulator({ fixture: { ...base, projects: [teamProject({ variables: [{ key: 'BAD-KEY', value: 'x' }] })] } }))
      .rejects.toThrow(/project 'acme\/app': variable 'BAD-KEY' is invalid/);
    await expect(createEmulator({ fixture: { ...base, projects: [teamProject({ pipelines: [{ user: 'nobody' }] })] } })).rejects.toThrow(/no user 'nobody'/);
    await expect(createEmulator({ fixture: { ...base, projects: [teamProject({ pipelines: [{ jobs: [{ name: 'a', status: 'success', artifacts: { files: { a: 'a' }, expire_in: 'whenever' } }] }] })] } }))
      .rejects.toThrow(/expire_in 'whenever'/);
  });

  it('gives the jobs of a project\'s `jobs` list a pipeline of their ref', async () => {
    const e = await createEmulator({ fixture: { users: TEAM, groups: [ACME], projects: [teamProject({ jobs: [{ name: 'legacy', user: 'dev', token: 'glcbt-legacy' }] })] } });
    const r = await apiCall(e, `${APP}/jobs`, { headers: { 'JOB-TOKEN': 'glcbt-legacy' } });
    const [job] = await r.json();
    expect(job).toMatchObject({ name: 'legacy', status: 'running', pipeline: { ref: 'main', status: 'running' }, user: { username: 'dev' } });
  });
});

describe('paging', () => {
  it('pages jobs newest first without counting, as GitLab does; pipelines with their totals', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({});
    for (let i = 0; i < 22; i++) ci.job(p.id, { name: `j${i}`, status: 'pending' });
    const seen: number[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await call('GET', `${APP}/jobs?per_page=10&page=${page}`, { token: 'reporter-token' });
      expect(r.res.headers.get('x-total')).toBeNull();
      expect(r.res.headers.get('x-next-page')).toBe(page < 3 ? String(page + 1) : '');
      seen.push(...r.body.map((j: { id: number }) => j.id));
    }
    expect(seen).toHaveLength(25);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    for (let i = 0; i < 3; i++) ci.pipeline({});
    const pipelines = await call('GET', `${APP}/pipelines?per_page=2&page=2`, { token: 'reporter-token' });
    expect(pipelines.res.headers.get('x-total')).toBe('5');
    expect(pipelines.body.map((x: { iid: number }) => x.iid)).toEqual([3, 2]);
  });
});

describe('pipeline and job actions', () => {
  it('retries a pipeline\'s failed jobs (201) and cancels its running ones (200)', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ user: 'dev' });
    const a = ci.job(p.id, { name: 'a' });
    const b = ci.job(p.id, { name: 'b' });
    ci.finish(a.id, { status: 'failed' });
    const retried = await call('POST', `${APP}/pipelines/${p.id}/retry`, { token: 'dev-token' });
    expect(retried).toMatchObject({ status: 201, body: { id: p.id, status: 'running' } });
    const jobs = (await call('GET', `${APP}/pipelines/${p.id}/jobs`, { token: 'dev-token' })).body;
    expect(jobs.map((j: { name: string; status: string }) => `${j.name}:${j.status}`)).toEqual(['b:running', 'a:pending']);
    expect((await call('POST', `${APP}/pipelines/${p.id}/cancel`, { token: 'reporter-token' })).status).toBe(403);
    const canceled = await call('POST', `${APP}/pipelines/${p.id}/cancel`, { token: 'dev-token' });
    expect(canceled).toMatchObject({ status: 200, body: { status: 'canceled' } });
    expect((await call('GET', '/job', { headers: { 'JOB-TOKEN': b.token } })).status).toBe(401);
  });

  it('deletes a pipeline for an owner (204): its jobs, artifacts and tokens go, and the ref\'s latest is found again', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    const older = ci.pipeline({ user: 'dev' });
    ci.finish(ci.job(older.id, { name: 'build' }).id, { status: 'success', artifacts: { files: { 'v.txt': 'old' } } });
    const newer = ci.pipeline({ user: 'dev' });
    const job = ci.job(newer.id, { name: 'build' });
    ci.finish(job.id, { status: 'success', artifacts: { files: { 'v.txt': 'new' } } });
    const raw = () => call('GET', `${APP}/jobs/artifacts/main/raw/v.txt?job=build`, { token: 'dev-token' });
    expect((await raw()).body).toBe('new');
    expect((await call('DELETE', `${APP}/pipelines/${newer.id}`, { token: 'maintainer-token' })).status).toBe(403);
    expect((await call('DELETE', `${APP}/pipelines/${newer.id}`, { token: 'root-token' })).status).toBe(204);
    expect((await call('GET', `${APP}/pipelines/${newer.id}`, { token: 'dev-token' })).status).toBe(404);
    expect((await call('GET', `${APP}/jobs/${job.id}`, { token: 'dev-token' })).status).toBe(404);
    expect((await raw()).body).toBe('old');
    expect((await call('DELETE', `${APP}/pipelines/${older.id}`, { token: 'root-token', headers: { 'If-Unmodified-Since': 'Sat, 01 Jan 2000 00:00:00 GMT' } })).status).toBe(412);
  });

  it('plays a manual job (pending, 200) and refuses any other; erases a finished job\'s log and artifacts (201)', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ user: 'dev' });
    const manual = ci.job(p.id, { name: 'deploy', status: 'manual' });
    expect((await call('POST', `${APP}/jobs/${manual.id}/play`, { token: 'reporter-token' })).status).toBe(403);
    const played = await call('POST', `${APP}/jobs/${manual.id}/play`, { token: 'maintainer-token' });
    expect(played).toMatchObject({ status: 200, body: { status: 'pending', user: { username: 'mai' } } });
    expect((await call('POST', `${APP}/jobs/${manual.id}/play`, { token: 'maintainer-token' })).body).toEqual({ message: '400 Bad request - Unplayable Job' });
    const done = ci.job(p.id, { name: 'build' });
    expect((await call('POST', `${APP}/jobs/${done.id}/erase`, { token: 'dev-token' })).body).toEqual({ message: '403 Forbidden - Job is not erasable!' });
    ci.finish(done.id, { status: 'success', log: 'log\n', artifacts: { files: { 'a.txt': 'a' } } });
    expect((await call('POST', `${APP}/jobs/${done.id}/erase`, { token: 'reporter-token' })).status).toBe(403);
    const erased = await call('POST', `${APP}/jobs/${done.id}/erase`, { token: 'maintainer-token' });
    expect(erased).toMatchObject({ status: 201, body: { erased_at: expect.any(String), artifacts: [] } });
    const trace = await call('GET', `${APP}/jobs/${done.id}/trace`, { token: 'dev-token' });
    expect(trace.status).toBe(200);
    expect(trace.body).toBeNull(); // an empty body
  });
});

describe('job tokens', () => {
  it('authenticate as the job\'s user while it runs, on the routes that allow them, and die when it finishes', async () => {
    const ci = world().ci('acme/app');
    const p = ci.pipeline({ ref: 'main', user: 'dev' });
    const job = ci.job(p.id, { name: 'release' });
    const me = await call('GET', '/job', { headers: { 'JOB-TOKEN': job.token } });
    expect(me).toMatchObject({ status: 200, body: { id: job.id, name: 'release', user: { username: 'dev' } } });
    expect((await call('GET', `${APP}/jobs?job_token=${job.token}`)).status).toBe(200);
    // A route that does not take job tokens does not see one.
    expect((await call('GET', `${APP}/variables`, { headers: { 'JOB-TOKEN': job.token } })).status).toBe(401);
    // The token never shows in an answer.
    expect(JSON.stringify(me.body)).not.toContain(job.token);
    ci.finish(job.id, { status: 'success' });
    expect((await call('GET', '/job', { headers: { 'JOB-TOKEN': job.token } })).body).toEqual({ message: '401 Unauthorized' });
  });

  it('are filtered out of the journal, as GitLab filters them out of its logs', async () => {
    const e = world();
    const ci = e.ci('acme/app');
    const job = ci.job(ci.pipeline({ user: 'dev' }).id, { name: 'quiet' });
    expect((await call('GET', `${APP}/jobs?job_token=${job.token}&per_page=1`)).status).toBe(200);
    expect(e.journal.last()!.query).toBe('?job_token=[FILTERED]&per_page=1');
    expect(JSON.stringify(e.journal.entries().map(({ before: _b, after: _a, ...rest }) => rest))).not.toContain(job.token);
  });

  it('honour the job token allowlist of the target project', async () => {
    const e = world();
    const ci = e.ci('acme/other');
    const p = ci.pipeline({ user: 'dev' });
    const job = ci.job(p.id, { name: 'fetch' });
    const r = await call('GET', `${APP}/jobs/artifacts/main/download?job=build`, { headers: { 'JOB-TOKEN': job.token } });
    expect(r.body).toEqual({ message: '403 Forbidden - Authentication by CI/CD job token not allowed from acme/other to acme/app.' });
  });
});
