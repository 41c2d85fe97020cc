// Releases (content-api.md "Releases"; the reference's release checklist, from
// spec/requests/api/releases_spec.rb), release fixtures, and the list's ordering as a property.
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { createEmulator, EmulatorError, type Emulator, type Fixture, type Snapshot } from '../src/index.js';
import { apiCall, pendingTasks, projectMilestones, projectRecord, releaseRecord, seededWorld, TEAM, teamProject, updateRefs, type CallInit } from './support/world.js';
import { deleteTagRef, setProtectedTag } from '../src/families/repositories/index.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [
    { path: 'acme', visibility: 'public', milestones: [{ title: 'g1' }, { title: 'sg1' }] },
    { path: 'team', parent: 'acme', visibility: 'public', milestones: [{ title: 't1' }] },
    { path: 'other', visibility: 'public' },
  ],
  projects: [
    teamProject({
      milestones: [{ title: 'm2', due_date: '2024-06-01' }, { title: 'm1', due_date: '2024-05-01' }],
      jobs: [
        { name: 'build', user: 'dev', token: 'job-token' },
        { name: 'old', user: 'dev', status: 'success', token: 'done-token' },
      ],
      repository: {
        files: { 'README.md': '# App\n' },
        commits: [{ message: 'Second', files: { 'b.txt': 'b\n' } }],
        tags: { 'v0.1': 'main~1', 'v0.2': 'main', 'v9.0': 'main', 'release/1.0': 'main', bare: 'main' },
        protected_tags: { 'v9*': { create_access_level: 'maintainer' } },
      },
      releases: [
        {
          tag_name: 'v0.1',
          name: 'First',
          description: 'Fixes **bugs**',
          created_at: '2024-01-01T00:00:00Z',
          released_at: '2024-01-02T00:00:00Z',
          author: 'dev',
          milestones: ['m1', 'm2'],
          links: [{ name: 'linux', url: 'https://downloads.example.com/app-linux', direct_asset_path: '/bin/app-linux', link_type: 'package' }],
        },
        { tag_name: 'v0.2', created_at: '2024-02-01T00:00:00Z', released_at: '2024-02-15T00:00:00Z' },
        { tag_name: 'release/1.0', created_at: '2024-02-10T00:00:00Z', released_at: '2024-04-01T00:00:00Z' },
      ],
    }),
    {
      namespace: 'acme',
      path: 'site',
      visibility: 'public',
      creator: 'root',
      members: [{ user: 'dev', access_level: 'developer' }],
      repository: { files: { 'index.html': 'hi\n' }, tags: { 'v1.0': 'main', 'v2.0': 'main' } },
      releases: [{ tag_name: 'v1.0', links: [{ name: 'site', url: 'https://cdn.example.com/site.zip', direct_asset_path: '/site.zip' }] }],
    },
    {
      namespace: 'acme/team',
      path: 'tool',
      visibility: 'private',
      creator: 'root',
      members: [{ user: 'dev', access_level: 'developer' }],
      milestones: [{ title: 'p1' }],
      repository: { files: { 'a.txt': 'a\n' }, tags: { 'v1': 'main', 'v2': 'main' } },
    },
    { namespace: 'other', path: 'x', visibility: 'public', creator: 'root', milestones: [{ title: 'elsewhere' }] },
  ],
};

const world = seededWorld(FIXTURE, NOW);
let e: Emulator;
let seeded: Snapshot;
beforeEach(() => {
  e = world();
  seeded = e.snapshot();
});
const api = (path: string, init?: CallInit) => apiCall(e, path, init);
const get = async (path: string, token?: string) => {
  const res = await api(path, { token });
  return { status: res.status, body: await res.json(), res };
};
const send = async (method: string, path: string, json: unknown, token?: string) => {
  const res = await api(path, { method, json, token });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text), res };
};

const APP = '/projects/acme%2Fapp';
const SITE = '/projects/acme%2Fsite';
const TOOL = '/projects/acme%2Fteam%2Ftool';
const tags = (list: { tag_name: string }[]) => list.map((r) => r.tag_name);
const project = (path: string) => projectRecord(e, `acme/${path}`);
const sha = (path: string, rev: string) => e.git(path).refs().tags[rev]!.commit;

describe('GET /projects/:id/releases', () => {
  it('lists by released_at, newest first, with the Release entity in GitLab order', async () => {
    const { status, body, res } = await get(`${APP}/releases`, 'maintainer-token');
    expect(status).toBe(200);
    expect(tags(body)).toEqual(['release/1.0', 'v0.2', 'v0.1']);
    expect(res.headers.get('x-total')).toBe('3');
    expect(res.headers.get('link')).toContain('order_by=released_at');
    expect(res.headers.get('link')).toContain('sort=desc');
    const first = body.find((r: { tag_name: string }) => r.tag_name === 'v0.1');
    expect(Object.keys(first)).toEqual([
      'name', 'tag_name', 'description', 'created_at', 'released_at', 'upcoming_release', 'author', 'commit', 'milestones',
      'commit_path', 'tag_path', 'assets', 'evidences', '_links',
    ]);
    expect(first).toMatchObject({
      name: 'First',
      description: 'Fixes **bugs**',
      created_at: '2024-01-01T00:00:00.000Z',
      released_at: '2024-01-02T00:00:00.000Z',
      upcoming_release: false,
      author: { username: 'dev', name: 'Dee Veloper', state: 'active', web_url: 'https://gitlab.example.com/dev' },
      commit: { id: sha('acme/app', 'v0.1'), title: 'Initial commit' },
      commit_path: `/acme/app/-/commit/${sha('acme/app', 'v0.1')}`,
      tag_path: '/acme/app/-/tags/v0.1',
      evidences: [],
    });
    expect(Object.keys(first.author)).toEqual(['id', 'username', 'name', 'state', 'locked', 'avatar_url', 'web_url']);
    expect(first._links).toEqual({
      closed_issues_url: 'https://gitlab.example.com/acme/app/-/issues?release_tag=v0.1&scope=all&state=closed',
      closed_merge_requests_url: 'https://gitlab.example.com/acme/app/-/merge_requests?release_tag=v0.1&scope=all&state=closed',
      edit_url: 'https://gitlab.example.com/acme/app/-/releases/v0.1/edit',
      merged_merge_requests_url: 'https://gitlab.example.com/acme/app/-/merge_requests?release_tag=v0.1&scope=all&state=merged',
      opened_issues_url: 'https://gitlab.example.com/acme/app/-/issues?release_tag=v0.1&scope=all&state=opened',
      opened_merge_requests_url: 'https://gitlab.example.com/acme/app/-/merge_requests?release_tag=v0.1&scope=all&state=opened',
      self: 'https://gitlab.example.com/acme/app/-/releases/v0.1',
    });
  });

  it('honours sort and order_by=created_at both ways, and refuses other orders', async () => {
    expect(tags((await get(`${APP}/releases?sort=asc`, 'dev-token')).body)).toEqual(['v0.1', 'v0.2', 'release/1.0']);
    expect(tags((await get(`${APP}/releases?order_by=created_at`, 'dev-token')).body)).toEqual(['release/1.0', 'v0.2', 'v0.1']);
    expect(tags((await get(`${APP}/releases?order_by=created_at&sort=asc`, 'dev-token')).body)).toEqual(['v0.1', 'v0.2', 'release/1.0']);
    const bad = await get(`${APP}/releases?order_by=semver`, 'dev-token');
    expect(bad).toMatchObject({ status: 400, body: { error: 'order_by does not have a valid value' } });
  });

  it('leaves description_html out unless include_html_description=true, then renders the Markdown', async () => {
    const plain = (await get(`${APP}/releases`, 'dev-token')).body;
    expect(plain.every((r: object) => !('description_html' in r))).toBe(true);
    const html = (await get(`${APP}/releases?include_html_description=true`, 'dev-token')).body;
    const first = html.find((r: { tag_name: string }) => r.tag_name === 'v0.1');
    expect(first.description_html).toBe('<p>Fixes <strong>bugs</strong></p>');
    expect(Object.keys(first).indexOf('description_html')).toBe(Object.keys(first).indexOf('upcoming_release') + 1);
  });

  it('filters by updated_before and updated_after', async () => {
    expect(tags((await get(`${APP}/releases?updated_before=2024-02-05T00:00:00Z`, 'dev-token')).body)).toEqual(['v0.2', 'v0.1']);
    expect(tags((await get(`${APP}/releases?updated_after=2024-02-05T00:00:00Z`, 'dev-token')).body)).toEqual(['release/1.0']);
  });

  it('marks a release in the future as upcoming', async () => {
    const body = (await get(`${APP}/releases`, 'dev-token')).body;
    expect(body.map((r: { upcoming_release: boolean }) => r.upcoming_release)).toEqual([true, false, false]);
  });

  it('escapes a slash of the tag in tag_path and the web URLs, and archives under the tag', async () => {
    const r = (await get(`${APP}/releases`, 'dev-token')).body[0];
    expect(r.tag_path).toBe('/acme/app/-/tags/release%2F1.0');
    expect(r._links.self).toBe('https://gitlab.example.com/acme/app/-/releases/release%2F1.0');
    expect(r.assets.sources[0]).toEqual({ format: 'zip', url: 'https://gitlab.example.com/acme/app/-/archive/release/1.0/app-release-1.0.zip' });
  });

  it('still lists a release whose tag is gone', async () => {
    updateRefs(e, 'acme/app', (refs) => void deleteTagRef(refs, 'v0.2'));
    expect(tags((await get(`${APP}/releases`, 'dev-token')).body)).toContain('v0.2');
  });

  it('shows a guest of a private project no commit, paths, sources or evidences, and counts links only', async () => {
    const { status, body } = await get(`${APP}/releases`, 'guest-token');
    expect(status).toBe(200);
    const first = body.find((r: { tag_name: string }) => r.tag_name === 'v0.1');
    expect(Object.keys(first)).toEqual(['name', 'tag_name', 'description', 'created_at', 'released_at', 'upcoming_release', 'author', 'milestones', 'assets', '_links']);
    expect(first.name).toBe('First');
    expect(first.assets).toEqual({
      count: 1,
      links: [{ id: expect.any(Number), name: 'linux', url: 'https://downloads.example.com/app-linux', direct_asset_url: 'https://gitlab.example.com/acme/app/-/releases/v0.1/downloads/bin/app-linux', link_type: 'package' }],
    });
    expect(first._links.edit_url).toBeUndefined();
  });

  it('is 404 to a non-member of a private project, 200 to anyone on a public one', async () => {
    expect(await get(`${APP}/releases`, 'outsider-token')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await get(`${APP}/releases`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const outsider = await get(`${SITE}/releases`, 'outsider-token');
    expect(outsider.status).toBe(200);
    expect(outsider.body[0]).toMatchObject({ tag_name: 'v1.0', commit_path: expect.any(String), assets: { count: 5 } });
    expect((await get(`${SITE}/releases`)).status).toBe(200);
  });

  it('is 403 when the releases feature is closed to the caller', async () => {
    expect((await send('PUT', SITE, { releases_access_level: 'private' }, 'root-token')).status).toBe(200);
    expect((await get(`${SITE}/releases`, 'outsider-token')).status).toBe(403);
    expect((await get(`${SITE}/releases`, 'dev-token')).status).toBe(200);
  });

  it('exposes milestones with issue_stats, ordered by dates then title, and hides them when issues and MRs are closed to the caller', async () => {
    const first = (await get(`${APP}/releases/v0.1`, 'dev-token')).body;
    expect(first.milestones.map((m: { title: string }) => m.title)).toEqual(['m1', 'm2']);
    expect(Object.keys(first.milestones[0])).toEqual([
      'id', 'iid', 'project_id', 'title', 'description', 'state', 'created_at', 'updated_at', 'due_date', 'start_date', 'expired', 'web_url', 'issue_stats',
    ]);
    expect(first.milestones[0]).toMatchObject({ due_date: '2024-05-01', expired: false, issue_stats: { total: 0, closed: 0 }, web_url: 'https://gitlab.example.com/acme/app/-/milestones/2' });
    const ms = await send('POST', '/projects/acme%2Fsite/milestones', { title: 'site-1' }, 'dev-token');
    await send('PUT', `${SITE}/releases/v1.0`, { milestone_ids: [ms.body.id] }, 'dev-token');
    expect((await get(`${SITE}/releases/v1.0`, 'outsider-token')).body.milestones).toHaveLength(1);
    await send('PUT', SITE, { issues_access_level: 'private', merge_requests_access_level: 'private' }, 'root-token');
    expect((await get(`${SITE}/releases/v1.0`, 'outsider-token')).body.milestones).toBeUndefined();
    expect((await get(`${SITE}/releases/v1.0`, 'dev-token')).body.milestones).toHaveLength(1);
  });

  it('accepts a CI job token, in the job_token parameter or the JOB-TOKEN header', async () => {
    expect((await get(`${APP}/releases?job_token=job-token`)).status).toBe(200);
    const res = await api(`${APP}/releases`, { headers: { 'JOB-TOKEN': 'job-token' } });
    expect(res.status).toBe(200);
    expect((await get(`${APP}/releases?job_token=done-token`)).body).toEqual({ message: '401 Unauthorized' });
    expect((await get(`${APP}/releases?job_token=nope`)).status).toBe(401);
  });

  it('paginates with GitLab headers', async () => {
    const { body, res } = await get(`${APP}/releases?per_page=2&page=2`, 'dev-token');
    expect(tags(body)).toEqual(['v0.1']);
    expect(res.headers.get('x-total-pages')).toBe('2');
    expect(res.headers.get('x-prev-page')).toBe('1');
  });
});

describe('GET /projects/:id/releases/:tag_name', () => {
  it('answers one release; four sources when it has no links', async () => {
    const { status, body } = await get(`${APP}/releases/v0.2`, 'dev-token');
    expect(status).toBe(200);
    expect(body.name).toBe('v0.2');
    expect(body.assets.count).toBe(4);
    expect(body.assets.sources.map((s: { format: string }) => s.format)).toEqual(['zip', 'tar.gz', 'tar.bz2', 'tar']);
    expect(body.assets.links).toEqual([]);
    expect(body.milestones).toBeUndefined();
    expect((await get(`${APP}/releases/release%2F1.0`, 'dev-token')).body.tag_name).toBe('release/1.0');
    expect((await get(`${APP}/releases/v0.2?include_html_description=true`, 'dev-token')).body.description_html).toBeNull();
  });

  it('is 404 Not Found for an unknown tag, 404 Project to anonymous, 403 to a guest (checked first)', async () => {
    expect(await get(`${APP}/releases/nope`, 'maintainer-token')).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(await get(`${APP}/releases/nope`)).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect(await get(`${APP}/releases/nope`, 'guest-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await get(`${APP}/releases/v0.1`, 'guest-token')).status).toBe(403);
    expect((await get(`${APP}/releases/v0.1?job_token=job-token`)).status).toBe(200);
  });
});

describe('GET /projects/:id/releases/:tag_name/downloads/*direct_asset_path', () => {
  it('redirects to the link of that path', async () => {
    const res = await api(`${APP}/releases/v0.1/downloads/bin/app-linux`, { token: 'dev-token' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://downloads.example.com/app-linux');
    expect(res.headers.get('content-type')).toBe('text/plain');
    expect(await res.text()).toBe('This resource has been moved temporarily to https://downloads.example.com/app-linux.');
    // Clients send the wildcard tail raw or with %2F: the same file.
    expect((await api(`${APP}/releases/v0.1/downloads/bin%2Fapp-linux`, { token: 'dev-token' })).headers.get('location')).toBe('https://downloads.example.com/app-linux');
    expect((await api(`${APP}/releases/v0.1/downloads/bin/app-linux?job_token=job-token`)).status).toBe(302);
    const pub = await api(`${SITE}/releases/v1.0/downloads/site.zip`);
    expect(pub.status).toBe(302);
    expect(pub.headers.get('location')).toBe('https://cdn.example.com/site.zip');
  });

  it('is 404 Not Found for an unknown release, 404 Not found for an unknown path, 403 to a guest', async () => {
    expect(await get(`${APP}/releases/nope/downloads/bin/app-linux`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(await get(`${APP}/releases/v0.1/downloads/bin/other`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect((await get(`${APP}/releases/v0.1/downloads`, 'dev-token')).status).toBe(404);
    expect((await get(`${APP}/releases/v0.1/downloads/bin/app-linux`, 'guest-token')).status).toBe(403);
  });

  it('refuses a traversal', async () => {
    expect(await get(`${APP}/releases/v0.1/downloads/bin%2F..%2F..%2Fsecret`, 'dev-token')).toMatchObject({
      status: 400,
      body: { error: 'direct_asset_path should be a valid file path' },
    });
  });
});

describe('GET /projects/:id/releases/permalink/latest', () => {
  it('redirects to the latest release by released_at, relative, by numeric id', async () => {
    const res = await api(`${APP}/releases/permalink/latest`, { token: 'dev-token' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/api/v4/projects/${project('app').id}/releases/release%2F1.0`);
  });

  it('keeps the suffix and the query, but order_by', async () => {
    const res = await api(`${APP}/releases/permalink/latest/downloads/bin/app-linux?order_by=created_at&include_html_description=true&x[]=1`, { token: 'dev-token' });
    expect(res.headers.get('location')).toBe(
      `/api/v4/projects/${project('app').id}/releases/release%2F1.0/downloads/bin/app-linux?include_html_description=true&x%5B%5D=1`,
    );
    const site = await api(`${SITE}/releases/permalink/latest/?b=2&a=1`);
    expect(site.headers.get('location')).toBe(`/api/v4/projects/${project('site').id}/releases/v1.0?a=1&b=2`);
    expect((await api(`${SITE}/releases/permalink/latest?job_token=job-token`)).status).toBe(403); // another project's job
  });

  it('is 404 without releases, 400 for a traversal, 403 to a guest', async () => {
    expect(await get(`${TOOL}/releases/permalink/latest`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not Found' } });
    expect(await get(`${APP}/releases/permalink/latest/..%2F..%2Fbranches`, 'dev-token')).toMatchObject({
      status: 400,
      body: { error: 'suffix_path should be a valid file path' },
    });
    expect((await get(`${APP}/releases/permalink/latest`, 'guest-token')).status).toBe(403);
  });
});

describe('POST /projects/:id/releases', () => {
  it('creates a release from an existing tag, with links, milestones, the default name and released_at now', async () => {
    const { status, body } = await send('POST', `${APP}/releases`, {
      tag_name: 'bare',
      description: 'Notes',
      milestones: 'm1,m2',
      assets: {
        links: [
          { name: 'a', url: 'https://example.com/a', filepath: '/bin/a' },
          { name: 'b', url: 'https://example.com/b', direct_asset_path: '/bin/b', link_type: 'image' },
        ],
      },
    }, 'dev-token');
    expect(status).toBe(201);
    expect(body).toMatchObject({ name: 'bare', tag_name: 'bare', description: 'Notes', released_at: NOW, created_at: NOW, upcoming_release: false });
    expect(body.author.username).toBe('dev');
    expect(body.milestones.map((m: { title: string }) => m.title)).toEqual(['m1', 'm2']);
    const links = body.assets.links.map((l: { name: string; direct_asset_url: string; link_type: string }) => [l.name, l.direct_asset_url, l.link_type]);
    expect(links).toEqual(
      expect.arrayContaining([
        ['a', 'https://gitlab.example.com/acme/app/-/releases/bare/downloads/bin/a', 'other'],
        ['b', 'https://gitlab.example.com/acme/app/-/releases/bare/downloads/bin/b', 'image'],
      ]),
    );
    expect(body.assets.count).toBe(6);
    // Released now: the evidence is collected with it.
    expect(body.evidence_sha).toMatch(/^[0-9a-f]{64}$/);
    expect(body.evidences).toEqual([{ sha: body.evidence_sha, filepath: expect.stringMatching(/\/-\/releases\/bare\/evidences\/\d+\.json$/), collected_at: NOW }]);
    expect(e.git('acme/app').refs().tags.bare).toBeDefined();
  });

  it('reads released_at as UTC without a zone and converts offsets; no evidence for upcoming or historical releases', async () => {
    const a = await send('POST', `${APP}/releases`, { tag_name: 'bare', released_at: '2019-03-25 10:00:00' }, 'dev-token');
    expect(a.body).toMatchObject({ released_at: '2019-03-25T10:00:00.000Z', evidences: [] });
    expect(a.body.evidence_sha).toBeUndefined();
    const b = await send('POST', `${SITE}/releases`, { tag_name: 'v2.0', released_at: '2030-03-25T10:00:00+09:00' }, 'dev-token');
    expect(b.body).toMatchObject({ released_at: '2030-03-25T01:00:00.000Z', upcoming_release: true, evidences: [] });
  });

  it('creates the tag from ref when it does not exist, annotated with tag_message', async () => {
    const main = e.git('acme/app').refs().branches.main;
    const r = await send('POST', `${APP}/releases`, { tag_name: 'v1.0', ref: 'main', tag_message: 'Tagged' }, 'dev-token');
    expect(r.status).toBe(201);
    expect(r.body.commit.id).toBe(main);
    const tag = e.git('acme/app').refs().tags['v1.0']!;
    expect(tag.commit).toBe(main);
    expect(tag.message).toBe('Tagged');
    expect(tag.target).not.toBe(main);
    await send('POST', `${APP}/releases`, { tag_name: 'v1.1', ref: 'v0.1' }, 'dev-token');
    expect(e.git('acme/app').refs().tags['v1.1']).toMatchObject({ commit: sha('acme/app', 'v0.1'), message: null });
  });

  it('never touches an existing tag, even with a ref', async () => {
    const before = e.git('acme/app').refs().tags.bare;
    expect((await send('POST', `${APP}/releases`, { tag_name: 'bare', ref: 'v0.1' }, 'dev-token')).status).toBe(201);
    expect(e.git('acme/app').refs().tags.bare).toEqual(before);
  });

  it('answers the errors in GitLab order, with its messages', async () => {
    const post = (json: object, token = 'dev-token') => send('POST', `${APP}/releases`, json, token);
    expect(await post({ name: 'x' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "tag_name" not given' } });
    expect(await post({ tag_name: 'bare' }, 'reporter-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect(await post({ tag_name: 'v9.0' })).toMatchObject({ status: 403, body: { message: 'You are not allowed to create this tag as it is protected.' } });
    expect(await post({ tag_name: 'v0.1' })).toMatchObject({ status: 409, body: { message: 'Release already exists' } });
    expect(await post({ tag_name: 'bare', milestones: ['m1', 'xyz', 'abc'] })).toMatchObject({ status: 400, body: { message: 'Milestone(s) not found: xyz, abc' } });
    expect(await post({ tag_name: 'bare', milestones: ['elsewhere'] })).toMatchObject({ status: 400, body: { message: 'Milestone(s) not found: elsewhere' } });
    expect(await post({ tag_name: 'bare', milestone_ids: [999] })).toMatchObject({ status: 400, body: { message: 'Milestone id(s) not found: 999' } });
    expect(await post({ tag_name: 'bare', milestones: ['m1'], milestone_ids: [1] })).toMatchObject({
      status: 400,
      body: { error: 'milestones, milestone_ids Cannot specify milestones and milestone_ids at the same time' },
    });
    expect(await post({ tag_name: 'new-tag' })).toMatchObject({ status: 422, body: { message: 'Ref is not specified' } });
    expect(await post({ tag_name: 'HEAD', ref: 'main' })).toMatchObject({ status: 400, body: { message: 'Tag name invalid' } });
    expect(await post({ tag_name: '', ref: 'main' })).toMatchObject({ status: 400, body: { message: 'Tag name invalid' } });
    expect(await post({ tag_name: 'new-tag', ref: 'nowhere' })).toMatchObject({ status: 400, body: { message: 'Target nowhere is invalid' } });
    expect(await post({ tag_name: 'new-tag', ref: '' })).toMatchObject({ status: 400, body: { message: 'Target is empty' } });
    expect(await post({ tag_name: 'bare', assets: { links: [{ name: 'x', url: 'https://a.example' }, { name: 'x', url: 'https://b.example' }] } })).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^Validation failed: Links have duplicate values \(x\) for #<Release:0x[0-9a-f]+> scope$/) },
    });
    expect(await post({ tag_name: 'bare', assets: { links: [{ name: 'x', url: 'gopher://a' }] } })).toMatchObject({
      status: 400,
      body: { message: 'Validation failed: Links url is blocked: Only allowed schemes are http, https, ftp' },
    });
    expect(await post({ tag_name: 'bare', assets: { links: [{ name: 'x', url: 'https://a.example', link_type: 'movie' }] } })).toMatchObject({
      status: 400,
      body: { message: "'movie' is not a valid link_type" },
    });
  });

  it('changes nothing when it fails after making the tag', async () => {
    const before = e.state;
    const r = await send('POST', `${APP}/releases`, { tag_name: 'v5', ref: 'main', assets: { links: [{ name: 'x', url: 'https://a' }, { name: 'x', url: 'https://b' }] } }, 'dev-token');
    expect(r.status).toBe(400);
    expect(e.state).toBe(before);
    expect(e.git('acme/app').refs().tags.v5).toBeUndefined();
  });

  it('lets a maintainer release a protected tag, and a developer when the rule lets developers create it', async () => {
    expect((await send('POST', `${APP}/releases`, { tag_name: 'v9.0' }, 'maintainer-token')).status).toBe(201);
    e.restore(seeded);
    updateRefs(e, 'acme/app', (refs) => setProtectedTag(refs, 'v9*', { createAccessLevel: 30 }));
    expect((await send('POST', `${APP}/releases`, { tag_name: 'v9.0' }, 'dev-token')).status).toBe(201);
  });

  it('is 404 to a non-member of a private project, 403 on a public one; 401 for a bad or finished job token', async () => {
    expect((await send('POST', `${APP}/releases`, { tag_name: 'bare' }, 'outsider-token')).status).toBe(404);
    expect((await send('POST', `${APP}/releases`, { tag_name: 'bare' })).status).toBe(404);
    expect((await send('POST', `${SITE}/releases`, { tag_name: 'v2.0' }, 'outsider-token')).status).toBe(403);
    expect((await send('POST', `${APP}/releases?job_token=nope`, { tag_name: 'bare' })).status).toBe(401);
    expect((await send('POST', `${APP}/releases?job_token=done-token`, { tag_name: 'bare' })).status).toBe(401);
    const job = await send('POST', `${APP}/releases?job_token=job-token`, { tag_name: 'bare' });
    expect(job.status).toBe(201);
    expect(job.body.author.username).toBe('dev');
  });

  it('names group milestones of the project group at a higher tier only, never an ancestor group', async () => {
    expect(await send('POST', `${TOOL}/releases`, { tag_name: 'v1', milestones: ['t1'] }, 'dev-token')).toMatchObject({
      status: 400,
      body: { message: 'Validation failed: Milestone releases is invalid, Milestone releases None of the group milestones have the same project as the release' },
    });
    expect(await send('POST', `${TOOL}/releases`, { tag_name: 'v1', milestones: ['sg1'] }, 'dev-token')).toMatchObject({
      status: 400,
      body: { message: 'Milestone(s) not found: sg1' },
    });
    e.configure({ tier: 'premium' });
    const ok = await send('POST', `${TOOL}/releases`, { tag_name: 'v1', milestones: ['t1', 'p1'] }, 'dev-token');
    expect(ok.status).toBe(201);
    expect(ok.body.milestones.map((m: { title: string; group_id?: number }) => [m.title, 'group_id' in m])).toEqual([['p1', false], ['t1', true]]);
    expect(ok.body.milestones[1].web_url).toBe('https://gitlab.example.com/groups/acme/team/-/milestones/1');
    expect((await send('POST', `${TOOL}/releases`, { tag_name: 'v2', milestones: ['g1'] }, 'dev-token')).body).toEqual({ message: 'Milestone(s) not found: g1' });
    e.configure({ tier: 'free' });
    expect(await send('PUT', `${TOOL}/releases/v1`, { milestones: ['t1'] }, 'dev-token')).toMatchObject({
      status: 400,
      body: { message: 'Validation failed: None of the group milestones have the same project as the release' },
    });
  });
});

describe('PUT /projects/:id/releases/:tag_name', () => {
  it('changes only what is given', async () => {
    e.clock.advance('1h');
    const r = await send('PUT', `${APP}/releases/v0.1`, { name: 'Renamed', released_at: '2024-01-03T00:00:00Z' }, 'dev-token');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Renamed', description: 'Fixes **bugs**', released_at: '2024-01-03T00:00:00.000Z' });
    expect(r.body.milestones).toHaveLength(2);
    const listed = (await get(`${APP}/releases?updated_after=2024-03-01T12:30:00Z`, 'dev-token')).body;
    expect(tags(listed)).toEqual(['v0.1']);
  });

  it('replaces milestones, clears them with [], keeps them when absent', async () => {
    expect((await send('PUT', `${APP}/releases/v0.1`, { milestones: ['m2'] }, 'dev-token')).body.milestones.map((m: { title: string }) => m.title)).toEqual(['m2']);
    expect((await send('PUT', `${APP}/releases/v0.1`, { description: 'x' }, 'dev-token')).body.milestones).toHaveLength(1);
    expect((await send('PUT', `${APP}/releases/v0.1`, { milestones: [] }, 'dev-token')).body.milestones).toBeUndefined();
    const m1 = projectMilestones(e, 'acme/app').find((m) => m.title === 'm1')!;
    const byId = (await send('PUT', `${APP}/releases/v0.1`, { milestone_ids: String(m1.id) }, 'dev-token')).body;
    expect(byId.milestones.map((m: { title: string }) => m.title)).toEqual(['m1']);
  });

  it('is 400 with nothing to change, 403 without the release or the role, 404 without the tag', async () => {
    expect(await send('PUT', `${APP}/releases/v0.1`, { sha: 'abc' }, 'dev-token')).toMatchObject({ status: 400, body: { message: 'params is empty' } });
    expect(await send('PUT', `${APP}/releases/v0.1`, {}, 'dev-token')).toMatchObject({ status: 400, body: { message: 'params is empty' } });
    expect(await send('PUT', `${APP}/releases/nope`, { name: 'x' }, 'dev-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await send('PUT', `${APP}/releases/v0.1`, { name: 'x' }, 'reporter-token')).status).toBe(403);
    expect((await send('PUT', `${APP}/releases/v0.1`, { name: 'x' }, 'outsider-token')).status).toBe(404);
    expect(await send('PUT', `${APP}/releases/v0.1`, { milestones: ['zzz'] }, 'dev-token')).toMatchObject({ status: 400, body: { message: 'Milestone(s) not found: zzz' } });
    updateRefs(e, 'acme/app', (refs) => void deleteTagRef(refs, 'v0.1'));
    expect(await send('PUT', `${APP}/releases/v0.1`, { name: 'x' }, 'dev-token')).toMatchObject({ status: 404, body: { message: 'Tag does not exist' } });
  });

  it('accepts a CI job token', async () => {
    expect((await send('PUT', `${APP}/releases/v0.1?job_token=job-token`, { name: 'By CI' })).body.name).toBe('By CI');
  });
});

describe('DELETE /projects/:id/releases/:tag_name', () => {
  it('answers 200 with the deleted release and keeps the tag', async () => {
    const r = await send('DELETE', `${APP}/releases/v0.1`, undefined, 'dev-token');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ tag_name: 'v0.1', name: 'First' });
    expect(r.body.assets.links).toHaveLength(1);
    expect((await get(`${APP}/releases/v0.1`, 'dev-token')).status).toBe(404);
    expect(e.git('acme/app').refs().tags['v0.1']).toBeDefined();
  });

  it('is 403 without the release, for a reporter, and for a protected tag the caller may not create', async () => {
    expect((await send('DELETE', `${APP}/releases/nope`, undefined, 'dev-token')).status).toBe(403);
    expect((await send('DELETE', `${APP}/releases/v0.1`, undefined, 'reporter-token')).status).toBe(403);
    expect((await send('POST', `${APP}/releases`, { tag_name: 'v9.0' }, 'maintainer-token')).status).toBe(201);
    expect((await send('DELETE', `${APP}/releases/v9.0`, undefined, 'dev-token')).status).toBe(403);
    expect((await send('DELETE', `${APP}/releases/v9.0`, undefined, 'maintainer-token')).status).toBe(200);
    expect((await send('DELETE', `${APP}/releases/v0.2?job_token=job-token`, undefined)).status).toBe(200);
  });
});

describe('POST /projects/:id/releases/:tag_name/evidence', () => {
  it('exists on a premium, self-managed instance only', async () => {
    expect((await send('POST', `${APP}/releases/v0.1/evidence`, undefined, 'dev-token')).body).toEqual({ error: '404 Not Found' });
    e.configure({ tier: 'premium', offering: 'hosted' });
    expect((await send('POST', `${APP}/releases/v0.1/evidence`, undefined, 'dev-token')).status).toBe(404);
  });

  it('accepts the work (202) and the evidence appears once the clock runs it', async () => {
    e.configure({ tier: 'premium' });
    const r = await send('POST', `${APP}/releases/v0.1/evidence`, undefined, 'dev-token');
    expect(r).toMatchObject({ status: 202, body: 202 });
    expect(pendingTasks(e)).toHaveLength(1);
    e.clock.advance('1m');
    const evidences = (await get(`${APP}/releases/v0.1`, 'dev-token')).body.evidences;
    expect(evidences).toEqual([{ sha: expect.stringMatching(/^[0-9a-f]{64}$/), filepath: expect.stringMatching(/^https:\/\/gitlab\.example\.com\/acme\/app\/-\/releases\/v0\.1\/evidences\/\d+\.json$/), collected_at: '2024-03-01T12:01:00.000Z' }]);
    const summary = releaseRecord(e, 'acme/app', 'v0.1').evidences[0]!.summary as { release: { tag_name: string; milestones: unknown[] } };
    expect(summary.release.tag_name).toBe('v0.1');
    expect(summary.release.milestones).toHaveLength(2);
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify(summary)))))
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    expect(evidences[0].sha).toBe(digest);
  });

  it('is 404 (a bare number) for an unknown release and 403 below developer', async () => {
    e.configure({ tier: 'ultimate' });
    expect(await send('POST', `${APP}/releases/nope/evidence`, undefined, 'dev-token')).toMatchObject({ status: 404, body: 404 });
    expect((await send('POST', `${APP}/releases/v0.1/evidence`, undefined, 'reporter-token')).status).toBe(403);
  });
});

describe('GET /groups/:id/releases', () => {
  it('lists the releases of the group and its subgroups that the caller may read', async () => {
    const root = await get('/groups/acme/releases', 'root-token');
    expect(tags(root.body)).toEqual(['release/1.0', 'v1.0', 'v0.2', 'v0.1']);
    expect(tags((await get('/groups/acme/releases?sort=asc', 'root-token')).body)).toEqual(['v0.1', 'v0.2', 'v1.0', 'release/1.0']);
    expect(tags((await get('/groups/acme/releases', 'outsider-token')).body)).toEqual(['v1.0']);
    const simple = (await get('/groups/acme/releases?simple=true', 'dev-token')).body;
    expect(Object.keys(simple[0])).toEqual(['name', 'tag_name', 'description', 'created_at', 'released_at', 'upcoming_release']);
    const guest = (await get('/groups/acme/releases', 'guest-token')).body.find((r: { tag_name: string }) => r.tag_name === 'v0.1');
    expect(guest.commit_path).toBeUndefined();
    expect(guest.assets.count).toBe(1);
  });
});

describe('release fixtures', () => {
  const base = (release: object): Fixture => ({
    users: [{ username: 'root', admin: true }],
    groups: [{ path: 'grp' }],
    projects: [{ namespace: 'grp', path: 'p', milestones: [{ title: 'm' }], repository: { files: { a: 'a\n' }, tags: { v1: 'main' } }, releases: [release as never] }],
  });

  it('seeds releases with their author, milestones and links', async () => {
    const em = await createEmulator({ fixture: base({ tag_name: 'v1', milestones: ['m'], links: [{ name: 'x', url: 'https://x.example', direct_asset_path: '/dl/x' }] }), clock: { now: NOW, frozen: true } });
    const rel = releaseRecord(em, 'grp/p', 'v1');
    expect(rel).toMatchObject({ name: 'v1', authorId: 1, releasedAt: Date.parse(NOW), milestoneIds: [expect.any(Number)] });
    expect(rel.links[0]).toMatchObject({ name: 'x', filepath: '/dl/x', linkType: 'other' });
  });

  it('throws a clear EmulatorError for an unknown tag, milestone or user, and seeds nothing', async () => {
    const em = await createEmulator({ fixture: {} });
    const before = em.state;
    await expect(em.seed(base({ tag_name: 'v9' }))).rejects.toThrow(EmulatorError);
    await expect(em.seed(base({ tag_name: 'v9' }))).rejects.toThrow("project 'grp/p': release 'v9' names unknown tag 'v9'");
    await expect(em.seed(base({ tag_name: 'v1', milestones: ['nope'] }))).rejects.toThrow("names unknown milestone 'nope'");
    await expect(em.seed(base({ tag_name: 'v1', author: 'ghost' }))).rejects.toThrow("names unknown user 'ghost'");
    await expect(em.seed(base({ tag_name: 'v1', links: [{ name: 'x', url: 'nope' }] }))).rejects.toThrow('Links url is blocked');
    expect(em.state).toBe(before);
  });
});

describe('list order and pagination (property)', () => {
  it('matches a plain model for any set of times, order and page size', async () => {
    const em = await createEmulator({
      fixture: {
        users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }],
        groups: [{ path: 'grp' }],
        projects: [{ namespace: 'grp', path: 'p', repository: { files: { a: 'a\n' }, tags: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`t${i}`, 'main'])) } }],
      },
      clock: { now: NOW, frozen: true },
    });
    const empty = em.snapshot();
    const DAY = 86_400_000;
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 7 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -5, max: 5 })), { minLength: 8, maxLength: 8 }),
        fc.constantFrom('released_at', 'created_at'),
        fc.constantFrom('asc', 'desc'),
        fc.integer({ min: 1, max: 4 }),
        async (which, times, orderBy, sort, perPage) => {
          em.restore(empty);
          const model: { tag: string; created: number; released: number; seq: number }[] = [];
          for (const [seq, i] of which.entries()) {
            const [c, r] = times[i]!;
            em.clock.set(Date.parse(NOW) + c * DAY);
            const res = await em.handle(new Request('https://gitlab.example.com/api/v4/projects/grp%2Fp/releases', {
              method: 'POST',
              headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
              body: JSON.stringify({ tag_name: `t${i}`, released_at: new Date(Date.parse(NOW) + r * DAY).toISOString() }),
            }));
            if (res.status !== 201) throw new Error(await res.text());
            model.push({ tag: `t${i}`, created: c, released: r, seq });
          }
          const key = (m: (typeof model)[number]) => (orderBy === 'created_at' ? m.created : m.released);
          const dir = sort === 'asc' ? 1 : -1;
          const expected = [...model].sort((a, b) => (key(a) - key(b) || a.seq - b.seq) * dir).map((m) => m.tag);
          const seen: string[] = [];
          for (let page = 1; page <= Math.ceil(model.length / perPage); page++) {
            const res = await em.handle(new Request(`https://gitlab.example.com/api/v4/projects/grp%2Fp/releases?order_by=${orderBy}&sort=${sort}&per_page=${perPage}&page=${page}`, { headers: { 'PRIVATE-TOKEN': 'root-token' } }));
            expect(res.headers.get('x-total')).toBe(String(model.length));
            seen.push(...tags(await res.json()));
          }
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 25 },
    );
  });
});
