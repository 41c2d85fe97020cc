// Through the server door with plain fetch, as a runner and a CI tool would: a pipeline made from
// the file by a commit, a runner taking and finishing its jobs, a release job reading its CI
// variables; outcomes and plans through the control API.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';

const CI = `
stages: [test, release]
test:
  stage: test
  script: [npm test]
release:
  stage: release
  script: ['echo releasing $CI_COMMIT_TAG']
  rules:
    - if: $CI_COMMIT_TAG
`;

const fixture: Fixture = {
  users: [{ username: 'root', name: 'Root', email: 'root@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] }],
  projects: [{ namespace: 'root', path: 'lib', visibility: 'private', creator: 'root', repository: { files: { '.gitlab-ci.yml': CI, 'index.js': '1' } } }],
};

describe('the server door', () => {
  it('runs a tag pipeline whose release job a fetch-playing runner takes, with CI_COMMIT_TAG', async () => {
    const e = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await e.listen({ port: 0 });
    try {
      const api = (path: string, init: RequestInit & { json?: unknown } = {}) =>
        fetch(`${server.url}/api/v4${path}`, {
          ...init,
          headers: { 'PRIVATE-TOKEN': 'root-token', ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}), ...(init.headers as Record<string, string>) },
          body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
        });
      const { token } = (await (await api('/user/runners', { method: 'POST', json: { runner_type: 'instance_type' } })).json()) as { token: string };
      const runner = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${server.url}/api/v4${path}`, { method: path.endsWith('/trace') ? 'PATCH' : path.startsWith('/jobs/') && !path.endsWith('request') ? 'PUT' : 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

      expect((await api('/projects/root%2Flib/repository/tags', { method: 'POST', json: { tag_name: 'v1.0.0', ref: 'main' } })).status).toBe(201);
      const [pipeline] = (await (await api('/projects/root%2Flib/pipelines')).json()) as { id: number; ref: string; status: string }[];
      expect(pipeline).toMatchObject({ ref: 'v1.0.0', status: 'pending' });

      const test = await (await runner('/jobs/request', { token })).json();
      expect(test.job_info.name).toBe('test');
      expect((await runner(`/jobs/${test.id}/trace`, 'ok\n', { 'JOB-TOKEN': test.token, 'Content-Range': '0-2', 'Content-Type': 'text/plain' })).status).toBe(202);
      expect((await runner(`/jobs/${test.id}`, { token: test.token, state: 'success' })).status).toBe(200);

      const release = await (await runner('/jobs/request', { token })).json();
      expect(release.job_info.name).toBe('release');
      const vars = Object.fromEntries(release.variables.map((v: { key: string; value: string }) => [v.key, v.value]));
      expect(vars).toMatchObject({ CI_COMMIT_TAG: 'v1.0.0', CI_COMMIT_REF_NAME: 'v1.0.0', CI_PIPELINE_SOURCE: 'push', CI_PROJECT_PATH: 'root/lib', CI_API_V4_URL: `${server.url}/api/v4` });
      expect(vars.CI_COMMIT_BRANCH).toBeUndefined();
      // The release job's token reads the project's API as its user while it runs.
      expect((await fetch(`${server.url}/api/v4/job`, { headers: { 'JOB-TOKEN': release.token } })).status).toBe(200);
      expect((await runner(`/jobs/${release.id}`, { token: release.token, state: 'success' })).status).toBe(200);
      expect(((await (await api(`/projects/root%2Flib/pipelines/${pipeline!.id}`)).json()) as { status: string }).status).toBe('success');
    } finally {
      await server.close();
    }
  });

  it('plans pipelines and outcomes through the control API', async () => {
    const e = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await e.listen({ port: 0 });
    try {
      const control = (method: string, path: string, body?: unknown) =>
        fetch(`${server.url}/-/emulator${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      expect((await control('PUT', '/ci/root%2Flib/outcomes', { jobs: { unit: { status: 'failed', exit_code: 1, after: '3m' } } })).status).toBe(204);
      expect((await control('PUT', '/ci/root%2Flib/outcomes', { jobs: { unit: { status: 'exploded' } } })).status).toBe(400);
      const made = await control('POST', '/ci/root%2Flib/plan', { jobs: [{ name: 'unit' }, { name: 'after', stage: 'post', when: 'on_failure' }] });
      expect(made.status).toBe(201);
      const plan = (await made.json()) as { id: number; status: string };
      const jobs = async () => ((await (await fetch(`${server.url}/api/v4/projects/root%2Flib/pipelines/${plan.id}/jobs`, { headers: { 'PRIVATE-TOKEN': 'root-token' } })).json()) as { name: string; status: string }[]).map((j) => [j.name, j.status]).sort();
      expect(plan.status).toBe('running');
      expect(await jobs()).toEqual([['after', 'created'], ['unit', 'running']]);
      e.clock.advance('3m');
      await e.settled();
      expect(await jobs()).toEqual([['after', 'pending'], ['unit', 'failed']]);
      expect((await control('POST', '/ci/root%2Flib/plan', { jobs: [] })).status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
