// A data directory (`dataDir`, `--data-dir`): the world and its git objects on disk, so that a
// served world outlives its process. Node only (the browser build swaps in data-dir.browser.ts).
//
//   format.json    what wrote the directory: the format and its version, checked before anything
//   lock           the process that has it open (a second one is refused; a killed one's is taken over)
//   snapshot       the whole world (and the seeded world, as its difference from it), the clock
//   world.log      every committed change since the snapshot, fsynced before the answer
//   objects.log    every git object stored and every write a storage handed out, fsynced before
//                  the world change that names them; content-addressed, so never compacted
//
// The one place a committed world becomes current is the store (`Store.watch`): each commit
// schedules a flush at the end of its turn of the event loop, which appends what the objects
// database stored and the world's change since the last flush, so a request's objects (stored
// when it commits) and its change go to disk together, before its answer leaves. What is logged
// of the world is its changed paths (`codec.ts`: found by identity, so a write costs what it
// changed, and a changed record logs its changed fields). A clean stop writes a new snapshot; so
// does a log that grew past the snapshot's size.
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import type { Clock, ClockOptions } from '../core/clock.js';
import { EmulatorError } from '../core/errors.js';
import type { ObjectDatabase, ObjectStorage } from '../git/objects.js';
import type { CoreState } from '../store/state.js';
import { apply, decodeFrozen, diff, encode, type Change, type Encoded } from './codec.js';
import { AppendLog, frame, readLog } from './log.js';

export const FORMAT = 'gitlab-emulator-data';
/**
 * The version of the directory's layout and records this release writes. Version 2 added the
 * pushed-pack record of objects.log; a version 1 directory reads as it is and is marked 2 when
 * opened, since a push may add such a record, which a release reading version 1 only would take
 * for damage.
 */
export const FORMAT_VERSION = 2;
const READS: readonly unknown[] = [1, 2];

/** A log that outgrows this (or the snapshot, if larger) is compacted into a new snapshot. */
const COMPACT_AT = 4 * 1024 * 1024;

const UTF8 = new TextEncoder();
const TEXT = new TextDecoder('utf-8', { fatal: true });

/** A data directory that cannot be used: foreign, damaged or in use. Nothing in it was changed. */
export class DataDirError extends EmulatorError {
  constructor(dir: string, text: string) {
    super(`data directory ${dir}: ${text}`);
    this.name = 'DataDirError';
  }
}

/** What of an emulator a data directory keeps. */
export interface Persistable<F> {
  readonly store: { state: CoreState; watch(watcher: ((state: CoreState) => void) | undefined): void };
  readonly objects: ObjectDatabase;
  readonly clock: Clock;
  seed(fixture: F): Promise<unknown>;
  markSeeded(): void;
  /** Makes a world current and tells those who watch it (queued webhook deliveries wake). */
  restore(snapshot: { readonly state: CoreState }): void;
}

/** An open data directory, as the emulator holds it. */
export interface DataDirHandle {
  readonly dir: string;
  /** Whether the world was read back from the directory (false: the directory was new). */
  readonly restored: boolean;
  /** The emulator marked its world as the seeded one (`reset()` returns there). */
  seeded(): void;
  /** Writes a snapshot, closes the logs and releases the lock; the emulator keeps no more. */
  close(): Promise<void>;
}

/** The clock as kept: a frozen clock's time, or a running clock's distance from real time. */
type ClockState = { frozen: true; at: number } | { frozen: false; offset: number };

interface SnapshotFile {
  format: string;
  version: number;
  generation: number;
  world: Encoded;
  /** The seeded world, as changes from `world`. */
  seeded: Change[];
  clock: ClockState;
  initialClock: ClockState;
}

/** A record of the world's log: the changes, the clock when it moved, and whether the world after them is the seeded one. */
interface WorldRecord {
  c: Change[];
  k?: ClockState;
  s?: 1;
}

const clockState = (clock: Clock): ClockState => (clock.frozen ? { frozen: true, at: clock.now() } : { frozen: false, offset: clock.now() - Date.now() });
const clockOptions = (c: ClockState): ClockOptions => (c.frozen ? { now: c.at, frozen: true } : { now: Date.now() + c.offset });

const OBJECT = 2;
const STORAGE = 1;
/** A pack kept whole: storage, write, the index's length, the index, the pack. */
const PACK = 3;

/**
 * Opens (or creates) the data directory and the emulator on it: a new directory is seeded with
 * `fixture`; an existing one serves the world it kept, and `fixture` is not read.
 */
export async function openDataDir<F, E extends Persistable<F>>(
  dirOption: string,
  fixture: F,
  create: (clock?: ClockOptions) => E,
): Promise<{ emulator: E; handle: DataDirHandle }> {
  if (typeof dirOption !== 'string' || dirOption === '') throw new EmulatorError('dataDir must be a non-empty path');
  const dir = resolve(dirOption);
  const fail = (text: string) => new DataDirError(dir, text);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw fail('is not a directory');
  mkdirSync(dir, { recursive: true });
  const formatFile = join(dir, 'format.json');
  const isNew = !existsSync(formatFile);
  const found = isNew ? undefined : readFormat(formatFile, fail);
  if (isNew) {
    const others = readdirSync(dir);
    if (others.length > 0) throw fail(`is not a gitlab-emulator data directory (it holds ${others.slice(0, 3).join(', ')}${others.length > 3 ? ', ...' : ''}); give a new or empty directory`);
  } else checkFormat(found!, fail);
  const releaseLock = lock(dir, fail);
  const open = new DataDir<F, E>(dir, fail, create);
  // No snapshot yet: a start that stopped while seeding a new directory, before any write was answered.
  const seeding = isNew || (!existsSync(join(dir, 'snapshot')) && !existsSync(join(dir, 'world.log')));
  try {
    if (seeding) await open.init(fixture);
    else {
      open.load();
      if (found!.version !== FORMAT_VERSION) open.markFormat();
    }
    return { emulator: open.emulator, handle: open.handle(releaseLock) };
  } catch (e) {
    releaseLock();
    if (e instanceof DataDirError || seeding) throw e; // a fixture's mistake is the fixture's
    throw fail(`is damaged: ${(e as Error).message}; it was left as it is`);
  }
}

function readFormat(file: string, fail: (text: string) => DataDirError): { format?: unknown; version?: unknown; writtenBy?: unknown } {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (typeof parsed === 'object' && parsed !== null) return parsed;
  } catch {
    // below
  }
  throw fail('is damaged: format.json is not the JSON this directory starts with; it was left as it is');
}

function checkFormat(f: { format?: unknown; version?: unknown; writtenBy?: unknown }, fail: (text: string) => DataDirError): void {
  if (f.format !== FORMAT) throw fail(`is not a gitlab-emulator data directory (format.json names ${JSON.stringify(f.format)}); give a new or empty directory`);
  if (!READS.includes(f.version)) {
    const by = typeof f.writtenBy === 'string' ? ` by gitlab-emulator ${f.writtenBy}` : '';
    throw fail(
      `was written${by} in data format version ${String(f.version)}; gitlab-emulator ${pkg.version} reads versions ${READS.join(' and ')}. ` +
        `Serve it with the release that wrote it, or give a new directory (this one was left as it is)`,
    );
  }
}

/** Directories this process has open (a process id alone cannot say: a container's process is often 1 on every start). */
const OPEN = new Set<string>();

/** Takes the directory's lock, or says who holds it; the lock of a process that is gone is taken over. */
function lock(dir: string, fail: (text: string) => DataDirError): () => void {
  if (OPEN.has(dir)) throw fail('is already open in this process; close() the emulator that has it first');
  const file = join(dir, 'lock');
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      OPEN.add(dir);
      return () => {
        OPEN.delete(dir);
        rmSync(file, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
    }
    const holder = Number.parseInt(readFileSync(file, 'utf8'), 10);
    // Our own id, though this process has not opened it: an earlier process that had the same id.
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
      throw fail(`is in use by process ${holder} (its lock file is ${file}); stop that process first, or delete the lock file if that process is not a gitlab-emulator`);
    }
    rmSync(file, { force: true }); // a process that was killed: its lock is stale
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes a file whole or not at all: a temporary file, flushed, renamed over it, the directory flushed. */
function replaceFile(dir: string, name: string, data: Uint8Array | string): void {
  const tmp = join(dir, `${name}.tmp`);
  const fd = openSync(tmp, 'w');
  try {
    writeFileSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, join(dir, name));
  syncDir(dir);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some systems cannot flush a directory; the rename is then as durable as they make it.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const json = (value: unknown): Uint8Array => UTF8.encode(JSON.stringify(value));
const parse = <T>(bytes: Uint8Array): T => JSON.parse(TEXT.decode(bytes)) as T;

class DataDir<F, E extends Persistable<F>> {
  emulator!: E;
  restored = false;
  #generation = 0;
  #world!: AppendLog;
  #objects!: AppendLog;
  /** The world as last written. */
  #last!: CoreState;
  #seededWorld!: CoreState;
  #seededDirty = false;
  #initialClock!: ClockState;
  #clockDirty = false;
  #wasFrozen = false;
  #snapshotBytes = 0;
  /** Storages whose writes changed since the last flush, and the objects they stored. */
  #storages = new Set<ObjectStorage>();
  #stored: Uint8Array[] = [];
  #scheduled = false;
  /** Flushes are scheduled once the directory's world is in place (not while a new one is seeded). */
  #watching = false;
  #closed = false;

  constructor(
    readonly dir: string,
    readonly fail: (text: string) => DataDirError,
    readonly create: (clock?: ClockOptions) => E,
  ) {}

  /** format.json naming this release's version (and this release as its writer). */
  markFormat(): void {
    replaceFile(this.dir, 'format.json', `${JSON.stringify({ format: FORMAT, version: FORMAT_VERSION, writtenBy: pkg.version })}\n`);
  }

  /** A new directory: its format, then the seeded world and its objects, then the first snapshot. */
  async init(fixture: F): Promise<void> {
    this.markFormat();
    writeFileSync(join(this.dir, 'objects.log'), new Uint8Array(0));
    this.#objects = new AppendLog(join(this.dir, 'objects.log'), 0);
    const e = (this.emulator = this.create());
    this.#initialClock = clockState(e.clock);
    // The seed's objects are kept as they are stored; its world goes into the first snapshot.
    this.#observeObjects();
    await e.seed(fixture);
    e.markSeeded();
    this.#flushObjects();
    this.#last = this.#seededWorld = e.store.state;
    this.#writeSnapshot();
    this.#watch();
  }

  /** An existing directory: the snapshot, the objects, then the world's log replayed onto it. */
  load(): void {
    this.restored = true;
    if (!existsSync(join(this.dir, 'snapshot'))) throw this.fail('is damaged: its snapshot is missing (world.log is there); it was left as it is');
    const snapshotLog = readLog(join(this.dir, 'snapshot'));
    if (snapshotLog.records.length !== 1 || snapshotLog.torn > 0) throw this.fail('is damaged: its snapshot is not one whole record; it was left as it is');
    this.#snapshotBytes = snapshotLog.valid;
    const snap = parse<SnapshotFile>(snapshotLog.records[0]!);
    checkFormat(snap, this.fail);
    const isClock = (c: unknown) => typeof c === 'object' && c !== null && typeof (c as ClockState).frozen === 'boolean';
    if (!Number.isInteger(snap.generation) || snap.world === undefined || !Array.isArray(snap.seeded) || !isClock(snap.clock) || !isClock(snap.initialClock)) {
      throw this.fail('is damaged: its snapshot lacks the world, the seeded world or the clock; it was left as it is');
    }
    this.#generation = snap.generation;
    this.#initialClock = snap.initialClock;
    const e = (this.emulator = this.create(clockOptions(snap.initialClock)));

    const objectsLog = readLog(join(this.dir, 'objects.log'));
    for (const record of objectsLog.records) this.#revive(record);
    this.#objects = new AppendLog(join(this.dir, 'objects.log'), objectsLog.valid);

    let world = decodeFrozen<CoreState>(snap.world);
    let seeded = apply(world, snap.seeded);
    let clock = snap.clock;
    const worldPath = join(this.dir, 'world.log');
    const worldLog = existsSync(worldPath) ? readLog(worldPath) : { records: [], valid: 0, torn: 0 };
    const [header, ...records] = worldLog.records;
    const logGeneration = header ? parse<{ generation: number }>(header).generation : this.#generation;
    if (logGeneration > this.#generation) throw this.fail(`is damaged: world.log follows snapshot ${logGeneration}, the snapshot is ${this.#generation}; it was left as it is`);
    // A log older than the snapshot is one a compaction had written into it before it stopped.
    const current = logGeneration === this.#generation && header !== undefined;
    if (current) {
      for (const bytes of records) {
        const r = parse<WorldRecord>(bytes);
        world = apply(world, r.c);
        if (r.s) seeded = world;
        if (r.k) clock = r.k;
      }
    }
    e.store.state = seeded;
    e.markSeeded();
    e.restore({ state: world });
    if (clock.frozen) e.clock.freeze(clock.at);
    else e.clock.unfreeze().set(Date.now() + clock.offset);
    this.#last = world;
    this.#seededWorld = seeded;
    if (current) this.#world = new AppendLog(worldPath, worldLog.valid);
    else this.#newWorldLog();
    this.#watch();
  }

  /** One record of the objects' log, back into the objects database. */
  #revive(record: Uint8Array): void {
    const view = new DataView(record.buffer, record.byteOffset, record.byteLength);
    const db = this.emulator.objects;
    if (record[0] === STORAGE && record.length === 17) {
      db.revive(view.getUint32(1, true), view.getUint32(5, true), view.getUint32(9, true), view.getUint32(13, true));
    } else if (record[0] === OBJECT && record.length > 29) {
      const id = view.getUint32(1, true);
      const n = view.getUint32(5, true);
      let oid = '';
      for (let i = 9; i < 29; i++) oid += record[i]!.toString(16).padStart(2, '0');
      const storage = db.revive(id, 0, 0, n);
      storage.revive(oid, record.slice(29), n);
    } else if (record[0] === PACK && record.length > 13) {
      const id = view.getUint32(1, true);
      const n = view.getUint32(5, true);
      const idxLength = view.getUint32(9, true);
      if (13 + idxLength > record.length) throw this.fail('is damaged: objects.log holds a pack record shorter than its index; it was left as it is');
      const storage = db.revive(id, 0, 0, n);
      try {
        storage.revivePack(record.slice(13 + idxLength), record.slice(13, 13 + idxLength), n);
      } catch (e) {
        throw this.fail(`is damaged: objects.log holds a pack that cannot be read (${(e as Error).message}); it was left as it is`);
      }
    } else throw this.fail(`is damaged: objects.log holds a record of unknown kind ${record[0]}; it was left as it is`);
  }

  #watch(): void {
    const e = this.emulator;
    this.#wasFrozen = e.clock.frozen;
    this.#watching = true;
    this.#observeObjects();
    e.store.watch(() => this.#schedule());
    // A move of the clock is kept at once (timed work it ran committed before this listener).
    e.clock.onChange(() => {
      this.#clockDirty = true;
      if (!this.#closed) this.#flush();
    });
  }

  #observeObjects(): void {
    this.emulator.objects.observe({
      reserved: (storage) => {
        this.#storages.add(storage);
        this.#schedule();
      },
      stored: (storage, oid, file, n) => {
        this.#storages.add(storage);
        const record = new Uint8Array(29 + file.length);
        const view = new DataView(record.buffer);
        record[0] = OBJECT;
        view.setUint32(1, storage.id, true);
        view.setUint32(5, n, true);
        for (let i = 0; i < 20; i++) record[9 + i] = Number.parseInt(oid.slice(i * 2, i * 2 + 2), 16);
        record.set(file, 29);
        this.#stored.push(frame(record));
        this.#schedule();
      },
      storedPack: (storage, pack, n) => {
        this.#storages.add(storage);
        const record = new Uint8Array(13 + pack.idx.length + pack.bytes.length);
        const view = new DataView(record.buffer);
        record[0] = PACK;
        view.setUint32(1, storage.id, true);
        view.setUint32(5, n, true);
        view.setUint32(9, pack.idx.length, true);
        record.set(pack.idx, 13);
        record.set(pack.bytes, 13 + pack.idx.length);
        this.#stored.push(frame(record));
        this.#schedule();
      },
    });
  }

  /** Flushes at the end of this turn: after the commit's objects are stored, before its answer is sent. */
  #schedule(): void {
    if (this.#scheduled || this.#closed || !this.#watching) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      if (this.#closed) return;
      try {
        this.#flush();
      } catch (e) {
        // A write that cannot be kept must not be answered as kept: stop here.
        throw this.fail(`cannot write what the last request changed (${(e as Error).message}); the process stops rather than answer a write it did not keep`);
      }
    });
  }

  #flushObjects(): void {
    if (this.#storages.size === 0 && this.#stored.length === 0) return;
    const records: Uint8Array[] = [];
    for (const s of this.#storages) {
      const record = new Uint8Array(17);
      const view = new DataView(record.buffer);
      record[0] = STORAGE;
      view.setUint32(1, s.id, true);
      view.setUint32(5, s.parent?.id ?? 0, true);
      view.setUint32(9, s.parentSeen, true);
      view.setUint32(13, s.count, true);
      records.push(frame(record));
    }
    records.push(...this.#stored);
    this.#storages.clear();
    this.#stored = [];
    this.#objects.append(records);
  }

  #flush(): void {
    this.#flushObjects();
    const e = this.emulator;
    const state = e.store.state;
    const clockMoved = this.#clockDirty || e.clock.frozen !== this.#wasFrozen;
    if (state === this.#last && !clockMoved && !this.#seededDirty) return;
    const record: WorldRecord = { c: diff(this.#last, state) };
    if (clockMoved) record.k = clockState(e.clock);
    if (this.#seededDirty) record.s = 1;
    this.#world.append([frame(json(record))]);
    this.#last = state;
    this.#clockDirty = false;
    this.#wasFrozen = e.clock.frozen;
    this.#seededDirty = false;
    if (this.#world.size > Math.max(COMPACT_AT, this.#snapshotBytes)) this.#writeSnapshot();
  }

  /** The whole world in a new snapshot, then a new, empty log after it. */
  #writeSnapshot(): void {
    const snap: SnapshotFile = {
      format: FORMAT,
      version: FORMAT_VERSION,
      generation: this.#generation + 1,
      world: encode(this.#last),
      seeded: diff(this.#last, this.#seededWorld),
      clock: clockState(this.emulator.clock),
      initialClock: this.#initialClock,
    };
    const bytes = frame(json(snap));
    replaceFile(this.dir, 'snapshot', bytes);
    this.#generation++;
    this.#snapshotBytes = bytes.length;
    this.#world?.close();
    this.#newWorldLog();
  }

  #newWorldLog(): void {
    const header = frame(json({ generation: this.#generation }));
    replaceFile(this.dir, 'world.log', header);
    this.#world = new AppendLog(join(this.dir, 'world.log'), header.length);
  }

  handle(releaseLock: () => void): DataDirHandle {
    return {
      dir: this.dir,
      restored: this.restored,
      seeded: () => {
        if (this.#closed) return;
        this.#seededWorld = this.emulator.store.state;
        this.#seededDirty = true;
        this.#flush();
      },
      close: async () => {
        if (this.#closed) return;
        this.#flush();
        this.#writeSnapshot();
        this.#closed = true;
        this.emulator.store.watch(undefined);
        this.emulator.objects.observe(null);
        this.#world.close();
        this.#objects.close();
        releaseLock();
      },
    };
  }
}
