// Release asset links (lib/api/release/links.rb, spec/requests/api/release/links_spec.rb).
import { beforeEach, describe, expect, it } from 'vitest';
import type { Emulator, Fixture } from '../src/index.js';
import { ACME, apiCall, seededWorld, TEAM, teamProject } from './support/world.js';

const NOW = '2024-03-01T12:00:00.000Z';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [
    teamProject({
      jobs: [{ name: 'build', user: 'dev', token: 'job-token' }],
      repository: { files: { 'a.txt': 'a\n' }, tags: { 'v1.0': 'main', 'v9.0': 'main', 'rel/2': 'main' }, protected_tags: { 'v9*': {} } },
      releases: [
        {
          tag_name: 'v1.0',
          links: [
            { name: 'linux', url: 'https://example.com/linux', direct_asset_path: '/bin/linux', link_type: 'package' },
            { name: 'docs', url: 'https://example.com/docs', link_type: 'runbook' },
          ],
        },
        { tag_name: 'v9.0', links: [{ name: 'locked', url: 'https://example.com/locked' }] },
        { tag_name: 'rel/2' },
      ],
    }),
    { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root', repository: { files: { 'a.txt': 'a\n' }, tags: { v1: 'main' } }, releases: [{ tag_name: 'v1', links: [{ name: 'zip', url: 'https://example.com/zip' }] }] },
  ],
};

const world = seededWorld(FIXTURE, NOW);
let e: Emulator;
beforeEach(() => {
  e = world();
});

async function call(method: string, path: string, token?: string, json?: unknown) {
  const res = await apiCall(e, path, { method, token, json });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : JSON.parse(text), res };
}

const LINKS = '/projects/acme%2Fapp/releases/v1.0/assets/links';
const idOf = async (name: string) => ((await call('GET', LINKS, 'dev-token')).body as { id: number; name: string }[]).find((l) => l.name === name)!.id;

describe('GET .../assets/links', () => {
  it('lists the links, newest first, with the Link entity', async () => {
    const { status, body, res } = await call('GET', LINKS, 'dev-token');
    expect(status).toBe(200);
    expect(res.headers.get('x-total')).toBe('2');
    expect(body.map((l: { name: string }) => l.name)).toEqual(['docs', 'linux']);
    expect(body[1]).toEqual({
      id: expect.any(Number),
      name: 'linux',
      url: 'https://example.com/linux',
      direct_asset_url: 'https://gitlab.example.com/acme/app/-/releases/v1.0/downloads/bin/linux',
      link_type: 'package',
    });
    expect(body[0].direct_asset_url).toBe('https://example.com/docs');
  });

  it('lets guests and CI jobs read; 404 Not found for an unknown release; 404 Project to outsiders', async () => {
    expect((await call('GET', LINKS, 'guest-token')).status).toBe(200);
    expect((await call('GET', `${LINKS}?job_token=job-token`)).status).toBe(200);
    expect(await call('GET', '/projects/acme%2Fapp/releases/nope/assets/links', 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await call('GET', LINKS, 'outsider-token')).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    expect((await call('GET', '/projects/acme%2Fsite/releases/v1/assets/links')).status).toBe(200);
  });
});

describe('POST .../assets/links', () => {
  it('creates a link (201), with direct_asset_path or the deprecated filepath', async () => {
    const a = await call('POST', LINKS, 'dev-token', { name: 'mac', url: ' https://example.com/mac ', direct_asset_path: '/bin/mac', link_type: 'image' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name: 'mac', url: 'https://example.com/mac', direct_asset_url: 'https://gitlab.example.com/acme/app/-/releases/v1.0/downloads/bin/mac', link_type: 'image' });
    const b = await call('POST', '/projects/acme%2Fapp/releases/rel%2F2/assets/links', 'dev-token', { name: 'win', url: 'https://example.com/win', filepath: '/bin/win.exe' });
    expect(b.body.direct_asset_url).toBe('https://gitlab.example.com/acme/app/-/releases/rel%2F2/downloads/bin/win.exe');
    expect(b.body.link_type).toBe('other');
    const dl = await e.handle(new Request('https://gitlab.example.com/api/v4/projects/acme%2Fapp/releases/rel%2F2/downloads/bin/win.exe', { headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(dl.headers.get('location')).toBe('https://example.com/win');
    const release = (await call('GET', '/projects/acme%2Fapp/releases/v1.0', 'dev-token')).body;
    expect(release.assets.links[0].name).toBe('mac');
    expect(release.assets.count).toBe(7);
  });

  it('answers validation failures as a list of full messages', async () => {
    const post = (json: object) => call('POST', LINKS, 'dev-token', json);
    expect(await post({ name: 'linux', url: 'https://example.com/linux' })).toMatchObject({ status: 400, body: { message: ['Url has already been taken', 'Name has already been taken'] } });
    expect(await post({ name: '', url: '' })).toMatchObject({ status: 400, body: { message: ["Url can't be blank", 'Url must be a valid URL', "Name can't be blank"] } });
    expect(await post({ name: 'x', url: 'javascript:alert(1)' })).toMatchObject({ status: 400, body: { message: ['Url is blocked: Only allowed schemes are http, https, ftp'] } });
    expect(await post({ name: 'x', url: 'https://x.example', direct_asset_path: '/bin/linux' })).toMatchObject({ status: 400, body: { message: ['Filepath has already been taken'] } });
    expect(await post({ name: 'x', url: 'https://x.example', direct_asset_path: 'no-slash' })).toMatchObject({ status: 400, body: { message: ['Filepath is in an invalid format'] } });
    expect(await post({ name: 'x', url: 'https://x.example', direct_asset_path: `/${'a'.repeat(130)}` })).toMatchObject({ status: 400, body: { message: ['Filepath is too long (maximum is 128 characters)'] } });
    expect(await post({ name: 'x', url: 'https://x.example', link_type: 'movie' })).toMatchObject({ status: 400, body: { error: 'link_type does not have a valid value' } });
    expect(await post({ url: 'https://x.example' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "name" not given' } });
  });

  it('is 403 below developer and for a protected tag the caller may not create', async () => {
    expect(await call('POST', LINKS, 'reporter-token', { name: 'x', url: 'https://x.example' })).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    expect((await call('POST', '/projects/acme%2Fapp/releases/v9.0/assets/links', 'dev-token', { name: 'x', url: 'https://x.example' })).status).toBe(403);
    expect((await call('POST', '/projects/acme%2Fapp/releases/v9.0/assets/links', 'maintainer-token', { name: 'x', url: 'https://x.example' })).status).toBe(201);
    expect((await call('POST', `${LINKS}?job_token=job-token`, undefined, { name: 'ci', url: 'https://x.example/ci' })).status).toBe(201);
  });
});

describe('GET/PUT/DELETE .../assets/links/:link_id', () => {
  it('gets one link; an unknown one is 404 Not found', async () => {
    const id = await idOf('linux');
    expect((await call('GET', `${LINKS}/${id}`, 'guest-token')).body.name).toBe('linux');
    expect(await call('GET', `${LINKS}/99999`, 'dev-token')).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    expect(await call('GET', `${LINKS}/abc`, 'dev-token')).toMatchObject({ status: 400, body: { error: 'link_id is invalid' } });
  });

  it('updates name or url; link_type falls back to other when it is left out, as in GitLab', async () => {
    const id = await idOf('linux');
    const r = await call('PUT', `${LINKS}/${id}`, 'dev-token', { name: 'Linux x64' });
    expect(r).toMatchObject({ status: 200, body: { id, name: 'Linux x64', url: 'https://example.com/linux', link_type: 'other' } });
    const typed = await call('PUT', `${LINKS}/${id}`, 'dev-token', { url: 'https://example.com/linux64', link_type: 'package', direct_asset_path: '/bin/linux64' });
    expect(typed.body).toMatchObject({ url: 'https://example.com/linux64', link_type: 'package', direct_asset_url: 'https://gitlab.example.com/acme/app/-/releases/v1.0/downloads/bin/linux64' });
    expect(await call('PUT', `${LINKS}/${id}`, 'dev-token', { link_type: 'image' })).toMatchObject({
      status: 400,
      body: { error: 'name, url are missing, at least one parameter must be provided' },
    });
    expect(await call('PUT', `${LINKS}/${id}`, 'dev-token', { name: 'docs' })).toMatchObject({ status: 400, body: { message: ['Name has already been taken'] } });
    expect((await call('PUT', `${LINKS}/${id}`, 'reporter-token', { name: 'x' })).status).toBe(403);
    expect((await call('PUT', `${LINKS}/99999`, 'reporter-token', { name: 'x' })).status).toBe(404);
  });

  it('deletes with 200 and the deleted link', async () => {
    const id = await idOf('docs');
    const r = await call('DELETE', `${LINKS}/${id}`, 'dev-token');
    expect(r).toMatchObject({ status: 200, body: { id, name: 'docs' } });
    expect((await call('GET', LINKS, 'dev-token')).body.map((l: { name: string }) => l.name)).toEqual(['linux']);
    expect((await call('DELETE', `${LINKS}/${id}`, 'dev-token')).status).toBe(404);
    expect((await call('DELETE', `${LINKS}/${await idOf('linux')}`, 'reporter-token')).status).toBe(403);
  });

  it('changes nothing when it fails', async () => {
    const linux = await idOf('linux');
    const before = e.state;
    await call('PUT', `${LINKS}/${linux}`, 'dev-token', { url: 'ftp:' });
    await call('POST', LINKS, 'guest-token', { name: 'x', url: 'https://x.example' });
    expect(e.state).toBe(before);
  });
});
