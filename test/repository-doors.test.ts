// The repository families through the two network doors: a real client (@gitbeaker/rest)
// against the node server, and plain fetch through the MSW handler set. Both write real git
// objects that `emulator.git()` then reads.
import { Gitlab } from '@gitbeaker/rest';
import { unzipSync } from 'fflate';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../src/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const TOKEN = 'dev-token';
const fixture: Fixture = {
  users: [{ username: 'dev', name: 'Dee Veloper', email: 'dee@example.com', tokens: [{ token: TOKEN }] }],
  groups: [{ path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'maintainer' }] }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', repository: { files: { 'README.md': '# App\n' } } }],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('writes and reads files, branches, commits, tags and archives', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: TOKEN });
      const project = 'acme/app';

      const branch = await api.Branches.create(project, 'feature/cli', 'main');
      expect(branch.name).toBe('feature/cli');
      const file = await api.RepositoryFiles.create(project, 'src/cli.ts', 'feature/cli', 'export {};\n', 'Add the CLI');
      expect(file).toEqual({ file_path: 'src/cli.ts', branch: 'feature/cli' });
      await api.RepositoryFiles.edit(project, 'src/cli.ts', 'feature/cli', 'export const cli = 1;\n', 'Grow the CLI');

      const shown = await api.RepositoryFiles.show(project, 'src/cli.ts', 'feature/cli');
      expect(Buffer.from(shown.content, 'base64').toString()).toBe('export const cli = 1;\n');
      expect(await api.RepositoryFiles.showRaw(project, 'src/cli.ts', 'feature/cli')).toBe('export const cli = 1;\n');
      const blame = await api.RepositoryFiles.allFileBlames(project, 'src/cli.ts', 'feature/cli');
      expect(blame[0]!.commit.message).toBe('Grow the CLI');

      const commits = await api.Commits.all(project, { refName: 'feature/cli' });
      expect(commits.map((c) => c.title)).toEqual(['Grow the CLI', 'Add the CLI', 'Initial commit']);
      expect(commits[0]!.id).toBe(emulator.git(project).refs().branches['feature/cli']);
      expect((await api.Commits.show(project, commits[1]!.id as string)).title).toBe('Add the CLI');

      const tag = await api.Tags.create(project, 'v1.0.0', 'feature/cli', { message: 'First release' });
      expect(tag).toMatchObject({ name: 'v1.0.0', message: 'First release', commit: { id: commits[0]!.id } });
      await api.Tags.create(project, 'v0.9.0', 'main');
      expect((await api.Tags.all(project, { orderBy: 'version', sort: 'asc' })).map((t) => t.name)).toEqual(['v0.9.0', 'v1.0.0']);
      expect(await api.Tags.show(project, 'v1.0.0')).toMatchObject({ target: emulator.git(project).refs().tags['v1.0.0']!.target });
      await expect(api.Tags.showSignature(project, 'v1.0.0')).rejects.toMatchObject({ cause: { response: { status: 404 } } });
      await api.Tags.remove(project, 'v0.9.0');
      expect(Object.keys(emulator.git(project).refs().tags)).toEqual(['v1.0.0']);

      const milestone = await api.ProjectMilestones.create(project, '1.0');
      const release = await api.ProjectReleases.create(project, {
        tagName: 'v1.0.0',
        name: 'First',
        description: 'Notes in **bold**',
        milestones: ['1.0'],
        assets: { links: [{ name: 'linux', url: 'https://downloads.example.com/app-linux', direct_asset_path: '/bin/app' }] },
      });
      expect(release).toMatchObject({ tag_name: 'v1.0.0', name: 'First', commit: { id: commits[0]!.id }, milestones: [{ id: milestone.id, title: '1.0' }] });
      const html = await api.ProjectReleases.show(project, 'v1.0.0', { includeHtmlDescription: true });
      expect(html.description_html).toContain('<strong>bold</strong>');
      expect((await api.ProjectReleases.all(project)).map((r) => r.tag_name)).toEqual(['v1.0.0']);
      const [link] = await api.ReleaseLinks.all(project, 'v1.0.0');
      expect(link).toMatchObject({ name: 'linux', direct_asset_url: `${server.url}/acme/app/-/releases/v1.0.0/downloads/bin/app` });
      expect((await api.ProjectReleases.showLatest(project)).tag_name).toBe('v1.0.0');

      const archive = await api.Repositories.showArchive(project, { fileType: 'zip', sha: 'v1.0.0' });
      const members = Object.keys(unzipSync(new Uint8Array(await archive.arrayBuffer())));
      expect(members).toContain(`app-v1.0.0-${commits[0]!.id}/src/cli.ts`);

      const templates = await api.GitignoreTemplates.all();
      expect(templates.length).toBeGreaterThan(15);
      expect((await api.GitignoreTemplates.show('Node')).content).toContain('node_modules');
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const msw = setupServer();
  beforeAll(() => msw.listen({ onUnhandledRequest: 'bypass' }));
  afterAll(() => msw.close());

  it('writes and reads files, branches, commits and tags', async () => {
    const emulator = await createEmulator({ fixture });
    msw.resetHandlers(...handlers(emulator));
    const base = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp/repository';
    const send = (path: string, method = 'GET', body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: { 'PRIVATE-TOKEN': TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });

    expect((await send('/files/docs%2Fguide.md', 'POST', { branch: 'main', content: '# Guide\n', commit_message: 'Add a guide' })).status).toBe(201);
    expect(await (await send('/files/docs%2Fguide.md/raw?ref=main')).text()).toBe('# Guide\n');
    const [head] = (await (await send('/commits?ref_name=main')).json()) as { id: string; title: string }[];
    expect(head).toMatchObject({ title: 'Add a guide', id: emulator.git('acme/app').refs().branches.main });
    expect((await send('/branches', 'POST', { branch: 'docs', ref: 'main' })).status).toBe(201);
    const tag = await send('/tags', 'POST', { tag_name: 'docs-1', ref: 'docs' });
    expect(tag.status).toBe(201);
    expect(await tag.json()).toMatchObject({ name: 'docs-1', message: null, target: head!.id });
    expect(await emulator.git('acme/app').readText('docs/guide.md', 'docs-1')).toBe('# Guide\n');
  });
});

describe('ref names that are object properties, through both doors', () => {
  const NAMES = ['__proto__', 'constructor', 'toString'];

  it('creates, reads, lists and deletes them as branches and tags with @gitbeaker/rest', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: TOKEN });
      const project = 'acme/app';
      const main = emulator.git(project).refs().branches.main!;
      for (const name of NAMES) {
        expect((await api.Branches.create(project, name, 'main')).name).toBe(name);
        expect(await api.Branches.show(project, name)).toMatchObject({ name, commit: { id: main } });
        expect(await api.Tags.create(project, name, name)).toMatchObject({ name, commit: { id: main } });
        expect(await api.Tags.show(project, name)).toMatchObject({ name, target: main });
      }
      expect((await api.Branches.all(project)).map((b) => b.name)).toEqual(['__proto__', 'constructor', 'main', 'toString']);
      expect((await api.Tags.all(project, { orderBy: 'name', sort: 'asc' })).map((t) => t.name)).toEqual(['__proto__', 'constructor', 'toString']);
      const refs = emulator.git(project).refs();
      expect(Object.getPrototypeOf(refs.branches)).toBeNull();
      expect(Object.keys(refs.branches).sort()).toEqual(['__proto__', 'constructor', 'main', 'toString']);
      expect(Object.keys(refs.tags).sort()).toEqual(['__proto__', 'constructor', 'toString']);
      for (const name of NAMES) {
        await api.Tags.remove(project, name);
        await api.Branches.remove(project, name);
        await expect(api.Branches.show(project, name)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
      }
      expect(Object.keys(emulator.git(project).refs().branches)).toEqual(['main']);
      expect(Object.keys(emulator.git(project).refs().tags)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('creates and reads them through the MSW door', async () => {
    const msw = setupServer();
    msw.listen({ onUnhandledRequest: 'bypass' });
    try {
      const emulator = await createEmulator({ fixture });
      msw.resetHandlers(...handlers(emulator));
      const base = 'https://gitlab.example.com/api/v4/projects/acme%2Fapp/repository';
      const send = (path: string, method = 'GET', body?: unknown) =>
        fetch(`${base}${path}`, { method, headers: { 'PRIVATE-TOKEN': TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      for (const name of NAMES) {
        expect((await send(`/branches/${encodeURIComponent(name)}`)).status).toBe(404);
        expect((await send('/branches', 'POST', { branch: name, ref: 'main' })).status).toBe(201);
        expect(await (await send(`/branches/${encodeURIComponent(name)}`)).json()).toMatchObject({ name });
        expect((await send('/tags', 'POST', { tag_name: name, ref: name })).status).toBe(201);
        expect(await (await send(`/tags/${encodeURIComponent(name)}`)).json()).toMatchObject({ name });
      }
      const refs = emulator.git('acme/app').refs();
      for (const name of NAMES) expect(refs.tags[name]?.commit).toBe(refs.branches[name]);
    } finally {
      msw.close();
    }
  });
});
