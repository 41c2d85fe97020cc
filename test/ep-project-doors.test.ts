// The project and group settings families through the node server door, driven by
// @gitbeaker/rest: deploy keys and tokens, badges, boards, stars, topics, transfers, forks; and a
// multipart avatar upload over HTTP served back by the same server.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIN4jrPk163LGu4FSEdDcmYHOHj1zjF4F55duewU3DjXc one@example';
const fixture: Fixture = {
  instance: { tier: 'ultimate' },
  users: [{ username: 'root', name: 'Administrator', email: 'root@example.com', admin: true, tokens: [{ token: 'root-token' }] }],
  groups: [{ path: 'acme', visibility: 'public' }, { path: 'other', visibility: 'public' }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'public', creator: 'root', repository: { files: { 'README.md': '# App\n' } } }],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('keys, tokens, badges, boards, stars, topics, a fork and a transfer', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-05-04T10:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: 'root-token' });
      const p = 'acme/app';
      const key = await api.DeployKeys.create(p, 'ci', KEY, { canPush: true } as never);
      expect(key).toMatchObject({ title: 'ci', can_push: true, fingerprint_sha256: 'SHA256:tdDrBRpnaLgCeU4b20uDPVan0ZgFVxURSRCwIwtxKak' });
      expect((await api.DeployKeys.all({ projectId: p } as never)).map((k) => k.id)).toEqual([key.id]);

      const token = await api.DeployTokens.create('bot', ['read_repository'], { projectId: p } as never);
      expect(token).toMatchObject({ name: 'bot', username: `gitlab+deploy-token-${token.id}`, token: expect.stringMatching(/^gldt-/) });

      const badge = await api.ProjectBadges.add(p, 'https://ci.example/%{project_path}', 'https://ci.example/badge.svg');
      expect(badge.rendered_link_url).toBe('https://ci.example/acme/app');

      const board = await api.ProjectIssueBoards.create(p, 'Work');
      expect((await api.ProjectIssueBoards.all(p)).map((b) => b.name)).toEqual([board.name]);

      expect((await api.Projects.star(p)).star_count).toBe(1);
      expect((await api.Projects.allStarrers(p)).map((s) => (s as { user: { username: string } }).user.username)).toEqual(['root']);

      const topic = await api.Topics.create('web', { title: 'Web', description: 'The web' } as never);
      expect((await api.Topics.all()).map((t) => t.name)).toEqual([topic.name]);

      const fork = await api.Projects.fork(p, { namespacePath: 'other' } as never);
      expect((fork as { forked_from_project?: { path_with_namespace: string } }).forked_from_project?.path_with_namespace).toBe('acme/app');
      const moved = await api.Projects.transfer(fork.id, 'root');
      expect(moved.path_with_namespace).toBe('root/app');
    } finally {
      await server.close();
    }
  });

  it('a multipart avatar upload, served back over HTTP', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-05-04T10:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9]);
      const form = new FormData();
      form.append('avatar', new File([png], 'logo.png', { type: 'image/png' }));
      const res = await fetch(`${server.url}/api/v4/groups/acme`, { method: 'PUT', headers: { 'PRIVATE-TOKEN': 'root-token' }, body: form });
      const url = (await res.json()).avatar_url as string;
      expect(url).toMatch(/\/uploads\/-\/system\/group\/avatar\/\d+\/logo\.png$/);
      const served = await fetch(url.replace(/^https?:\/\/[^/]+/, server.url));
      expect([served.status, new Uint8Array(await served.arrayBuffer())]).toEqual([200, png]);
    } finally {
      await server.close();
    }
  });
});
