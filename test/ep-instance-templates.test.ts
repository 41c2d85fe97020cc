// Dockerfile, .gitlab-ci.yml and license templates (lib/api/templates.rb): GitLab's own files,
// listed as {key, name} in GitLab's order and read one by one; licenses as Entities::License with
// the year, project and full name filled in.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG_FILE, buildCatalog } from '../scripts/build-templates.js';
import { DOCKERFILE_TEMPLATES, GITLAB_CI_YML_TEMPLATES, LICENSE_TEMPLATES } from '../src/families/templates/catalog.js';
import { TEAM, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({ users: TEAM }, '2026-05-04T10:00:00Z');
const get = (path: string, token?: string) => apiCall(world(), path, { token });

describe('the bundled catalog', () => {
  it('is up to date with fixtures/ (run `npx tsx scripts/build-templates.ts`)', () => {
    expect(readFileSync(CATALOG_FILE, 'utf8')).toBe(buildCatalog());
  });

  it('holds GitLab\'s own files: more than a page of .gitlab-ci.yml, General before Pages', () => {
    expect(GITLAB_CI_YML_TEMPLATES.length).toBeGreaterThan(20);
    const names = GITLAB_CI_YML_TEMPLATES.map((t) => t.name);
    expect(names[names.length - 1]).toBe('HTML');
    expect(names.slice(0, -1)).toEqual([...names.slice(0, -1)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(DOCKERFILE_TEMPLATES.find((t) => t.key === 'Node')!.content).toMatch(/^FROM node:/);
    expect(LICENSE_TEMPLATES.map((l) => l.key)).toContain('bsd-2-clause');
  });
});

describe('GET /templates/gitlab_ci_ymls and /templates/dockerfiles', () => {
  it('lists a page of {key, name} with a next page, to anyone', async () => {
    const res = await get('/templates/gitlab_ci_ymls', 'garbage');
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toHaveLength(20);
    expect(body[0]).toEqual({ key: 'Bash', name: 'Bash' });
    expect(res.headers.get('x-total')).toBe(String(GITLAB_CI_YML_TEMPLATES.length));
    expect(res.headers.get('x-next-page')).toBe('2');
  });

  it('reads one as {name, content}; an unknown one is 404 named by its kind', async () => {
    let res = await get('/templates/gitlab_ci_ymls/Nodejs');
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['name', 'content']);
    expect(body.content).toContain('image: node:latest');
    res = await get('/templates/dockerfiles/Node');
    expect(await res.json()).toMatchObject({ name: 'Node', content: expect.stringContaining('FROM node:7.9') });
    res = await get('/templates/dockerfiles/node');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 dockerfile Not Found' }]);
    res = await get('/templates/gitlab_ci_ymls/Nope');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 gitlab_ci_yml Not Found' }]);
    res = await get('/templates/gitlab_ci_ymls/C++');
    expect([res.status, await res.json()]).toEqual([404, { error: '404 Not Found' }]);
  });
});

describe('GET /templates/licenses', () => {
  it('lists the licenses that are not hidden, by key; popular=true only the featured ones', async () => {
    const all = await (await get('/templates/licenses?per_page=100')).json();
    expect(all.map((l: any) => l.key)).toEqual(LICENSE_TEMPLATES.filter((l) => !l.hidden).map((l) => l.key));
    const popular = await (await get('/templates/licenses?popular=true')).json();
    expect(popular.map((l: any) => l.key)).toEqual(['apache-2.0', 'gpl-3.0', 'mit']);
    expect((await (await get('/templates/licenses?popular=false&per_page=100')).json()).length).toBe(all.length);
    expect(Object.keys(all[0])).toEqual([
      'key', 'name', 'nickname', 'html_url', 'source_url', 'popular', 'description', 'conditions', 'permissions', 'limitations', 'content',
    ]);
  });

  it('reads one with [year], [project] and [fullname] filled in; the caller\'s name by default', async () => {
    let res = await get('/templates/licenses/bsd-2-clause?project=mytestproject&fullname=mytestfullname');
    let body = await res.json();
    expect(body).toMatchObject({
      key: 'bsd-2-clause', name: 'BSD 2-Clause "Simplified" License', nickname: null, popular: false,
      html_url: 'http://choosealicense.com/licenses/bsd-2-clause/', source_url: 'https://spdx.org/licenses/BSD-2-Clause.html',
      conditions: ['include-copyright'], limitations: ['liability', 'warranty'],
    });
    expect(body.content).toContain('Copyright (c) 2026, mytestfullname');
    res = await get('/templates/licenses/MIT', 'dev-token');
    body = await res.json();
    expect(body.content).toMatch(/^MIT License\n\nCopyright \(c\) 2026 \S/);
    expect(body.content).not.toContain('[fullname]');
    res = await get('/templates/licenses/mit');
    expect((await res.json()).content).toContain('[fullname]');
    res = await get('/templates/licenses/wtfpl');
    expect([res.status, await res.json()]).toEqual([404, { message: '404 License Not Found' }]);
  });
});
