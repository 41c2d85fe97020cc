// `gitlab-emulator/vitest`: one call gives a test file an emulator behind MSW, seeded from a
// JSON fixture, put back as seeded before each test.
import { describe, expect, it } from 'vitest';
import { useGitlabEmulator } from 'gitlab-emulator/vitest';

const gitlab = useGitlabEmulator({
  fixture: {
    users: [{ username: 'dev', tokens: [{ token: 'dev-token', scopes: ['api'] }] }],
    groups: [{ path: 'acme', members: [{ user: 'dev', access_level: 'maintainer' }] }],
    projects: [{ namespace: 'acme', path: 'app', repository: { files: { 'README.md': '# app\n' } } }],
  },
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${gitlab.apiUrl}${path}`, { ...init, headers: { 'PRIVATE-TOKEN': 'dev-token', 'Content-Type': 'application/json', ...init.headers } });

describe('a release script', () => {
  it('tags the default branch', async () => {
    const res = await api('/projects/acme%2Fapp/repository/tags', { method: 'POST', body: JSON.stringify({ tag_name: 'v1.0.0', ref: 'main' }) });
    expect(res.status).toBe(201);
    expect(gitlab.emulator.journal.last()).toMatchObject({ method: 'POST', status: 201, user: 'dev' });
  });

  it('starts from the seeded world again', async () => {
    const tags = (await (await api('/projects/acme%2Fapp/repository/tags')).json()) as unknown[];
    expect(tags).toEqual([]);
    expect(gitlab.emulator.journal.entries()).toHaveLength(1);
  });
});
