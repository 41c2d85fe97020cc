// A commit's `status` and `last_pipeline` in GET /projects/:id/repository/commits/:sha: its
// newest pipeline (any ref, not a child), for whoever may read the project's pipelines.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, seededWorld, TEAM, teamProject, jsonCall } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({ repository: { files: { 'README.md': '# App\n', '.gitlab-ci.yml': 'build:\n  script: [make]\n' }, branches: { feature: 'main' } } }),
    { namespace: 'acme', path: 'open', visibility: 'public', creator: 'root', repository: { files: { '.gitlab-ci.yml': 'build:\n  script: [make]\n' } } },
  ],
};
const world = seededWorld(FIXTURE, '2024-03-01T12:00:00.000Z');
const APP = '/projects/acme%2Fapp';

const call = (method: string, path: string, token: string | undefined = 'dev-token', json?: unknown) => jsonCall(world(), path, { method, token, json });

describe('GET .../repository/commits/:sha with pipelines', () => {
  it('is null for a commit without pipelines', async () => {
    const c = await call('GET', `${APP}/repository/commits/main`);
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ status: null, last_pipeline: null });
  });

  it('shows the newest pipeline of the commit, on any ref, and follows its status', async () => {
    const first = await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'main' });
    const second = await call('POST', `${APP}/pipeline`, 'dev-token', { ref: 'feature' });
    expect(second.status).toBe(201);
    let c = await call('GET', `${APP}/repository/commits/${first.body.sha}`);
    expect(c.body.status).toBe('pending');
    expect(c.body.last_pipeline).toMatchObject({ id: second.body.id, ref: 'feature', sha: first.body.sha, status: 'pending', source: 'api' });
    expect(Object.keys(c.body.last_pipeline).sort()).toEqual(Object.keys((await call('GET', `${APP}/pipelines`)).body[0]).sort());
    const [job] = world().ci('acme/app').jobs(second.body.id);
    world().ci('acme/app').finish(job!.id, { status: 'failed' });
    c = await call('GET', `${APP}/repository/commits/${first.body.sha}`);
    expect(c.body).toMatchObject({ status: 'failed', last_pipeline: { id: second.body.id, status: 'failed' } });
    // The newest deleted: the one before it.
    expect((await call('DELETE', `${APP}/pipelines/${second.body.id}`, 'root-token')).status).toBe(204);
    c = await call('GET', `${APP}/repository/commits/${first.body.sha}`);
    expect(c.body).toMatchObject({ status: 'pending', last_pipeline: { id: first.body.id } });
  });

  it('a push\'s pipeline is its commit\'s', async () => {
    const commit = await call('POST', `${APP}/repository/commits`, 'dev-token', { branch: 'main', commit_message: 'Go', actions: [{ action: 'create', file_path: 'b.txt', content: 'b' }] });
    expect(commit.status).toBe(201);
    const c = await call('GET', `${APP}/repository/commits/${commit.body.id}`);
    expect(c.body).toMatchObject({ status: 'pending', last_pipeline: { sha: commit.body.id, ref: 'main', source: 'push' } });
  });

  it('hides them from who may not read the pipelines', async () => {
    const made = await call('POST', '/projects/acme%2Fopen/pipeline', 'root-token', { ref: 'main' });
    const visible = await call('GET', `/projects/acme%2Fopen/repository/commits/${made.body.sha}`, undefined);
    expect(visible.body).toMatchObject({ status: 'pending', last_pipeline: { id: made.body.id } });
    expect((await call('PUT', '/projects/acme%2Fopen', 'root-token', { public_jobs: false })).status).toBe(200);
    expect(made.status).toBe(201);
    const anonymous = await call('GET', `/projects/acme%2Fopen/repository/commits/${made.body.sha}`, undefined);
    expect(anonymous.status).toBe(200);
    expect(anonymous.body).toMatchObject({ status: null, last_pipeline: null });
    const root = await call('GET', `/projects/acme%2Fopen/repository/commits/${made.body.sha}`, 'root-token');
    expect(root.body).toMatchObject({ status: 'pending', last_pipeline: { id: made.body.id } });
  });
});
