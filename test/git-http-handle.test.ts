// Git's smart HTTP through `emulator.handle`, byte by byte (no git binary needed): GitLab's
// answers to credentials, paths and methods, protocol v2's ls-refs and fetch errors, a pack that
// cannot be read, and `emulator.git(project).clone(dir)`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Fixture } from '../src/index.js';
import { checkAccess, gitTarget } from '../src/families/repositories/index.js';
import { MESSAGES } from '../src/http/git-access.js';
import { ORIGIN, TEAM, TEAM_MEMBERS, seededWorld } from './support/world.js';
import { findUserByUsername } from '../src/families/users/index.js';
import type { Emulator } from '../src/index.js';

const userByName = (e: Emulator, name: string) => findUserByUsername(e.state, name)!;

const fixture: Fixture = {
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [
    {
      namespace: 'acme',
      path: 'app',
      visibility: 'private',
      creator: 'root',
      members: TEAM_MEMBERS,
      repository: { files: { 'README.md': '# App\n' }, branches: { develop: 'main' }, tags: { 'v1.0': { ref: 'main', message: 'One' }, 'v0.9': 'main' } },
    },
    { namespace: 'acme', path: 'constructor', visibility: 'public', creator: 'root', repository: { files: { 'a.txt': 'a\n' } } },
    { namespace: 'acme', path: 'intranet', visibility: 'internal', creator: 'root', repository: { files: { 'a.txt': 'a\n' } } },
  ],
};

const world = seededWorld(fixture, '2026-03-01T12:00:00Z');
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const enc = new TextEncoder();
const pkt = (s: string) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`;

function call(path: string, init: RequestInit & { auth?: string; v2?: boolean } = {}) {
  const headers = new Headers(init.headers);
  if (init.auth) headers.set('Authorization', init.auth);
  if (init.v2) headers.set('Git-Protocol', 'version=2');
  const service = /\/(git-[a-z-]+)$/.exec(path)?.[1];
  if (init.method === 'POST' && service && !headers.has('content-type')) headers.set('Content-Type', `application/x-${service}-request`);
  return world().handle(new Request(`${ORIGIN}${path}`, { ...init, headers }));
}

describe('git smart HTTP, request by request', () => {
  it('challenges an anonymous caller of a private project with GitLab’s 401', async () => {
    const res = await call('/acme/app.git/info/refs?service=git-upload-pack');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="GitLab"');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe(
      "HTTP Basic: Access denied. If a password was provided for Git authentication, the password was incorrect or you're required to use a token instead of a password. If a token was provided, it was either incorrect, expired, or improperly scoped. See https://gitlab.example.com/help/topics/git/troubleshooting_git.md#error-on-git-fetch-http-basic-access-denied",
    );
    // A push always needs credentials, even to a public project; wrong ones are refused even there.
    expect((await call('/acme/constructor.git/info/refs?service=git-receive-pack')).status).toBe(401);
    expect((await call('/acme/constructor.git/info/refs?service=git-upload-pack', { auth: basic('x', 'nope') })).status).toBe(401);
    expect((await call('/acme/constructor.git/info/refs?service=git-upload-pack')).status).toBe(200);
  });

  it('lets any signed-in user clone an internal project, and asks an anonymous one for credentials', async () => {
    expect((await call('/acme/intranet.git/info/refs?service=git-upload-pack')).status).toBe(401);
    expect((await call('/acme/intranet.git/info/refs?service=git-upload-pack', { auth: basic('out', 'outsider-token') })).status).toBe(200);
    const push = await call('/acme/intranet.git/info/refs?service=git-receive-pack', { auth: basic('out', 'outsider-token') });
    expect(push.status).toBe(403);
    expect(await push.text()).toBe('You are not allowed to push code to this project.');
  });

  it('answers "not found" to a signed-in caller who may not see the project, and for a project that does not exist', async () => {
    for (const path of ['/acme/app.git', '/acme/nothing.git']) {
      const res = await call(`${path}/info/refs?service=git-upload-pack`, { auth: basic('out', 'outsider-token') });
      expect(res.status).toBe(404);
      expect(await res.text()).toBe(MESSAGES.projectNotFound);
    }
  });

  it('redirects the path without .git for info/refs only, refuses HEAD, and wants a service', async () => {
    const res = await call('/acme/app/info/refs?service=git-upload-pack');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(`${ORIGIN}/acme/app.git/info/refs?service=git-upload-pack`);
    expect((await call('/acme/app/git-upload-pack', { method: 'POST', body: '0000' })).status).toBe(404);
    expect((await call('/acme/app.git/info/refs?service=git-upload-pack', { method: 'HEAD', auth: basic('dev', 'dev-token') })).status).toBe(403);
    const none = await call('/acme/app.git/info/refs', { auth: basic('dev', 'dev-token') });
    expect(none.status).toBe(403);
    expect(await none.text()).toBe("The command you're trying to execute is not allowed.");
  });

  it('advertises protocol v2, and lists refs with symrefs and peeled tags', async () => {
    const auth = basic('dev', 'dev-token');
    const adv = await call('/acme/app.git/info/refs?service=git-upload-pack', { auth, v2: true });
    expect(adv.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
    expect(adv.headers.get('cache-control')).toBe('no-cache, max-age=0, must-revalidate');
    const text = await adv.text();
    expect(text.startsWith('000eversion 2\n')).toBe(true);
    expect(text).toContain('fetch=shallow\n');
    expect(text).not.toContain('filter');
    const refs = world().git('acme/app').refs();
    const body = pkt('command=ls-refs\n') + '0001' + pkt('symrefs\n') + pkt('peel\n') + pkt('ref-prefix HEAD\n') + pkt('ref-prefix refs/tags/\n') + '0000';
    // git gzips large requests; the emulator reads either.
    const res = await call('/acme/app.git/git-upload-pack', { method: 'POST', auth, v2: true, headers: { 'Content-Encoding': 'gzip' }, body: gzipSync(enc.encode(body)) });
    expect(res.headers.get('content-type'), await res.clone().text()).toBe('application/x-git-upload-pack-result');
    const main = refs.branches.main!;
    expect(await res.text()).toBe(
      pkt(`${main} HEAD symref-target:refs/heads/main\n`) +
        pkt(`${refs.tags['v0.9']!.target} refs/tags/v0.9\n`) +
        pkt(`${refs.tags['v1.0']!.target} refs/tags/v1.0 peeled:${main}\n`) +
        '0000',
    );
  });

  it('refuses a want it does not have, a filter and an unknown command with ERR', async () => {
    const auth = basic('dev', 'dev-token');
    const fetchWith = (args: string) => call('/acme/app.git/git-upload-pack', { method: 'POST', auth, v2: true, body: pkt('command=fetch\n') + '0001' + args + '0000' });
    expect(await (await fetchWith(pkt(`want ${'1'.repeat(40)}\n`) + pkt('done\n'))).text()).toBe(pkt(`ERR upload-pack: not our ref ${'1'.repeat(40)}\n`) + '0000');
    const main = world().git('acme/app').refs().branches.main!;
    expect(await (await fetchWith(pkt(`want ${main}\n`) + pkt('filter blob:none\n') + pkt('done\n'))).text()).toContain('ERR filter feature not supported');
    const bad = await call('/acme/app.git/git-upload-pack', { method: 'POST', auth, v2: true, body: pkt('command=bundle-uri\n') + '0000' });
    expect(await bad.text()).toContain("ERR invalid command 'bundle-uri'");
  });

  it('answers lines that are not pkt-lines with ERR, never a failure of its own', async () => {
    const auth = basic('mai', 'maintainer-token');
    for (const [service, v2] of [['git-upload-pack', true], ['git-upload-pack', false], ['git-receive-pack', false]] as const) {
      const res = await call(`/acme/app.git/${service}`, { method: 'POST', auth, v2, body: 'zzzz-not-a-pkt-line' });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^[0-9a-f]{4}ERR protocol error: /);
    }
  });

  it('answers a pack it cannot read with an unpack error, and changes nothing', async () => {
    const before = world().state;
    const main = world().git('acme/app').refs().branches.main!;
    const body = pkt(`${main} ${'2'.repeat(40)} refs/heads/main\0report-status side-band-64k\n`) + '0000PACKgarbage';
    const res = await call('/acme/app.git/git-receive-pack', { method: 'POST', auth: basic('mai', 'maintainer-token'), body });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('unpack not a pack\n');
    expect(text).toContain('ng refs/heads/main unpacker error\n');
    expect(world().state).toBe(before);
  });

  it('refuses every push while the repository is read-only, with GitLab’s message (the check storage moves plug into)', () => {
    const e = world();
    const target = gitTarget(e.state, 'acme/app.git');
    const caller = { user: userByName(e, 'mai'), method: 'personal' as const, token: { scopes: ['api'] } as never };
    const refusal = (() => {
      try {
        checkAccess(e.state, caller, target, 'git-receive-pack', e.clock.now(), () => true);
      } catch (err) {
        return err as { status: number; body: unknown };
      }
      return null;
    })();
    expect(refusal).toMatchObject({ status: 403, body: 'The repository is temporarily read-only. Please try again later.' });
    expect(checkAccess(e.state, caller, target, 'git-receive-pack', e.clock.now(), () => false).path).toBe('app');
  });

  it('writes a working copy with emulator.git(project).clone(dir), no git binary needed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gitlab-emulator-clone-'));
    try {
      const repo = world().git('acme/app');
      expect(repo.url).toBe('https://gitlab.example.com/acme/app.git');
      await repo.clone(dir);
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('# App\n');
      expect(readFileSync(join(dir, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
      expect(readFileSync(join(dir, '.git', 'config'), 'utf8')).toContain('url = https://gitlab.example.com/acme/app.git');
      expect(readFileSync(join(dir, '.git', 'refs', 'remotes', 'origin', 'develop'), 'utf8').trim()).toBe(repo.refs().branches.develop);
      expect(existsSync(join(dir, '.git', 'refs', 'tags', 'v1.0'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
