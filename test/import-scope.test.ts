// Which projects `import` reads without --project or --group (the token's user's, through the
// keyset-paged project list), long lists read page by page, and what a read_api token reads.
import { describe, expect, it } from 'vitest';
import { createEmulator } from '../src/index.js';
import { servedWorld } from './support/world.js';
import type { Fixture } from '../src/families/world.js';
import { importFromGitlab } from '../src/importer/index.js';

const ISSUES = 130;

const WORLD: Fixture = {
  users: [
    { username: 'root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'dev', name: 'Dev', email: 'dev-private@corp.test', tokens: [{ token: 'dev-token' }, { token: 'dev-read-api', scopes: ['read_api'] }] },
  ],
  groups: [{ path: 'gg', visibility: 'public', members: [{ user: 'root', access_level: 'owner' }] }],
  projects: [
    { namespace: 'gg', path: 'mine', creator: 'root', visibility: 'private', members: [{ user: 'dev', access_level: 'developer' }], repository: { files: { 'x.txt': 'x\n' } },
      issues: Array.from({ length: ISSUES }, (_, i) => ({ title: `Issue ${i + 1}`, author: 'dev' })) },
    { namespace: 'gg', path: 'other', creator: 'root', visibility: 'public' },
    { namespace: 'dev', path: 'own', creator: 'dev' },
  ],
};

const served = servedWorld(WORLD);

describe('import without --project or --group', () => {
  it("reads the projects the token's user is a member of, every page of their issues, and no private email", async () => {
    const lines: string[] = [];
    const r = await importFromGitlab({ from: served.url, token: 'dev-token', progress: (l) => lines.push(l) });
    expect(r.fixture.projects?.map((p) => `${p.namespace}/${p.path}`)).toEqual(['gg/mine', 'dev/own']);
    expect(r.fixture.projects?.[0]?.issues?.map((i) => i.iid)).toEqual(Array.from({ length: ISSUES }, (_, i) => i + 1));
    expect(lines).toContain('gg/mine: issues: 100 so far');
    expect(JSON.stringify(r.fixture)).not.toContain('dev-private@corp.test');
    const copy = await createEmulator({ fixture: r.fixture });
    const res = await copy.handle(new Request('http://gitlab.test/api/v4/projects/gg%2Fmine/issues?per_page=1', { headers: { 'PRIVATE-TOKEN': r.tokens.dev! } }));
    expect(res.headers.get('x-total')).toBe(String(ISSUES));
  });

  it('needs no more than read_api: the repository comes too, and what a developer may not read is said', async () => {
    const r = await importFromGitlab({ from: served.url, token: 'dev-read-api', projects: ['gg/mine'] });
    expect(r.fixture.projects?.[0]?.repository?.commits?.map((c) => c.files)).toEqual([{ 'x.txt': 'x\n' }]);
    expect(r.notes).toEqual([
      'group gg: CI/CD variables: not carried (403 for this token)',
      'gg/mine: protected branches: not carried (403 for this token)',
      'gg/mine: protected tags: not carried (403 for this token)',
      'gg/mine: CI/CD variables: not carried (403 for this token)',
    ]);
  });

  it('refuses an unknown project by name', async () => {
    await expect(importFromGitlab({ from: served.url, token: 'dev-token', projects: ['gg/nope'] })).rejects.toThrow("project 'gg/nope' not found, or not visible to this token (404)");
  });
});
