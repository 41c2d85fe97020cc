// The journal and the request log name who asked, even on a path no route serves, and say why
// credentials were refused: a refused git login reads differently from git's first request,
// which carries no credentials and is answered the same 401.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture, type RequestEvent } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'root', name: 'Administrator', email: 'admin@example.com', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
    {
      username: 'dev',
      name: 'Dee Veloper',
      email: 'dev@example.com',
      tokens: [
        { token: 'dev-token', scopes: ['api'] },
        { token: 'dev-read-user', scopes: ['read_user'] },
        { token: 'dev-expired', scopes: ['api'], expires_at: '2026-01-01' },
      ],
    },
  ],
  groups: [{ path: 'acme', visibility: 'private' }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', creator: 'root', members: [{ user: 'dev', access_level: 'developer' }], repository: { files: { 'a.txt': 'a\n' } } }],
};

const NOW = '2026-03-01T12:00:00Z';
const basic = (user: string, password: string) => ({ authorization: `Basic ${btoa(`${user}:${password}`)}` });
const infoRefs = 'http://gitlab.example.com/acme/app.git/info/refs?service=git-upload-pack';

async function world() {
  const lines: string[] = [];
  const events: RequestEvent[] = [];
  const e = await createEmulator({ fixture, clock: { now: NOW, frozen: true }, log: (line, event) => (lines.push(line), events.push(event)) });
  return { e, lines, events };
}

describe('who asked, and why credentials were refused', () => {
  it('names the token’s user on a path no route serves, on the API and on git’s surface, whatever the token’s scope', async () => {
    const { e, lines } = await world();
    const nope = await e.handle(new Request('http://gitlab.example.com/api/v4/no/such/thing', { headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(nope.status).toBe(404);
    expect(e.journal.last()).toMatchObject({ path: '/api/v4/no/such/thing', status: 404, noRoute: true, user: 'dev' });
    expect(lines.at(-1)).toMatch(/^GET\s+\/api\/v4\/no\/such\/thing 404 dev [\d.]+ ms \(not emulated\)$/);
    await e.handle(new Request('http://gitlab.example.com/api/v4/no/such/thing', { method: 'POST', headers: { 'PRIVATE-TOKEN': 'dev-read-user' } }));
    expect(e.journal.last()).toMatchObject({ noRoute: true, user: 'dev' });
    await e.handle(new Request('http://gitlab.example.com/api/v4/no/such/thing', { headers: { 'PRIVATE-TOKEN': 'dev-expired' } }));
    expect(e.journal.last()).toMatchObject({ noRoute: true, user: null });
    await e.handle(new Request('http://gitlab.example.com/api/v4/no/such/thing'));
    expect(e.journal.last()).toMatchObject({ noRoute: true, user: null });
    expect(lines.at(-1)).toMatch(/ 404 anonymous /);
  });

  it('tells git’s credential-less first request from a refused login, and says what was wrong', async () => {
    const { e, lines, events } = await world();
    const first = await e.handle(new Request(infoRefs));
    expect(first.status).toBe(401);
    expect(e.journal.last()?.refused).toBeUndefined();
    expect(lines.at(-1)).toMatch(/^GET\s+\/acme\/app\.git\/info\/refs\?service=git-upload-pack 401 anonymous [\d.]+ ms$/);
    const cases: [string, string, string][] = [
      ['dev', 'wrong', 'the password of dev is no token'],
      ['dev', 'dev-expired', 'token expired on 2026-01-01'],
      ['gitlab-ci-token', 'dev-expired', 'token expired on 2026-01-01'],
      ['dev', '', 'no password for dev'],
    ];
    for (const [user, password, reason] of cases) {
      const res = await e.handle(new Request(infoRefs, { headers: basic(user, password) }));
      expect(res.status).toBe(401);
      expect(await res.text()).toMatch(/^HTTP Basic: Access denied\./); // git's answer stays GitLab's
      expect(e.journal.last()).toMatchObject({ status: 401, user: null, refused: reason });
      expect(events.at(-1)?.refused).toBe(reason);
      expect(lines.at(-1)).toContain(`(credentials refused: ${reason})`);
    }
    const ok = await e.handle(new Request(infoRefs, { headers: basic('gitlab-ci-token', 'dev-token') }));
    expect(ok.status).toBe(200);
    expect(e.journal.last()).toMatchObject({ status: 200, user: 'dev' });
    expect(e.journal.last()?.refused).toBeUndefined();
  });

  it('says why the API refused a token it knows: expired, revoked', async () => {
    const { e, lines } = await world();
    const expired = await e.handle(new Request('http://gitlab.example.com/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'dev-expired' } }));
    expect(expired.status).toBe(401);
    expect(e.journal.last()).toMatchObject({ refused: 'token expired on 2026-01-01' });
    expect(lines.at(-1)).toContain('(credentials refused: token expired on 2026-01-01)');
    const revoke = await e.handle(new Request('http://gitlab.example.com/api/v4/personal_access_tokens/self', { method: 'DELETE', headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(revoke.status).toBe(204);
    const revoked = await e.handle(new Request('http://gitlab.example.com/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(revoked.status).toBe(401);
    expect(e.journal.last()).toMatchObject({ refused: 'token revoked' });
    const git = await e.handle(new Request(infoRefs, { headers: basic('dev', 'dev-token') }));
    expect(git.status).toBe(401);
    expect(e.journal.last()).toMatchObject({ refused: 'token revoked' });
  });

  it('names a deploy token by its username in the journal', async () => {
    const { e } = await world();
    const made = await e.handle(
      new Request('http://gitlab.example.com/api/v4/projects/acme%2Fapp/deploy_tokens', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'ci', scopes: ['read_repository'], username: 'fetcher' }),
      }),
    );
    const { token } = (await made.json()) as { token: string };
    const res = await e.handle(new Request(infoRefs, { headers: basic('fetcher', token) }));
    expect(res.status).toBe(200);
    expect(e.journal.last()).toMatchObject({ status: 200, user: 'fetcher' });
    const wrongName = await e.handle(new Request(infoRefs, { headers: basic('dev', token) }));
    expect(wrongName.status).toBe(401);
    expect(e.journal.last()).toMatchObject({ refused: 'deploy token fetcher sent with the username dev' });
  });
});
