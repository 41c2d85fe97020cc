// The Git LFS batch API and its transfers, as git-lfs drives them: download of the objects a
// fixture seeds, upload of new ones (checked against their oid and size), GitLab's access rules.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { ORIGIN, TEAM, TEAM_MEMBERS, seededWorld } from './support/world.js';

const CONTENT = 'large binary content\n';
const OID = createHash('sha256').update(CONTENT).digest('hex');
const NEW = 'a new large file\n';
const NEW_OID = createHash('sha256').update(NEW).digest('hex');

const fixture: Fixture = {
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme',
      path: 'assets',
      visibility: 'private',
      creator: 'root',
      members: TEAM_MEMBERS,
      repository: { files: { '.gitattributes': '*.bin filter=lfs diff=lfs merge=lfs -text\n' }, lfs: { 'big.bin': Buffer.from(CONTENT).toString('base64') } },
    },
  ],
};

const world = seededWorld(fixture, '2026-03-01T12:00:00Z');
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const REPO = `${ORIGIN}/acme/assets.git`;

function batch(operation: string, objects: { oid: string; size: number }[], auth?: string) {
  const headers: Record<string, string> = { Accept: 'application/vnd.git-lfs+json', 'Content-Type': 'application/vnd.git-lfs+json' };
  if (auth) headers.Authorization = auth;
  return world().handle(new Request(`${REPO}/info/lfs/objects/batch`, { method: 'POST', headers, body: JSON.stringify({ operation, objects, transfers: ['basic'], ref: { name: 'refs/heads/main' } }) }));
}

describe('Git LFS over HTTP', () => {
  it('tells where a seeded object downloads from, with the caller’s credentials, and serves it', async () => {
    const auth = basic('dev', 'dev-token');
    const res = await batch('download', [{ oid: OID, size: CONTENT.length }, { oid: NEW_OID, size: 3 }], auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.git-lfs+json');
    expect(await res.json()).toEqual({
      objects: [
        { oid: OID, size: CONTENT.length, actions: { download: { href: `${REPO}/gitlab-lfs/objects/${OID}`, header: { Authorization: auth } } } },
        { oid: NEW_OID, size: 3, error: { code: 404, message: "Object does not exist on the server or you don't have permissions to access it" } },
      ],
    });
    const file = await world().handle(new Request(`${REPO}/gitlab-lfs/objects/${OID}`, { headers: { Authorization: auth } }));
    expect(await file.text()).toBe(CONTENT);
  });

  it('takes an upload it asked for, checks it against its oid and size, and serves it after', async () => {
    const auth = basic('dev', 'dev-token');
    const res = await batch('upload', [{ oid: OID, size: CONTENT.length }, { oid: NEW_OID, size: NEW.length }], auth);
    const body = (await res.json()) as { objects: { oid: string; actions?: { upload: { href: string; header: Record<string, string> } } }[] };
    expect(body.objects[0]).toEqual({ oid: OID, size: CONTENT.length });
    const upload = body.objects[1]!.actions!.upload;
    expect(upload).toEqual({
      href: `${REPO}/gitlab-lfs/objects/${NEW_OID}/${NEW.length}`,
      header: { Authorization: auth, 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' },
    });
    const put = (content: string) =>
      world().handle(new Request(upload.href, { method: 'PUT', headers: { Authorization: auth, 'Content-Type': 'application/octet-stream' }, body: content }));
    expect((await put('something else')).status).toBe(422);
    expect((await put(NEW)).status).toBe(200);
    const file = await world().handle(new Request(`${REPO}/gitlab-lfs/objects/${NEW_OID}`, { headers: { Authorization: auth } }));
    expect(await file.text()).toBe(NEW);
    expect(((await (await batch('upload', [{ oid: NEW_OID, size: NEW.length }], auth)).json()) as { objects: unknown[] }).objects).toEqual([{ oid: NEW_OID, size: NEW.length }]);
  });

  it('refuses as GitLab does: 401 without credentials, 403 to who sees the project, 404 to others', async () => {
    const anonymous = await batch('download', [{ oid: OID, size: 1 }]);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Basic realm="GitLab"');
    const guest = await batch('download', [{ oid: OID, size: 1 }], basic('gus', 'guest-token'));
    expect(guest.status).toBe(403);
    expect(await guest.json()).toEqual({ message: 'Access forbidden. Check your access level.', documentation_url: `${ORIGIN}/help` });
    const reporter = await batch('upload', [{ oid: OID, size: 1 }], basic('rep', 'reporter-token'));
    expect(reporter.status).toBe(403);
    const outsider = await batch('download', [{ oid: OID, size: 1 }], basic('out', 'outsider-token'));
    expect(outsider.status).toBe(404);
    expect(await outsider.json()).toEqual({ message: 'Not found.', documentation_url: `${ORIGIN}/help` });
  });
});
