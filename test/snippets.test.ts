// Project snippets (lib/api/project_snippets.rb) and personal snippets (lib/api/snippets.rb)
// through `emulator.handle`.
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ACME, ORIGIN, TEAM, apiCall, seededWorld, teamProject, updateProject } from './support/world.js';

const FIXTURE: Fixture = {
  users: TEAM,
  groups: [ACME],
  projects: [teamProject(), { namespace: 'acme', path: 'site', visibility: 'public', creator: 'root' }],
};

const world = seededWorld(FIXTURE, '2024-03-01T10:00:00Z');
const APP = '/projects/acme%2Fapp';

async function call(method: string, path: string, token?: string, json?: unknown, headers?: Record<string, string>) {
  const res = await apiCall(world(), path, { method, token, json, headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    /* raw text */
  }
  return { status: res.status, body, res };
}

describe('project snippets', () => {
  it('creates a snippet from content and file_name, with the entity GitLab renders', async () => {
    const made = await call('POST', `${APP}/snippets`, 'reporter-token', { title: 'Hello', description: 'desc', visibility: 'private', file_name: 'hello.rb', content: 'puts 1' });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual([
      'id', 'title', 'description', 'visibility', 'author', 'created_at', 'updated_at', 'project_id', 'web_url', 'raw_url', 'ssh_url_to_repo', 'http_url_to_repo',
      'file_name', 'files', 'imported', 'imported_from',
    ]);
    const id = made.body.id;
    expect(made.body).toMatchObject({
      title: 'Hello', description: 'desc', visibility: 'private', created_at: '2024-03-01T10:00:00.000Z',
      web_url: `${ORIGIN}/acme/app/-/snippets/${id}`, raw_url: `${ORIGIN}/acme/app/-/snippets/${id}/raw`,
      http_url_to_repo: `${ORIGIN}/acme/app/snippets/${id}.git`, ssh_url_to_repo: `git@gitlab.example.com:acme/app/snippets/${id}.git`,
      author: { username: 'rep' }, file_name: 'hello.rb', files: [{ path: 'hello.rb', raw_url: `${ORIGIN}/acme/app/-/snippets/${id}/raw/main/hello.rb` }],
      imported: false, imported_from: 'none',
    });
    const raw = await call('GET', `${APP}/snippets/${id}/raw`, 'guest-token');
    expect([raw.status, raw.body, raw.res.headers.get('content-type')]).toEqual([200, 'puts 1', 'text/plain; charset=utf-8']);
    expect((await call('GET', `${APP}/snippets/${id}/files/main/hello.rb/raw`, 'guest-token')).body).toBe('puts 1');
    expect(await call('GET', `${APP}/snippets/${id}/files/nope/hello.rb/raw`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Reference Not Found' } });
    expect(await call('GET', `${APP}/snippets/${id}/files/main/x.rb/raw`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });
  });

  it('creates with several files, lists newest first and reads one', async () => {
    const a = await call('POST', `${APP}/snippets`, 'dev-token', { title: 'A', visibility: 'internal', files: [{ file_path: 'b.txt', content: 'B' }, { file_path: 'a.txt', content: 'A' }] });
    expect(a.body.files.map((f: { path: string }) => f.path)).toEqual(['a.txt', 'b.txt']);
    const b = await call('POST', `${APP}/snippets`, 'dev-token', { title: 'B', visibility: 'private', file_name: 'x', content: 'x' });
    const list = await call('GET', `${APP}/snippets`, 'guest-token');
    expect(list.body.map((s: { id: number }) => s.id)).toEqual([b.body.id, a.body.id]);
    expect(list.res.headers.get('x-total')).toBe('2');
    expect((await call('GET', `${APP}/snippets/${a.body.id}`, 'guest-token')).body.title).toBe('A');
    expect(await call('GET', `${APP}/snippets/999`, 'guest-token')).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    expect((await call('GET', `${APP}/snippets/${a.body.id}`, 'outsider-token')).status).toBe(404);
  });

  it('refuses bad input with GitLab’s errors', async () => {
    expect(await call('POST', `${APP}/snippets`, 'dev-token', { title: 'x', visibility: 'private' })).toMatchObject({
      status: 400, body: { error: 'files, content are missing, exactly one parameter must be provided' },
    });
    expect(await call('POST', `${APP}/snippets`, 'dev-token', { visibility: 'private', content: 'x', file_name: 'x' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "title" not given' } });
    expect(await call('POST', `${APP}/snippets`, 'dev-token', { title: 'x', visibility: 'private', content: 'x' })).toMatchObject({ status: 400, body: { message: '400 Bad request - "file_name" not given' } });
    expect((await call('POST', `${APP}/snippets`, 'dev-token', { title: 'x', visibility: 'secret', content: 'x', file_name: 'x' })).body).toEqual({ error: 'visibility does not have a valid value' });
    expect((await call('POST', `${APP}/snippets`, 'dev-token', { title: '', visibility: 'private', content: 'x', file_name: 'x' })).body).toEqual({ error: 'title is empty' });
    expect(await call('POST', `${APP}/snippets`, 'guest-token', { title: 'x', visibility: 'private', content: 'x', file_name: 'x' })).toMatchObject({ status: 403 });
    expect((await call('GET', `${APP}/snippets`, 'dev-token')).body).toEqual([]);
  });

  it('updates content, title and files; only the author and maintainers may', async () => {
    const s = (await call('POST', `${APP}/snippets`, 'dev-token', { title: 'T', visibility: 'private', file_name: 'a.txt', content: 'one' })).body;
    expect(await call('PUT', `${APP}/snippets/${s.id}`, 'reporter-token', { title: 'No' })).toMatchObject({ status: 403 });
    expect(await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', {})).toMatchObject({ status: 400 });
    world().clock.advance('1h');
    const u = await call('PUT', `${APP}/snippets/${s.id}`, 'maintainer-token', { title: 'New', content: 'two', file_name: 'b.txt' });
    expect(u.body).toMatchObject({ title: 'New', file_name: 'b.txt', updated_at: '2024-03-01T11:00:00.000Z', created_at: '2024-03-01T10:00:00.000Z' });
    expect((await call('GET', `${APP}/snippets/${s.id}/raw`, 'dev-token')).body).toBe('two');
    const f = await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', {
      files: [{ action: 'create', file_path: 'c.txt', content: 'C' }, { action: 'move', previous_path: 'b.txt', file_path: 'a.txt' }],
    });
    expect(f.body.files.map((x: { path: string }) => x.path)).toEqual(['a.txt', 'c.txt']);
    expect(await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { content: 'x' })).toMatchObject({
      status: 400, body: { message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' } },
    });
    expect(await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { files: [{ action: 'delete', file_path: 'zzz' }] })).toMatchObject({
      status: 400, body: { message: { error: 'Repository Error updating the snippet' } },
    });
    expect(await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { files: [{ action: 'delete' }] })).toMatchObject({
      status: 422, body: { message: { error: 'Snippet actions have invalid data' } },
    });
  });

  it('deletes (204) with If-Unmodified-Since honoured', async () => {
    const s = (await call('POST', `${APP}/snippets`, 'dev-token', { title: 'T', visibility: 'private', file_name: 'a', content: 'a' })).body;
    expect((await call('DELETE', `${APP}/snippets/${s.id}`, 'reporter-token')).status).toBe(403);
    expect((await call('DELETE', `${APP}/snippets/${s.id}`, 'dev-token', undefined, { 'If-Unmodified-Since': 'Thu, 01 Feb 2024 00:00:00 GMT' })).status).toBe(412);
    expect((await call('DELETE', `${APP}/snippets/${s.id}`, 'dev-token')).status).toBe(204);
    expect((await call('GET', `${APP}/snippets/${s.id}`, 'dev-token')).status).toBe(404);
  });

  it('refuses writes to the snippets of an archived project (403)', async () => {
    const s = (await call('POST', `${APP}/snippets`, 'dev-token', { title: 'T', visibility: 'private', file_name: 'a', content: 'a' })).body;
    updateProject(world(), 'acme/app', (p) => void (p.archived = true));
    expect((await call('POST', `${APP}/snippets`, 'dev-token', { title: 'T', visibility: 'private', file_name: 'a', content: 'a' })).status).toBe(403);
    expect((await call('PUT', `${APP}/snippets/${s.id}`, 'dev-token', { title: 'U' })).status).toBe(403);
    expect((await call('DELETE', `${APP}/snippets/${s.id}`, 'root-token')).status).toBe(403);
    expect((await call('GET', `${APP}/snippets/${s.id}/raw`, 'guest-token')).body).toBe('a');
  });

  it('refuses a project whose snippets are disabled (403)', async () => {
    expect((await call('PUT', '/projects/acme%2Fsite', 'root-token', { snippets_access_level: 'disabled' })).status).toBe(200);
    expect(await call('GET', '/projects/acme%2Fsite/snippets', 'dev-token')).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });
});

describe('personal snippets', () => {
  it('creates (internal by default), lists the caller’s own, public ones, and all readable ones', async () => {
    const mine = await call('POST', '/snippets', 'dev-token', { title: 'Mine', file_name: 'm.txt', content: 'm' });
    expect(mine).toMatchObject({ status: 201, body: { visibility: 'internal', project_id: null } });
    expect(mine.body.web_url).toBe(`${ORIGIN}/-/snippets/${mine.body.id}`);
    expect(mine.body.http_url_to_repo).toBe(`${ORIGIN}/snippets/${mine.body.id}.git`);
    const pub = await call('POST', '/snippets', 'guest-token', { title: 'Pub', visibility: 'public', file_name: 'p', content: 'p' });
    const priv = await call('POST', '/snippets', 'guest-token', { title: 'Priv', visibility: 'private', file_name: 'q', content: 'q' });
    expect((await call('GET', '/snippets', 'dev-token')).body.map((s: { id: number }) => s.id)).toEqual([mine.body.id]);
    expect((await call('GET', '/snippets/public', 'dev-token')).body.map((s: { id: number }) => s.id)).toEqual([pub.body.id]);
    expect((await call('GET', '/snippets/all', 'dev-token')).body.map((s: { id: number }) => s.id)).toEqual([pub.body.id, mine.body.id]);
    expect((await call('GET', `/snippets/${priv.body.id}`, 'dev-token')).status).toBe(404);
    expect((await call('GET', `/snippets/${priv.body.id}`, 'guest-token')).status).toBe(200);
    expect((await call('GET', `/snippets/${pub.body.id}`)).status).toBe(200);
    expect((await call('GET', `/snippets/${mine.body.id}`)).status).toBe(404);
    expect((await call('GET', `/snippets/${pub.body.id}/raw`)).body).toBe('p');
    expect((await call('GET', '/snippets')).status).toBe(401);
  });

  it('updates and deletes for the author only', async () => {
    const s = (await call('POST', '/snippets', 'dev-token', { title: 'Mine', visibility: 'public', file_name: 'm.txt', content: 'm' })).body;
    // PUT and DELETE /snippets/:id look among the caller's own snippets.
    expect((await call('PUT', `/snippets/${s.id}`, 'guest-token', { title: 'x' })).status).toBe(404);
    expect((await call('PUT', `/snippets/${s.id}`, 'root-token', { title: 'x' })).status).toBe(404);
    expect((await call('PUT', `/snippets/${s.id}`, 'dev-token', { visibility: 'private' })).body.visibility).toBe('private');
    expect((await call('GET', '/snippets/public', 'dev-token')).body).toEqual([]);
    expect((await call('DELETE', `/snippets/${s.id}`, 'guest-token')).status).toBe(404);
    expect((await call('DELETE', `/snippets/${s.id}`, 'dev-token')).status).toBe(204);
    expect((await call('GET', '/snippets', 'dev-token')).body).toEqual([]);
  });
});
