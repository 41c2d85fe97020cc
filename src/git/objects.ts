// Git objects (DESIGN.md "Git objects are append-only, refs are state"): loose objects on one
// in-memory volume per emulator, one bare gitdir per storage (a repository's storage id is recorded
// in the world with its refs, and never reused), in the layout git and isomorphic-git read
// (but for the empty tree, which git knows without a file). Objects are content-addressed and
// never rewritten, so what is written or parsed once is cached for every reader, every fork and
// every snapshot of the world; a request's writes stay pending until it commits. A world sees of
// a storage only what its own history wrote there, or saw when it parted (see `ObjectStorage`).
import type { FsClient } from 'isomorphic-git';
import { newVolume, type SyncVolume } from './volume.js';
import { MissingObject, ObjectStorage, type StorageObserver } from './storage.js';

export { MissingObject, ObjectStorage, type StorageObserver };
import { MAX_DELTA_DEPTH, packedWhole, type PackedObject } from './pack.js';
import type { StoredPack } from './packfile.js';
import { EMPTY_TREE, Lru, treeChildren, type TreeChildren, parseCommit, parseTag, parseTree, sortTree, renderTree, renderCommit, renderTag, codec, wrap, unwrap, type ObjectType, type CommitData, type TagData, type TreeEntry, type Tree } from './format.js';
export type { ObjectType, Ident, CommitData, TagData, EntryType, TreeEntry, Tree, TreeChildren } from './format.js';
export type { PackedObject } from './pack.js';
export { EMPTY_TREE } from './format.js';

const NO_CHILDREN: TreeChildren = { trees: [], blobs: [] };

/** A change of the world (an immer recipe), opaque at this layer: the world's type is defined above it. */
export type WorldChange = (draft: never) => unknown;

/** Where a world keeps a repository's objects: a storage, and how far into it this world has seen. */
export interface StorageMark {
  /** The storage id (`ObjectDatabase.allocate`). */
  id: number;
  /** The last write (`ObjectStorage.count`) of the storage that this world's history made or saw. */
  seen: number;
}

/**
 * Where the world says which storage each project's repository uses and how far into it the
 * world has seen (the repositories family keeps both with the refs, so a snapshot carries them).
 * Typed loosely: the world is defined above.
 */
export interface StorageBinding {
  /** The storage of a project's repository in `world`; undefined while it has none. */
  storageOf(world: unknown, projectId: number): StorageMark | undefined;
  /** The change that records `storage`, seen up to `seen`, as the project's from now on. */
  record(projectId: number, storage: number, seen: number): WorldChange;
}

/** How a direct write finds the world it goes to, and records itself there. */
export interface Adopter {
  /** The world as it is now (it may have moved on since the objects were taken). */
  world(): unknown;
  /** Records the storage written to, and the write's number, in that world. */
  record(storage: number, seen: number): void;
}

/** What a transaction needs of the request it serves (the http Context is one). */
export interface TransactionHost {
  /** The request's world as it stands now, its own changes included. */
  readonly state: unknown;
  update(change: WorldChange): unknown;
  /** Runs `fn` once the request committed; never for one that failed or was run again. */
  afterCommit(fn: () => void): void;
}

/**
 * Storage ids: one counter for the process, outside every world, so no restore, reset or fork
 * (nor a snapshot restored into another emulator) ever sees one handed out twice.
 */
let lastStorage = 0;

/**
 * Every repository's objects: one volume, shared by an emulator and its forks. A repository's
 * objects are kept in a storage whose id is never reused, recorded in the world with its refs
 * and how far into the storage the world has seen (`StorageBinding`): a project id that a
 * restore hands out again, or that a fork and its original both hand out, starts from storage
 * of its own and reads nothing the other project wrote; and a repository that two histories
 * share (a snapshot restored, a fork) shows each only the objects that it wrote, or that were
 * there when they parted.
 */
export class ObjectDatabase {
  readonly volume: SyncVolume;
  readonly fs: FsClient;
  // Parsed objects, keyed by oid alone: the same oid is the same content in every repository.
  // A repository reads them only after `has` says that it holds the object.
  readonly parsed: Lru<Tree | CommitData | TagData>;
  readonly blobs: Lru<Uint8Array>;
  /** Facts derived from immutable objects (last commit of a path, blame, stats): never stale. */
  readonly memo: Lru<unknown>;
  /** Trees' children as a walk for a pack reads them (weighed in entries). */
  readonly children: Lru<TreeChildren>;
  /** Objects as packs hold them (weighed in bytes): a pushed pack's entries, or whole objects once packed. */
  readonly packed: Lru<PackedObject>;
  #storages = new Map<number, ObjectStorage>();
  #empty: ObjectStorage | undefined;
  #observer: StorageObserver | null = null;
  /** World -> project -> the committed objects of its repository in that world (one object, so a spy on it holds). */
  #views = new WeakMap<object, Map<number, RepositoryObjects>>();
  /** The database this one is a layer over (`layer()`): its storages are read, never written. */
  readonly #base: ObjectDatabase | undefined;

  constructor(
    readonly binding: StorageBinding,
    base?: ObjectDatabase,
  ) {
    this.#base = base;
    if (base) ({ volume: this.volume, fs: this.fs, parsed: this.parsed, blobs: this.blobs, memo: this.memo, children: this.children, packed: this.packed } = base);
    else {
      ({ volume: this.volume, fs: this.fs } = newVolume());
      this.parsed = new Lru(2_000_000);
      this.blobs = new Lru(64 * 1024 * 1024);
      this.memo = new Lru(4_000_000);
      this.children = new Lru(8_000_000);
      this.packed = new Lru(256 * 1024 * 1024);
    }
  }

  /**
   * A database for another history that starts from this one's objects (a world served beside
   * this one): it reads this one's storages, shares its volume and caches, and writes only to
   * storages of its own (a write to a repository it shares continues it in a child storage), so
   * `release()` drops everything it wrote and nothing this one holds.
   */
  layer(): ObjectDatabase {
    return new ObjectDatabase(this.binding, this);
  }

  /** Removes the storages this database wrote (a layer's) from the volume; it is not used afterwards. */
  release(): void {
    if (!this.#base) return;
    for (const s of this.#storages.values()) this.volume.rmSync?.(s.gitdir, { recursive: true, force: true });
    this.#storages.clear();
  }

  /** The storage of an id this database or the one it layers over already has. */
  #known(id: number): ObjectStorage | undefined {
    return this.#storages.get(id) ?? (this.#base === undefined ? undefined : this.#base.#known(id));
  }

  /** A new storage id, never handed out before. */
  allocate(): number {
    return ++lastStorage;
  }

  /** The storage of an id (one this database never saw starts empty). */
  objectStorage(id: number): ObjectStorage {
    let s = this.#known(id);
    if (!s) this.#storages.set(id, (s = new ObjectStorage(this.volume, `/repositories/storage-${id}.git`, false, id)));
    s.observer = this.#observer;
    return s;
  }

  /** Told of every write and object of every storage from now on (a data directory). */
  observe(observer: StorageObserver | null): void {
    this.#observer = observer;
    for (const s of this.#storages.values()) s.observer = observer;
  }

  /**
   * A storage as a data directory kept it (its parent revived first): the writes it had handed
   * out; ids above it are never handed out again.
   */
  revive(id: number, parentId: number, parentSeen: number, count: number): ObjectStorage {
    let s = this.#storages.get(id);
    if (!s) {
      const parent = parentId ? this.#storages.get(parentId) : undefined;
      if (parentId && !parent) throw new Error(`storage ${id} continues storage ${parentId}, which is unknown`);
      s = new ObjectStorage(this.volume, `/repositories/storage-${id}.git`, false, id, parent ?? null, parentSeen);
      this.#storages.set(id, s);
    }
    s.count = Math.max(s.count, count);
    lastStorage = Math.max(lastStorage, id);
    return s;
  }

  /**
   * Every object of one storage, whoever wrote it; writes go straight to it, each numbered, and
   * a world that records the storage must record `store.count` as seen (seeding, tests).
   */
  storage(id: number): RepositoryObjects {
    return new RepositoryObjects(this, this.objectStorage(id), Infinity);
  }

  /** The storage of repositories that have none yet: an empty gitdir. */
  get emptyStorage(): ObjectStorage {
    if (this.#base) return this.#base.emptyStorage;
    return (this.#empty ??= new ObjectStorage(this.volume, '/repositories/empty.git', true));
  }

  /**
   * Where a world that saw `store` up to `seen` writes next, and the number of that write: the
   * same storage while no other history wrote to it since; else a new storage that reads this
   * one up to `seen`. A repository with no storage gets a new one.
   */
  claim(store: ObjectStorage, seen: number): { store: ObjectStorage; n: number } {
    if (store.empty) store = this.objectStorage(this.allocate());
    else if (store.count !== seen || (this.#base !== undefined && this.#storages.get(store.id) !== store)) {
      const id = this.allocate();
      const child = new ObjectStorage(this.volume, `/repositories/storage-${id}.git`, false, id, store, seen);
      child.observer = this.#observer;
      this.#storages.set(id, child);
      store = child;
    }
    return { store, n: store.reserve() };
  }

  /**
   * The committed objects of a project's repository in `world` (the same object for the same
   * world). A direct write goes to the world `adopt` gives as it is then: it claims a storage
   * there (`claim`) and records it with the write's number (without `adopt`, a direct write is
   * refused). Two emulators on the very same world (a fork, before either changed it) get the
   * same object: its direct writes go to the one that asked for it last.
   */
  repositoryIn(world: unknown, projectId: number, adopt?: Adopter): RepositoryObjects {
    const key = typeof world === 'object' && world !== null ? world : null;
    let views = key ? this.#views.get(key) : undefined;
    let view = views?.get(projectId);
    if (!view) {
      const mark = this.binding.storageOf(world, projectId);
      view = mark ? new RepositoryObjects(this, this.objectStorage(mark.id), mark.seen) : new RepositoryObjects(this, this.emptyStorage, 0);
      if (key) {
        if (!views) this.#views.set(key, (views = new Map()));
        views.set(projectId, view);
        view.cached = views;
      }
      view.projectId = projectId;
    }
    if (adopt) view.adopt = adopt;
    return view;
  }

  /** A request's view of every repository: what it writes is invisible to anyone else until it commits. */
  transaction(host: TransactionHost): ObjectsTransaction {
    return new ObjectsTransaction(this, host);
  }
}

/**
 * One request's objects: `repository(projectId)` finds the project's storage in the request's
 * world and gives a view whose writes stay pending, seen by the request's own reads, until the
 * request commits (`afterCommit` stores them). A request that fails, or that the pipeline runs
 * again, leaves nothing behind. At its first write a view claims the storage its writes go to
 * (`ObjectDatabase.claim`) and records it, with the write's number, in the request's world, so
 * a failed request records none.
 */
export class ObjectsTransaction {
  #views: Map<number, RepositoryObjects> | undefined;

  constructor(
    readonly db: ObjectDatabase,
    readonly host: TransactionHost,
  ) {}

  /** The project's repository in the request's world; the same view for the whole request. */
  repository(projectId: number): RepositoryObjects {
    const views = (this.#views ??= new Map());
    let view = views.get(projectId);
    if (!view) views.set(projectId, (view = this.db.repositoryIn(this.host.state, projectId).pendingView(this.host, projectId)));
    return view;
  }
}

/**
 * Reads and writes the objects of one repository as one world sees them (`seen`); reads go
 * through the shared caches, but only for objects this world sees. A request's view
 * (`pendingView`) is an object whose prototype is the world's committed instance, so what a
 * test changes on the instance (`emulator.git(p).objects`, a spy) a request sees too; its own
 * writes stay pending.
 */
export class RepositoryObjects {
  /** Objects written and not committed yet (oid -> the loose object, uncompressed); null: writes are stored at once. */
  protected pending: Map<string, Uint8Array> | null = null;
  /** Packs written and not committed yet (a push's, kept whole). */
  protected pendingPacks: StoredPack[] | null = null;
  /** Runs at the first write: gives the storage the writes go to, and the write's number. */
  opening: (() => ObjectStorage) | null = null;
  /** The number of the write a request's view stores its objects with. */
  protected batch = 0;
  /** Records a direct write in the world: the storage and the write's number. */
  adopt: Adopter | null = null;
  /** @internal The cache this instance is in, as the view of one world's project. */
  cached: Map<number, RepositoryObjects> | null = null;
  /** @internal */
  projectId = 0;

  constructor(
    readonly db: ObjectDatabase,
    /** Where committed objects are (a request's view learns its own at its first write). */
    public store: ObjectStorage,
    /** The last write of `store` this world saw: later ones are some other history's. */
    public seen: number,
  ) {}

  get fs(): FsClient {
    return this.db.fs;
  }

  /** The bare gitdir of the repository's storage. */
  get gitdir(): string {
    return this.store.gitdir;
  }

  /** A view for one request: its writes stay pending until `host` commits, then are stored. */
  pendingView(host: TransactionHost, projectId: number): RepositoryObjects {
    const view = Object.create(this) as RepositoryObjects;
    view.pending = new Map();
    view.pendingPacks = [];
    view.opening = () => {
      host.afterCommit(() => view.flush());
      const { store, n } = this.db.claim(this.store, this.seen);
      const record = this.db.binding.record(projectId, store.id, n);
      host.update(record);
      view.batch = n;
      view.seen = n;
      return store;
    };
    return view;
  }

  /** Stores what this view wrote (its request committed). */
  private flush(): void {
    if (!this.pending) return;
    for (const [oid, raw] of this.pending) this.store.put(oid, raw, this.batch);
    this.pending.clear();
    if (this.pendingPacks) for (const pack of this.pendingPacks.splice(0)) this.store.putPack(pack, this.batch);
  }

  /** A pending pack that holds the object (a push's, before its request commits). */
  private pendingPackOf(oid: string): StoredPack | undefined {
    if (this.pendingPacks) for (const p of this.pendingPacks) if (p.index.has(oid)) return p;
    return undefined;
  }

  /** The loose object's file, as git stores it (deflated, with its header), once committed. */
  objectPath(oid: string): string {
    return (this.store.holder(oid, this.seen) ?? this.store).objectPath(oid);
  }

  /**
   * The object as a loose file holds it (deflated, with its header), made from its pack for one
   * kept in a pack; null for one this world does not see and for the empty tree (which git
   * knows without a file).
   */
  looseFile(oid: string): Uint8Array | null {
    return this.store.file(oid, this.seen);
  }

  /** Whether this repository holds the object in this world (not merely some other repository or history). */
  has(oid: string): boolean {
    return (this.pending !== null && (this.pending.has(oid) || this.pendingPackOf(oid) !== undefined)) || this.store.visible(oid, this.seen);
  }

  /** Objects whose id starts with `prefix` (at least 4 hex digits), as `git rev-parse` looks them up. */
  findByPrefix(prefix: string): string[] {
    const found = this.store.findByPrefix(prefix, this.seen);
    if (this.pending && this.pending.size > 0 && /^[0-9a-f]{4,40}$/.test(prefix)) {
      for (const oid of this.pending.keys()) if (oid.startsWith(prefix) && !found.includes(oid)) found.push(oid);
    }
    if (this.pendingPacks && /^[0-9a-f]{4,40}$/.test(prefix)) {
      for (const p of this.pendingPacks) for (const oid of p.index.keys()) if (oid.startsWith(prefix) && !found.includes(oid)) found.push(oid);
    }
    return found;
  }

  /**
   * Hashes one object and stores it as a loose object, in the layout git and isomorphic-git read
   * (or keeps it pending, in a request's view).
   */
  /** Claims the storage a request's writes go to, at its first write. */
  private openStore(): void {
    if (this.opening) {
      this.store = this.opening();
      this.opening = null;
    }
  }

  private async put(type: ObjectType, content: Uint8Array): Promise<{ oid: string; raw: Uint8Array }> {
    const raw = wrap(type, content);
    const oid = await codec.sha1(raw);
    if (this.pending) {
      this.openStore();
      if (!this.pending.has(oid)) this.pending.set(oid, raw);
    } else if (this.seen === Infinity) this.store.put(oid, raw, this.store.reserve());
    else this.direct(oid, raw);
    return { oid, raw };
  }

  /**
   * A write straight to the storage, recorded at once in the world as it is now (`adopt`); these
   * objects follow that world from then on.
   */
  private direct(oid: string, raw: Uint8Array): void {
    if (!this.adopt) throw new Error('a direct write needs a world to record it in');
    const mark = this.db.binding.storageOf(this.adopt.world(), this.projectId);
    const from = mark ? this.db.objectStorage(mark.id) : this.db.emptyStorage;
    const seen = mark ? mark.seen : 0;
    // No longer the view of the world it was made for: that world, restored, sees none of this.
    if (this.cached?.get(this.projectId) === this) this.cached.delete(this.projectId);
    this.cached = null;
    if (oid !== EMPTY_TREE && from.visible(oid, seen)) {
      (this.store = from), (this.seen = seen);
      return;
    }
    const { store, n } = this.db.claim(from, seen);
    store.put(oid, raw, n);
    (this.store = store), (this.seen = n);
    this.adopt.record(store.id, n);
  }

  /**
   * Keeps a pack whole (a push's: `objects` its objects as read from it, whose commits are parsed
   * now, as a push's checks and the next fetch read them all), pending in a request's view.
   */
  writePack(pack: StoredPack, objects: Iterable<{ oid: string; type: ObjectType; content: Uint8Array }> = []): void {
    for (const o of objects) {
      if (o.type !== 'commit') continue;
      try {
        this.remember(o.oid, o.type, o.content);
      } catch {
        // A commit with headers our parser does not know is stored all the same, and parsed when read.
      }
    }
    if (this.pending) {
      this.openStore();
      this.pendingPacks!.push(pack);
    } else if (this.seen === Infinity) this.store.putPack(pack, this.store.reserve());
    else {
      if (!this.adopt) throw new Error('a direct write needs a world to record it in');
      const mark = this.db.binding.storageOf(this.adopt.world(), this.projectId);
      const from = mark ? this.db.objectStorage(mark.id) : this.db.emptyStorage;
      if (this.cached?.get(this.projectId) === this) this.cached.delete(this.projectId);
      this.cached = null;
      const { store, n } = this.db.claim(from, mark ? mark.seen : 0);
      store.putPack(pack, n);
      (this.store = store), (this.seen = n);
      this.adopt.record(store.id, n);
    }
  }

  async writeBlob(blob: Uint8Array): Promise<string> {
    const { oid, raw } = await this.put('blob', blob);
    this.remember(oid, 'blob', raw.subarray(raw.length - blob.length));
    return oid;
  }

  /** Writes a tree in git's entry order (modes as isomorphic-git's writeTree normalises them). */
  async writeTree(entries: Iterable<TreeEntry>): Promise<string> {
    // Even the empty tree is written: git knows it without a file, an exported copy may not.
    const sorted = sortTree(entries);
    const { oid } = await this.put('tree', renderTree(sorted));
    if (!this.db.parsed.get(oid)) {
      const tree = new Map<string, TreeEntry>();
      for (const e of sorted) tree.set(e.name, e);
      this.db.parsed.set(oid, tree, 1 + tree.size);
    }
    return oid;
  }

  /** Writes the commit byte for byte as given (isomorphic-git's writeCommit would reflow the message). */
  async writeCommit(commit: CommitData): Promise<string> {
    const object = renderCommit(commit);
    const { oid } = await this.put('commit', object);
    this.remember(oid, 'commit', object);
    return oid;
  }

  /**
   * Stores an object exactly as given (a pushed object: its bytes are its id, whatever headers a
   * commit or tag carries that our own writers never write).
   */
  async writeObject(type: ObjectType, content: Uint8Array): Promise<string> {
    const { oid } = await this.put(type, content);
    // Commits are parsed now (a push's checks and the next fetch read them all); trees and blobs when read.
    if (type === 'commit') {
      try {
        this.remember(oid, type, content);
      } catch {
        // A commit with headers our parser does not know is stored all the same, and parsed when read.
      }
    }
    return oid;
  }

  /** An object's type and content as stored, for a pack (an object this world does not see is not found). */
  async readObject(oid: string): Promise<{ type: ObjectType; object: Uint8Array }> {
    if (!this.has(oid)) throw new MissingObject(oid);
    return this.load(oid);
  }

  async writeTag(tag: TagData): Promise<string> {
    const object = renderTag(tag);
    const { oid } = await this.put('tag', object);
    this.remember(oid, 'tag', object);
    return oid;
  }

  private async load(oid: string): Promise<{ type: ObjectType; object: Uint8Array }> {
    const raw = this.pending?.get(oid);
    if (raw) return unwrap(raw, oid);
    const pending = this.pendingPackOf(oid);
    if (pending) return pending.read(pending.index.get(oid)!);
    const stored = this.store.read(oid, this.seen);
    if (stored) return stored;
    // The empty tree: git knows it without a file.
    if (oid === EMPTY_TREE) return { type: 'tree', object: new Uint8Array(0) };
    // An object this repository does not hold in this world (its gitdir may: another history's).
    throw new MissingObject(oid);
  }

  async type(oid: string): Promise<ObjectType | null> {
    if (!this.has(oid)) return null;
    if (this.db.blobs.get(oid)) return 'blob';
    const p = this.db.parsed.get(oid);
    if (p instanceof Map) return 'tree';
    if (p && 'tree' in p) return 'commit';
    if (p && 'object' in p) return 'tag';
    const { type, object } = await this.load(oid);
    this.remember(oid, type, object);
    return type;
  }

  private remember(oid: string, type: ObjectType, object: Uint8Array): unknown {
    if (type === 'blob') {
      this.db.blobs.set(oid, object, object.length + 64);
      return object;
    }
    const parsed = type === 'tree' ? parseTree(object) : type === 'commit' ? parseCommit(object) : parseTag(object);
    this.db.parsed.set(oid, parsed, parsed instanceof Map ? 1 + parsed.size : 1);
    return parsed;
  }

  private async get(oid: string, want: ObjectType): Promise<unknown> {
    if (want === 'tree' && oid === EMPTY_TREE) return new Map();
    // The caches are shared by every repository: only an object this one holds is read from them.
    const cached = this.has(oid) ? (want === 'blob' ? this.db.blobs.get(oid) : this.db.parsed.get(oid)) : undefined;
    if (cached) return cached;
    const { type, object } = await this.load(oid);
    if (type !== want) throw new Error(`object ${oid} is a ${type}, not a ${want}`);
    return this.remember(oid, type, object);
  }

  readBlob(oid: string): Promise<Uint8Array> {
    return this.get(oid, 'blob') as Promise<Uint8Array>;
  }

  readTree(oid: string): Promise<Tree> {
    return this.get(oid, 'tree') as Promise<Tree>;
  }

  readCommit(oid: string): Promise<CommitData> {
    return this.get(oid, 'commit') as Promise<CommitData>;
  }

  /** The commit as already parsed (a push parses its commits), without waiting; undefined when it is not at hand. */
  parsedCommit(oid: string): CommitData | undefined {
    const p = this.has(oid) ? this.db.parsed.get(oid) : undefined;
    return p !== undefined && !(p instanceof Map) && 'tree' in p ? p : undefined;
  }

  readTag(oid: string): Promise<TagData> {
    return this.get(oid, 'tag') as Promise<TagData>;
  }

  /**
   * A tree's subtrees and blobs, for a walk over what a pack sends: kept per tree (objects never
   * change), read from the parsed tree when there is one, else straight from the tree's bytes.
   */
  async treeChildren(oid: string): Promise<TreeChildren> {
    const now = this.treeChildrenNow(oid);
    if (now) return now;
    const { type, object } = await this.load(oid);
    if (type !== 'tree') throw new Error(`object ${oid} is a ${type}, not a tree`);
    const children = treeChildren(object);
    this.rememberChildren(oid, children);
    return children;
  }

  /** A tree's children when they are at hand without reading the tree (kept, parsed, or recorded by a push); else undefined. */
  treeChildrenNow(oid: string): TreeChildren | undefined {
    if (oid === EMPTY_TREE) return NO_CHILDREN;
    if (!this.has(oid)) throw new MissingObject(oid);
    const hit = this.db.children.get(oid);
    if (hit) return hit;
    const parsed = this.db.parsed.get(oid);
    let children: TreeChildren;
    const pack = parsed ? null : this.packHolding(oid);
    const positions = pack?.childrenAt(pack.index.get(oid)!);
    if (pack && positions) {
      // Recorded by the push as positions in its pack.
      children = { trees: Array.from(positions.trees, (k) => pack.oids[k]!), blobs: Array.from(positions.blobs, (k) => pack.oids[k]!) };
    } else if (parsed instanceof Map) {
      const trees: string[] = [];
      const blobs: string[] = [];
      for (const e of parsed.values()) (e.type === 'tree' ? trees : e.type === 'blob' ? blobs : []).push(e.oid);
      children = { trees, blobs };
    } else return undefined;
    this.rememberChildren(oid, children);
    return children;
  }

  /** Keeps a tree's children (a push reads them from the tree's bytes at hand). */
  rememberChildren(oid: string, children: TreeChildren): void {
    this.db.children.set(oid, children, 1 + children.trees.length + children.blobs.length);
  }

  /** How a pack holds the object: as a pushed pack held it, else whole (kept once made). */
  async packedObject(oid: string): Promise<PackedObject> {
    if (!this.has(oid)) throw new MissingObject(oid);
    const hit = this.db.packed.get(oid);
    if (hit) return hit;
    // A pushed pack's entry, as it is there.
    const pending = this.pendingPackOf(oid);
    const kept = pending ? pending.packed(pending.index.get(oid)!) : this.store.packed(oid, this.seen);
    if (kept) return kept;
    const { type, object } = await this.load(oid);
    const packed = packedWhole(type, object);
    this.rememberPacked(oid, packed);
    return packed;
  }

  /**
   * A kept pack that holds exactly these objects (each once) and no other, that can go to a
   * client as it is: a clone of what one push brought. Its deltas are against bases before them,
   * no deeper than a pack we write (`MAX_DELTA_DEPTH`). Null when there is none.
   */
  keptPackOf(oids: readonly string[]): StoredPack | null {
    if (oids.length === 0) return null;
    const pack = this.packHolding(oids[0]!);
    if (!pack || !this.sendsAsIs(pack) || pack.oids.length !== oids.length || pack.index.size !== oids.length) return null;
    for (const oid of oids) if (!pack.index.has(oid)) return null;
    return pack;
  }

  /**
   * The kept pack that holds the object for this world (a pending one included), or null for an
   * object kept loose. Every object of a pack is stored by one write: a world that sees one sees all.
   */
  packHolding(oid: string): StoredPack | null {
    return this.pendingPackOf(oid) ?? this.store.packHolding(oid, this.seen);
  }

  /** Whether a kept pack can go to a client as it is: its deltas against bases before them, no deeper than a pack we write. */
  sendsAsIs(pack: StoredPack): boolean {
    return !pack.forwardDeltas && pack.depth <= MAX_DELTA_DEPTH;
  }

  /** The whole object in a pack, never a delta (for a delta whose base the pack does not carry). */
  async packedWhole(oid: string): Promise<PackedObject> {
    const packed = await this.packedObject(oid);
    if (packed.base === null) return packed;
    const { type, object } = await this.readObject(oid);
    return packedWhole(type, object);
  }

  /**
   * Keeps an object's pack entry as a pushed pack held it. The first one kept stays, so that two
   * objects are rarely deltas of each other; a loop that an evicted entry still lets in is cut
   * when a pack is written (`deltasToSendWhole`).
   */
  rememberPacked(oid: string, packed: PackedObject): void {
    if (!this.db.packed.get(oid)) this.db.packed.set(oid, packed, 64 + packed.deflated.length);
  }

  /** A derived fact about immutable objects, computed once; `weight` is its rough size in items. */
  async memo<T>(key: string, compute: () => Promise<T>, weight: (value: T) => number = () => 1): Promise<T> {
    const hit = this.db.memo.get(key);
    if (hit !== undefined) return hit as T;
    const value = await compute();
    this.db.memo.set(key, value, 1 + weight(value));
    return value;
  }
}
