// The Git LFS batch API and its transfers, as git-lfs drives them: download of the objects a
// fixture seeds, upload of new ones (checked against their oid and size), GitLab's access rules,
// and the LFS token (Gitlab::LfsToken) the batch API hands out for the transfers.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { mswDoor } from './support/msw.js';
import { ORIGIN, TEAM, TEAM_MEMBERS, idOf, seededWorld } from './support/world.js';

const CONTENT = 'large binary content\n';
const OID = createHash('sha256').update(CONTENT).digest('hex');
const NEW = 'a new large file\n';
const NEW_OID = createHash('sha256').update(NEW).digest('hex');

const fixture: Fixture = {
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    { namespace: 'acme', path: 'other', visibility: 'private', creator: 'root', members: TEAM_MEMBERS, repository: { files: { 'a.txt': 'a\n' } } },
    {
      namespace: 'acme',
      path: 'open',
      visibility: 'public',
      creator: 'root',
      members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# Open\n' }, lfs: { 'big.bin': Buffer.from(CONTENT).toString('base64') } },
    },
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
const door = mswDoor();
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const REPO = `${ORIGIN}/acme/assets.git`;

function batch(operation: string, objects: { oid: string; size: number }[], auth?: string, repo = REPO) {
  const headers: Record<string, string> = { Accept: 'application/vnd.git-lfs+json', 'Content-Type': 'application/vnd.git-lfs+json' };
  if (auth) headers.Authorization = auth;
  return world().handle(new Request(`${repo}/info/lfs/objects/batch`, { method: 'POST', headers, body: JSON.stringify({ operation, objects, transfers: ['basic'], ref: { name: 'refs/heads/main' } }) }));
}

/** The `Authorization` a batch answer hands out for its first object's transfer. */
async function handedOut(operation: string, objects: { oid: string; size: number }[], auth: string): Promise<string> {
  const body = (await (await batch(operation, objects, auth)).json()) as { objects: { actions: Record<string, { header: { Authorization: string } }> }[] };
  return body.objects[0]!.actions[operation]!.header.Authorization;
}

/** The login and the JSON web token of an LFS `Authorization` header, and the token's claims. */
function decodeLfs(header: string) {
  const [login, token] = Buffer.from(header.replace(/^Basic /, ''), 'base64').toString().split(':') as [string, string];
  const [head, payload] = token.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
  return { login, token, head, payload };
}

describe('Git LFS over HTTP', () => {
  it('tells where a seeded object downloads from, with an LFS token of the caller, and serves it', async () => {
    const auth = basic('dev', 'dev-token');
    const res = await batch('download', [{ oid: OID, size: CONTENT.length }, { oid: NEW_OID, size: 3 }], auth);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.git-lfs+json');
    const body = (await res.json()) as { objects: { actions: { download: { header: { Authorization: string } } } }[] };
    const lfs = body.objects[0]!.actions.download.header.Authorization;
    expect(body).toEqual({
      objects: [
        { oid: OID, size: CONTENT.length, actions: { download: { href: `${REPO}/gitlab-lfs/objects/${OID}`, header: { Authorization: lfs } } } },
        { oid: NEW_OID, size: 3, error: { code: 404, message: "Object does not exist on the server or you don't have permissions to access it" } },
      ],
    });
    // Not the caller's own credentials: `<username>:<JSON web token>`, for this project, two hours on the emulator's clock.
    expect(lfs).not.toBe(auth);
    const { login, head, payload } = decodeLfs(lfs);
    const now = Math.floor(Date.parse('2026-03-01T12:00:00Z') / 1000);
    expect(login).toBe('dev');
    expect(head).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toMatchObject({ data: { actor: 'dev', container_gid: `gid://gitlab/Project/${idOf(world(), 'acme/assets')}` }, iat: now, nbf: now - 5, exp: now + 7200 });
    expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    const file = await world().handle(new Request(`${REPO}/gitlab-lfs/objects/${OID}`, { headers: { Authorization: lfs } }));
    expect(await file.text()).toBe(CONTENT);
  });

  it('takes an LFS token for its project only, until it expires, and not once its user is blocked', async () => {
    const lfs = await handedOut('download', [{ oid: OID, size: CONTENT.length }], basic('dev', 'dev-token'));
    const get = (path: string) => world().handle(new Request(`${ORIGIN}/${path}`, { headers: { Authorization: lfs } }));
    // It reads (and writes) the project's repository as git would: read_write_project_authentication_abilities.
    expect((await get('acme/assets.git/info/refs?service=git-upload-pack')).status).toBe(200);
    expect((await get('acme/assets.git/info/refs?service=git-receive-pack')).status).toBe(200);
    // Another project's repository: the token is for acme/assets.
    expect((await get('acme/other.git/info/refs?service=git-upload-pack')).status).toBe(401);
    // Another user's name with it, or a token changed by one character.
    const { token } = decodeLfs(lfs);
    const as = (login: string, password: string) => world().handle(new Request(`${REPO}/gitlab-lfs/objects/${OID}`, { headers: { Authorization: basic(login, password) } }));
    expect((await as('mai', token)).status).toBe(401);
    expect((await as('dev', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).status).toBe(401);
    world().clock.advance('7199s');
    expect((await get(`acme/assets.git/gitlab-lfs/objects/${OID}`)).status).toBe(200);
    world().clock.advance('1s');
    expect((await get(`acme/assets.git/gitlab-lfs/objects/${OID}`)).status).toBe(401);
    // A new one, then the user is blocked: it stops working.
    const fresh = await handedOut('download', [{ oid: OID, size: CONTENT.length }], basic('dev', 'dev-token'));
    const block = await world().handle(new Request(`${ORIGIN}/api/v4/users/${idOf(world(), 'dev')}/block`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'root-token' } }));
    expect(block.status).toBe(201);
    expect((await world().handle(new Request(`${REPO}/gitlab-lfs/objects/${OID}`, { headers: { Authorization: fresh } }))).status).toBe(401);
  });

  it('hands an anonymous download of a public project no credentials at all', async () => {
    const res = await batch('download', [{ oid: OID, size: CONTENT.length }], undefined, `${ORIGIN}/acme/open.git`);
    expect(await res.json()).toEqual({
      objects: [{ oid: OID, size: CONTENT.length, actions: { download: { href: `${ORIGIN}/acme/open.git/gitlab-lfs/objects/${OID}`, header: {} } }, authenticated: true }],
    });
  });

  it('takes an upload it asked for, checks it against its oid and size, and serves it after', async () => {
    const auth = basic('dev', 'dev-token');
    const res = await batch('upload', [{ oid: OID, size: CONTENT.length }, { oid: NEW_OID, size: NEW.length }], auth);
    const body = (await res.json()) as { objects: { oid: string; actions?: { upload: { href: string; header: Record<string, string> } } }[] };
    expect(body.objects[0]).toEqual({ oid: OID, size: CONTENT.length });
    const upload = body.objects[1]!.actions!.upload;
    const lfs = upload.header.Authorization!;
    expect(decodeLfs(lfs).login).toBe('dev');
    expect(upload).toEqual({
      href: `${REPO}/gitlab-lfs/objects/${NEW_OID}/${NEW.length}`,
      header: { Authorization: lfs, 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' },
    });
    const put = (content: string) =>
      world().handle(new Request(upload.href, { method: 'PUT', headers: { Authorization: lfs, 'Content-Type': 'application/octet-stream' }, body: content }));
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

  it('hands out and takes the LFS token through the MSW door too', async () => {
    door.serve(world());
    const res = await fetch(`${REPO}/info/lfs/objects/batch`, {
      method: 'POST',
      headers: { Authorization: basic('dev', 'dev-token'), 'Content-Type': 'application/vnd.git-lfs+json' },
      body: JSON.stringify({ operation: 'download', objects: [{ oid: OID, size: CONTENT.length }] }),
    });
    const body = (await res.json()) as { objects: { actions: { download: { href: string; header: { Authorization: string } } } }[] };
    const { href, header } = body.objects[0]!.actions.download;
    expect(decodeLfs(header.Authorization).login).toBe('dev');
    expect(await (await fetch(href, { headers: header })).text()).toBe(CONTENT);
  });
});
