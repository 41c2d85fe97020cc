// A world written out as a fixture (`emulator.exportFixture()`, `GET /-/emulator/fixture`) and
// read back by seeding: the fixture's `world` holds every record as it is (ids, timestamps,
// states, the event log, timed work, the generator's position), the core's and each family's
// slice apart, with each family's part beyond its slice (`Family.image`: the git objects), so
// an emulator seeded with it answers every read as the one it was written from.
import { produce, type Draft } from 'immer';
import { EmulatorError, FixtureError } from '../core/errors.js';
import { any, object, oneOf, opt, recordOf } from '../core/schema.js';
import type { ObjectDatabase } from '../git/objects.js';
import { decode, encode, EncodingError } from '../store/encode.js';
import { tget, tvalues } from '../store/table.js';
import type { Family, SeedRun } from './define.js';
import { FAMILIES } from './index.js';
import type { Fixture, SeedHandles, State } from './world.js';

const families: readonly Family[] = FAMILIES;

export const IMAGE_FORMAT = 'gitlab-emulator/world';
export const IMAGE_VERSION = 1;
/** What editors read to check the file (fixtures/fixture.schema.json as published). */
const SCHEMA_URL = 'https://unpkg.com/gitlab-emulator/fixtures/fixture.schema.json';

/** The fixture's `world`: records as `encode` writes them (src/store/encode.ts). */
export interface WorldImage {
  format: typeof IMAGE_FORMAT;
  version: typeof IMAGE_VERSION;
  /** The shared records, the event stream, and what a family keeps beside its declared slice, by key of the world. */
  core: Record<string, unknown>;
  /** Each family's slice, by family name, then key of the world. */
  families: Record<string, Record<string, unknown>>;
  /** Each family's part beyond its slice (`Family.image`), by family name. */
  parts?: Record<string, unknown>;
}

export const WORLD_SCHEMA = object({
  format: oneOf(IMAGE_FORMAT),
  version: oneOf(IMAGE_VERSION),
  core: recordOf(any),
  families: recordOf(recordOf(any)),
  parts: opt(recordOf(any)),
});

/** Which keys of the world each family declares (its empty slice's). */
const SLICE_KEYS: ReadonlyMap<string, readonly string[]> = new Map(families.map((f) => [f.name, Object.keys(f.state?.() ?? {})]));
/** Every key a family declares; the others (the core's, the stream's, a key a family adds only once used) are written with the core's. */
const FAMILY_KEYS: ReadonlySet<string> = new Set([...SLICE_KEYS.values()].flat());

const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** The world as a fixture whose `world` seeds it again; `instance` repeated in the clear, for the reader. */
export function exportWorld(state: State, git: ObjectDatabase): Fixture {
  const parts: Record<string, unknown> = {};
  let written = state;
  for (const f of families) {
    if (!f.image) continue;
    const { part, change } = f.image.write(state, git);
    parts[f.name] = part;
    if (change) written = produce(written, (draft) => void change(draft));
  }
  const record = written as unknown as Record<string, unknown>;
  const core: Record<string, unknown> = {};
  for (const key of Object.keys(record)) if (!FAMILY_KEYS.has(key)) core[key] = encode(record[key], key);
  const slices: Record<string, Record<string, unknown>> = {};
  for (const [name, keys] of SLICE_KEYS) {
    if (keys.length === 0) continue;
    const slice: Record<string, unknown> = {};
    for (const key of keys) slice[key] = encode(record[key], key);
    slices[name] = slice;
  }
  const world: WorldImage = { format: IMAGE_FORMAT, version: IMAGE_VERSION, core, families: slices, parts };
  const { tier, offering, version } = state.instance;
  return { $schema: SCHEMA_URL, instance: { tier, offering, ...(version !== undefined ? { version } : {}) }, world } as Fixture;
}

/** A value of the image as the world keeps it; a FixtureError naming where it cannot be read. */
function decodeAt(where: string, value: unknown): unknown {
  try {
    return decode(value, where);
  } catch (e) {
    if (e instanceof EncodingError) throw new FixtureError(e.message);
    throw e;
  }
}

/** Whether a world holds nothing a seed could collide with: an image replaces the world it is read into. */
const isEmpty = (state: State) => state.users.size === 0 && state.namespaces.size === 0 && state.projects.size === 0;

/**
 * The world an image describes, in place of `base` (which must be empty): every key the image
 * holds as it was, any it does not (a slice added since) as an empty world has it; then each
 * family reads its part. Throws a FixtureError naming what is wrong.
 */
export async function readImage(base: State, image: WorldImage, run: Omit<SeedRun, 'state' | 'update'> & { set(state: State): void; get(): State }): Promise<void> {
  if (!isEmpty(base)) throw new EmulatorError('a fixture with a `world` (an exported one) seeds an emulator of its own: createEmulator({ fixture }) or --fixture, not seed() into a world that has records');
  const next = { ...(base as unknown as Record<string, unknown>) };
  const read = (where: string, key: string, value: unknown) =>
    void Object.defineProperty(next, key, { value: decodeAt(where, value), enumerable: true, writable: true, configurable: true });
  for (const key of Object.keys(image.core)) {
    if (FAMILY_KEYS.has(key)) throw new FixtureError(`world.core.${key}: a family's key, written under world.families`);
    if (!/^[a-z][A-Za-z0-9]*$/.test(key)) throw new FixtureError(`world.core[${JSON.stringify(key)}]: no key of the world is named so`);
    read(`world.core.${key}`, key, image.core[key]);
  }
  /** Keys an earlier release kept, with their values: the family moves them into the world once it is read. */
  const retired: [(draft: Draft<State>, value: unknown) => void, unknown][] = [];
  for (const name of Object.keys(image.families)) {
    const keys = own(Object.fromEntries(SLICE_KEYS), name) ? SLICE_KEYS.get(name)! : undefined;
    if (!keys) throw new FixtureError(`world.families.${name}: no family is named '${name}'`);
    const slice = image.families[name]!;
    const formerly = families.find((f) => f.name === name)?.retired ?? {};
    for (const key of Object.keys(slice)) {
      if (own(formerly, key)) retired.push([formerly[key]!, decodeAt(`world.families.${name}.${key}`, slice[key])]);
      else if (!keys.includes(key)) throw new FixtureError(`world.families.${name}.${key}: the family keeps no '${key}'`);
      else read(`world.families.${name}.${key}`, key, slice[key]);
    }
  }
  run.set(next as unknown as State);
  if (retired.length) run.set(produce(run.get(), (draft) => void retired.forEach(([move, value]) => move(draft, value))));
  const parts = image.parts ?? {};
  for (const name of Object.keys(parts)) if (!families.some((f) => f.name === name && f.image)) throw new FixtureError(`world.parts.${name}: no family writes a part named '${name}'`);
  const seedRun: SeedRun = {
    fixture: run.fixture,
    handles: run.handles,
    now: run.now,
    git: run.git,
    get state() {
      return run.get();
    },
    update<T>(recipe: (draft: Draft<State>) => T): T {
      let out!: T;
      run.set(produce(run.get(), (draft) => void (out = recipe(draft))));
      return out;
    },
  };
  for (const f of families) if (f.image) await f.image.read(own(parts, f.name) ? parts[f.name] : undefined, seedRun);
  fillHandles(run.get(), run.handles);
}

/** The seed's handles for what the image made: users with their personal tokens, groups and projects by full path. */
function fillHandles(state: State, handles: SeedHandles): void {
  const tokens = new Map<number, string[]>();
  for (const t of tvalues(state.tokens)) if (t.kind === 'personal' && !t.revoked) tokens.set(t.userId, [...(tokens.get(t.userId) ?? []), t.token]);
  for (const u of tvalues(state.users)) handles.users[u.username] = { id: u.id, tokens: tokens.get(u.id) ?? [], sessions: [] };
  for (const n of tvalues(state.namespaces)) if (n.kind === 'group') handles.groups[n.fullPath] = { id: n.id };
  for (const p of tvalues(state.projects)) {
    const ns = tget(state.namespaces, p.namespaceId);
    if (ns) handles.projects[`${ns.fullPath}/${p.path}`] = { id: p.id, tokens: [], jobs: {} };
  }
}
