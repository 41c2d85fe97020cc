// The typed fixture builders: what they build, and that it seeds as the same JSON would.
import { describe, expect, it } from 'vitest';
import { createEmulator, fixture } from '../src/index.js';
import { useGitlabEmulator } from '../src/vitest.js';

describe('fixture()', () => {
  it('builds users with a token, the groups a path names (parents first), and projects with files and members', () => {
    const built = fixture()
      .instance({ tier: 'premium' })
      .admin('root', { token: 'root-token' })
      .user('dev', { token: 'dev-token', name: 'Dee' })
      .project('acme/tools/cli', { files: { 'README.md': '# cli\n' }, members: { dev: 'developer' } })
      .group('acme', { visibility: 'public', members: { dev: 'owner' } })
      .project('dev/scratch')
      .project('pub/site', { visibility: 'public' })
      .build();
    expect(built).toEqual({
      instance: { tier: 'premium' },
      users: [
        { username: 'root', admin: true, tokens: [{ token: 'root-token', scopes: ['api'] }] },
        { username: 'dev', name: 'Dee', tokens: [{ token: 'dev-token', scopes: ['api'] }] },
      ],
      groups: [
        { path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'owner' }] },
        { path: 'tools', parent: 'acme' },
        { path: 'pub', visibility: 'public' },
      ],
      projects: [
        { namespace: 'acme/tools', path: 'cli', creator: 'root', repository: { files: { 'README.md': '# cli\n' } }, members: [{ user: 'dev', access_level: 'developer' }] },
        { namespace: 'dev', path: 'scratch' },
        { namespace: 'pub', path: 'site', visibility: 'public', creator: 'root' },
      ],
    });
    expect(JSON.parse(JSON.stringify(fixture().user('a')))).toEqual({ users: [{ username: 'a' }] });
  });

  it('seeds as the JSON would', async () => {
    const e = await createEmulator({ fixture: fixture().user('dev', { token: 'dev-token' }).project('acme/app', { visibility: 'public', files: { 'a.txt': 'a\n' } }).build() });
    await expect(e.git('acme/app').readText('a.txt', 'main')).resolves.toBe('a\n');
    const res = await e.handle(new Request('https://gitlab.example.com/api/v4/user', { headers: { 'PRIVATE-TOKEN': 'dev-token' } }));
    expect(((await res.json()) as { username: string }).username).toBe('dev');
  });

  it('refuses a project path without a namespace', () => {
    expect(() => fixture().project('app')).toThrow(/names its namespace/);
  });
});

describe('useGitlabEmulator', () => {
  const handle = useGitlabEmulator({ fixture: fixture().user('dev', { token: 'dev-token' }) });
  let early = '';
  try {
    void handle.emulator;
  } catch (e) {
    early = (e as Error).message;
  }

  it('says when the emulator is read before beforeAll ran, and gives it after', async () => {
    expect(early).toMatch(/exists from beforeAll on/);
    expect(handle.apiUrl).toBe('https://gitlab.example.com/api/v4');
    const res = await fetch(`${handle.apiUrl}/user`, { headers: { 'PRIVATE-TOKEN': 'dev-token' } });
    expect(res.status).toBe(200);
    handle.emulator.clock.advance('1d');
    await fetch(`${handle.apiUrl}/projects`, { method: 'POST', headers: { 'PRIVATE-TOKEN': 'dev-token', 'Content-Type': 'application/json' }, body: '{"name":"x"}' });
    expect(handle.emulator.journal.entries()).toHaveLength(2);
  });

  it('starts each test from the seeded world, journal and faults', () => {
    expect(handle.emulator.journal.entries()).toHaveLength(0);
    expect(handle.emulator.state.projects.size).toBe(0);
  });
});
