// Graceful cancel (CommitStatus#cancel with supports_canceling?): a running job whose runner
// said `cancel_gracefully` goes to canceling, its runner learns it from Job-Status on its next
// trace call, and whatever state it then reports, the job is canceled. A runner without the
// feature, and jobs not running, are canceled at once. Through the server, fetch as the runner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator, type Fixture } from '../src/index.js';

const CI = `
stages: [test, deploy]
test:
  stage: test
  script: [npm test]
  after_script: [echo cleanup]
deploy:
  stage: deploy
  script: [deploy]
`;

const fixture: Fixture = {
  users: [{ username: 'root', name: 'Root', email: 'root@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] }],
  projects: [{ namespace: 'root', path: 'lib', visibility: 'private', creator: 'root', repository: { files: { '.gitlab-ci.yml': CI } } }],
};

let e: Emulator;
let server: Awaited<ReturnType<Emulator['listen']>>;
beforeAll(async () => {
  e = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
  server = await e.listen({ port: 0 });
});
afterAll(async () => server.close());

const api = (path: string, init: RequestInit & { json?: unknown } = {}) =>
  fetch(`${server.url}/api/v4${path}`, {
    ...init,
    headers: { 'PRIVATE-TOKEN': 'root-token', ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  });
const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/api/v4${path}`, { method, headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const P = '/projects/root%2Flib';

async function runnerToken(): Promise<string> {
  return ((await (await api('/user/runners', { method: 'POST', json: { runner_type: 'instance_type' } })).json()) as { token: string }).token;
}

async function takeTest(features: Record<string, boolean>) {
  const pipeline = (await (await api(`${P}/pipeline`, { method: 'POST', json: { ref: 'main' } })).json()) as { id: number };
  const token = await runnerToken();
  const res = await send('POST', '/jobs/request', { token, info: { features } });
  expect(res.status).toBe(201);
  const job = (await res.json()) as { id: number; token: string; job_info: { name: string } };
  expect(job.job_info.name).toBe('test');
  return { pipeline, job };
}

const status = async (path: string) => ((await (await api(path)).json()) as { status: string }).status;

describe('cancel of a running job', () => {
  it('with cancel_gracefully: canceling until the runner reports, then canceled', async () => {
    const { pipeline, job } = await takeTest({ cancel_gracefully: true, cancelable: true });
    const canceled = await api(`${P}/jobs/${job.id}/cancel`, { method: 'POST' });
    expect(canceled.status).toBe(201);
    expect(((await canceled.json()) as { status: string }).status).toBe('canceling');
    // Composite: a created job (deploy) still makes the pipeline running.
    expect(await status(`${P}/pipelines/${pipeline.id}`)).toBe('running');
    // The runner's next trace call says so; its token still works while it finishes.
    const trace = await send('PATCH', `/jobs/${job.id}/trace`, 'running after_script\n', { 'JOB-TOKEN': job.token, 'Content-Range': '0-20', 'Content-Type': 'text/plain' });
    expect(trace.status).toBe(202);
    expect(trace.headers.get('job-status')).toBe('canceling');
    expect((await send('PUT', `/jobs/${job.id}`, { token: job.token, state: 'failed', failure_reason: 'script_failure', exit_code: 143 })).status).toBe(200);
    const after = (await (await api(`${P}/jobs/${job.id}`)).json()) as { status: string; failure_reason?: string; finished_at: string | null };
    expect(after.status).toBe('canceled');
    expect(after.failure_reason).toBeUndefined();
    expect(after.finished_at).not.toBeNull();
    expect(await status(`${P}/pipelines/${pipeline.id}`)).toBe('canceled');
    // The job is over: its token is refused with its status.
    const late = await send('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' });
    expect(late.status).toBe(403);
    expect(late.headers.get('job-status')).toBe('canceled');
  });

  it('a pipeline cancel leaves its gracefully canceled job canceling and cancels the rest at once', async () => {
    const { pipeline, job } = await takeTest({ cancel_gracefully: true });
    expect((await api(`${P}/pipelines/${pipeline.id}/cancel`, { method: 'POST' })).status).toBe(200);
    const jobs = (await (await api(`${P}/pipelines/${pipeline.id}/jobs`)).json()) as { name: string; status: string }[];
    expect(Object.fromEntries(jobs.map((j) => [j.name, j.status]))).toEqual({ test: 'canceling', deploy: 'canceled' });
    expect(await status(`${P}/pipelines/${pipeline.id}`)).toBe('canceling');
    expect((await send('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).status).toBe(200);
    expect(await status(`${P}/jobs/${job.id}`)).toBe('canceled');
    expect(await status(`${P}/pipelines/${pipeline.id}`)).toBe('canceled');
  });

  it('without the feature: canceled at once', async () => {
    const { pipeline, job } = await takeTest({ cancelable: true });
    const res = await api(`${P}/jobs/${job.id}/cancel`, { method: 'POST' });
    expect(((await res.json()) as { status: string }).status).toBe('canceled');
    expect(await status(`${P}/pipelines/${pipeline.id}`)).toBe('canceled');
    const trace = await send('PATCH', `/jobs/${job.id}/trace`, 'x', { 'JOB-TOKEN': job.token, 'Content-Range': '0-1', 'Content-Type': 'text/plain' });
    expect(trace.status).toBe(403);
    expect(trace.headers.get('job-status')).toBe('canceled');
  });
});
