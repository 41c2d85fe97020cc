// One storage's committed objects (see objects.ts): a bare gitdir of loose objects on the shared
// volume, whose writes are numbered so that a world sees only what its own history wrote, and
// the error a missing object is.
import type { SyncVolume } from './volume.js';
import { codec, EMPTY_TREE, unwrap, wrap, type ObjectType } from './format.js';
import type { PackedObject } from './pack.js';
import { StoredPack } from './packfile.js';

/**
 * An object the repository does not hold, shaped as isomorphic-git's NotFoundError (`code`,
 * `data.what`), so code written for either reads it the same; isomorphic-git itself loads only
 * when a test asks for it.
 */
export class MissingObject extends Error {
  readonly code = 'NotFoundError';
  readonly data: { what: string };

  constructor(oid: string) {
    super(`Could not find ${oid}.`);
    this.name = 'NotFoundError';
    this.data = { what: oid };
  }
}

/** Told of each write a storage reserves and each object it stores (a data directory keeps them on disk). */
export interface StorageObserver {
  reserved(storage: ObjectStorage): void;
  /** `file` is the loose object as stored (deflated, with its header), part of write `n`. */
  stored(storage: ObjectStorage, oid: string, file: Uint8Array, n: number): void;
  /** A pack kept whole (`pack.bytes`, with its index `pack.idx`), part of write `n`. */
  storedPack(storage: ObjectStorage, pack: StoredPack, n: number): void;
}

/** A pack a storage keeps, and the write that stored it. */
interface KeptPack {
  pack: StoredPack;
  n: number;
}

/**
 * One storage's committed objects: a bare gitdir of loose objects on the shared volume. Every
 * write to it has a number (`count` counts them, outside every world; a request's objects are one
 * write), and a world records with the repository's refs the last write it made or saw (`seen`):
 * it sees an object of the storage only if a write numbered up to `seen` stored it. A history
 * that writes to a storage where some other history (a restored snapshot, a fork) wrote after
 * this one's `seen` writes to a new storage instead, a child that reads its parent up to that
 * point (`parent`, `parentSeen`): histories that diverge never see each other's later objects.
 */
export class ObjectStorage {
  #ready = false;
  /** Objects of this gitdir -> the write that stored them (0: found on disk, written by no write of ours). */
  #seq = new Map<string, number>();
  /** Fan-out directories (`objects/ab`) known to exist. */
  #dirs = new Set<string>();
  /** Packs kept whole in `objects/pack`, in the order stored. */
  #packs: KeptPack[] = [];
  /** Objects of this gitdir held in a pack (not as loose files): the first pack that held each. */
  #packOf = new Map<string, KeptPack>();
  /** The last write handed out (`reserve`): objects of a later write no world has seen yet. */
  count = 0;
  #materialized = false;
  observer: StorageObserver | null = null;

  constructor(
    readonly volume: SyncVolume,
    readonly gitdir: string,
    /** The storage of a repository that has none yet: nothing is ever written to it. */
    readonly empty = false,
    readonly id = 0,
    /** The storage this one continues: what it holds up to `parentSeen` is this one's too. */
    readonly parent: ObjectStorage | null = null,
    readonly parentSeen = 0,
  ) {}

  /** A bare repository layout, so that isomorphic-git's own commands work on the gitdir too. */
  ensure(): void {
    if (this.#ready) return;
    const v = this.volume;
    if (!v.existsSync(`${this.gitdir}/HEAD`)) {
      for (const d of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) v.mkdirSync(`${this.gitdir}/${d}`, { recursive: true });
      v.writeFileSync(`${this.gitdir}/HEAD`, 'ref: refs/heads/main\n');
      v.writeFileSync(`${this.gitdir}/config`, '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
      // git reads the parent's objects through the gitdir too (isomorphic-git does not: see `materialize`).
      if (this.parent) v.writeFileSync(`${this.gitdir}/objects/info/alternates`, `${this.parent.gitdir}/objects\n`);
    }
    this.#ready = true;
  }

  /** A new write's number: objects `put` with it are seen by a world that records it. */
  reserve(): number {
    ++this.count;
    this.observer?.reserved(this);
    return this.count;
  }

  objectPath(oid: string): string {
    return `${this.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  }

  /** The write that stored the object in this gitdir (not its parent's), or undefined. */
  number(oid: string): number | undefined {
    const n = this.#seq.get(oid);
    if (n !== undefined) return n;
    if (!/^[0-9a-f]{40}$/.test(oid)) return undefined;
    this.ensure();
    // The empty tree is in every repository, with a file or without one.
    if (!this.volume.existsSync(this.objectPath(oid))) return oid === EMPTY_TREE ? 0 : undefined;
    this.#seq.set(oid, 0);
    return 0;
  }

  /** The storage (this one or a parent) whose gitdir holds the object for a world that saw up to `seen`. */
  holder(oid: string, seen: number): ObjectStorage | null {
    for (let s: ObjectStorage | null = this; s; seen = s.parentSeen, s = s.parent) {
      const n = s.number(oid);
      if (n !== undefined && n <= seen) return s;
    }
    return oid === EMPTY_TREE ? this : null;
  }

  /** Whether a world that saw this storage up to `seen` sees the object. */
  visible(oid: string, seen: number): boolean {
    return this.holder(oid, seen) !== null;
  }

  /** The stored (deflated) loose object a world that saw up to `seen` sees, or null (made from its pack for a packed one). */
  file(oid: string, seen: number): Uint8Array | null {
    const s = this.holder(oid, seen);
    if (!s) return null;
    // The empty tree has a file only where it was written: git knows it without one.
    if (oid === EMPTY_TREE && !s.#packOf.has(oid) && !s.volume.existsSync(s.objectPath(oid))) return null;
    return s.looseFile(oid);
  }

  /** The object, as a loose file of this gitdir (`objects/ab/cdef...`, deflated) would hold it, whether it is one or is in a pack. */
  looseFile(oid: string): Uint8Array {
    const kept = this.#packOf.get(oid);
    if (!kept) return this.volume.readFileSync(this.objectPath(oid)) as Uint8Array;
    const { type, object } = kept.pack.read(kept.pack.index.get(oid)!);
    return codec.deflate(wrap(type, object));
  }

  /** The type and content of an object a world that saw up to `seen` sees, or null. */
  read(oid: string, seen: number): { type: ObjectType; object: Uint8Array } | null {
    if (oid === EMPTY_TREE) return null;
    const s = this.holder(oid, seen);
    if (!s) return null;
    const kept = s.#packOf.get(oid);
    if (kept) return kept.pack.read(kept.pack.index.get(oid)!);
    return unwrap(codec.inflate(s.volume.readFileSync(s.objectPath(oid)) as Uint8Array), oid);
  }

  /** The entry of a packed object a world that saw up to `seen` sees, as its pack holds it; null for a loose one. */
  packed(oid: string, seen: number): PackedObject | null {
    const s = this.holder(oid, seen);
    const kept = s === null ? undefined : s.#packOf.get(oid);
    return kept ? kept.pack.packed(kept.pack.index.get(oid)!) : null;
  }

  /** The pack that holds the object for a world that saw up to `seen`; null for a loose one. */
  packHolding(oid: string, seen: number): StoredPack | null {
    const s = this.holder(oid, seen);
    return (s === null ? undefined : s.#packOf.get(oid))?.pack ?? null;
  }

  /** Whether this gitdir holds the object in one of its packs. */
  inPack(oid: string): boolean {
    return this.#packOf.has(oid);
  }

  /** The objects whose id starts with `prefix` that a world that saw up to `seen` sees. */
  findByPrefix(prefix: string, seen: number): string[] {
    if (!/^[0-9a-f]{4,40}$/.test(prefix)) return [];
    const found: string[] = [];
    for (let s: ObjectStorage | null = this; s; seen = s.parentSeen, s = s.parent) {
      s.ensure();
      for (const { pack } of s.#packs) {
        // The pack's ids in order: those with the prefix are one run, found by bisection.
        const sorted = s.#sortedIds(pack);
        let lo = 0;
        let hi = sorted.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (sorted[mid]! < prefix) lo = mid + 1;
          else hi = mid;
        }
        for (let k = lo; k < sorted.length && sorted[k]!.startsWith(prefix); k++) {
          const oid = sorted[k]!;
          const n = s.number(oid);
          if (!found.includes(oid) && n !== undefined && n <= seen) found.push(oid);
        }
      }
      const dir = `${s.gitdir}/objects/${prefix.slice(0, 2)}`;
      if (!s.volume.existsSync(dir)) continue;
      const rest = prefix.slice(2);
      for (const f of s.volume.readdirSync(dir) as string[]) {
        const oid = prefix.slice(0, 2) + f;
        if (!f.startsWith(rest) || found.includes(oid)) continue;
        const n = s.number(oid);
        if (n !== undefined && n <= seen) found.push(oid);
      }
    }
    return found;
  }

  /**
   * Stores a loose object (`raw` uncompressed, with its header) as part of write `n`; one this
   * gitdir already holds, or that its parent holds up to `parentSeen`, is not written again.
   */
  put(oid: string, raw: Uint8Array, n: number): void {
    if (this.empty) throw new Error('the storage of an empty repository is never written');
    if (this.#seq.has(oid)) return;
    // The empty tree is written all the same: git knows it without a file, an exported copy may not.
    if (oid !== EMPTY_TREE && this.parent?.visible(oid, this.parentSeen)) return;
    this.ensure();
    const fan = oid.slice(0, 2);
    const dir = `${this.gitdir}/objects/${fan}`;
    if (!this.#dirs.has(fan)) {
      this.volume.mkdirSync(dir, { recursive: true });
      this.#dirs.add(fan);
    }
    const file = codec.deflate(raw);
    this.volume.writeFileSync(`${dir}/${oid.slice(2)}`, file);
    this.#seq.set(oid, n);
    this.observer?.stored(this, oid, file, n);
  }

  #sorted = new WeakMap<StoredPack, string[]>();
  #sortedIds(pack: StoredPack): string[] {
    let ids = this.#sorted.get(pack);
    if (!ids) this.#sorted.set(pack, (ids = [...pack.index.keys()].sort()));
    return ids;
  }

  /**
   * Keeps a pack whole as part of write `n`, in `objects/pack` with its index (where git and
   * isomorphic-git read it): its objects this gitdir did not hold yet count as that write's.
   */
  putPack(pack: StoredPack, n: number): void {
    if (this.empty) throw new Error('the storage of an empty repository is never written');
    this.#keep(pack, n);
    this.observer?.storedPack(this, pack, n);
  }

  /** A pack a data directory kept, back as part of write `n`; tells no observer. */
  revivePack(bytes: Uint8Array, idx: Uint8Array, n: number): void {
    this.#keep(StoredPack.fromIndex(bytes, idx), n);
  }

  #keep(pack: StoredPack, n: number): void {
    this.ensure();
    if (this.#packs.some((k) => k.pack.name === pack.name)) return;
    const base = `${this.gitdir}/objects/pack/pack-${pack.name}`;
    this.volume.writeFileSync(`${base}.pack`, pack.bytes);
    this.volume.writeFileSync(`${base}.idx`, pack.idx);
    const kept = { pack, n };
    this.#packs.push(kept);
    for (const oid of pack.index.keys()) {
      if (this.#seq.has(oid)) continue;
      this.#seq.set(oid, n);
      this.#packOf.set(oid, kept);
    }
  }

  /** An object a data directory kept (`file` as `put` stored it), back as part of write `n`; tells no observer. */
  revive(oid: string, file: Uint8Array, n: number): void {
    this.ensure();
    const fan = oid.slice(0, 2);
    if (!this.#dirs.has(fan)) {
      this.volume.mkdirSync(`${this.gitdir}/objects/${fan}`, { recursive: true });
      this.#dirs.add(fan);
    }
    this.volume.writeFileSync(this.objectPath(oid), file);
    this.#seq.set(oid, n);
  }

  /**
   * Copies into this gitdir what it reads of its parents, so that isomorphic-git, which ignores
   * `objects/info/alternates`, finds every object on its own (done once: a parent's objects up
   * to `parentSeen` never change). The copies count as this storage's own, seen by every world
   * of it, as they were through the parent.
   */
  materialize(): void {
    this.ensure();
    if (this.#materialized || !this.parent) return;
    this.#materialized = true;
    for (let s: ObjectStorage | null = this.parent, seen = this.parentSeen; s; seen = s.parentSeen, s = s.parent) {
      // A parent's packs that this storage's worlds see are copied whole, files and all.
      for (const kept of s.#packs) if (kept.n <= seen) this.#keep(kept.pack, 0);
      for (const [oid, n] of s.objects()) {
        if (n > seen || this.#seq.has(oid)) continue;
        if (s.#packOf.has(oid)) {
          // In a pack some other history wrote: copied loose, as this world sees it.
          this.#writeLoose(oid, s.looseFile(oid));
          this.#seq.set(oid, 0);
          continue;
        }
        const fan = oid.slice(0, 2);
        if (!this.#dirs.has(fan)) {
          this.volume.mkdirSync(`${this.gitdir}/objects/${fan}`, { recursive: true });
          this.#dirs.add(fan);
        }
        this.volume.writeFileSync(this.objectPath(oid), s.volume.readFileSync(s.objectPath(oid)) as Uint8Array);
        this.#seq.set(oid, 0);
      }
    }
  }

  #writeLoose(oid: string, file: Uint8Array): void {
    const fan = oid.slice(0, 2);
    if (!this.#dirs.has(fan)) {
      this.volume.mkdirSync(`${this.gitdir}/objects/${fan}`, { recursive: true });
      this.#dirs.add(fan);
    }
    this.volume.writeFileSync(this.objectPath(oid), file);
  }

  /** Every object of this gitdir with its write (objects found on disk count as write 0). */
  objects(): Map<string, number> {
    this.ensure();
    const root = `${this.gitdir}/objects`;
    for (const fan of this.volume.readdirSync(root) as string[]) {
      if (!/^[0-9a-f]{2}$/.test(fan)) continue;
      for (const f of this.volume.readdirSync(`${root}/${fan}`) as string[]) this.number(fan + f);
    }
    return this.#seq;
  }
}

