// A property: after random sequences of snippet updates with file actions (creates, updates,
// deletes and moves, with blank paths, missing content, files in the way of directories), each
// answer's status, the snippet's files at its head, and every earlier version agree with a
// plain model of SnippetInputAction, SnippetRepository's naming and Gitaly's index rules; a
// refused update commits nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { apiCall, snippetHistory } from './support/world.js';

const FIXTURE: Fixture = {
  users: [{ username: 'root', name: 'Root', admin: true, tokens: [{ token: 'root-token' }] }],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: [{ namespace: 'acme', path: 'app', visibility: 'public' }],
};

type Action = { action: 'create' | 'update' | 'delete' | 'move'; file_path?: string; previous_path?: string; content?: string };
type Files = Map<string, string>;

const p = fc.oneof({ weight: 9, arbitrary: fc.constantFrom('a', 'b', 'd', 'd/e', 'snippetfile1.txt') }, { weight: 1, arbitrary: fc.constant('') });
/** A value most of the time (`weight` to 1), else absent. */
const maybe = (weight: number) => fc.oneof({ weight, arbitrary: p }, { weight: 1, arbitrary: fc.constant(undefined) });
const content = (weight: number) =>
  fc.oneof({ weight, arbitrary: fc.constantFrom('x', 'y', 'z') }, { weight: 1, arbitrary: fc.constant(' ') }, { weight: 1, arbitrary: fc.constant(undefined) });
// Mostly well-formed actions of each kind, with now and then a field missing or blank.
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ action: fc.constant('create' as const), file_path: maybe(4), content: content(8) }),
  fc.record({ action: fc.constant('update' as const), file_path: maybe(8), previous_path: fc.oneof(p, fc.constant(undefined), fc.constant(undefined)), content: content(8) }),
  fc.record({ action: fc.constant('delete' as const), file_path: maybe(8) }),
  fc.record({ action: fc.constant('move' as const), previous_path: maybe(8), file_path: maybe(3), content: fc.oneof(fc.constantFrom('x', 'y'), fc.constant(undefined)) }),
);

const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/** SnippetInputAction#valid?. */
function valid(a: Action): boolean {
  if (a.action === 'move' && (!present(a.previous_path) || a.previous_path === a.file_path)) return false;
  if ((a.action === 'update' || a.action === 'delete') && !present(a.file_path)) return false;
  if ((a.action === 'create' || a.action === 'update') && !present(a.content)) return false;
  if (a.action === 'update' && present(a.previous_path) && present(a.file_path) && a.previous_path !== a.file_path) return false;
  return true;
}

/** The model's answer to an update: 422, 400 (and the files unchanged), or 200 with the new files. */
function apply(files: Files, actions: Action[]): { status: number; files: Files } {
  if (!actions.every(valid)) return { status: 422, files };
  const out = new Map(files);
  let next = 1 + Math.max(0, ...[...files.keys()].map((p) => Number(/^snippetfile(\d+)\.txt$/.exec(p)?.[1] ?? 0)));
  const refused = { status: 400, files };
  const inTheWay = (p: string) => p.split('/').slice(0, -1).some((_, i, parts) => out.has(parts.slice(0, i + 1).join('/'))) || [...out.keys()].some((k) => k.startsWith(`${p}/`));
  for (const a of actions) {
    const target = present(a.file_path) ? a.file_path : present(a.previous_path) && /^snippetfile\d+\.txt$/.test(a.previous_path) ? a.previous_path : `snippetfile${next++}.txt`;
    if (a.action === 'update') {
      if (!out.has(target)) return refused;
      out.set(target, a.content!);
    } else if (a.action === 'delete') {
      if (!out.has(target)) return refused;
      out.delete(target);
    } else {
      let content = a.content;
      if (a.action === 'move' && !out.has(a.previous_path!)) return refused;
      // Gitaly checks the target with the moved file still there.
      if (out.has(target) || inTheWay(target)) return refused;
      if (a.action === 'move') {
        content ??= out.get(a.previous_path!);
        out.delete(a.previous_path!);
      }
      out.set(target, content!);
    }
  }
  return { status: 200, files: out };
}

describe('snippet file actions against a model', () => {
  it('agree on every answer, the files at the head and each earlier version', async () => {
    const emulator = await createEmulator({ fixture: FIXTURE, clock: { now: '2024-03-01T10:00:00Z', frozen: true } });
    const seeded = emulator.snapshot();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(action, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }), async (updates) => {
        emulator.restore(seeded);
        const made = await apiCall(emulator, '/projects/acme%2Fapp/snippets', {
          method: 'POST', token: 'root-token', json: { title: 'P', visibility: 'public', files: [{ file_path: 'a', content: 'start' }, { file_path: 'b', content: 'b' }, { file_path: 'd/e', content: 'e' }] },
        });
        const { id } = (await made.json()) as { id: number };
        let files: Files = new Map([['a', 'start'], ['b', 'b'], ['d/e', 'e']]);
        const versions: Files[] = [files];
        for (const actions of updates) {
          const res = await apiCall(emulator, `/projects/acme%2Fapp/snippets/${id}`, { method: 'PUT', token: 'root-token', json: { files: actions } });
          const expected = apply(files, actions);
          expect(res.status).toBe(expected.status);
          if (expected.status === 200) {
            files = expected.files;
            versions.unshift(files);
            const body = (await res.json()) as { files: { path: string }[] };
            expect(body.files.map((f) => f.path)).toEqual([...files.keys()].sort());
          }
        }
        const log = await snippetHistory(emulator, id);
        expect(log.map((c) => c.files)).toEqual(versions.map((v) => Object.fromEntries([...v].sort())));
        // The oldest version still reads back at its commit.
        const first = await apiCall(emulator, `/projects/acme%2Fapp/snippets/${id}/files/${log[log.length - 1]!.sha}/a/raw`, { token: 'root-token' });
        expect(await first.text()).toBe('start');
      }),
      { numRuns: 60 },
    );
  });
});
