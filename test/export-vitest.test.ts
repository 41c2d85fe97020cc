// The vitest helper hands out the world a test made, as a fixture: an emulator created with it
// starts from that world.
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { useGitlabEmulator } from '../src/vitest.js';

const ROOT = { 'PRIVATE-TOKEN': 'glpat-emulator-root-token', 'Content-Type': 'application/json' };

describe('useGitlabEmulator().exportFixture()', () => {
  const gitlab = useGitlabEmulator();
  it('is the world the test made, through fetch', async () => {
    const res = await fetch(`${gitlab.apiUrl}/projects/acme%2Fwebsite/issues`, { method: 'POST', headers: ROOT, body: JSON.stringify({ title: 'Carried over' }) });
    expect(res.status).toBe(201);
    const exported = JSON.parse(JSON.stringify(await gitlab.exportFixture())) as Fixture;
    const copy = await createEmulator({ fixture: exported });
    const issues = (await (await copy.handle(new Request(`${gitlab.apiUrl}/projects/acme%2Fwebsite/issues`, { headers: ROOT }))).json()) as { title: string }[];
    // The default world's own issue, then the test's.
    expect(issues.map((i) => i.title)).toEqual(['Carried over', expect.any(String)]);
    expect(issues).toHaveLength(2);
  });

  it('the next test starts from the seeded world again: nothing of the export stays', async () => {
    const issues = (await (await fetch(`${gitlab.apiUrl}/projects/acme%2Fwebsite/issues`, { headers: ROOT })).json()) as { title: string }[];
    expect(issues.map((i) => i.title)).not.toContain('Carried over');
    expect(issues).toHaveLength(1);
  });
});
