// The everyday neighbours through the two network doors: @gitbeaker/rest against the node
// server (commits with actions, tree, blobs, compare, merge base, contributors, commit
// sub-resources, statuses, protections, groups, namespaces, milestones, metadata, uploads,
// GraphQL), and plain fetch through the MSW handler set.
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, it } from 'vitest';
import { mswDoor } from './support/msw.js';
import { createEmulator, type Fixture } from '../src/index.js';

const TOKEN = 'dev-token';
const fixture: Fixture = {
  instance: { tier: 'ultimate' },
  users: [{ username: 'dev', name: 'Dee Veloper', email: 'dee@example.com', tokens: [{ token: TOKEN }] }],
  groups: [
    { path: 'acme', visibility: 'public', members: [{ user: 'dev', access_level: 'owner' }] },
    { path: 'web', parent: 'acme', visibility: 'public' },
  ],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'private', repository: { files: { 'README.md': '# App\n' } } }],
};

describe('the node server door, driven by @gitbeaker/rest', () => {
  it('commits with actions and reads the repository around them', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: TOKEN });
      const p = 'acme/app';

      const made = await api.Commits.create(p, 'feature', 'Add the app', [
        { action: 'create', filePath: 'src/app.ts', content: 'export const app = 1;\n' },
        { action: 'update', filePath: 'README.md', content: '# App\n\nUpdated.\n' },
        { action: 'create', filePath: 'bin/run', content: '#!/bin/sh\n' },
        { action: 'chmod', filePath: 'bin/run', execute_filemode: true } as never,
      ], { startBranch: 'main', authorName: 'Pat Author', authorEmail: 'pat@example.com' });
      expect(made).toMatchObject({ title: 'Add the app', author_name: 'Pat Author', committer_name: 'Dee Veloper', stats: { additions: 4, deletions: 0, total: 4 } });
      expect(made.id).toBe(emulator.git(p).refs().branches.feature);

      const tree = await api.Repositories.allRepositoryTrees(p, { ref: 'feature', recursive: true });
      expect(tree.map((t) => [t.type, t.path])).toEqual([['tree', 'bin'], ['tree', 'src'], ['blob', 'README.md'], ['blob', 'bin/run'], ['blob', 'src/app.ts']]);
      expect(tree.find((t) => t.path === 'bin/run')!.mode).toBe('100755');
      const keyset = await api.Repositories.allRepositoryTrees(p, { ref: 'feature', recursive: true, pagination: 'keyset', perPage: 2 });
      expect(keyset.map((t) => t.path)).toEqual(tree.map((t) => t.path));

      const blobId = tree.find((t) => t.path === 'src/app.ts')!.id;
      expect(Buffer.from((await api.Repositories.showBlob(p, blobId)).content as string, 'base64').toString()).toBe('export const app = 1;\n');
      const raw = (await api.Repositories.showBlobRaw(p, blobId)) as unknown;
      expect(typeof raw === 'string' ? raw : await (raw as Blob).text()).toBe('export const app = 1;\n');

      const compare = await api.Repositories.compare(p, 'main', 'feature');
      expect(compare.commits!.map((c) => c.title)).toEqual(['Add the app']);
      expect((compare.diffs as { new_path: string }[]).map((d) => d.new_path)).toEqual(['README.md', 'bin/run', 'src/app.ts']);
      expect((await api.Repositories.mergeBase(p, ['main', 'feature'])).id).toBe(emulator.git(p).refs().branches.main);
      expect((await api.Repositories.allContributors(p, { ref: 'feature' } as never)).map((c) => c.email).sort()).toEqual(['dee@example.com', 'pat@example.com']);

      expect((await api.Commits.showDiff(p, 'feature')).map((d) => d.new_path)).toEqual(['README.md', 'bin/run', 'src/app.ts']);
      expect(await api.Commits.allReferences(p, made.id as string)).toEqual([{ type: 'branch', name: 'feature' }]);
      await expect(api.Commits.showGPGSignature(p, made.id as string)).rejects.toMatchObject({ cause: { response: { status: 404 } } });
      const picked = await api.Commits.cherryPick(p, made.id as string, 'main');
      expect(picked.message).toBe(`Add the app\n\n(cherry picked from commit ${made.id})`);
      const reverted = await api.Commits.revert(p, picked.id as string, 'main');
      expect(reverted.title).toBe('Revert "Add the app"');

      const status = await api.Commits.editStatus(p, made.id as string, 'running', { name: 'ci/test', targetUrl: 'https://ci.example.com/1' });
      expect(status).toMatchObject({ status: 'running', name: 'ci/test', ref: 'feature' });
      expect((await api.Commits.allStatuses(p, made.id as string)).map((s) => s.status)).toEqual(['running']);

      const protectedBranch = await api.ProtectedBranches.protect(p, 'release/*', { pushAccessLevel: 30 } as never);
      expect(protectedBranch).toMatchObject({ name: 'release/*', push_access_levels: [{ access_level: 30 }] });
      expect((await api.ProtectedBranches.all(p)).map((b) => b.name)).toEqual(['release/*']);
      await api.ProtectedBranches.unprotect(p, 'release/*');
      await api.ProtectedTags.protect(p, 'v*');
      expect((await api.ProtectedTags.all(p)).map((t) => t.name)).toEqual(['v*']);
    } finally {
      await server.close();
    }
  });

  it('answers groups, namespaces, milestones, metadata, uploads and GraphQL', async () => {
    const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    const server = await emulator.listen({ port: 0 });
    try {
      const api = new Gitlab({ host: server.url, token: TOKEN });
      expect((await api.Groups.allDescendantGroups('acme', {})).map((g) => g.full_path)).toEqual(['acme/web']);
      expect(await api.Namespaces.exists('acme')).toEqual({ exists: true, suggests: ['acme1'] });
      const m = await api.ProjectMilestones.create('acme/app', '1.0');
      expect(await api.ProjectMilestones.edit('acme/app', m.id, { stateEvent: 'close' })).toMatchObject({ state: 'closed' });
      await api.ProjectMilestones.remove('acme/app', m.id);
      expect(await api.ProjectMilestones.all('acme/app')).toEqual([]);
      expect(await api.Metadata.show()).toMatchObject({ version: '18.2.0-ee', enterprise: true });
      const up = await api.Projects.uploadForReference('acme/app', { content: new Blob(['notes']), filename: 'notes.txt' });
      expect(up.markdown).toBe(`[notes.txt](${up.url})`);
      const served = await fetch(`${server.url}${up.full_path}`, { headers: { 'PRIVATE-TOKEN': TOKEN } });
      expect(await served.text()).toBe('notes');
      const gql = await fetch(`${server.url}/api/graphql`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: '{ currentUser { username } project(fullPath: "acme/app") { name } }' }),
      });
      expect(await gql.json()).toEqual({ data: { currentUser: { username: 'dev' }, project: { name: 'app' } } });
    } finally {
      await server.close();
    }
  });
});

describe('the MSW door, with plain fetch', () => {
  const door = mswDoor();

  it('commits with actions, lists the tree and compares', async () => {
    const emulator = await createEmulator({ fixture });
    const api = door.serve(emulator);
    const send = (path: string, method = 'GET', body?: unknown) => api(`/projects/acme%2Fapp/repository${path}`, TOKEN, method, body);
    const res = await send('/commits', 'POST', { branch: 'main', commit_message: 'Docs', actions: [{ action: 'create', file_path: 'docs/a.md', content: 'a' }] });
    expect(res.status).toBe(201);
    const tree = (await (await send('/tree?path=docs')).json()) as { path: string }[];
    expect(tree.map((t) => t.path)).toEqual(['docs/a.md']);
    const compare = (await (await send('/compare?from=main~1&to=main')).json()) as { diffs: { diff: string }[] };
    expect(compare.diffs[0]!.diff).toBe('@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n');
    const meta = await fetch('https://gitlab.example.com/api/v4/version', { headers: { 'PRIVATE-TOKEN': TOKEN } });
    expect(await meta.json()).toMatchObject({ enterprise: true });
  });
});
