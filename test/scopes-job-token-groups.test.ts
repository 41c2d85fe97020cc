// A group on a project's job token groups allowlist lets the jobs of its projects, and of its
// subgroups' projects, reach the project (Ci::JobToken::Scope#accessible?,
// Ci::JobToken::Allowlist#includes_group?); with the inbound scope off (possible only when the
// instance does not enforce it) any project's jobs reach it.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld(
  {
    users: TEAM,
    groups: [
      { ...ACME, members: TEAM_MEMBERS },
      { path: 'friends', visibility: 'private', members: [{ user: 'dev', access_level: 'developer' }] },
      { path: 'team', parent: 'friends', visibility: 'private' },
      { path: 'strangers', visibility: 'private', members: [{ user: 'dev', access_level: 'developer' }] },
    ],
    projects: [
      teamProject({ repository: { files: { 'README.md': '# App\n' } } }),
      { namespace: 'friends', path: 'tool', creator: 'root', repository: { files: { 'a.txt': 'a\n' } } },
      { namespace: 'friends/team', path: 'deep', creator: 'root', repository: { files: { 'a.txt': 'a\n' } } },
      { namespace: 'strangers', path: 'far', creator: 'root', repository: { files: { 'a.txt': 'a\n' } } },
    ],
  },
  '2026-05-04T10:00:00Z',
);
type Init = { method?: string; token?: string; json?: unknown; headers?: Record<string, string> };
const APP = '/projects/acme%2Fapp';

function setup() {
  const e = world();
  const call = (path: string, init: Init = {}) => apiCall(e, path, { token: 'root-token', ...init });
  const jobOf = (project: string) => {
    const pipeline = e.ci(project).pipeline({ ref: 'main', user: 'dev' });
    return e.ci(project).job(pipeline.id, { name: 'reader' }).token;
  };
  const asJob = (token: string, path = `${APP}/repository/files/README.md/raw?ref=main`) => call(path, { token: undefined, headers: { 'JOB-TOKEN': token } });
  const idOf = async (path: string) => (await (await call(path)).json()).id as number;
  return { e, call, jobOf, asJob, idOf };
}

describe('job token groups allowlist', () => {
  it('lets in the jobs of a group\'s projects and its subgroups\' projects, and no others', async () => {
    const { call, jobOf, asJob, idOf } = setup();
    const [tool, deep, far] = [jobOf('friends/tool'), jobOf('friends/team/deep'), jobOf('strangers/far')];
    const refused = await asJob(tool);
    expect([refused.status, await refused.json()]).toEqual([403, { message: '403 Forbidden - Authentication by CI/CD job token not allowed from friends/tool to acme/app.' }]);
    expect((await asJob(deep)).status).toBe(403);

    const friends = await idOf('/groups/friends');
    expect((await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', json: { target_group_id: friends } })).status).toBe(201);
    const read = await asJob(tool);
    expect([read.status, await read.text()]).toEqual([200, '# App\n']);
    expect((await asJob(deep)).status).toBe(200);
    const other = await asJob(far);
    expect([other.status, await other.json()]).toEqual([403, { message: '403 Forbidden - Authentication by CI/CD job token not allowed from strangers/far to acme/app.' }]);
  });

  it('allows only from the group down: a subgroup on the list does not let its parent\'s projects in', async () => {
    const { call, jobOf, asJob, idOf } = setup();
    const team = await idOf('/groups/friends%2Fteam');
    expect((await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', json: { target_group_id: team } })).status).toBe(201);
    expect((await asJob(jobOf('friends/team/deep'))).status).toBe(200);
    expect((await asJob(jobOf('friends/tool'))).status).toBe(403);
  });

  it('shuts the door again when the group is removed from the list', async () => {
    const { call, jobOf, asJob, idOf } = setup();
    const [friends, strangers] = [await idOf('/groups/friends'), await idOf('/groups/strangers')];
    const [tool, far] = [jobOf('friends/tool'), jobOf('strangers/far')];
    await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', json: { target_group_id: friends } });
    await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', json: { target_group_id: strangers } });
    expect((await asJob(tool)).status).toBe(200);
    expect((await call(`${APP}/job_token_scope/groups_allowlist/${friends}`, { method: 'DELETE' })).status).toBe(204);
    expect((await asJob(tool)).status).toBe(403);
    expect((await asJob(far)).status).toBe(200);
    expect(await (await call(`${APP}/job_token_scope/groups_allowlist`)).json()).toEqual([{ id: strangers, web_url: 'https://gitlab.example.com/groups/strangers', name: 'strangers' }]);
  });

  it('reaches the API routes under the project and its git repository alike', async () => {
    const { e, call, jobOf, asJob, idOf } = setup();
    const token = jobOf('friends/tool');
    const clone = () => e.handle(new Request('https://gitlab.example.com/acme/app.git/info/refs?service=git-upload-pack', {
      headers: { authorization: `Basic ${btoa(`gitlab-ci-token:${token}`)}` },
    }));
    expect((await clone()).status).toBe(403);
    await call(`${APP}/job_token_scope/groups_allowlist`, { method: 'POST', json: { target_group_id: await idOf('/groups/friends') } });
    expect((await clone()).status).toBe(200);
    expect((await asJob(token, `${APP}/pipelines`)).status).toBe(200);
  });

  it('is enforced while the instance enforces the scope; with that off, a project whose scope is off lets any job in', async () => {
    const { call, jobOf, asJob } = setup();
    const far = jobOf('strangers/far');
    expect((await call(`${APP}/job_token_scope`, { method: 'PATCH', json: { enabled: false } })).status).toBe(204);
    expect(await (await call(`${APP}/job_token_scope`)).json()).toEqual({ inbound_enabled: true, outbound_enabled: false });
    expect((await asJob(far)).status).toBe(403);

    const settings = await call('/application/settings', { method: 'PUT', json: { enforce_ci_inbound_job_token_scope_enabled: false } });
    expect((await settings.json()).enforce_ci_inbound_job_token_scope_enabled).toBe(false);
    expect(await (await call(`${APP}/job_token_scope`)).json()).toEqual({ inbound_enabled: false, outbound_enabled: false });
    expect((await asJob(far)).status).toBe(200);
    // Only the project whose scope is off: another keeps its own, on by default.
    expect((await asJob(far, '/projects/friends%2Ftool/repository/files/a.txt/raw?ref=main')).status).toBe(403);

    expect((await call(`${APP}/job_token_scope`, { method: 'PATCH', json: { enabled: true } })).status).toBe(204);
    expect(await (await call(`${APP}/job_token_scope`)).json()).toEqual({ inbound_enabled: true, outbound_enabled: false });
    expect((await asJob(far)).status).toBe(403);
  });

  it('is on by default for the instance (GitLab 18)', async () => {
    const { call } = setup();
    expect((await (await call('/application/settings')).json()).enforce_ci_inbound_job_token_scope_enabled).toBe(true);
  });
});
