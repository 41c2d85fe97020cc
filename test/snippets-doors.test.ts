// Snippets through the two network doors: @gitbeaker/rest against the node server
// (ProjectSnippets, Snippets), and plain fetch through the MSW handler set. Each change is a
// commit of the snippet's repository, and an earlier version reads back at its commit.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { snippetHistory } from './support/world.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'root', name: 'Root', admin: true, tokens: [{ token: 'root-token' }] },
    { username: 'dev', name: 'Dee Veloper', email: 'dev@example.com', tokens: [{ token: 'dev-token' }] },
    { username: 'out', name: 'Out Sider', tokens: [{ token: 'out-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'private', members: [{ user: 'dev', access_level: 'developer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', snippets: [{ title: 'Seeded', author: 'dev', files: [{ path: 's.txt', content: 'seeded' }] }] }],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('creates, lists, edits, reads raw and removes project and personal snippets', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const dev = new Gitlab({ host: server.url, token: 'dev-token' });
      const seeded = (await dev.ProjectSnippets.all('acme/app')).map((x) => x.id);
      const s = await dev.ProjectSnippets.create('acme/app', 'Example', { visibility: 'private', files: [{ filePath: 'a.rb', content: 'puts 1' }] });
      expect(s).toMatchObject({ title: 'Example', visibility: 'private', file_name: 'a.rb', files: [{ path: 'a.rb' }] });
      expect((await dev.ProjectSnippets.all('acme/app')).map((x) => x.id)).toEqual([s.id, ...seeded]);
      const edited = await dev.ProjectSnippets.edit('acme/app', s.id as number, {
        files: [{ action: 'update', filePath: 'a.rb', content: 'puts 2' }, { action: 'create', filePath: 'b.rb', content: 'puts 3' }],
      });
      expect((edited.files as { path: string }[]).map((f) => f.path)).toEqual(['a.rb', 'b.rb']);
      expect(await dev.ProjectSnippets.showContent('acme/app', s.id as number)).toBe('puts 2');
      const [now, before] = await snippetHistory(emulator, s.id as number);
      expect([now!.message, before!.message]).toEqual(['Update snippet', 'Initial commit']);
      expect(await dev.ProjectSnippets.showRepositoryFileContent('acme/app', s.id as number, before!.sha, 'a.rb')).toBe('puts 1');
      expect(await dev.ProjectSnippets.showRepositoryFileContent('acme/app', s.id as number, 'main', 'b.rb')).toBe('puts 3');
      const outsider = new Gitlab({ host: server.url, token: 'out-token' });
      await expect(outsider.ProjectSnippets.show('acme/app', s.id as number)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
      await expect(dev.ProjectSnippets.edit('acme/app', s.id as number, { files: [{ action: 'delete', filePath: 'zzz' }] })).rejects.toMatchObject({
        cause: { response: { status: 400 }, description: JSON.stringify({ error: 'Repository Error updating the snippet' }) },
      });
      const root = new Gitlab({ host: server.url, token: 'root-token' });
      // A private snippet is never spam-checked, so GitLab (16 and later) keeps no user agent detail of it.
      await expect(root.ProjectSnippets.showUserAgentDetails('acme/app', s.id as number)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
      await dev.ProjectSnippets.remove('acme/app', s.id as number);
      expect((await dev.ProjectSnippets.all('acme/app')).map((x) => x.id)).toEqual(seeded);

      const p = await dev.Snippets.create('Personal', { visibility: 'public', files: [{ filePath: 'note.md', content: '# Note' }] });
      expect(await outsider.Snippets.showContent(p.id as number)).toBe('# Note');
      expect(await outsider.Snippets.showRepositoryFileContent(p.id as number, 'main', 'note.md')).toBe('# Note');
      expect((await outsider.Snippets.all({ public: true })).map((x) => x.id)).toEqual([p.id]);
      expect((await dev.Snippets.all()).map((x) => x.id)).toEqual([p.id, ...seeded]);
      await dev.Snippets.edit(p.id as number, { description: 'Described', files: [{ action: 'move', previousPath: 'note.md', filePath: 'renamed.md' }] });
      const shown = await dev.Snippets.show(p.id as number);
      expect(shown).toMatchObject({ description: 'Described', file_name: 'renamed.md', files: [{ path: 'renamed.md', raw_url: `${server.url}/-/snippets/${p.id}/raw/main/renamed.md` }] });
      expect((await root.Snippets.show(p.id as number)).repository_storage).toBe('default');
      expect(await root.Snippets.showUserAgentDetails(p.id as number)).toMatchObject({ akismet_submitted: false });
      await dev.Snippets.remove(p.id as number);
      expect((await dev.Snippets.all()).map((x) => x.id)).toEqual(seeded);
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const door = mswDoor();

  it('creates a project snippet, updates it, reads both versions and deletes it', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const send = door.serve(emulator);
    const made = await send('/projects/acme%2Fapp/snippets', 'dev-token', 'POST', { title: 'T', visibility: 'private', file_name: 'a.txt', content: 'hello' });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    expect((await send(`/projects/acme%2Fapp/snippets/${id}`, 'dev-token', 'PUT', { content: 'hello again' })).status).toBe(200);
    expect(await (await send(`/projects/acme%2Fapp/snippets/${id}/raw`, 'dev-token')).text()).toBe('hello again');
    const [, first] = await snippetHistory(emulator, id);
    expect(await (await send(`/projects/acme%2Fapp/snippets/${id}/files/${first!.sha}/a.txt/raw`, 'dev-token')).text()).toBe('hello');
    expect((await send(`/projects/acme%2Fapp/snippets/${id}`, 'out-token')).status).toBe(404);
    expect((await send(`/projects/acme%2Fapp/snippets/${id}`, 'dev-token', 'DELETE')).status).toBe(204);
  });

  it('lists public and all snippets and reads personal ones', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const send = door.serve(emulator);
    const mine = (await (await send('/snippets', 'out-token', 'POST', { title: 'Mine', visibility: 'public', files: [{ file_path: 'x.txt', content: 'x' }] })).json()) as { id: number };
    expect(((await (await send('/snippets/public', 'dev-token')).json()) as { id: number }[]).map((s) => s.id)).toEqual([mine.id]);
    const all = (await (await send('/snippets/all', 'root-token')).json()) as { id: number; repository_storage: string }[];
    expect(all.map((s) => s.id)).toHaveLength(2);
    expect(all[0]!.repository_storage).toBe('default');
    expect(await (await send(`/snippets/${mine.id}/files/main/x.txt/raw`, 'dev-token')).text()).toBe('x');
    expect((await send(`/snippets/${mine.id}/user_agent_detail`, 'dev-token')).status).toBe(403);
  });
});
