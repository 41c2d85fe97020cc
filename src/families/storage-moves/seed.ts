// The fixture's storage: the shards (names and weights), how long each step of a move takes,
// and on which shard a project's repository starts.
import { EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { parseDuration } from '../../core/clock.js';
import { fixtureProjectPath, projectWhere, type SeedRun } from '../define.js';
import { placeRepository } from '../repositories/index.js';
import type { State } from '../world.js';
import type { storageProjectSchema, storageSchema, storageTopSchema } from './schema.js';

export type FixtureStorage = Infer<typeof storageSchema>;

export type FixtureStoragePart = Infer<typeof storageTopSchema>;

export type FixtureProjectStoragePart = Infer<typeof storageProjectSchema>;

/** Checks the shards a fixture or a test gives: names unique and non-empty, weights whole and not negative. */
export function checkShards(shards: unknown): { name: string; weight: number }[] {
  if (!Array.isArray(shards) || shards.length === 0) throw new EmulatorError('storage.shards must be a non-empty list of { name, weight }');
  const seen = new Set<string>();
  return shards.map((s, i) => {
    const name = (s as { name?: unknown })?.name;
    const weight = (s as { weight?: unknown }).weight ?? 100;
    if (typeof name !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(name)) throw new EmulatorError(`storage.shards[${i}].name must be a name of letters, digits, '_', '.' or '-'`);
    if (seen.has(name)) throw new EmulatorError(`storage.shards[${i}].name '${name}' is given twice`);
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 0) throw new EmulatorError(`storage.shards[${i}].weight must be a whole number, 0 or more`);
    seen.add(name);
    return { name, weight };
  });
}

export function seedStorage(s: SeedRun): void {
  const storage = s.fixture.storage;
  const placed = (s.fixture.projects ?? []).filter((p) => p.repository_storage !== undefined);
  if (!storage && !placed.length) return;
  s.update((draft) => {
    const state = draft as State;
    if (storage?.shards !== undefined) state.storageShards = checkShards(storage.shards);
    if (storage?.move_step !== undefined) {
      try {
        state.storageMoveStep = parseDuration(storage.move_step);
      } catch {
        throw new EmulatorError(`storage.move_step must be a duration such as 30s or 2m, not ${JSON.stringify(storage.move_step)}`);
      }
    }
    for (const p of placed) {
      if (!state.storageShards.some((sh) => sh.name === p.repository_storage)) throw new EmulatorError(`${projectWhere(p)} names unknown storage '${p.repository_storage}'`);
      placeRepository(draft, 'project', s.handles.projects[fixtureProjectPath(p)]!.id, p.repository_storage!);
    }
  });
}
