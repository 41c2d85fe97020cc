// Worlds are isolated, as a plain model says: random writes, resets and re-creations across two
// worlds and the emulator's own world leave each with exactly what was done to it since it was
// made or last reset.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../src/index.js';

const BASE = 'https://gitlab.example.com';
const TOKEN = 'glpat-emulator-root-token';
const WORLDS = ['', '/-/worlds/a', '/-/worlds/b'] as const;

type Op = { kind: 'create'; at: number; name: string } | { kind: 'reset'; at: number } | { kind: 'recreate'; at: 1 | 2 };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('create' as const), at: fc.integer({ min: 0, max: 2 }), name: fc.stringMatching(/^p-[a-z]{1,6}$/) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), at: fc.integer({ min: 0, max: 2 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recreate' as const), at: fc.constantFrom(1 as const, 2 as const) }) },
);

async function call(e: Emulator, method: string, path: string, body?: unknown) {
  const res = await e.handle(
    new Request(`${BASE}${path}`, { method, headers: { 'PRIVATE-TOKEN': TOKEN, ...(body ? { 'Content-Type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined }),
  );
  return { status: res.status, json: res.status === 204 ? null : await res.json() };
}

describe('worlds against a model', () => {
  it('each world holds what was done to it alone', async () => {
    const emulator = await createEmulator({ clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), async (ops) => {
        emulator.reset();
        for (const name of emulator.worlds!.names()) emulator.worlds!.remove(name);
        await emulator.worlds!.create('a');
        await emulator.worlds!.create('b');
        const model: Set<string>[] = [new Set(), new Set(), new Set()];
        for (const o of ops) {
          if (o.kind === 'create') {
            const res = await call(emulator, 'POST', `${WORLDS[o.at]}/api/v4/projects`, { name: o.name });
            // A name taken in that world is GitLab's 400 there, and nothing changes.
            expect(res.status).toBe(model[o.at]!.has(o.name) ? 400 : 201);
            model[o.at]!.add(o.name);
          } else if (o.kind === 'reset') {
            expect((await call(emulator, 'POST', `${WORLDS[o.at]}/-/emulator/reset`)).status).toBe(204);
            model[o.at]!.clear();
          } else {
            const name = WORLDS[o.at].slice('/-/worlds/'.length);
            expect((await call(emulator, 'DELETE', `/-/emulator/worlds/${name}`)).status).toBe(204);
            expect((await call(emulator, 'POST', '/-/emulator/worlds', { name })).status).toBe(201);
            model[o.at]!.clear();
          }
        }
        for (let i = 0; i < WORLDS.length; i++) {
          const { json } = await call(emulator, 'GET', `${WORLDS[i]}/api/v4/projects?owned=true&per_page=100`);
          const made = (json as { path: string }[]).map((p) => p.path).filter((p) => p.startsWith('p-'));
          expect(made.sort()).toEqual([...model[i]!].sort());
        }
      }),
      { numRuns: 25 },
    );
  });
});
