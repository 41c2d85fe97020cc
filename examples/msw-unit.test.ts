// A unit test of code that calls GitLab through `fetch`: the emulator answers inside the test
// process through MSW, with state, and rolls back between tests in microseconds.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEmulator } from 'gitlab-emulator';
import { handlers } from 'gitlab-emulator/msw';

const GITLAB = 'https://gitlab.example.com';
const TOKEN = 'glpat-example-dev-token';

// The code under test: creates a project unless one with that path exists.
async function ensureProject(name: string): Promise<{ id: number; created: boolean }> {
  const headers = { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' };
  const found = await fetch(`${GITLAB}/api/v4/projects/${encodeURIComponent(`dev/${name}`)}`, { headers });
  if (found.ok) return { id: ((await found.json()) as { id: number }).id, created: false };
  const res = await fetch(`${GITLAB}/api/v4/projects`, { method: 'POST', headers, body: JSON.stringify({ name }) });
  if (res.status !== 201) throw new Error(`GitLab said ${res.status}: ${await res.text()}`);
  return { id: ((await res.json()) as { id: number }).id, created: true };
}

const emulator = await createEmulator({
  fixture: { users: [{ username: 'dev', tokens: [{ token: TOKEN, scopes: ['api'] }] }] },
});
const server = setupServer(...handlers(emulator));
const seeded = emulator.snapshot();

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => emulator.restore(seeded));
afterAll(() => server.close());

describe('ensureProject', () => {
  it('creates the project the first time and finds it the second', async () => {
    const first = await ensureProject('tools');
    const second = await ensureProject('tools');
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false });
  });

  it('starts every test from the seeded world', async () => {
    expect((await ensureProject('tools')).created).toBe(true);
    expect(emulator.journal.entries().at(-1)?.status).toBe(201);
  });
});
