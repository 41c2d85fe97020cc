// Snippets through the two network doors: @gitbeaker/rest against the node server
// (ProjectSnippets, Snippets), and plain fetch through the MSW handler set.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const fixture: Fixture = {
  users: [
    { username: 'dev', name: 'Dee Veloper', tokens: [{ token: 'dev-token' }] },
    { username: 'out', name: 'Out Sider', tokens: [{ token: 'out-token' }] },
  ],
  groups: [{ path: 'acme', visibility: 'private', members: [{ user: 'dev', access_level: 'developer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private' }],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('creates, lists, edits, reads raw and removes project and personal snippets', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const dev = new Gitlab({ host: server.url, token: 'dev-token' });
      const s = await dev.ProjectSnippets.create('acme/app', 'Example', { visibility: 'private', files: [{ filePath: 'a.rb', content: 'puts 1' }] });
      expect(s).toMatchObject({ title: 'Example', visibility: 'private', file_name: 'a.rb' });
      expect((await dev.ProjectSnippets.all('acme/app')).map((x) => x.id)).toEqual([s.id]);
      await dev.ProjectSnippets.edit('acme/app', s.id as number, { files: [{ action: 'update', filePath: 'a.rb', content: 'puts 2' }] });
      expect((await dev.ProjectSnippets.show('acme/app', s.id as number)).title).toBe('Example');
      const outsider = new Gitlab({ host: server.url, token: 'out-token' });
      await expect(outsider.ProjectSnippets.show('acme/app', s.id as number)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
      await dev.ProjectSnippets.remove('acme/app', s.id as number);
      expect(await dev.ProjectSnippets.all('acme/app')).toEqual([]);

      const p = await dev.Snippets.create('Personal', { visibility: 'public', files: [{ filePath: 'note.md', content: '# Note' }] });
      expect(await outsider.Snippets.showContent(p.id as number)).toBe('# Note');
      expect(await outsider.Snippets.showRepositoryFileContent(p.id as number, 'main', 'note.md')).toBe('# Note');
      expect((await outsider.Snippets.all({ public: true })).map((x) => x.id)).toEqual([p.id]);
      expect((await dev.Snippets.all()).map((x) => x.id)).toEqual([p.id]);
      await dev.Snippets.edit(p.id as number, { description: 'Described' });
      expect((await dev.Snippets.show(p.id as number)).description).toBe('Described');
      await dev.Snippets.remove(p.id as number);
      expect(await dev.Snippets.all()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const door = mswDoor();

  it('creates a project snippet, reads it raw and deletes it', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const send = door.serve(emulator);
    const made = await send('/projects/acme%2Fapp/snippets', 'dev-token', 'POST', { title: 'T', visibility: 'private', file_name: 'a.txt', content: 'hello' });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: number };
    expect(await (await send(`/projects/acme%2Fapp/snippets/${id}/raw`, 'dev-token')).text()).toBe('hello');
    expect((await send(`/projects/acme%2Fapp/snippets/${id}`, 'out-token')).status).toBe(404);
    expect((await send(`/projects/acme%2Fapp/snippets/${id}`, 'dev-token', 'DELETE')).status).toBe(204);
  });
});
