// Group export and import (lib/api/group_export.rb, group_import.rb): an export downloads as a
// tar.gz that imports as a new group with the exported description and visibility.
import { describe, expect, it } from 'vitest';
import { unpackExport } from '../src/families/group-import-export/archive.js';
import { ORIGIN, TEAM, apiCall, seededWorld } from './support/world.js';

const world = seededWorld({
  users: TEAM,
  groups: [{ path: 'acme', visibility: 'internal', description: 'The Acme group', members: [{ user: 'mai', access_level: 'owner' }, { user: 'dev', access_level: 'developer' }] }],
}, '2026-05-04T10:00:00Z');

async function importGroup(file: Uint8Array, fields: Record<string, string>, token = 'maintainer-token') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([file as Uint8Array<ArrayBuffer>]), 'export.tar.gz');
  return world().handle(new Request(`${ORIGIN}/api/v4/groups/import`, { method: 'POST', body: form, headers: { 'PRIVATE-TOKEN': token } }));
}

describe('group export and import', () => {
  it('exports, downloads and imports as a new group', async () => {
    expect((await apiCall(world(), '/groups/acme/export/download', { token: 'maintainer-token' })).status).toBe(404);
    const res = await apiCall(world(), '/groups/acme/export', { method: 'POST', token: 'maintainer-token' });
    expect([res.status, await res.json()]).toEqual([202, { message: '202 Accepted' }]);
    const download = await apiCall(world(), '/groups/acme/export/download', { token: 'maintainer-token' });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="2026-05-04_acme_export.tar.gz"');
    const file = new Uint8Array(await download.arrayBuffer());
    const files = unpackExport(file)!;
    expect([...files.keys()].sort()).toEqual(['GITLAB_REVISION', 'GITLAB_VERSION', 'tree/groups/_all.ndjson', expect.stringMatching(/^tree\/groups\/\d+\.json$/)].sort());
    const imported = await importGroup(file, { path: 'imported_group', name: 'Imported Group' });
    expect([imported.status, await imported.json()]).toEqual([202, { message: '202 Accepted' }]);
    const group = await (await apiCall(world(), '/groups/imported_group', { token: 'maintainer-token' })).json();
    expect(group).toMatchObject({ path: 'imported_group', name: 'Imported Group', description: 'The Acme group', visibility: 'internal' });
  });

  it('refuses non-owners, a file that is no export, and a taken path', async () => {
    expect((await apiCall(world(), '/groups/acme/export', { method: 'POST', token: 'dev-token' })).status).toBe(403);
    let res = await importGroup(new TextEncoder().encode('not a tarball'), { path: 'x', name: 'X' });
    expect([res.status, await res.json()]).toEqual([400, { message: 'Invalid file' }]);
    await apiCall(world(), '/groups/acme/export', { method: 'POST', token: 'maintainer-token' });
    const file = new Uint8Array(await (await apiCall(world(), '/groups/acme/export/download', { token: 'maintainer-token' })).arrayBuffer());
    res = await importGroup(file, { path: 'acme', name: 'Acme again' });
    expect(res.status).toBe(400);
  });
});
