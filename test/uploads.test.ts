// Project uploads (lib/api/project_uploads.rb) and the web paths that serve them.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, apiCall, seededWorld, teamProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject(), { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root' }],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');

function upload(project: string, name: string, content: string | Uint8Array<ArrayBuffer>, token = 'dev-token') {
  const form = new FormData();
  form.append('file', new Blob([content]), name);
  return apiCall(world(), `/projects/${encodeURIComponent(project)}/uploads`, { method: 'POST', token, body: form });
}

const web = (path: string, token?: string) => world().handle(new Request(`${ORIGIN}${path}`, { headers: token ? { 'PRIVATE-TOKEN': token } : {} }));

describe('POST /projects/:id/uploads', () => {
  it('names a file that is not media by its whole name, as FileMarkdownLinkBuilder does', async () => {
    const res = await upload('acme/app', 'test.txt', new TextEncoder().encode('testing contents'));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, string>;
    expect(body.alt).toBe('test.txt');
    expect(body.markdown).toBe(`[test.txt](${body.url})`);
  });

  it('stores the file and answers alt, url, full_path and markdown', async () => {
    const res = await upload('acme/app', 'dk.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, string>;
    expect(Object.keys(body)).toEqual(['id', 'alt', 'url', 'full_path', 'markdown']);
    expect(body.url).toMatch(/^\/uploads\/[0-9a-f]{32}\/dk\.png$/);
    expect(body).toMatchObject({ alt: 'dk', markdown: `![dk](${body.url})` });
    const id = (await (await apiCall(world(), '/projects/acme%2Fapp', { token: 'dev-token' })).json()) as { id: number };
    expect(body.full_path).toBe(`/-/project/${id.id}${body.url}`);
    const served = await web(body.full_path!, 'dev-token');
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    expect((await web(`/acme/app${body.url}`, 'dev-token')).status).toBe(200);
    // A private project's upload is hidden from those who cannot read the project.
    expect((await web(body.full_path!)).status).toBe(404);
    expect((await web(body.full_path!, 'outsider-token')).status).toBe(404);
  });

  it('links other files, sanitises names, and serves a public project to anyone', async () => {
    const body = (await (await upload('acme/site', 'release notes (v1).txt', 'hello', 'root-token')).json()) as Record<string, string>;
    expect(body.url).toMatch(/\/release_notes__v1_\.txt$/);
    expect(body.markdown).toBe(`[release_notes__v1_.txt](${body.url})`);
    const served = await web(`/acme/site${body.url}`);
    expect(served.headers.get('content-disposition')).toContain('attachment');
    expect(await served.text()).toBe('hello');
  });

  it('lists, downloads and deletes uploads for maintainers, by id or by secret and name', async () => {
    const a = (await (await upload('acme/app', 'a.txt', 'first')).json()) as { id: number; url: string; full_path: string };
    world().clock.advance('1m');
    const b = (await (await upload('acme/app', 'b.txt', 'second')).json()) as { id: number; url: string };
    const list = await apiCall(world(), '/projects/acme%2Fapp/uploads', { token: 'maintainer-token' });
    expect(await list.json()).toEqual([
      { id: b.id, size: 6, filename: 'b.txt', created_at: '2024-03-01T10:01:00.000Z', uploaded_by: { id: expect.any(Number), username: 'dev', name: 'Dee Veloper' } },
      { id: a.id, size: 5, filename: 'a.txt', created_at: '2024-03-01T10:00:00.000Z', uploaded_by: { id: expect.any(Number), username: 'dev', name: 'Dee Veloper' } },
    ]);
    expect((await apiCall(world(), '/projects/acme%2Fapp/uploads', { token: 'dev-token' })).status).toBe(403);
    expect(await (await apiCall(world(), `/projects/acme%2Fapp/uploads/${a.id}`, { token: 'maintainer-token' })).text()).toBe('first');
    expect(await (await apiCall(world(), `/projects/acme%2Fapp${b.url}`, { token: 'maintainer-token' })).text()).toBe('second');
    expect((await apiCall(world(), `/projects/acme%2Fapp/uploads/${a.id}`, { method: 'DELETE', token: 'maintainer-token' })).status).toBe(204);
    expect((await apiCall(world(), `/projects/acme%2Fapp${b.url}`, { method: 'DELETE', token: 'maintainer-token' })).status).toBe(204);
    expect(await (await apiCall(world(), `/projects/acme%2Fapp/uploads/${a.id}`, { token: 'maintainer-token' })).json()).toEqual({ message: '404 Upload Not Found' });
    expect((await web(a.full_path, 'dev-token')).status).toBe(404);
    expect(await (await apiCall(world(), '/projects/acme%2Fapp/uploads', { token: 'maintainer-token' })).json()).toEqual([]);
  });

  it('refuses a missing file, and callers who are not members', async () => {
    expect((await apiCall(world(), '/projects/acme%2Fapp/uploads', { method: 'POST', token: 'dev-token', json: { file: 'text' } })).status).toBe(400);
    expect((await upload('acme/site', 'a.txt', 'x', 'outsider-token')).status).toBe(403);
    expect((await upload('acme/app', 'a.txt', 'x', 'outsider-token')).status).toBe(404);
    expect((await web('/-/project/999/uploads/0123456789abcdef0123456789abcdef/x.txt')).status).toBe(404);
  });
});
