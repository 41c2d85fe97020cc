// A world exported before the job token scope moved onto the project records (the family's own
// `jobTokenScopes` table, keyed by project id) is still read: each scope lands on its project.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { encode } from '../src/store/encode.js';
import { emptyTable, tset } from '../src/store/table.js';

const ROOT = { 'PRIVATE-TOKEN': 'glpat-emulator-root-token' };

async function get(e: Awaited<ReturnType<typeof createEmulator>>, path: string) {
  const res = await e.handle(new Request(`http://gitlab.example/api/v4${path}`, { headers: ROOT }));
  return { status: res.status, body: await res.json() };
}

describe('an exported world of an earlier release', () => {
  it('reads the former job token scope table onto the projects', async () => {
    const before = await createEmulator();
    const group = ((await get(before, '/groups')).body as { id: number; full_path: string }[])[0]!;
    const fixture = (await before.exportFixture()) as Fixture & { world: { families: Record<string, Record<string, unknown>> } };
    const table = emptyTable<{ inboundEnabled: boolean; groupIds: number[] }>();
    tset(table, 1, { inboundEnabled: false, groupIds: [group.id] });
    fixture.world.families['job-token-scope'] = { jobTokenScopes: encode(table, 'jobTokenScopes') };

    const after = await createEmulator({ fixture });
    expect(await get(after, '/projects/1/job_token_scope/groups_allowlist')).toMatchObject({ status: 200, body: [{ id: group.id }] });
    // A key no release kept is still refused, naming where.
    fixture.world.families['job-token-scope'] = { jobTokenScopez: {} };
    await expect(createEmulator({ fixture })).rejects.toThrow("world.families.job-token-scope.jobTokenScopez: the family keeps no 'jobTokenScopez'");
  });
});
