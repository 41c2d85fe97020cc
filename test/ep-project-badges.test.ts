// Badges (lib/api/badges.rb): a project's maintainers and a group's owners add, change and remove
// them; anyone who sees the source reads them; a project shows its groups' badges too, and its
// badges' URLs come back rendered with the project's placeholders.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, TEAM_MEMBERS, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld(
  {
    users: TEAM,
    groups: [{ ...ACME, members: [{ user: 'out', access_level: 'owner' }, ...TEAM_MEMBERS] }, { path: 'sub', parent: 'acme', visibility: 'public' }],
    projects: [teamProject({ path: 'app', name: 'The App', visibility: 'public', repository: { commits: [{ message: 'first', files: { 'README.md': 'hi' } }] } }), { namespace: 'acme/sub', path: 'deep', visibility: 'public', creator: 'root' }],
  },
  '2026-05-04T10:00:00Z',
);
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

describe('project badges', () => {
  it('a maintainer adds one; its URLs render the project\'s placeholders', async () => {
    const res = await call(`${APP}/badges`, {
      method: 'POST', token: 'maintainer-token',
      json: { name: 'coverage', link_url: 'https://ci.example/%{project_path}/-/%{default_branch}?id=%{project_id}', image_url: 'https://img.example/%{project_name}/%{commit_sha}/%{latest_tag}.svg' },
    });
    expect(res.status).toBe(201);
    const made = await res.json();
    const project = await (await call(APP)).json();
    const sha = (await (await call(`${APP}/repository/branches/main`)).json()).commit.id;
    expect(made).toEqual({
      name: 'coverage',
      link_url: 'https://ci.example/%{project_path}/-/%{default_branch}?id=%{project_id}',
      image_url: 'https://img.example/%{project_name}/%{commit_sha}/%{latest_tag}.svg',
      rendered_link_url: `https://ci.example/acme/app/-/main?id=${project.id}`,
      rendered_image_url: `https://img.example/app/${sha}/%{latest_tag}.svg`,
      id: 1, kind: 'project',
    });
    expect(await body(await apiCall(world(), `${APP}/badges/1`))).toEqual([200, made]);
    expect(await (await apiCall(world(), `${APP}/badges`)).json()).toEqual([made]);
  });

  it('changes and deletes one; an unknown one is 404 Not found', async () => {
    await call(`${APP}/badges`, { method: 'POST', json: { link_url: 'http://example/img.svg', image_url: 'http://example.com' } });
    const res = await call(`${APP}/badges/1`, { method: 'PUT', json: { image_url: 'http://another.example.com' } });
    expect(await res.json()).toMatchObject({ id: 1, name: null, link_url: 'http://example/img.svg', image_url: 'http://another.example.com' });
    expect((await call(`${APP}/badges/1`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${APP}/badges/1`))).toEqual([404, { message: '404 Not found' }]);
    expect(await body(await call(`${APP}/badges/1`, { method: 'PUT', json: { name: 'x' } }))).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses a URL that is not http(s), and changes nothing', async () => {
    let res = await call(`${APP}/badges`, { method: 'POST', json: { link_url: 'ftp://example', image_url: 'nonsense' } });
    expect(await body(res)).toEqual([400, { message: { link_url: ['is blocked: Only allowed schemes are http, https'], image_url: ['must be a valid URL'] } }]);
    await call(`${APP}/badges`, { method: 'POST', json: { link_url: 'http://a.example', image_url: 'http://b.example' } });
    res = await call(`${APP}/badges/1`, { method: 'PUT', json: { link_url: 'javascript:alert(1)' } });
    expect(res.status).toBe(400);
    expect((await (await call(`${APP}/badges/1`)).json()).link_url).toBe('http://a.example');
  });

  it('previews a badge without keeping it', async () => {
    const res = await call(`${APP}/badges/render?link_url=${encodeURIComponent('https://x.example/%{project_title}')}&image_url=${encodeURIComponent('https://y.example/%{group_name}/%{gitlab_server}')}`);
    expect(await body(res)).toEqual([200, {
      name: null, link_url: 'https://x.example/%{project_title}', image_url: 'https://y.example/%{group_name}/%{gitlab_server}',
      rendered_link_url: 'https://x.example/The App', rendered_image_url: 'https://y.example/acme/gitlab.example.com',
    }]);
    expect(await (await call(`${APP}/badges`)).json()).toEqual([]);
  });

  it('is for maintainers: a developer 403, anonymous 401 on writes, reads for anyone who sees the project', async () => {
    expect((await call(`${APP}/badges`, { method: 'POST', token: 'dev-token', json: { link_url: 'http://a.example', image_url: 'http://b.example' } })).status).toBe(403);
    expect((await apiCall(world(), `${APP}/badges`, { method: 'POST', json: { link_url: 'http://a.example', image_url: 'http://b.example' } })).status).toBe(401);
    expect((await call(`${APP}/badges/render?link_url=http://a.example&image_url=http://b.example`, { token: 'dev-token' })).status).toBe(403);
    expect((await apiCall(world(), `${APP}/badges`)).status).toBe(200);
    expect(await body(await call('/projects/acme%2Fnope/badges'))).toEqual([404, { message: '404 Project Not Found' }]);
  });
});

describe('group badges', () => {
  it('an owner adds one; it shows, rendered, on the group\'s projects down the hierarchy, unrendered on the group', async () => {
    const res = await call('/groups/acme/badges', { method: 'POST', token: 'outsider-token', json: { name: 'g', link_url: 'https://g.example/%{project_path}', image_url: 'https://g.example/i.svg' } });
    expect(await body(res)).toEqual([201, {
      name: 'g', link_url: 'https://g.example/%{project_path}', image_url: 'https://g.example/i.svg',
      rendered_link_url: 'https://g.example/%{project_path}', rendered_image_url: 'https://g.example/i.svg', id: 1, kind: 'group',
    }]);
    await call(`${APP}/badges`, { method: 'POST', json: { name: 'p', link_url: 'http://a.example', image_url: 'http://b.example' } });
    expect((await (await call(`${APP}/badges`)).json()).map((b: any) => [b.id, b.kind, b.rendered_link_url])).toEqual([
      [1, 'group', 'https://g.example/acme/app'],
      [2, 'project', 'http://a.example'],
    ]);
    expect((await (await call('/projects/acme%2Fsub%2Fdeep/badges')).json()).map((b: any) => b.rendered_link_url)).toEqual(['https://g.example/acme/sub/deep']);
    expect((await (await call(`${APP}/badges?name=p`)).json()).map((b: any) => b.id)).toEqual([2]);
    expect((await (await call('/groups/acme/badges')).json()).map((b: any) => b.id)).toEqual([1]);
    expect(await (await call('/groups/acme%2Fsub/badges')).json()).toEqual([]);
  });

  it('a group\'s badge is removed through its group, not a project; a maintainer of the group may not', async () => {
    await call('/groups/acme/badges', { method: 'POST', json: { link_url: 'http://a.example', image_url: 'http://b.example' } });
    expect(await body(await call(`${APP}/badges/1`, { method: 'DELETE' }))).toEqual([403, { message: 'To delete a Group badge please use the Group endpoint' }]);
    expect((await call('/groups/acme/badges/1', { method: 'DELETE', token: 'maintainer-token' })).status).toBe(403);
    expect((await call('/groups/acme/badges/1', { method: 'PUT', token: 'outsider-token', json: { name: 'renamed' } })).status).toBe(200);
    expect((await call('/groups/acme/badges/1', { method: 'DELETE', token: 'outsider-token' })).status).toBe(204);
    expect(await (await call(`${APP}/badges`)).json()).toEqual([]);
  });
});
