// A property: for any interleaving of scheduled moves, clock advances and chosen failures, every
// move goes only forward along the machine's transitions, ends where its chosen failure says,
// and a repository is read-only exactly while a move of its own is in progress.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEmulator, type Fixture } from '../src/index.js';
import { TRANSITIONS, inProgress, type MoveFailure, type MoveState } from '../src/families/storage-moves/index.js';

const PROJECTS = ['acme/a', 'acme/b', 'acme/c'];
const fixture: Fixture = {
  users: [{ username: 'root', admin: true, tokens: [{ token: 'root-token' }] }],
  groups: [{ path: 'acme', visibility: 'public' }],
  projects: PROJECTS.map((p) => ({ namespace: 'acme', path: p.slice(5), visibility: 'public' as const })),
  storage: { move_step: '10s' },
};

type Op =
  | { kind: 'schedule'; project: number; destination: 'default' | 'storage2' | undefined }
  | { kind: 'failNext'; project: number; failure: MoveFailure | null }
  | { kind: 'failLatest'; project: number; failure: MoveFailure }
  | { kind: 'advance'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('schedule' as const), project: fc.integer({ min: 0, max: 2 }), destination: fc.constantFrom('default' as const, 'storage2' as const, undefined) }),
  fc.record({ kind: fc.constant('failNext' as const), project: fc.integer({ min: 0, max: 2 }), failure: fc.constantFrom<MoveFailure | null>('copy', 'checksum', 'same_filesystem', 'cleanup', null) }),
  fc.record({ kind: fc.constant('failLatest' as const), project: fc.integer({ min: 0, max: 2 }), failure: fc.constantFrom<MoveFailure>('copy', 'checksum', 'same_filesystem', 'cleanup') }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(1_000, 9_999, 10_000, 15_000, 30_000, 45_000) }),
);

/** Whether `to` is `from` or follows it along the machine's transitions. */
function reachable(from: MoveState, to: MoveState): boolean {
  if (from === to) return true;
  return TRANSITIONS[from].some((next) => reachable(next, to));
}

const TERMINAL: MoveState[] = ['finished', 'failed', 'cleanup failed'];

describe('storage moves against the machine', () => {
  it('only go forward, end as chosen, and keep exactly their own repository read-only while in progress', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const emulator = await createEmulator({ fixture, clock: { now: '2026-03-01T12:00:00Z', frozen: true } });
        const seen = new Map<string, MoveState>();
        const chosen = new Map<number, MoveFailure | null>();
        const check = () => {
          for (const m of emulator.moves.list('project')) {
            const key = `${m.type}:${m.id}`;
            const before = seen.get(key);
            if (before !== undefined) expect(reachable(before, m.state), `${key}: ${before} -> ${m.state}`).toBe(true);
            seen.set(key, m.state);
          }
          for (const path of PROJECTS) {
            const moving = emulator.moves.of('project', path).some((m) => inProgress(m.state));
            expect(emulator.moves.isReadOnly('project', path)).toBe(moving);
          }
        };
        for (const o of ops) {
          const path = o.kind === 'advance' ? '' : PROJECTS[o.project]!;
          if (o.kind === 'schedule') {
            const res = await emulator.handle(
              new Request(`https://gitlab.example.com/api/v4/projects/${encodeURIComponent(path)}/repository_storage_moves`, {
                method: 'POST', headers: { 'PRIVATE-TOKEN': 'root-token', 'Content-Type': 'application/json' },
                body: JSON.stringify(o.destination ? { destination_storage_name: o.destination } : {}),
              }),
            );
            const wasReadOnly = res.status === 400;
            if (wasReadOnly) expect(await res.json()).toEqual({ message: { project: ['is read-only'] } });
            else {
              expect(res.status).toBe(201);
              const move = (await res.json()) as { id: number; state: string };
              expect(move.state).toBe('scheduled');
              chosen.set(move.id, emulator.moves.get('project', move.id)!.failure);
            }
          } else if (o.kind === 'failNext') emulator.moves.failNext('project', path, o.failure);
          else if (o.kind === 'failLatest') {
            const latest = emulator.moves.of('project', path)[0];
            if (latest) {
              try {
                emulator.moves.fail('project', latest.id, o.failure);
                chosen.set(latest.id, o.failure);
              } catch (err) {
                expect(String(err)).toMatch(/too late/);
              }
            }
          } else emulator.clock.advance(o.ms);
          check();
        }
        emulator.runUntilIdle();
        check();
        for (const m of emulator.moves.list('project')) {
          expect(TERMINAL).toContain(m.state);
          const failure = chosen.get(m.id) ?? null;
          const expected: MoveState = failure === null ? 'finished' : failure === 'cleanup' ? 'cleanup failed' : 'failed';
          expect(m.state).toBe(expected);
          expect(m.errorMessage === null).toBe(expected === 'finished');
        }
        for (const path of PROJECTS) {
          expect(emulator.moves.isReadOnly('project', path)).toBe(false);
          // the storage is the destination of the last move that replicated, else where it started
          const replicated = emulator.moves.of('project', path).filter((m) => m.state === 'finished' || m.state === 'cleanup failed');
          expect(emulator.moves.storageOf('project', path)).toBe(replicated[0]?.destinationStorage ?? 'default');
        }
      }),
      { numRuns: 40 },
    );
  });
});
