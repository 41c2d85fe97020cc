// Project, group and system hooks (lib/api/project_hooks.rb, group_hooks.rb, system_hooks.rb,
// lib/api/hooks/*): every event flag, a token that is never shown, URL variables and custom
// headers shown by name only, the branch filter strategies, and GitLab's refusals.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, idOf, seededWorld, teamProject } from './support/world.js';

const NOW = '2026-05-04T10:00:00Z';
const world = seededWorld(
  {
    instance: { tier: 'premium' },
    users: TEAM,
    groups: [{ ...ACME, members: [{ user: 'mai', access_level: 'owner' }] }],
    projects: [teamProject()],
  },
  NOW,
);

const P = '/projects/acme%2Fapp/hooks';
const call = (path: string, method = 'GET', json?: unknown, token = 'maintainer-token') => apiCall(world(), path, { method, token, json });

describe('project hooks', () => {
  it('a maintainer adds one: GitLab\'s defaults, push events on, no token shown', async () => {
    const res = await call(P, 'POST', { url: 'https://hooks.example.com/in', token: 's3cret' });
    expect(res.status).toBe(201);
    const hook = await res.json();
    expect(hook).toEqual({
      id: 1, url: 'https://hooks.example.com/in', name: null, description: null, created_at: '2026-05-04T10:00:00.000Z',
      push_events: true, tag_push_events: false, merge_requests_events: false, repository_update_events: false, enable_ssl_verification: true,
      alert_status: 'executable', disabled_until: null, url_variables: [], push_events_branch_filter: null, branch_filter_strategy: 'wildcard',
      custom_webhook_template: null, custom_headers: [], project_id: 1,
      issues_events: false, confidential_issues_events: false, note_events: false, confidential_note_events: false, pipeline_events: false,
      wiki_page_events: false, deployment_events: false, feature_flag_events: false, job_events: false, releases_events: false, milestone_events: false,
      emoji_events: false, resource_access_token_events: false, resource_deploy_token_events: false, vulnerability_events: false,
    });
    expect(JSON.stringify(hook)).not.toContain('s3cret');
  });

  it('takes every flag, a name, URL variables and custom headers, showing their names only', async () => {
    const flags = ['push_events', 'issues_events', 'confidential_issues_events', 'merge_requests_events', 'tag_push_events', 'note_events', 'confidential_note_events', 'job_events', 'pipeline_events', 'wiki_page_events', 'deployment_events', 'feature_flag_events', 'releases_events', 'milestone_events', 'emoji_events', 'resource_access_token_events'];
    const body: Record<string, unknown> = { url: 'https://hooks.example.com/{path}?t={tok}', name: 'bot', description: 'the bot', url_variables: [{ key: 'path', value: 'in' }, { key: 'tok', value: 'hidden' }], custom_headers: [{ key: 'X-Custom', value: 'v' }] };
    for (const f of flags) body[f] = true;
    const hook = await (await call(P, 'POST', body)).json();
    for (const f of flags) expect(hook[f]).toBe(true);
    expect(hook).toMatchObject({ name: 'bot', description: 'the bot', url: 'https://hooks.example.com/{path}?t={tok}', url_variables: [{ key: 'path' }, { key: 'tok' }], custom_headers: [{ key: 'X-Custom' }] });
    expect(JSON.stringify(hook)).not.toContain('hidden');
  });

  it('lists, reads, edits (nothing given is 400) and deletes', async () => {
    await call(P, 'POST', { url: 'https://a.example.com' });
    await call(P, 'POST', { url: 'https://b.example.com' });
    expect((await (await call(P)).json()).map((h: any) => h.url)).toEqual(['https://a.example.com', 'https://b.example.com']);
    expect(await (await call(`${P}/2`)).json()).toMatchObject({ id: 2, url: 'https://b.example.com' });
    const edited = await (await call(`${P}/2`, 'PUT', { note_events: true })).json();
    expect(edited).toMatchObject({ url: 'https://b.example.com', note_events: true, push_events: true });
    const none = await call(`${P}/2`, 'PUT', {});
    expect([none.status, await none.json()]).toEqual([400, { error: 'No parameters provided' }]);
    expect((await call(`${P}/2`, 'DELETE')).status).toBe(204);
    const gone = await call(`${P}/2`);
    expect([gone.status, await gone.json()]).toEqual([404, { message: '404 Not found' }]);
  });

  it('a new URL forgets the token, URL variables and custom headers not given with it', async () => {
    await call(P, 'POST', { url: 'https://a.example.com/{x}', token: 't', url_variables: [{ key: 'x', value: '1' }], custom_headers: [{ key: 'X-A', value: '1' }] });
    const same = await (await call(`${P}/1`, 'PUT', { name: 'n' })).json();
    expect(same).toMatchObject({ url_variables: [{ key: 'x' }], custom_headers: [{ key: 'X-A' }] });
    const moved = await (await call(`${P}/1`, 'PUT', { url: 'https://b.example.com' })).json();
    expect(moved).toMatchObject({ url_variables: [], custom_headers: [] });
  });

  it('sets and unsets URL variables and custom headers by key', async () => {
    await call(P, 'POST', { url: 'https://a.example.com/' });
    expect((await call(`${P}/1/url_variables/abc`, 'PUT', { value: 'v' })).status).toBe(204);
    expect((await call(`${P}/1/custom_headers/X-Thing`, 'PUT', { value: 'v' })).status).toBe(204);
    expect(await (await call(`${P}/1`)).json()).toMatchObject({ url_variables: [{ key: 'abc' }], custom_headers: [{ key: 'X-Thing' }] });
    expect((await call(`${P}/1/url_variables/abc`, 'DELETE')).status).toBe(204);
    const missing = await call(`${P}/1/url_variables/abc`, 'DELETE');
    expect([missing.status, await missing.json()]).toEqual([404, { message: '404 URL variable Not Found' }]);
    const bad = await call(`${P}/1/url_variables/no-dash`, 'PUT', { value: 'v' });
    expect([bad.status, await bad.json()]).toEqual([422, { error: 'Illegal key or value' }]);
    const h = await call(`${P}/1/custom_headers/nope`, 'DELETE');
    expect([h.status, await h.json()]).toEqual([404, { message: '404 Custom header Not Found' }]);
  });

  it('refuses a bad URL, a missing URL variable, a bad branch filter, and changes nothing', async () => {
    for (const body of [{ url: 'ftp://x.example.com' }, { url: 'not a url' }, { url: 'https://x.example.com/{v}' }]) {
      const res = await call(P, 'POST', body);
      expect([res.status, await res.json()]).toEqual([422, { error: 'Invalid url given' }]);
    }
    const missing = await call(P, 'POST', {});
    expect([missing.status, await missing.json()]).toEqual([400, { message: '400 Bad request - "url" not given' }]);
    for (const body of [{ push_events_branch_filter: 'a..b' }, { push_events_branch_filter: '(', branch_filter_strategy: 'regex' }]) {
      const res = await call(P, 'POST', { url: 'https://x.example.com', ...body });
      expect([res.status, await res.json()]).toEqual([422, { error: 'Invalid branch filter given' }]);
    }
    const strategy = await call(P, 'POST', { url: 'https://x.example.com', branch_filter_strategy: 'glob' });
    expect([strategy.status, await strategy.json()]).toEqual([400, { error: 'branch_filter_strategy does not have a valid value' }]);
    expect(await (await call(P)).json()).toEqual([]);
  });

  it('keeps branch filters by strategy; all_branches drops the filter', async () => {
    const w = await (await call(P, 'POST', { url: 'https://x.example.com', push_events_branch_filter: 'release/*' })).json();
    expect(w).toMatchObject({ push_events_branch_filter: 'release/*', branch_filter_strategy: 'wildcard' });
    const r = await (await call(P, 'POST', { url: 'https://x.example.com', push_events_branch_filter: '^(main|dev)$', branch_filter_strategy: 'regex' })).json();
    expect(r).toMatchObject({ push_events_branch_filter: '^(main|dev)$', branch_filter_strategy: 'regex' });
    const a = await (await call(`${P}/${r.id}`, 'PUT', { branch_filter_strategy: 'all_branches' })).json();
    expect(a).toMatchObject({ push_events_branch_filter: null, branch_filter_strategy: 'all_branches' });
  });

  it('is a maintainer\'s: a developer is 403, an outsider 404, anonymous 401', async () => {
    expect((await call(P, 'GET', undefined, 'dev-token')).status).toBe(403);
    expect((await call(P, 'POST', { url: 'https://x.example.com' }, 'dev-token')).status).toBe(403);
    expect((await call(P, 'GET', undefined, 'outsider-token')).status).toBe(404);
    expect((await apiCall(world(), P)).status).toBe(401);
  });

  it('a hook of another project is not found', async () => {
    await call(P, 'POST', { url: 'https://x.example.com' });
    const made = await apiCall(world(), '/projects', { method: 'POST', token: 'root-token', json: { name: 'other', namespace_id: idOf(world(), 'acme') } });
    expect(made.status).toBe(201);
    const other = await apiCall(world(), '/projects/acme%2Fother/hooks/1', { token: 'root-token' });
    expect(other.status).toBe(404);
  });
});

describe('group hooks', () => {
  const G = '/groups/acme/hooks';
  it('an owner manages them, with the group\'s own flags', async () => {
    const hook = await (await call(G, 'POST', { url: 'https://g.example.com', member_events: true, subgroup_events: true, project_events: true })).json();
    expect(hook).toMatchObject({ id: 1, group_id: idOf(world(), 'acme'), member_events: true, subgroup_events: true, project_events: true, push_events: true });
    expect(hook).not.toHaveProperty('project_id');
    expect((await (await call(G)).json()).length).toBe(1);
    expect(await (await call(`${G}/1`, 'PUT', { note_events: true })).json()).toMatchObject({ note_events: true });
    expect((await call(`${G}/1`, 'DELETE')).status).toBe(204);
  });

  it('a developer of the group is refused, and Free has none', async () => {
    expect((await call(G, 'GET', undefined, 'dev-token')).status).toBe(403);
    world().configure({ tier: 'free' });
    expect((await call(G)).status).toBe(404);
  });
});

describe('system hooks', () => {
  it('an administrator manages them: repository updates on by default, the instance\'s flags only', async () => {
    const res = await call('/hooks', 'POST', { url: 'http://127.0.0.1:9/hook', token: 't' }, 'root-token');
    expect(res.status).toBe(201);
    const hook = await res.json();
    expect(hook).toMatchObject({ id: 1, push_events: false, tag_push_events: false, merge_requests_events: false, repository_update_events: true, organization_id: 1 });
    expect(hook).not.toHaveProperty('issues_events');
    expect((await (await call('/hooks', 'GET', undefined, 'root-token')).json()).length).toBe(1);
    expect((await call('/hooks/1', 'DELETE', undefined, 'root-token')).status).toBe(204);
    expect((await call('/hooks/1', 'GET', undefined, 'root-token')).status).toBe(404);
  });

  it('are an administrator\'s only', async () => {
    expect((await call('/hooks', 'GET')).status).toBe(403);
  });
});
