// Forks (lib/api/projects.rb, Projects::ForkService): a fork copies the project and its
// repository into a namespace the caller may create projects in, names where it came from,
// and is counted and listed on its source; administrators link forks, owners unlink them.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld(
  {
    users: TEAM,
    groups: [ACME],
    projects: [
      teamProject({ visibility: 'internal', repository: { files: { 'README.md': '# App\n' }, branches: { 'feature/x': 'main' }, tags: { 'v1.0': 'main' } } }),
      { namespace: 'acme', path: 'loose', visibility: 'public', creator: 'root' },
    ],
  },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'dev-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

describe('forks', () => {
  it('a member forks a project into their namespace: its repository, its source named, counted and listed', async () => {
    const source = await (await call(APP)).json();
    const res = await call(`${APP}/fork`, { method: 'POST', json: { namespace: 'dev' } });
    expect(res.status).toBe(201);
    const fork = await res.json();
    expect(fork).toMatchObject({ path_with_namespace: 'dev/app', visibility: 'internal', default_branch: 'main', forked_from_project: { id: source.id, path_with_namespace: 'acme/app' } });
    const branches = (await (await call(`/projects/${fork.id}/repository/branches`)).json()).map((b: any) => b.name);
    expect(branches).toEqual(['feature/x', 'main']);
    expect((await (await call(`/projects/${fork.id}/repository/files/README.md/raw?ref=main`)).text())).toBe('# App\n');
    expect((await (await call(`/projects/${fork.id}/repository/tags`)).json()).map((t: any) => t.name)).toEqual(['v1.0']);
    expect((await (await call(APP)).json()).forks_count).toBe(1);
    expect((await (await call(`${APP}/forks`)).json()).map((p: any) => p.id)).toEqual([fork.id]);
  });

  it('forks one branch only when asked, under another name', async () => {
    const fork = await (await call(`${APP}/fork`, { method: 'POST', json: { branches: 'feature/x', name: 'Mine', path: 'mine' } })).json();
    expect(fork).toMatchObject({ path_with_namespace: 'dev/mine', name: 'Mine', default_branch: 'feature/x' });
    expect((await (await call(`/projects/${fork.id}/repository/branches`)).json()).map((b: any) => b.name)).toEqual(['feature/x']);
  });

  it('answers 409 with the model\'s messages for a taken path, 404 for an unknown namespace, and makes nothing', async () => {
    await call(`${APP}/fork`, { method: 'POST' });
    expect(await body(await call(`${APP}/fork`, { method: 'POST' }))).toEqual([409, { message: { name: ['has already been taken'], path: ['has already been taken'] } }]);
    expect(await body(await call(`${APP}/fork`, { method: 'POST', json: { namespace: 'nowhere' } }))).toEqual([404, { message: '404 Target Namespace Not Found' }]);
    expect((await (await call(`${APP}/forks`)).json()).length).toBe(1);
    expect((await call(`${APP}/fork`, { method: 'POST', token: 'outsider-token' })).status).toBe(201);
  });

  it('an administrator links a fork, its owner unlinks it', async () => {
    const loose = await (await call('/projects/acme%2Floose')).json();
    const app = await (await call(APP)).json();
    expect((await call(`/projects/${loose.id}/fork/${app.id}`, { method: 'POST' })).status).toBe(403);
    const linked = await call(`/projects/${loose.id}/fork/${app.id}`, { method: 'POST', token: 'root-token' });
    expect([linked.status, (await linked.json()).forked_from_project?.id]).toEqual([201, app.id]);
    expect(await body(await call(`/projects/${loose.id}/fork/${app.id}`, { method: 'POST', token: 'root-token' }))).toEqual([409, { message: 'Project already forked' }]);
    expect((await call(`/projects/${loose.id}/fork`, { method: 'DELETE', token: 'root-token' })).status).toBe(204);
    expect((await call(`/projects/${loose.id}/fork`, { method: 'DELETE', token: 'root-token' })).status).toBe(304);
    expect((await (await call(`/projects/${loose.id}`, { token: 'root-token' })).json()).forked_from_project).toBeUndefined();
  });
});
