// Wikis through the two network doors: @gitbeaker/rest against the node server (ProjectWikis,
// GroupWikis), and plain fetch through the MSW handler set.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';
import { wikiHeadCommit } from './support/world.js';

const fixture: Fixture = {
  instance: { tier: 'premium' },
  users: [
    { username: 'own', name: 'Owen Owner', tokens: [{ token: 'own-token' }] },
    { username: 'dev', name: 'Dee Veloper', tokens: [{ token: 'dev-token' }] },
  ],
  groups: [{ path: 'acme', name: 'Acme', visibility: 'private', members: [{ user: 'own', access_level: 'owner' }, { user: 'dev', access_level: 'developer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private' }],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('creates, reads, edits, lists, attaches and removes pages of project and group wikis', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const dev = new Gitlab({ host: server.url, token: 'dev-token' });
      const owner = new Gitlab({ host: server.url, token: 'own-token' });
      for (const [wikis, id] of [[dev.ProjectWikis, 'acme/app'], [dev.GroupWikis, 'acme']] as const) {
        const page = await wikis.create(id, 'Some *content*', 'Getting Started');
        expect(page).toMatchObject({ slug: 'Getting-Started', title: 'Getting Started', format: 'markdown', content: 'Some *content*' });
        const first = await wikis.show(id, 'Getting-Started');
        await wikis.edit(id, 'Getting-Started', { content: 'Changed' });
        expect((await wikis.show(id, 'getting-started')).content).toBe('Changed');
        expect((await wikis.show(id, 'Getting-Started', { renderHtml: true })).content).toBe('<p data-sourcepos="1:1-1:7" dir="auto">Changed</p>');
        expect(first.content).toBe('Some *content*');
        await wikis.create(id, 'Inside', 'docs/Install', { format: 'asciidoc' });
        expect((await wikis.all(id)).map((p) => p.slug)).toEqual(['Getting-Started', 'docs/Install']);
        expect((await wikis.all(id, { withContent: true })).map((p) => p.content)).toEqual(['Changed', 'Inside']);
        const attached = await wikis.uploadAttachment(id, { content: new Blob(['hello']), filename: 'notes.txt' });
        expect(attached).toMatchObject({ file_name: 'notes.txt', branch: 'main', link: { markdown: `[notes.txt](${attached.file_path})` } });
        await expect(wikis.remove(id, 'docs/Install')).rejects.toMatchObject({ cause: { response: { status: 403 } } });
        await (id === 'acme' ? owner.GroupWikis : owner.ProjectWikis).remove(id, 'docs/Install');
        await expect(wikis.show(id, 'docs/Install')).rejects.toMatchObject({ cause: { response: { status: 404 } } });
      }
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const door = mswDoor();

  it('creates a page, reads an earlier version and deletes it', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const send = door.serve(emulator);
    expect((await send('/groups/acme/wikis', 'dev-token', 'POST', { title: 'Home', content: 'v1' })).status).toBe(201);
    const first = (await wikiHeadCommit(emulator, 'group', 'acme'))!.sha;
    expect((await send('/groups/acme/wikis/Home', 'dev-token', 'PUT', { content: 'v2' })).status).toBe(200);
    const read = async (path: string) => ((await (await send(path, 'dev-token')).json()) as { content: string }).content;
    expect(await read('/groups/acme/wikis/Home')).toBe('v2');
    expect(await read(`/groups/acme/wikis/Home?version=${first}`)).toBe('v1');
    expect((await send('/groups/acme/wikis/Home', 'own-token', 'DELETE')).status).toBe(204);
    expect(await (await send('/groups/acme/wikis', 'dev-token')).json()).toEqual([]);
  });
});
