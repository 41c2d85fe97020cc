// The job token scope (lib/api/ci/job_token_scope.rb): a project's maintainers read and switch
// it and keep its inbound allowlists of projects and groups; a job of a project on the allowlist
// reaches the project, one of any other project is refused.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld(
  {
    users: TEAM,
    groups: [ACME, { path: 'friends', visibility: 'private' }],
    projects: [
      teamProject({ repository: { files: { 'README.md': '# App\n' } } }),
      teamProject({ path: 'other', repository: { files: { 'README.md': '# Other\n' } } }),
      { namespace: 'root', path: 'secret', visibility: 'private', creator: 'root' },
    ],
  },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown; headers?: Record<string, string> } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';
const idOf = async (path: string) => (await (await call(path)).json()).id as number;

describe('job token scope', () => {
  it('is on for a new project, and stays on while the instance enforces it (GitLab 18\'s default)', async () => {
    expect(await body(await call(`${APP}/job_token_scope`, { token: 'maintainer-token' }))).toEqual([200, { inbound_enabled: true, outbound_enabled: false }]);
    expect((await call(`${APP}/job_token_scope`, { method: 'PATCH', json: { enabled: false } })).status).toBe(204);
    expect(await (await call(`${APP}/job_token_scope`)).json()).toEqual({ inbound_enabled: true, outbound_enabled: false });
    expect(await body(await call(`${APP}/job_token_scope`, { method: 'PATCH', json: {} }))).toEqual([400, { message: '400 Bad request - "enabled" not given' }]);
  });

  it('is for maintainers: 403 for a developer, 404 for an outsider', async () => {
    expect((await call(`${APP}/job_token_scope`, { token: 'dev-token' })).status).toBe(403);
    expect((await call(`${APP}/job_token_scope/allowlist`, { token: 'outsider-token' })).status).toBe(404);
  });

  it('allowlists a project: the list has the project itself first; a job of the allowed project then reaches it', async () => {
    const other = await idOf('/projects/acme%2Fother');
    const app = await idOf(APP);
    const e = world();
    const pipeline = e.ci('acme/other').pipeline({ ref: 'main', user: 'dev' });
    const job = e.ci('acme/other').job(pipeline.id, { name: 'reader' });
    expect((await call(`${APP}/pipelines`, { token: undefined, headers: { 'JOB-TOKEN': job.token } })).status).toBe(403);
    expect(await body(await call(`${APP}/job_token_scope/allowlist`, { method: 'POST', token: 'maintainer-token', json: { target_project_id: other } })))
      .toEqual([201, { source_project_id: app, target_project_id: other }]);
    expect((await (await call(`${APP}/job_token_scope/allowlist`)).json()).map((p: any) => p.path_with_namespace)).toEqual(['acme/app', 'acme/other']);
    expect((await call(`${APP}/pipelines`, { token: undefined, headers: { 'JOB-TOKEN': job.token } })).status).toBe(200);
    expect(await body(await call(`${APP}/job_token_scope/allowlist`, { method: 'POST', json: { target_project_id: other } }))).toEqual([400, { message: 'Target project is already in the job token scope' }]);
    expect((await call(`${APP}/job_token_scope/allowlist/${other}`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`${APP}/pipelines`, { token: undefined, headers: { 'JOB-TOKEN': job.token } })).status).toBe(403);
    expect(await body(await call(`${APP}/job_token_scope/allowlist/${other}`, { method: 'DELETE' }))).toEqual([400, { message: 'Target project is not in the job token scope' }]);
    expect(await body(await call(`${APP}/job_token_scope/allowlist/${app}`, { method: 'DELETE' }))).toEqual([400, { message: 'Source project cannot be removed from the job token scope' }]);
  });

  it('refuses a project the caller cannot see or that does not exist', async () => {
    const secret = await idOf('/projects/root%2Fsecret');
    expect(await body(await call(`${APP}/job_token_scope/allowlist`, { method: 'POST', token: 'maintainer-token', json: { target_project_id: secret } })))
      .toEqual([404, { message: '404 target_project_id not found Not Found' }]);
    expect((await call(`${APP}/job_token_scope/allowlist`, { method: 'POST', json: { target_project_id: 9999 } })).status).toBe(404);
    expect((await (await call(`${APP}/job_token_scope/allowlist`)).json()).length).toBe(1);
  });

  it('allowlists and removes groups', async () => {
    const friends = await idOf('/groups/friends');
    const app = await idOf(APP);
    expect(await body(await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', json: { target_group_id: friends } })))
      .toEqual([201, { source_project_id: app, target_group_id: friends }]);
    expect(await (await call(`${APP}/job_token_scope/groups_allowlist`)).json()).toEqual([{ id: friends, web_url: 'https://gitlab.example.com/groups/friends', name: 'friends' }]);
    expect((await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', json: { target_group_id: friends } })).status).toBe(400);
    expect((await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', token: 'maintainer-token', json: { target_group_id: friends } })).status).toBe(404);
    expect((await call(`${APP}/job_token_scope/groups_allowlist/${friends}`, { method: 'DELETE' })).status).toBe(204);
    expect(await (await call(`${APP}/job_token_scope/groups_allowlist`)).json()).toEqual([]);
  });
});
