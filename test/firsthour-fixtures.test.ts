// A fixture's mistakes are named all at once, each with its path and a did-you-mean: misspelt
// keys, token scopes that are not GitLab's, dates that are not ISO 8601 or not on the calendar;
// and a project given where a fixture is expected says what a fixture is.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, FixtureError } from '../src/index.js';
import { isCalendarTime } from '../src/families/fixture-checks.js';
import { CLI } from './support/cli.js';

async function mistakesOf(fixture: unknown): Promise<FixtureError> {
  const failure = await createEmulator({ fixture: fixture as never }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(failure).toBeInstanceOf(FixtureError);
  return failure as FixtureError;
}

const THREE = {
  users: [{ username: 'ann', tokens: [{ token: 'ann-token', scopes: ['apii'] }] }],
  groups: [{ path: 'g', visibilty: 'public' }],
  projcts: [],
};

describe('fixture mistakes', () => {
  it('names the three mistakes of a fixture at once, each with its path and a did-you-mean', async () => {
    const e = await mistakesOf(THREE);
    expect([...e.mistakes].sort()).toEqual(
      [
        'projcts: unknown key; did you mean "projects"?',
        'groups[0].visibilty: unknown key; did you mean "visibility"?',
        'users[0].tokens[0].scopes[0]: unknown scope "apii"; did you mean "api"?',
      ].sort(),
    );
    expect(e.message).toMatch(/^\[gitlab-emulator\] 3 mistakes:\n {2}- /);
    for (const m of e.mistakes) expect(e.message).toContain(m);
  });

  it('keeps a single mistake on one line, as before', async () => {
    const e = await mistakesOf({ users: [{ usernme: 'bob' }] });
    expect(e.text).toBe('users[0].usernme: unknown key; did you mean "username"?');
    expect(e.mistakes).toHaveLength(1);
  });

  it("checks token scopes against GitLab's names, in users' and projects' tokens", async () => {
    const e = await mistakesOf({
      users: [{ username: 'ann', tokens: [{ scopes: ['api', 'read_repsitory'] }, { scopes: ['everything'] }] }],
      groups: [{ path: 'g' }],
      projects: [{ namespace: 'g', path: 'p', tokens: [{ scopes: ['write_repositry'] }] }],
    });
    expect(e.mistakes).toEqual([
      'users[0].tokens[0].scopes[1]: unknown scope "read_repsitory"; did you mean "read_repository"?',
      expect.stringMatching(/^users\[0\]\.tokens\[1\]\.scopes\[0\]: unknown scope "everything" \(GitLab's scopes: api, read_api, /),
      'projects[0].tokens[0].scopes[0]: unknown scope "write_repositry"; did you mean "write_repository"?',
    ]);
  });

  it('accepts every scope GitLab knows, and OAuth tokens their OpenID ones', async () => {
    const scopes = ['api', 'read_api', 'read_user', 'create_runner', 'manage_runner', 'k8s_proxy', 'self_rotate', 'read_repository', 'write_repository', 'read_registry', 'write_registry', 'sudo', 'admin_mode', 'ai_features', 'read_service_ping'];
    await expect(createEmulator({ fixture: { users: [{ username: 'ann', admin: true, tokens: [{ scopes }, { kind: 'oauth', scopes: ['openid', 'profile', 'email', 'api'] }] }] } })).resolves.toBeDefined();
  });

  it('checks dates: ISO 8601, on the calendar', async () => {
    const e = await mistakesOf({
      users: [{ username: 'ann', tokens: [{ scopes: ['api'], expires_at: '2025-02-30' }] }],
      groups: [{ path: 'g' }],
      projects: [
        {
          namespace: 'g',
          path: 'p',
          issues: [{ title: 'a', due_date: '31/01/2025', created_at: '2025-01-01T24:00:00Z' }, { title: 'b', due_date: null, created_at: '2024-02-29T23:59:59.5+01:00' }],
          milestones: [{ title: 'm', start_date: 'next week' }],
        },
      ],
    });
    const not = (path: string, v: string) => `${path}: "${v}" is not an ISO 8601 date (2025-01-31) or time (2025-01-31T09:00:00Z) on the calendar`;
    expect(e.mistakes).toEqual(
      expect.arrayContaining([
        not('users[0].tokens[0].expires_at', '2025-02-30'),
        not('projects[0].issues[0].due_date', '31/01/2025'),
        not('projects[0].issues[0].created_at', '2025-01-01T24:00:00Z'),
        not('projects[0].milestones[0].start_date', 'next week'),
      ]),
    );
    expect(e.mistakes).toHaveLength(4);
  });

  it('says a bare project is not a fixture, and what a fixture is', async () => {
    const e = await mistakesOf({ name: 'Website', path: 'website', namespace: 'acme', visibility: 'public' });
    expect(e.message).toContain('this looks like a project; a fixture is { projects: [ ... ] }');
    expect(e.mistakes).toContain('path: unknown key');
  });

  it('a misspelt required key is one mistake, not also "required"', async () => {
    const e = await mistakesOf({ users: [{ usernme: 'bob' }, { username: 'ok' }, { usrname: 'c', nmae: 'C' }] });
    expect(e.mistakes).toEqual([
      'users[0].usernme: unknown key; did you mean "username"?',
      'users[2].usrname: unknown key; did you mean "username"?',
      'users[2].nmae: unknown key; did you mean "name"?',
    ]);
  });

  it('a value not one of the allowed ones gets a did-you-mean', async () => {
    const e = await mistakesOf({ groups: [{ path: 'g', visibility: 'pubilc' }] });
    expect(e.text).toBe('groups[0].visibility: expected one of "private", "internal", "public", got "pubilc"; did you mean "public"?');
  });

  it('the control API and the CLI say all of them', async () => {
    const em = await createEmulator();
    const res = await em.handle(new Request('http://gitlab.test/-/emulator/seed', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(THREE) }));
    expect(res.status).toBe(400);
    const { message } = (await res.json()) as { message: string };
    expect(message).toMatch(/projcts.*\n.*\n.*/s);
    expect(message).toContain('groups[0].visibilty');
    expect(message).toContain('"apii"');

    const dir = mkdtempSync(join(tmpdir(), 'gle-fx-'));
    try {
      writeFileSync(join(dir, 'world.json'), JSON.stringify(THREE));
      const child = spawn(process.execPath, [CLI, '--fixture', join(dir, 'world.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      expect(stderr).toContain(`fixture ${join(dir, 'world.json')}: 3 mistakes:`);
      expect(stderr).toContain('users[0].tokens[0].scopes[0]: unknown scope "apii"; did you mean "api"?');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('isCalendarTime', () => {
  it('agrees with the calendar for every day of every month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1970, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const text = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
        const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
        expect(isCalendarTime(text)).toBe(d <= days);
      }),
    );
  });

  it.each(['2025-01-31', '2025-01-31T09:00:00Z', '2025-01-31 09:00', '2025-01-31T09:00:00.123+02:00', '2025-01-31T09:00:00-0500'])('accepts %s', (t) => expect(isCalendarTime(t)).toBe(true));
  it.each(['2025-1-31', '2025-13-01', '2025-01-31T24:00:00Z', '2025-01-31T09:60', 'tomorrow', '', '2025-01-31T09:00:00+25:00'])('refuses %j', (t) => expect(isCalendarTime(t)).toBe(false));
});
