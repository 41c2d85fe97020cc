// Git's pack format (gitformat-pack): what upload-pack sends and receive-pack reads. Packs we
// write hold each object's entry as it is kept: a pushed object as the pushed pack held it (git's
// compression, its delta against a base of the same pack), any other whole in stored zlib blocks.
// Packs we read may hold both kinds of delta, against an object of the same pack (ofs-delta) or
// one the repository already has (ref-delta, a thin pack).
import { codec, hexAt, type ObjectType } from './format.js';
import { concat } from './pktline.js';

const TYPE_CODES: Record<ObjectType, number> = { commit: 1, tree: 2, blob: 3, tag: 4 };
export const CODE_TYPES: Record<number, ObjectType> = { 1: 'commit', 2: 'tree', 3: 'blob', 4: 'tag' };
export const OFS_DELTA = 6;
export const REF_DELTA = 7;

/**
 * A pack entry's header at `at` (gitformat-pack): its type code, its inflated size, where its
 * deflated data starts, and for a delta its base: the distance back to it (ofs-delta) or its id
 * (ref-delta).
 */
export function entryHeader(bytes: Uint8Array, at: number): { type: number; size: number; data: number; base: number | string | undefined } {
  let b = bytes[at++]!;
  const type = (b >> 4) & 7;
  let size = b & 0x0f;
  let shift = 4;
  while (b & 0x80) {
    b = bytes[at++]!;
    size += (b & 0x7f) * 2 ** shift;
    shift += 7;
  }
  let base: number | string | undefined;
  if (type === OFS_DELTA) {
    b = bytes[at++]!;
    let off = b & 0x7f;
    while (b & 0x80) {
      b = bytes[at++]!;
      off = (off + 1) * 128 + (b & 0x7f);
    }
    base = off;
  } else if (type === REF_DELTA) {
    base = hexAt(bytes, at);
    at += 20;
  } else if (!CODE_TYPES[type]) throw new PackError(`bad object type ${type} in pack`);
  return { type, size, data: at, base };
}

export interface PackObject {
  type: ObjectType;
  content: Uint8Array;
}

/** A pack that cannot be read (git prints it as the `unpack` status). */
export class PackError extends Error {}

function header(type: number, size: number): Uint8Array {
  const out: number[] = [];
  let byte = (type << 4) | (size & 0x0f);
  size = Math.floor(size / 16);
  while (size > 0) {
    out.push(byte | 0x80);
    byte = size & 0x7f;
    size = Math.floor(size / 128);
  }
  out.push(byte);
  return Uint8Array.from(out);
}

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

const bytesToHex = (bytes: Uint8Array): string => hexAt(bytes, 0, bytes.length);

/**
 * A zlib stream of `data` in stored (uncompressed) deflate blocks: a memory copy and a checksum,
 * where compressing costs tens of microseconds an object. The emulator's packs travel in process
 * or over loopback, where bytes are cheaper than compression; git reads them as any other.
 */
export function storedZlib(data: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(data.length / 0xffff));
  const out = new Uint8Array(2 + blocks * 5 + data.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  let at = 2;
  for (let b = 0; b < blocks; b++) {
    const part = data.subarray(b * 0xffff, (b + 1) * 0xffff);
    out[at] = b === blocks - 1 ? 1 : 0;
    out[at + 1] = part.length & 0xff;
    out[at + 2] = part.length >> 8;
    out[at + 3] = ~part.length & 0xff;
    out[at + 4] = (~part.length >> 8) & 0xff;
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  // Adler-32, in runs short enough that the sums stay exact.
  let a = 1;
  let c = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(i + 3800, data.length);
    for (; i < end; i++) {
      a += data[i]!;
      c += a;
    }
    a %= 65521;
    c %= 65521;
  }
  out[at] = c >>> 8;
  out[at + 1] = c & 0xff;
  out[at + 2] = a >>> 8;
  out[at + 3] = a & 0xff;
  return out;
}

/** One object as a pack stores it whole: its type and size, then its content as a zlib stream. */
export function packEntry(o: PackObject): Uint8Array {
  return concat([header(TYPE_CODES[o.type], o.content.length), storedZlib(o.content)]);
}

type NodeCrypto = typeof import('node:crypto');
let nodeCryptoOnce: NodeCrypto | null | undefined;
/** node:crypto, taken at its first use (loading it is not the import's to pay); none in a page. */
function nodeCrypto(): NodeCrypto | undefined {
  nodeCryptoOnce ??= ((globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined) ?? null;
  return nodeCryptoOnce ?? undefined;
}

/**
 * A pack of entries (`packEntry`), with its header and SHA-1 trailer, as the pieces it is made of
 * (the entries are not copied: a large pack is framed for the wire straight from them).
 */
export async function packChunks(entries: readonly Uint8Array[]): Promise<{ chunks: Uint8Array[]; length: number }> {
  const head = new Uint8Array(12);
  head.set([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2]);
  new DataView(head.buffer).setUint32(8, entries.length);
  const chunks = [head, ...entries];
  let sum: Uint8Array;
  const node = nodeCrypto();
  if (node?.createHash) {
    const h = node.createHash('sha1');
    for (const c of chunks) h.update(c);
    sum = new Uint8Array(h.digest());
  } else sum = hexToBytes(await codec.sha1(concat(chunks)));
  chunks.push(sum);
  let length = 0;
  for (const c of chunks) length += c.length;
  return { chunks, length };
}

/**
 * An object as a pack holds it: its deflated bytes, copied into a pack as they are, whole (the
 * zlib stream of its content) or as a delta against `base` (the zlib stream of the delta). A
 * pushed pack's entries are kept in this form, so a clone sends git's own compression and deltas.
 */
export interface PackedObject {
  /** The type of the object (not of the entry: a delta's object has its base's type). */
  type: ObjectType;
  /** The object this one is a delta against, or null for a whole object. */
  base: string | null;
  /** The size of what `deflated` inflates to: the content, or the delta. */
  size: number;
  deflated: Uint8Array;
}

/** A whole object as a pack stores it, in stored (uncompressed) zlib blocks. */
export function packedWhole(type: ObjectType, content: Uint8Array): PackedObject {
  return { type, base: null, size: content.length, deflated: storedZlib(content) };
}

/** How long a chain of deltas a pack we send may hold (git's pack.depth). */
export const MAX_DELTA_DEPTH = 50;

/**
 * The deltas of a pack's objects that cannot go as they are: a delta against an object outside
 * the pack, one deeper than `MAX_DELTA_DEPTH` down its chain (every 51st link is cut), and one
 * link of any loop of deltas (which only entries kept from different pushes could make).
 */
export function deltasToSendWhole(objects: ReadonlyMap<string, PackedObject>): string[] {
  // Each object's depth (0: whole; -1: on the chain being followed).
  const depth = new Map<string, number>();
  const whole: string[] = [];
  const chain: string[] = [];
  for (const oid of objects.keys()) {
    let cur = oid;
    let d = 0;
    for (;;) {
      const known = depth.get(cur);
      if (known !== undefined && known >= 0) {
        d = known;
        break;
      }
      const base = objects.get(cur)!.base;
      if (base === null || !objects.has(base) || known === -1) {
        if (base !== null) whole.push(cur);
        depth.set(cur, (d = 0));
        break;
      }
      chain.push(cur);
      depth.set(cur, -1);
      cur = base;
    }
    while (chain.length > 0) {
      const next = chain.pop()!;
      const known = depth.get(next)!;
      if (known >= 0) {
        d = known;
        continue;
      }
      d = d + 1 > MAX_DELTA_DEPTH ? 0 : d + 1;
      if (d === 0) whole.push(next);
      depth.set(next, d);
    }
  }
  return whole;
}

function varintLength(n: number): number {
  let len = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128) - 1;
    len++;
  }
  return len;
}

/** The size of an entry's header: type and size, 4 bits then 7 a byte. */
function headerLength(size: number): number {
  let len = 1;
  for (size = Math.floor(size / 16); size > 0; size = Math.floor(size / 128)) len++;
  return len;
}

/**
 * The objects in their order, but each delta's base (when the pack carries it) moved before the
 * delta: isomorphic-git resolves a delta only against an object it has already read.
 */
function basesFirst(objects: readonly { oid: string; packed: PackedObject }[]): { oid: string; packed: PackedObject }[] {
  const byOid = new Map(objects.map((o) => [o.oid, o]));
  const placed = new Set<string>();
  const out: { oid: string; packed: PackedObject }[] = [];
  const chain: { oid: string; packed: PackedObject }[] = [];
  for (const o of objects) {
    for (let cur: { oid: string; packed: PackedObject } | undefined = o; cur && !placed.has(cur.oid); cur = cur.packed.base === null ? undefined : byOid.get(cur.packed.base)) {
      placed.add(cur.oid);
      chain.push(cur);
    }
    while (chain.length > 0) out.push(chain.pop()!);
  }
  return out;
}

/**
 * A pack of `objects` in one buffer: each entry's bytes as kept (`PackedObject`), each delta
 * after its base as an ofs-delta (a ref-delta only against an object outside the pack: the
 * caller sends a delta only when its base is in the pack, or the client has it).
 */
export async function writePack(given: readonly { oid: string; packed: PackedObject }[]): Promise<Uint8Array> {
  const objects = basesFirst(given);
  const offsets = new Map<string, number>();
  let length = 12;
  for (const { oid, packed: p } of objects) {
    const start = length;
    offsets.set(oid, start);
    length += headerLength(p.size) + p.deflated.length;
    if (p.base !== null) {
      const base = offsets.get(p.base);
      length += base === undefined || base >= start ? 20 : varintLength(start - base);
    }
  }
  const out = new Uint8Array(length + 20);
  out.set([0x50, 0x41, 0x43, 0x4b, 0, 0, 0, 2]);
  new DataView(out.buffer).setUint32(8, objects.length);
  let at = 12;
  for (const { packed: p } of objects) {
    const start = at;
    const base = p.base === null ? undefined : offsets.get(p.base);
    const code = p.base === null ? TYPE_CODES[p.type] : base !== undefined && base < start ? OFS_DELTA : REF_DELTA;
    let size = p.size;
    let byte = (code << 4) | (size & 0x0f);
    for (size = Math.floor(size / 16); size > 0; size = Math.floor(size / 128)) {
      out[at++] = byte | 0x80;
      byte = size & 0x7f;
    }
    out[at++] = byte;
    if (code === OFS_DELTA) {
      // Big-endian 7 bits a byte, each but the last one less (gitformat-pack, "offset encoding").
      let off = start - base!;
      const bytes = [off & 0x7f];
      while ((off = Math.floor(off / 128)) > 0) bytes.unshift(0x80 | (--off & 0x7f));
      out.set(bytes, at);
      at += bytes.length;
    } else if (code === REF_DELTA) {
      out.set(hexToBytes(p.base!), at);
      at += 20;
    }
    out.set(p.deflated, at);
    at += p.deflated.length;
  }
  if (at !== length) throw new Error('pack entries of unexpected sizes');
  const body = out.subarray(0, length);
  out.set(nodeCrypto()?.createHash ? nodeCrypto()!.createHash('sha1').update(body).digest() : hexToBytes(await codec.sha1(body)), length);
  return out;
}

type NodeZlib = typeof import('node:zlib');
const zlib = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:zlib') as NodeZlib | undefined;

/** The parts of node's zlib engine an inflate of known size drives directly (see `inflateKnown`). */
interface ZlibHandle {
  reset(): void;
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
}
interface ZlibEngine {
  _handle: ZlibHandle | null;
  _writeState: Uint32Array;
  on(event: 'error', fn: () => void): unknown;
}
let engine: ZlibEngine | null | undefined;

/** One inflate engine for every entry: `inflateSync` makes (and collects) a new engine and a 16 KiB buffer per call. */
function reusedEngine(): ZlibEngine | null {
  if (engine === undefined || (engine !== null && engine._handle === null)) {
    const e = zlib?.createInflate?.() as unknown as ZlibEngine | undefined;
    if (e && e._handle && typeof e._handle.writeSync === 'function' && typeof e._handle.reset === 'function' && e._writeState instanceof Uint32Array) {
      e.on('error', () => {}); // a corrupt stream closes the engine (seen below); the next inflate makes another
      engine = e;
    } else engine = null;
  }
  return engine;
}

/**
 * Room for many small arrays in a few large buffers: a pack's thousands of contents and deltas,
 * each its own ArrayBuffer, were a large part of a push's garbage collection. Only for arrays
 * that die with the pack's reading (a view keeps its whole buffer alive).
 */
export class Slab {
  #buf = new Uint8Array(0);
  #at = 0;
  static readonly SIZE = 1 << 20;

  /** A buffer and an offset with `n` bytes free there (`take` then claims what was used). */
  room(n: number): { buf: Uint8Array; at: number } {
    if (n > Slab.SIZE / 8) return { buf: new Uint8Array(n), at: 0 };
    if (this.#at + n > this.#buf.length) {
      this.#buf = new Uint8Array(Slab.SIZE);
      this.#at = 0;
    }
    return { buf: this.#buf, at: this.#at };
  }

  /** Claims `n` bytes at the room last given (when it was in this slab). */
  take(buf: Uint8Array, at: number, n: number): Uint8Array {
    if (buf === this.#buf) this.#at = at + n;
    return buf.subarray(at, at + n);
  }
}

/**
 * Inflates the zlib stream at `offset` whose content is `size` bytes (a pack entry's header says
 * so); gives the data and how many bytes the stream took. One engine is reset and driven for
 * every entry where node's allows it, else `inflateSync` with an output buffer of that size.
 */
export function inflateAt(bytes: Uint8Array, offset: number, size: number, slab?: Slab): { data: Uint8Array; used: number } {
  if (!zlib?.inflateSync) throw new PackError('reading a pack needs node:zlib');
  const e = reusedEngine();
  const h = e?._handle;
  if (e && h) {
    // One byte of room more than the content: a stream that does not end there is corrupt.
    const { buf, at } = slab ? slab.room(size + 1) : { buf: new Uint8Array(size + 1), at: 0 };
    const inLen = bytes.length - offset;
    h.reset();
    h.writeSync(zlib.constants.Z_FINISH, bytes, offset, inLen, buf, at, size + 1);
    if (e._handle !== h) throw new PackError('corrupt object in pack');
    const have = size + 1 - e._writeState[0]!;
    if (have !== size) throw new PackError('object of the wrong size in pack');
    return { data: slab ? slab.take(buf, at, size) : buf.subarray(0, size), used: inLen - e._writeState[1]! };
  }
  let r: { buffer: Uint8Array; engine: { bytesWritten: number } };
  try {
    r = zlib.inflateSync(bytes.subarray(offset), { info: true, chunkSize: Math.max(64, size + 1) }) as unknown as typeof r;
  } catch {
    throw new PackError('corrupt object in pack');
  }
  if (r.buffer.length !== size) throw new PackError('object of the wrong size in pack');
  return { data: new Uint8Array(r.buffer.buffer, r.buffer.byteOffset, r.buffer.byteLength), used: r.engine.bytesWritten };
}

/** The id of an object (`<type> <size>\0<content>` hashed), without copying the content where node:crypto is there. */
export function objectId(type: ObjectType, content: Uint8Array): string | Promise<string> {
  const node = nodeCrypto();
  const head = `${type} ${content.length}\0`;
  if (node?.createHash) return node.createHash('sha1').update(head).update(content).digest('hex');
  const raw = new Uint8Array(head.length + content.length);
  for (let i = 0; i < head.length; i++) raw[i] = head.charCodeAt(i);
  raw.set(content, head.length);
  return codec.sha1(raw);
}

/** Applies a git delta to its base. */
export function applyDelta(base: Uint8Array, delta: Uint8Array, slab?: Slab): Uint8Array {
  let at = 0;
  const varint = () => {
    let v = 0;
    let shift = 0;
    let b: number;
    do {
      if (at >= delta.length) throw new PackError('truncated delta');
      b = delta[at++]!;
      v += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return v;
  };
  if (varint() !== base.length) throw new PackError('delta against a base of another size');
  const size = varint();
  let out: Uint8Array;
  if (slab) {
    const { buf, at: from } = slab.room(size);
    out = slab.take(buf, from, size);
  } else out = new Uint8Array(size);
  let w = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let off = 0;
      let len = 0;
      if (op & 0x01) off = delta[at++]!;
      if (op & 0x02) off |= delta[at++]! << 8;
      if (op & 0x04) off |= delta[at++]! << 16;
      if (op & 0x08) off += delta[at++]! * 0x1000000;
      if (op & 0x10) len = delta[at++]!;
      if (op & 0x20) len |= delta[at++]! << 8;
      if (op & 0x40) len |= delta[at++]! << 16;
      if (len === 0) len = 0x10000;
      if (at > delta.length || off + len > base.length || w + len > out.length) throw new PackError('delta copies past its base');
      // Short runs byte by byte: a view made per copy is most of the cost (and garbage) of a text delta.
      if (len < 64) for (let k = 0; k < len; k++) out[w + k] = base[off + k]!;
      else out.set(base.subarray(off, off + len), w);
      w += len;
    } else if (op > 0) {
      if (at + op > delta.length || w + op > out.length) throw new PackError('truncated delta');
      for (let k = 0; k < op; k++) out[w + k] = delta[at + k]!;
      w += op;
      at += op;
    } else throw new PackError('bad delta opcode');
  }
  if (w !== out.length) throw new PackError('delta of the wrong size');
  return out;
}

/** An object read from a pack: its content and id, its entry as the pack holds it, and where. */
export type ReadObject = PackObject & { oid: string; packed: PackedObject; offset: number };

/**
 * Every object of a pack, deltas resolved; `external` finds the base of a ref-delta that is not
 * in the pack (a thin pack's base, which the repository has), and `externals`, when given,
 * collects those bases.
 */
export async function readPack(bytes: Uint8Array, external: (oid: string) => Promise<PackObject | null>, externals?: Map<string, PackObject>): Promise<ReadObject[]> {
  if (bytes.length < 32 || String.fromCharCode(...bytes.subarray(0, 4)) !== 'PACK') throw new PackError('not a pack');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(4);
  if (version !== 2 && version !== 3) throw new PackError(`pack version ${version} unsupported`);
  const count = view.getUint32(8);
  const sum = bytesToHex(bytes.subarray(bytes.length - 20));
  const node = nodeCrypto();
  const body = bytes.subarray(0, bytes.length - 20);
  if ((node?.createHash ? node.createHash('sha1').update(body).digest('hex') : await codec.sha1(body)) !== sum) throw new PackError('pack checksum mismatch');
  const byOffset = new Map<number, ReadObject>();
  const byOid = new Map<string, PackObject>();
  // The contents read here die with the push (a kept pack is read again from its own bytes).
  const slab = new Slab();
  const pending: { offset: number; base: number | string; delta: Uint8Array; deflated: Uint8Array }[] = [];
  const out: ReadObject[] = [];
  let at = 12;
  const end = bytes.length - 20;
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at >= end) throw new PackError('truncated pack');
    const h = entryHeader(bytes, at);
    const { type, size } = h;
    at = h.data;
    const base = typeof h.base === 'number' ? start - h.base : h.base;
    if (at >= end) throw new PackError('truncated pack');
    const { data, used } = inflateAt(bytes, at, size, slab);
    // The entry's deflated bytes as git compressed them, for the packs we send.
    const deflated = bytes.subarray(at, at + used);
    at += used;
    if (base === undefined) {
      const t = CODE_TYPES[type]!;
      const oid = await objectId(t, data);
      const o: ReadObject = { type: t, content: data, oid, packed: { type: t, base: null, size, deflated }, offset: start };
      byOffset.set(start, o);
      byOid.set(oid, o);
      out.push(o);
    } else pending.push({ offset: start, base, delta: data, deflated });
  }
  if (at !== end) throw new PackError('pack has trailing data');
  // Deltas may chain, in any order (an ofs-delta's base comes before it): resolve in passes until none is left.
  let rest = pending;
  while (rest.length > 0) {
    const next: typeof pending = [];
    for (const d of rest) {
      let base: PackObject | undefined = typeof d.base === 'number' ? byOffset.get(d.base) : byOid.get(d.base);
      if (!base && typeof d.base === 'string') {
        const found = await external(d.base);
        if (found) {
          byOid.set(d.base, (base = found));
          externals?.set(d.base, found);
        }
      }
      if (!base) {
        next.push(d);
        continue;
      }
      const t = base.type;
      const content = applyDelta(base.content, d.delta, slab);
      const oid = await objectId(t, content);
      const baseOid = typeof d.base === 'number' ? byOffset.get(d.base)!.oid : d.base;
      const o: ReadObject = { type: t, content, oid, packed: { type: t, base: baseOid, size: d.delta.length, deflated: d.deflated }, offset: d.offset };
      byOffset.set(d.offset, o);
      byOid.set(oid, o);
      out.push(o);
    }
    if (next.length === rest.length) throw new PackError('delta against a missing base');
    rest = next;
  }
  return out;
}
