// A pack kept as a pack (gitformat-pack), the way git's receive-pack keeps one above
// `transfer.unpackLimit`: the pushed bytes as they came (a thin pack completed with the bases it
// lacked, as `index-pack --fix-thin` does), with an index (the `.idx` of version 2 that git and
// isomorphic-git read beside it), and objects read from it on demand, deltas resolved against
// their bases (recently resolved ones kept).
import { crc32 } from '../core/crc32.js';
import { codec, hexAt, Lru, oidBytesInto, type ObjectType } from './format.js';
import { applyDelta, CODE_TYPES, entryHeader, inflateAt, packEntry, PackError, type PackedObject, type PackObject } from './pack.js';


type NodeCrypto = typeof import('node:crypto');
type NodeZlib = typeof import('node:zlib');
const builtin = (id: string) => (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(id);

function sha1Bytes(bytes: Uint8Array): Uint8Array | Promise<Uint8Array> {
  const node = builtin('node:crypto') as NodeCrypto | undefined;
  if (node?.createHash) return new Uint8Array(node.createHash('sha1').update(bytes).digest());
  return Promise.resolve(codec.sha1(bytes)).then(hexBytes);
}

function hexBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const hexOf = (bytes: Uint8Array, at: number): string => hexAt(bytes, at);

/** CRC-32 of a pack entry's bytes, as the index records it (node's own where it has one). */
function entryCrc(bytes: Uint8Array): number {
  const z = builtin('node:zlib') as (NodeZlib & { crc32?: (data: Uint8Array) => number }) | undefined;
  return typeof z?.crc32 === 'function' ? z.crc32(bytes) >>> 0 : crc32(bytes);
}

/** Resolved contents of entries that deltas are made against, shared by every pack (keyed by the pack's checksum). */
const resolved = new Lru<{ type: ObjectType; object: Uint8Array }>(32 * 1024 * 1024);

/** A tree's subtrees and blobs as positions in the pack that holds the tree (a walk over a pack marks positions, not ids). */
export interface ChildPositions {
  readonly trees: Int32Array;
  readonly blobs: Int32Array;
}

/** A pack held whole, with where each of its objects is; immutable once made. */
export class StoredPack {
  /** The pack's checksum (its trailer), in hex: its files are `pack-<name>.pack` and `.idx`. */
  readonly name: string;
  /** The objects, in the pack's order. */
  readonly oids: string[];
  /** Object id -> its position in `oids`. */
  readonly index = new Map<string, number>();
  /** Per entry: where it starts, where its zlib stream starts, where it ends. */
  readonly #start: number[];
  readonly #data: number[] = [];
  readonly #end: number[] = [];
  /** Per entry: its size as its header says (the content's, or the delta's). */
  readonly #size: number[] = [];
  /** Per entry: the position of its delta's base, or -1 for a whole object. */
  readonly #base: number[] = [];
  /** Per entry: the type of the object (a delta's is its base's). */
  readonly #type: ObjectType[] = [];
  #idx: Uint8Array | undefined;
  /** The longest chain of deltas in the pack (0: no delta). */
  readonly depth: number = 0;
  /**
   * Whether a delta names a base that comes after it (a completed thin pack's ref-deltas): git
   * reads that, isomorphic-git resolves a delta only against an object it has read already.
   */
  readonly forwardDeltas: boolean = false;

  /**
   * `bytes` a whole pack (checked by whoever read it), `entries` each object's id and the offset
   * of its entry: every entry of the pack, and every ref-delta's base among them.
   */
  constructor(
    readonly bytes: Uint8Array,
    entries: readonly { oid: string; offset: number }[],
  ) {
    this.name = hexOf(bytes, bytes.length - 20);
    const sorted = [...entries].sort((a, b) => a.offset - b.offset);
    this.oids = sorted.map((e) => e.oid);
    this.#start = sorted.map((e) => e.offset);
    const byOffset = new Map<number, number>();
    for (let i = 0; i < sorted.length; i++) {
      byOffset.set(this.#start[i]!, i);
      if (!this.index.has(this.oids[i]!)) this.index.set(this.oids[i]!, i);
    }
    const kinds: number[] = [];
    const refs: (number | string)[] = [];
    for (let i = 0; i < sorted.length; i++) {
      const h = entryHeader(bytes, this.#start[i]!);
      kinds.push(h.type);
      refs.push(typeof h.base === 'number' ? (byOffset.get(this.#start[i]! - h.base) ?? -2) : (h.base ?? -1));
      this.#size.push(h.size);
      this.#data.push(h.data);
      this.#end.push(i + 1 < sorted.length ? this.#start[i + 1]! : bytes.length - 20);
    }
    for (let i = 0; i < sorted.length; i++) {
      const ref = refs[i]!;
      const base = typeof ref === 'string' ? (this.index.get(ref) ?? -2) : ref;
      if (base === -2) throw new PackError('delta against a missing base');
      if (base > i) this.forwardDeltas = true;
      this.#base.push(base);
    }
    // Each entry's type and depth from its base's, along each chain of deltas (memoised: chains share their links).
    const depths = new Int32Array(sorted.length).fill(-1);
    const types: (ObjectType | undefined)[] = new Array(sorted.length);
    const path: number[] = [];
    for (let i = 0; i < sorted.length; i++) {
      let j = i;
      while (depths[j]! < 0 && this.#base[j]! >= 0) {
        path.push(j);
        if (path.length > sorted.length) throw new PackError('a loop of deltas in pack');
        j = this.#base[j]!;
      }
      if (depths[j]! < 0) {
        depths[j] = 0;
        types[j] = CODE_TYPES[kinds[j]!]!;
      }
      let d = depths[j]!;
      const t = types[j]!;
      while (path.length > 0) {
        const k = path.pop()!;
        depths[k] = ++d;
        types[k] = t;
      }
    }
    for (let i = 0; i < sorted.length; i++) {
      this.#type.push(types[i]!);
      if (depths[i]! > this.depth) this.depth = depths[i]!;
    }
  }

  has(oid: string): boolean {
    return this.index.has(oid);
  }

  /** The type of the object at position `i` (a delta's is its base's): known without inflating it. */
  typeAt(i: number): ObjectType {
    return this.#type[i]!;
  }

  /** Per tree's position: its children's positions in this pack, once known; null when one is not in it. */
  readonly #children: (ChildPositions | null | undefined)[] = [];

  /** The positions in this pack of the tree's children at position `i`: undefined while not known, null when one is elsewhere. */
  childrenAt(i: number): ChildPositions | null | undefined {
    return this.#children[i];
  }

  /** Records the positions of the children of the tree at position `i` (objects never change, nor do they). */
  setChildren(i: number, children: ChildPositions | null): void {
    this.#children[i] = children;
  }

  /** The object's entry as the pack holds it (its bytes not copied), for a pack we send. */
  packed(i: number): PackedObject {
    const base = this.#base[i]!;
    return { type: this.#type[i]!, base: base >= 0 ? this.oids[base]! : null, size: this.#size[i]!, deflated: this.bytes.subarray(this.#data[i]!, this.#end[i]!) };
  }

  /** The object's type and content, its chain of deltas applied. */
  read(i: number): { type: ObjectType; object: Uint8Array } {
    const chain: number[] = [];
    let at = i;
    let content: Uint8Array | undefined;
    for (;;) {
      const hit = at !== i ? resolved.get(`${this.name}:${at}`) : undefined;
      if (hit) {
        content = hit.object;
        break;
      }
      chain.push(at);
      if (this.#base[at]! < 0) break;
      at = this.#base[at]!;
    }
    const type = this.#type[i]!;
    for (let k = chain.length - 1; k >= 0; k--) {
      const j = chain[k]!;
      const data = this.#inflate(j);
      content = content === undefined ? data : applyDelta(content, data);
      // A base is kept for the deltas made against it (the object itself the reader caches).
      if (k > 0) resolved.set(`${this.name}:${j}`, { type, object: content }, content.length + 64);
    }
    return { type, object: content! };
  }

  #inflate(j: number): Uint8Array {
    const start = this.#data[j]!;
    const end = this.#end[j]!;
    const size = this.#size[j]!;
    try {
      return inflateAt(this.bytes.subarray(0, end), start, size).data;
    } catch (e) {
      if (!(e instanceof PackError) || !/node:zlib/.test(e.message)) throw e;
      const data = codec.inflate(this.bytes.subarray(start, end));
      if (data.length !== size) throw new PackError('object of the wrong size in pack');
      return data;
    }
  }

  /** The pack's index file (`.idx`), made with the pack (`StoredPack.build`) or read with it (`fromIndex`). */
  get idx(): Uint8Array {
    if (!this.#idx) throw new Error('a pack kept without its index');
    return this.#idx;
  }

  /** A pack and its index (`bytes` and `entries` as the constructor takes them). */
  static async build(bytes: Uint8Array, entries: readonly { oid: string; offset: number }[]): Promise<StoredPack> {
    const pack = new StoredPack(bytes, entries);
    pack.#idx = await pack.#makeIdx();
    return pack;
  }

  /** The pack's index, version 2 (gitformat-pack "pack-*.idx files have the following format"). */
  async #makeIdx(): Promise<Uint8Array> {
    const order = [...this.index.values()].sort((a, b) => (this.oids[a]! < this.oids[b]! ? -1 : 1));
    const n = order.length;
    const large = order.filter((i) => this.#start[i]! >= 0x80000000).length;
    const out = new Uint8Array(8 + 256 * 4 + n * 28 + large * 8 + 40);
    const view = new DataView(out.buffer);
    out.set([0xff, 0x74, 0x4f, 0x63, 0, 0, 0, 2]);
    let at = 8 + 256 * 4;
    const fan = new Uint32Array(256);
    for (const i of order) {
      oidBytesInto(this.oids[i]!, out, at);
      fan[out[at]!]!++;
      at += 20;
    }
    for (let b = 0, sum = 0; b < 256; b++) view.setUint32(8 + b * 4, (sum += fan[b]!));
    for (const i of order) {
      view.setUint32(at, entryCrc(this.bytes.subarray(this.#start[i]!, this.#end[i]!)));
      at += 4;
    }
    let big = 0;
    const bigAt = at + n * 4;
    for (const i of order) {
      const offset = this.#start[i]!;
      if (offset < 0x80000000) view.setUint32(at, offset);
      else {
        view.setUint32(at, 0x80000000 | big);
        view.setUint32(bigAt + big * 8, Math.floor(offset / 2 ** 32));
        view.setUint32(bigAt + big * 8 + 4, offset >>> 0);
        big++;
      }
      at += 4;
    }
    at = bigAt + big * 8;
    out.set(this.bytes.subarray(this.bytes.length - 20), at);
    out.set(await sha1Bytes(out.subarray(0, at + 20)), at + 20);
    return out;
  }

  /** A pack kept with its index (`idx()`), read back: the index gives each entry's id. */
  static fromIndex(bytes: Uint8Array, idx: Uint8Array): StoredPack {
    const view = new DataView(idx.buffer, idx.byteOffset, idx.byteLength);
    if (idx.length < 8 + 1024 + 40 || view.getUint32(0) !== 0xff744f63 || view.getUint32(4) !== 2) throw new PackError('not a pack index');
    const n = view.getUint32(8 + 255 * 4);
    const names = 8 + 1024;
    const offsets = names + n * 24;
    const bigAt = offsets + n * 4;
    const entries: { oid: string; offset: number }[] = [];
    for (let k = 0; k < n; k++) {
      let offset = view.getUint32(offsets + k * 4);
      if (offset & 0x80000000) {
        const b = bigAt + (offset & 0x7fffffff) * 8;
        offset = view.getUint32(b) * 2 ** 32 + view.getUint32(b + 4);
      }
      entries.push({ oid: hexOf(idx, names + k * 20), offset });
    }
    const pack = new StoredPack(bytes, entries);
    pack.#idx = idx;
    return pack;
  }
}

/**
 * A pack that holds every object it names: a thin pack (ref-deltas against objects the
 * repository has) gets those bases appended, whole, as `index-pack --fix-thin` does; its count
 * and checksum are made again. Offsets of the entries already there do not change.
 */
export async function completePack(bytes: Uint8Array, objects: readonly { oid: string; offset: number }[], bases: ReadonlyMap<string, PackObject>): Promise<{ bytes: Uint8Array; entries: { oid: string; offset: number }[] }> {
  const entries = objects.map((o) => ({ oid: o.oid, offset: o.offset }));
  const own = new Set(entries.map((e) => e.oid));
  const added: Uint8Array[] = [];
  let at = bytes.length - 20;
  for (const [oid, o] of bases) {
    if (own.has(oid)) continue;
    const entry = packEntry(o);
    entries.push({ oid, offset: at });
    added.push(entry);
    at += entry.length;
  }
  if (added.length === 0) return { bytes: bytes.slice(), entries };
  const out = new Uint8Array(at + 20);
  out.set(bytes.subarray(0, bytes.length - 20));
  let w = bytes.length - 20;
  for (const e of added) {
    out.set(e, w);
    w += e.length;
  }
  new DataView(out.buffer).setUint32(8, entries.length);
  out.set(await sha1Bytes(out.subarray(0, at)), at);
  return { bytes: out, entries };
}
