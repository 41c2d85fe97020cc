// Pages (lib/api/pages.rb) and Pages domains (lib/api/pages_domains.rb): a project's maintainers
// read and change its Pages settings and keep its custom domains; administrators list them all.
import { describe, expect, it } from 'vitest';
import { ACME, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const world = seededWorld({ users: TEAM, groups: [ACME, { path: 'sub', parent: 'acme' }], projects: [teamProject(), teamProject({ path: 'other' })] }, '2026-05-04T10:00:00Z');
const call = (path: string, init: { method?: string; token?: string; json?: unknown } = {}) => apiCall(world(), path, { token: 'root-token', ...init });
const body = async (res: Response) => [res.status, await res.json()];
const APP = '/projects/acme%2Fapp';

describe('pages settings', () => {
  it('a new project has a unique domain; a maintainer turns it off, the URL follows; the site is removed', async () => {
    const pages = await (await call(`${APP}/pages`, { token: 'maintainer-token' })).json();
    expect(pages).toEqual({ url: expect.stringMatching(/^http:\/\/app-[0-9a-z]{6}\.example\.com$/), deployments: [], is_unique_domain_enabled: true, force_https: false, primary_domain: null });
    const changed = await (await call(`${APP}/pages`, { method: 'PATCH', json: { pages_unique_domain_enabled: false, pages_https_only: true } })).json();
    expect(changed).toEqual({ url: 'http://acme.example.com/app', deployments: [], is_unique_domain_enabled: false, force_https: true, primary_domain: null });
    expect((await call(`${APP}/pages`, { method: 'DELETE' })).status).toBe(204);
    expect((await call(`${APP}/pages`, { token: 'dev-token' })).status).toBe(403);
  });
});

describe('pages domains', () => {
  it('a maintainer adds, reads, changes and removes a domain; an administrator lists them all', async () => {
    const res = await call(`${APP}/pages/domains`, { method: 'POST', token: 'maintainer-token', json: { domain: 'Foo.Domain.com' } });
    expect(await body(res)).toEqual([201, { domain: 'foo.domain.com', url: 'http://foo.domain.com', verified: false, verification_code: expect.stringMatching(/^[0-9a-f]{32}$/), enabled_until: null, auto_ssl_enabled: false }]);
    expect((await (await call(`${APP}/pages/domains`)).json()).map((d: any) => d.domain)).toEqual(['foo.domain.com']);
    const project = await (await call(APP)).json();
    expect((await (await call('/pages/domains')).json()).map((d: any) => [d.domain, d.project_id])).toEqual([['foo.domain.com', project.id]]);
    expect((await (await call(`${APP}/pages/domains/foo.domain.com`, { method: 'PUT', json: { auto_ssl_enabled: true } })).json()).auto_ssl_enabled).toBe(true);
    expect((await call(`${APP}/pages/domains/foo.domain.com`, { method: 'DELETE' })).status).toBe(204);
    expect(await body(await call(`${APP}/pages/domains/foo.domain.com`))).toEqual([404, { message: '404 Not found' }]);
  });

  it('refuses a taken domain (in any project), a bad one, one under the Pages host; others\' domains are not found', async () => {
    await call(`${APP}/pages/domains`, { method: 'POST', json: { domain: 'foo.domain.com' } });
    expect(await body(await call('/projects/acme%2Fother/pages/domains', { method: 'POST', json: { domain: 'FOO.domain.com' } }))).toEqual([400, { message: { domain: ['has already been taken'] } }]);
    expect(await body(await call(`${APP}/pages/domains`, { method: 'POST', json: { domain: 'not a domain' } }))).toEqual([400, { message: { domain: ['is not a valid hostname'] } }]);
    expect((await call(`${APP}/pages/domains`, { method: 'POST', json: { domain: 'me.example.com' } })).status).toBe(400);
    expect((await call('/projects/acme%2Fother/pages/domains/foo.domain.com')).status).toBe(404);
    expect((await call('/pages/domains', { token: 'maintainer-token' })).status).toBe(403);
  });
});
