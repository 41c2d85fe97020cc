// Multi-project pipelines: a `trigger: project:` job creates a pipeline in the other project as
// its user (source `pipeline`, the job's variables), `strategy: depend` mirrors its end, the
// bridges list shows it, and GitLab's preconditions fail the job with their reasons.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, seededWorld, TEAM, teamProject, jsonCall } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const APP_CI = `
stages: [build, deploy]
build:
  stage: build
  script: [make]
lib:
  stage: deploy
  variables:
    UPSTREAM: app
    TARGET: main
  trigger:
    project: acme/lib
    branch: $TARGET
    strategy: depend
fire:
  stage: deploy
  trigger:
    project: acme/lib
    branch: other
secret:
  stage: deploy
  trigger:
    project: acme/secret
readonly:
  stage: deploy
  trigger:
    project: acme/ro
itself:
  stage: deploy
  trigger:
    project: acme/app
nowhere:
  stage: deploy
  trigger:
    project: acme/no-such
`;

const LIB_CI = `
unit:
  script: [test $UPSTREAM]
  rules:
    - if: $CI_PIPELINE_SOURCE == "pipeline"
`;

const lib = (path: string, members: { user: string; access_level: 'developer' | 'reporter' }[], files: Record<string, string> = { '.gitlab-ci.yml': LIB_CI }) => ({
  namespace: 'acme', path, visibility: 'private' as const, creator: 'root', members, repository: { files, branches: { other: 'main' } },
});

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({ repository: { files: { 'README.md': '# App\n', '.gitlab-ci.yml': APP_CI } } }),
    lib('lib', [{ user: 'dev', access_level: 'developer' }]),
    lib('secret', []),
    lib('ro', [{ user: 'dev', access_level: 'reporter' }]),
    lib('ping', [{ user: 'dev', access_level: 'developer' }], { '.gitlab-ci.yml': 'pong:\n  trigger: acme/pong\n' }),
    lib('pong', [{ user: 'dev', access_level: 'developer' }], { '.gitlab-ci.yml': 'ping:\n  trigger: acme/ping\n' }),
  ],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';
const LIB = '/projects/acme%2Flib';

const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });

type Row = { id: number; name: string; status: string; failure_reason?: string; downstream_pipeline: { id: number; project_id: number; status: string; source: string } | null };
const byName = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.name, r]));

async function runToBridges() {
  const made = await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'main' });
  expect(made.status).toBe(201);
  const [build] = world().ci('acme/app').jobs(made.body.id);
  world().ci('acme/app').finish(build!.id, { status: 'success' });
  const bridges = await call('GET', `${APP}/pipelines/${made.body.id}/bridges`);
  expect(bridges.status).toBe(200);
  return { pipelineId: made.body.id as number, bridges: byName(bridges.body as Row[]) };
}

describe('trigger: project', () => {
  it('creates the downstream pipeline as the job\'s user, with its variables, and shows it on the bridge', async () => {
    const { bridges } = await runToBridges();
    const down = bridges.lib!.downstream_pipeline!;
    expect(bridges.lib!.status).toBe('running');
    const libId = (await call('GET', LIB)).body.id;
    expect(down).toMatchObject({ project_id: libId, status: 'pending', source: 'pipeline', ref: 'main' });
    const pipeline = await call('GET', `${LIB}/pipelines/${down.id}`);
    expect(pipeline.body).toMatchObject({ source: 'pipeline', user: { username: 'dev' } });
    const vars = await call('GET', `${LIB}/pipelines/${down.id}/variables`);
    expect(vars.body).toEqual(expect.arrayContaining([{ variable_type: 'env_var', key: 'UPSTREAM', value: 'app' }]));
    expect((await call('GET', `${LIB}/pipelines/${down.id}/jobs`)).body.map((j: Row) => `${j.name}:${j.status}`)).toEqual(['unit:pending']);
    // Without strategy: depend, the bridge succeeds once its pipeline is made.
    expect(bridges.fire).toMatchObject({ status: 'success', downstream_pipeline: { project_id: libId, source: 'pipeline', ref: 'other' } });
  });

  it('fails the bridge with GitLab\'s reasons when the project cannot be used', async () => {
    const { bridges } = await runToBridges();
    expect(bridges.secret).toMatchObject({ status: 'failed', failure_reason: 'downstream_bridge_project_not_found', downstream_pipeline: null });
    expect(bridges.nowhere).toMatchObject({ status: 'failed', failure_reason: 'downstream_bridge_project_not_found' });
    expect(bridges.readonly).toMatchObject({ status: 'failed', failure_reason: 'insufficient_bridge_permissions' });
    expect(bridges.itself).toMatchObject({ status: 'failed', failure_reason: 'invalid_bridge_trigger' });
    // Nothing was made where the user may not create pipelines.
    expect((await call('GET', '/projects/acme%2Fro/pipelines', 'root-token')).body).toEqual([]);
    expect((await call('GET', '/projects/acme%2Fsecret/pipelines', 'root-token')).body).toEqual([]);
  });

  it('with strategy: depend, mirrors the downstream pipeline\'s end', async () => {
    const { pipelineId, bridges } = await runToBridges();
    const down = bridges.lib!.downstream_pipeline!;
    const [unit] = world().ci('acme/lib').jobs(down.id);
    world().ci('acme/lib').finish(unit!.id, { status: 'success' });
    const after = byName((await call('GET', `${APP}/pipelines/${pipelineId}/bridges`)).body as Row[]);
    expect(after.lib).toMatchObject({ status: 'success', downstream_pipeline: { id: down.id, status: 'success' } });

    const again = await runToBridges();
    const d2 = again.bridges.lib!.downstream_pipeline!;
    world().ci('acme/lib').finish(world().ci('acme/lib').jobs(d2.id)[0]!.id, { status: 'failed' });
    const failed = byName((await call('GET', `${APP}/pipelines/${again.pipelineId}/bridges`)).body as Row[]);
    expect(failed.lib).toMatchObject({ status: 'failed', downstream_pipeline: { status: 'failed' } });
  });

  it('a downstream file that makes no pipeline fails the bridge (downstream_pipeline_creation_failed)', async () => {
    await call('POST', `${LIB}/repository/commits`, 'root-token', { branch: 'main', commit_message: 'x', actions: [{ action: 'update', file_path: '.gitlab-ci.yml', content: 'unit:\n  script: [x]\n  rules:\n    - when: never\n' }] });
    const { bridges } = await runToBridges();
    expect(bridges.lib).toMatchObject({ status: 'failed', failure_reason: 'downstream_pipeline_creation_failed', downstream_pipeline: null });
  });

  it('stops a loop of projects triggering each other (pipeline_loop_detected)', async () => {
    const made = await call('POST', '/projects/acme%2Fping/pipeline', 'dev-token', { ref: 'main' });
    expect(made.status).toBe(201);
    const reasons: string[] = [];
    for (const path of ['acme/ping', 'acme/pong']) {
      const list = (await call('GET', `/projects/${encodeURIComponent(path)}/pipelines`)).body as { id: number }[];
      for (const p of list) for (const j of world().ci(path).jobs(p.id)) if (j.failureReason) reasons.push(j.failureReason);
    }
    expect(reasons).toEqual(['pipeline_loop_detected']);
  });
});

describe('trigger: project through the server door', () => {
  it('a fetch-playing runner runs the downstream job, and the depending bridge and its pipeline follow', async () => {
    const { createEmulator } = await import('../src/index.js');
    const e = await createEmulator({
      clock: { now: '2026-03-01T12:00:00Z', frozen: true },
      fixture: {
        users: [{ username: 'root', name: 'Root', email: 'root@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] }],
        projects: [
          { namespace: 'root', path: 'app', visibility: 'private', creator: 'root', repository: { files: { '.gitlab-ci.yml': 'deploy:\n  variables:\n    UPSTREAM: app\n  trigger:\n    project: root/lib\n    strategy: depend\n' } } },
          { namespace: 'root', path: 'lib', visibility: 'private', creator: 'root', repository: { files: { '.gitlab-ci.yml': LIB_CI } } },
        ],
      },
    });
    const server = await e.listen({ port: 0 });
    try {
      const api = (path: string, json?: unknown) =>
        fetch(`${server.url}/api/v4${path}`, { method: json === undefined ? 'GET' : 'POST', headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });
      const send = (method: string, path: string, body: unknown) =>
        fetch(`${server.url}/api/v4${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
      const { token } = (await (await api('/user/runners', { runner_type: 'instance_type' })).json()) as { token: string };
      const upstream = (await (await api('/projects/root%2Fapp/pipeline', { ref: 'main' })).json()) as { id: number };
      const job = (await (await send('POST', '/jobs/request', { token })).json()) as { id: number; token: string; job_info: { name: string; project_full_path: string }; variables: { key: string; value: string }[] };
      expect(job.job_info).toMatchObject({ name: 'unit', project_full_path: 'root/lib' });
      const vars = Object.fromEntries(job.variables.map((v) => [v.key, v.value]));
      expect(vars).toMatchObject({ UPSTREAM: 'app', CI_PIPELINE_SOURCE: 'pipeline' });
      const [bridge] = (await (await api(`/projects/root%2Fapp/pipelines/${upstream.id}/bridges`)).json()) as Row[];
      expect(bridge).toMatchObject({ name: 'deploy', status: 'running', downstream_pipeline: { status: 'running' } });
      expect((await send('PUT', `/jobs/${job.id}`, { token: job.token, state: 'success' })).status).toBe(200);
      const [after] = (await (await api(`/projects/root%2Fapp/pipelines/${upstream.id}/bridges`)).json()) as Row[];
      expect(after).toMatchObject({ status: 'success', downstream_pipeline: { status: 'success' } });
      expect(((await (await api(`/projects/root%2Fapp/pipelines/${upstream.id}`)).json()) as { status: string }).status).toBe('success');
    } finally {
      await server.close();
    }
  });
});
