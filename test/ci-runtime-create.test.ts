// Pipelines made from the project's .gitlab-ci.yml: on a push (a commit through the API),
// skipped by `[ci skip]`, by POST /projects/:id/pipeline with variables, and for merge requests;
// with GitLab's refusals.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, seededWorld, TEAM, teamProject, jsonCall } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const CI = `
stages: [build, test, deploy]
variables:
  GREETING: hello
workflow:
  rules:
    - if: $CI_COMMIT_BRANCH == "blocked"
      when: never
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH
    - if: $CI_COMMIT_TAG
build:
  stage: build
  script: [make]
test:
  stage: test
  script: [make test]
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
    - if: $CI_COMMIT_BRANCH
mr-only:
  stage: test
  script: [echo mr]
  rules:
    - if: $CI_PIPELINE_SOURCE == "merge_request_event"
deploy:
  stage: deploy
  script: [deploy $TARGET]
  rules:
    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH
      when: manual
`;

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({ repository: { files: { 'README.md': '# App\n', '.gitlab-ci.yml': CI }, branches: { feature: 'main', blocked: 'main' } } }),
    { namespace: 'acme', path: 'plain', visibility: 'public', creator: 'root', repository: { files: { 'README.md': 'x' } } },
    {
      namespace: 'acme', path: 'parent', visibility: 'public', creator: 'root', members: [{ user: 'dev', access_level: 'developer' }],
      repository: {
        files: {
          '.gitlab-ci.yml': 'stages: [build, downstream, after]\nbuild:\n  stage: build\n  script: [make]\nchild:\n  stage: downstream\n  trigger:\n    include: ci/child.yml\n    strategy: depend\nafter:\n  stage: after\n  script: [echo done]\n',
          'ci/child.yml': 'unit:\n  script: [make unit]\ne2e:\n  script: [make e2e]\n',
        },
      },
    },
  ],
};
const world = seededWorld(FIXTURE, NOW);
const APP = '/projects/acme%2Fapp';

const call = (method: string, path: string, token = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });

const jobsOf = async (pipelineId: number) => (await call('GET', `${APP}/pipelines/${pipelineId}/jobs`)).body.map((j: { name: string; status: string }) => `${j.name}:${j.status}`).sort();

describe('a push', () => {
  it('makes a pipeline of the file\'s jobs for the branch, its first stage queued', async () => {
    const commit = await call('POST', `${APP}/repository/commits`, 'dev-token', {
      branch: 'feature', commit_message: 'Add a file', actions: [{ action: 'create', file_path: 'a.txt', content: 'a' }],
    });
    expect(commit.status).toBe(201);
    const list = await call('GET', `${APP}/pipelines`);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ ref: 'feature', sha: commit.body.id, source: 'push', status: 'pending' });
    expect(await jobsOf(list.body[0].id)).toEqual(['build:pending', 'test:created']);
    const one = await call('GET', `${APP}/pipelines/${list.body[0].id}`);
    expect(one.body.user.username).toBe('dev');
    expect(one.body.before_sha).not.toBe('0000000000000000000000000000000000000000');
  });

  it('on the default branch adds the manual deploy; `[ci skip]` makes a skipped pipeline without jobs', async () => {
    await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'main', commit_message: 'Go', actions: [{ action: 'create', file_path: 'b.txt', content: 'b' }] });
    const [first] = (await call('GET', `${APP}/pipelines`)).body;
    expect(await jobsOf(first.id)).toEqual(['build:pending', 'deploy:created', 'test:created']);
    await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'main', commit_message: 'Docs [ci skip]', actions: [{ action: 'create', file_path: 'c.txt', content: 'c' }] });
    const [skipped] = (await call('GET', `${APP}/pipelines`)).body;
    expect(skipped).toMatchObject({ status: 'skipped', ref: 'main' });
    expect(await jobsOf(skipped.id)).toEqual([]);
  });

  it('makes none where workflow rules filter it out, or where there is no CI file', async () => {
    await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'blocked', commit_message: 'x', actions: [{ action: 'create', file_path: 'd.txt', content: 'd' }] });
    expect((await call('GET', `${APP}/pipelines`)).body).toEqual([]);
    await call('POST', '/projects/acme%2Fplain/repository/commits', 'root-token', { branch: 'main', commit_message: 'x', actions: [{ action: 'create', file_path: 'd.txt', content: 'd' }] });
    expect((await call('GET', '/projects/acme%2Fplain/pipelines', 'root-token')).body).toEqual([]);
  });
});

describe('POST /projects/:id/pipeline', () => {
  it('runs the file for a ref with variables (201, source api) that its jobs receive', async () => {
    const res = await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'main', variables: [{ key: 'TARGET', value: 'prod' }, { key: 'F', value: 'x', variable_type: 'file' }] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ ref: 'main', source: 'api', status: 'pending', user: { username: 'dev' }, detailed_status: { group: 'pending' } });
    const p = world().ci('acme/app').getPipeline(res.body.id);
    expect(p.variables).toEqual([{ key: 'TARGET', value: 'prod', variableType: 'env_var' }, { key: 'F', value: 'x', variableType: 'file' }]);
    expect((await call('GET', `${APP}/pipelines/${p.id}/variables`)).body).toEqual([{ variable_type: 'env_var', key: 'TARGET', value: 'prod' }, { variable_type: 'file', key: 'F', value: 'x' }]);
    expect((await call('GET', `${APP}/pipelines/${p.id}/variables`, 'reporter-token')).status).toBe(403);
  });

  it('passes its inputs to a file with a spec:inputs header', async () => {
    const yaml = 'spec:\n  inputs:\n    target:\n      default: staging\n---\ndeploy-$[[ inputs.target ]]:\n  script: [deploy]\n';
    await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'main', commit_message: 'inputs [ci skip]', actions: [{ action: 'update', file_path: '.gitlab-ci.yml', content: yaml }] });
    const res = await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'main', inputs: { target: 'production' } });
    expect(res.status).toBe(201);
    expect(await jobsOf(res.body.id)).toEqual(['deploy-production:pending']);
  });

  it('answers GitLab\'s refusals: an unknown ref, no CI file, a filtered workflow, a reporter', async () => {
    expect(await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'nope' })).toEqual({ status: 400, body: { message: { base: ['Reference not found'] } } });
    expect(await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'blocked' })).toEqual({ status: 400, body: { message: { base: ['Pipeline filtered out by workflow rules.'] } } });
    expect(await call('POST', '/projects/acme%2Fplain/pipeline', 'root-token', { ref: 'main' })).toEqual({ status: 400, body: { message: { base: ['Missing CI config file'] } } });
    expect((await call('POST', `${APP}/pipeline`, 'reporter-token', { ref: 'main' })).status).toBe(403);
    await call('POST', `${APP}/protected_branches`, 'maintainer-token', { name: 'feature', push_access_level: 40, merge_access_level: 40 });
    expect(await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'feature' })).toEqual({ status: 400, body: { message: { base: ["Insufficient permissions for protected ref 'feature'"] } } });
    expect((await call('POST', `${APP}/pipeline`, 'maintainer-token', { ref: 'feature' })).status).toBe(201);
    await call('DELETE', `${APP}/pipelines/${(await call('GET', `${APP}/pipelines`, 'maintainer-token')).body[0].id}`, 'root-token');
    expect((await call('POST', `${APP}/pipeline`, 'dev-token', {})).status).toBe(400);
    expect((await call('GET', `${APP}/pipelines`)).body).toEqual([]);
  });
});

describe('merge request pipelines', () => {
  it('runs a detached pipeline when a merge request opens, lists it, and makes another on request', async () => {
    const mr = await call('POST', `${APP}/merge_requests`, 'dev-token', { source_branch: 'feature', target_branch: 'main', title: 'Feature' });
    expect(mr.status).toBe(201);
    const list = await call('GET', `${APP}/merge_requests/${mr.body.iid}/pipelines`);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ ref: `refs/merge-requests/${mr.body.iid}/head`, source: 'merge_request_event', sha: mr.body.sha });
    expect(await jobsOf(list.body[0].id)).toEqual(['build:pending', 'mr-only:created', 'test:created']);
    const again = await call('POST', `${APP}/merge_requests/${mr.body.iid}/pipelines`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ source: 'merge_request_event', status: 'pending' });
    expect((await call('GET', `${APP}/merge_requests/${mr.body.iid}/pipelines`)).body).toHaveLength(2);
    expect((await call('GET', `${APP}/merge_requests/${mr.body.iid}`)).body.head_pipeline).toMatchObject({ id: again.body.id, source: 'merge_request_event' });
    expect((await call('POST', `${APP}/merge_requests/999/pipelines`)).status).toBe(404);
    // A push to its source branch: the branch's pipeline and the merge request's, at the new head.
    const pushed = await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'feature', commit_message: 'More', actions: [{ action: 'create', file_path: 'm.txt', content: 'm' }] });
    const newest = (await call('GET', `${APP}/pipelines`)).body.slice(0, 2).map((p: { source: string; sha: string }) => [p.source, p.sha]);
    expect(newest.sort()).toEqual([['merge_request_event', pushed.body.id], ['push', pushed.body.id]]);
    expect((await call('GET', `${APP}/merge_requests/${mr.body.iid}`)).body.head_pipeline).toMatchObject({ sha: pushed.body.id, source: 'merge_request_event' });
  });
});

describe('child pipelines', () => {
  it('start when their trigger job is queued, and a depending trigger job ends as its child ends', async () => {
    const e = world();
    const made = await call('POST', '/projects/acme%2Fparent/pipeline', 'dev-token', { ref: 'main' });
    expect(made.status).toBe(201);
    const ci = e.ci('acme/parent');
    const jobs = () => Object.fromEntries(ci.jobs(made.body.id).map((j) => [j.name, j.status]));
    const build = ci.jobs(made.body.id).find((j) => j.name === 'build')!;
    ci.start(build.id);
    ci.finish(build.id, { status: 'success' });
    expect(jobs()).toEqual({ build: 'success', child: 'running', after: 'created' });
    const bridge = ci.jobs(made.body.id).find((j) => j.name === 'child')!;
    const child = ci.getPipeline(bridge.downstreamId!);
    expect(child).toMatchObject({ parentId: made.body.id, source: 'parent_pipeline', ref: 'main', status: 'pending' });
    for (const j of ci.jobs(child.id)) {
      ci.start(j.id);
      ci.finish(j.id, { status: 'success' });
    }
    expect(ci.getPipeline(child.id).status).toBe('success');
    expect(jobs()).toEqual({ build: 'success', child: 'success', after: 'pending' });
    const bridges = await call('GET', `/projects/acme%2Fparent/pipelines/${made.body.id}/bridges`, 'dev-token');
    expect(bridges.body).toEqual([expect.objectContaining({ name: 'child', status: 'success', downstream_pipeline: expect.objectContaining({ id: child.id, source: 'parent_pipeline' }) })]);
    expect(bridges.body[0].runner).toBeUndefined();
    const listed = (await call('GET', `/projects/acme%2Fparent/pipelines/${made.body.id}/jobs`, 'dev-token')).body.map((j: { name: string }) => j.name);
    expect(listed.sort()).toEqual(['after', 'build']);
  });
});
