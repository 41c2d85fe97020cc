// A release job run by a test that plays the runner, through GitLab's runner protocol: a tag
// starts a pipeline from the project's .gitlab-ci.yml, the "runner" takes the job, does what its
// script would (creates the release with the job's token, as release-cli does), writes its log
// and reports success. The same test runs against a real GitLab with a registered runner.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEmulator, type Server } from 'gitlab-emulator';

const CI = `
stages: [test, release]
test:
  stage: test
  script: npm test
release:
  stage: release
  rules:
    - if: $CI_COMMIT_TAG
  script: release-cli create --tag-name "$CI_COMMIT_TAG"
`;

let server: Server;
beforeAll(async () => {
  server = await (await createEmulator()).listen({ port: 0 });
});
afterAll(() => server.close());

const api = (path: string, init: { method?: string; body?: object; headers?: Record<string, string> } = {}) =>
  fetch(`${server.url}/api/v4${path}`, {
    method: init.method ?? (init.body ? 'POST' : 'GET'),
    headers: { 'Content-Type': 'application/json', ...(init.headers ?? { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' }) },
    body: init.body && JSON.stringify(init.body),
  });

/** One turn of the runner: take a job, run it (`work`), log and report it. */
async function runOne(token: string, work: (job: { id: number; token: string; variables: { key: string; value: string }[] }) => Promise<void>) {
  const taken = await api('/jobs/request', { body: { token }, headers: {} });
  expect(taken.status).toBe(201);
  const job = await taken.json();
  await work(job);
  const log = await fetch(`${server.url}/api/v4/jobs/${job.id}/trace`, { method: 'PATCH', body: 'ok\n', headers: { 'JOB-TOKEN': job.token, 'Content-Range': '0-2' } });
  expect(log.status).toBe(202);
  await api(`/jobs/${job.id}`, { method: 'PUT', body: { token: job.token, state: 'success' }, headers: {} });
  return job as { job_info: { name: string } };
}

it('releases a tag from its pipeline', async () => {
  const { token } = await (await api('/user/runners', { body: { runner_type: 'instance_type' } })).json();
  await api('/projects/acme%2Fwebsite/repository/commits', { body: {
    branch: 'main', commit_message: 'Release from CI', actions: [{ action: 'create', file_path: '.gitlab-ci.yml', content: CI }],
  } });
  // The branch's pipeline has only the test job; the tag's has both.
  expect((await runOne(token, async () => {})).job_info.name).toBe('test');
  await api('/projects/acme%2Fwebsite/repository/tags', { body: { tag_name: 'v2.0.0', ref: 'main' } });
  expect((await runOne(token, async () => {})).job_info.name).toBe('test');
  const release = await runOne(token, async (job) => {
    const tag = job.variables.find((v) => v.key === 'CI_COMMIT_TAG')?.value;
    const made = await api('/projects/acme%2Fwebsite/releases', { body: { tag_name: tag, name: `Release ${tag}` }, headers: { 'JOB-TOKEN': job.token } });
    expect(made.status).toBe(201);
  });
  expect(release.job_info.name).toBe('release');

  const [pipeline] = await (await api('/projects/acme%2Fwebsite/pipelines?ref=v2.0.0')).json();
  expect(pipeline.status).toBe('success');
  const made = await (await api('/projects/acme%2Fwebsite/releases/v2.0.0')).json();
  expect(made).toMatchObject({ name: 'Release v2.0.0', author: { username: 'root' } });
});
