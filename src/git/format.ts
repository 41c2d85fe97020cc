// Git's object format: blobs, trees, commits and tags parsed and rendered byte for byte as git
// writes them, and the codec (SHA-1 and zlib, Node's own when it is there) that stores them loose.
import { fflate } from './fflate.js';

export type ObjectType = 'blob' | 'tree' | 'commit' | 'tag';

/** Who and when, as git writes it: `Name <email> 1700000000 +0000`. */
export interface Ident {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes east of UTC (`+0200` is 120). */
  offset: number;
}

export interface CommitData {
  tree: string;
  parents: string[];
  author: Ident;
  committer: Ident;
  /** As stored: git adds no newline of its own to a message written through GitLab. */
  message: string;
}

export interface TagData {
  object: string;
  type: ObjectType;
  tag: string;
  tagger: Ident | null;
  message: string;
}

export type EntryType = 'blob' | 'tree' | 'commit';

export interface TreeEntry {
  name: string;
  /** `100644`, `100755`, `120000`, `040000` or `160000`. */
  mode: string;
  oid: string;
  type: EntryType;
}

/** A tree as a map from name to entry, in git's order. */
export type Tree = ReadonlyMap<string, TreeEntry>;

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A least-recently-used map bounded by a total weight. */
export class Lru<V> {
  #map = new Map<string, { value: V; weight: number }>();
  #weight = 0;
  constructor(private readonly budget: number) {}

  get(key: string): V | undefined {
    const hit = this.#map.get(key);
    if (!hit) return undefined;
    this.#map.delete(key);
    this.#map.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, weight: number): void {
    if (weight > this.budget / 4) return; // one huge value must not flush everything else
    const old = this.#map.get(key);
    if (old) {
      this.#weight -= old.weight;
      this.#map.delete(key);
    }
    this.#map.set(key, { value, weight });
    this.#weight += weight;
    for (const [k, v] of this.#map) {
      if (this.#weight <= this.budget) break;
      this.#map.delete(k);
      this.#weight -= v.weight;
    }
  }
}

function formatIdent(i: Ident): string {
  const sign = i.offset < 0 ? '-' : '+';
  const abs = Math.abs(i.offset);
  const tz = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return `${sanitize(i.name)} <${sanitize(i.email)}> ${i.timestamp} ${tz}`;
}

/** git's ident rules: no angle brackets or newlines, no surrounding blanks. */
function sanitize(text: string): string {
  return text.replace(/[<>\n\r\0]/g, '').trim();
}

function parseIdent(text: string): Ident {
  const m = /^(.*?) ?<(.*)> (-?\d+) ([+-])(\d{2})(\d{2})$/.exec(text);
  if (!m) return { name: text, email: '', timestamp: 0, offset: 0 };
  const minutes = Number(m[5]) * 60 + Number(m[6]);
  return { name: m[1]!, email: m[2]!, timestamp: Number(m[3]), offset: m[4] === '-' ? -minutes : minutes };
}

/** Header lines (continuations folded) and the message after the first blank line. */
function splitObject(text: string): { headers: [string, string][]; message: string } {
  const end = text.indexOf('\n\n');
  const head = end < 0 ? text : text.slice(0, end);
  const message = end < 0 ? '' : text.slice(end + 2);
  const headers: [string, string][] = [];
  for (const line of head.split('\n')) {
    if (line.startsWith(' ') && headers.length) headers[headers.length - 1]![1] += '\n' + line.slice(1);
    else {
      const sp = line.indexOf(' ');
      headers.push(sp < 0 ? [line, ''] : [line.slice(0, sp), line.slice(sp + 1)]);
    }
  }
  return { headers, message };
}

export function parseCommit(bytes: Uint8Array): CommitData {
  const { headers, message } = splitObject(decoder.decode(bytes));
  const commit: CommitData = { tree: EMPTY_TREE, parents: [], author: parseIdent(''), committer: parseIdent(''), message };
  let seenAuthor = false;
  let seenCommitter = false;
  for (const [k, v] of headers) {
    if (k === 'tree') commit.tree = v;
    else if (k === 'parent') commit.parents.push(v);
    else if (k === 'author' && !seenAuthor) (commit.author = parseIdent(v)), (seenAuthor = true);
    else if (k === 'committer' && !seenCommitter) (commit.committer = parseIdent(v)), (seenCommitter = true);
  }
  return commit;
}

export function parseTag(bytes: Uint8Array): TagData {
  const { headers, message } = splitObject(decoder.decode(bytes));
  const tag: TagData = { object: '', type: 'commit', tag: '', tagger: null, message };
  for (const [k, v] of headers) {
    if (k === 'object') tag.object = v;
    else if (k === 'type') tag.type = v as ObjectType;
    else if (k === 'tag') tag.tag = v;
    else if (k === 'tagger') tag.tagger = parseIdent(v);
  }
  return tag;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const HEX_CODES = new Uint8Array(512);
for (let i = 0; i < 256; i++) (HEX_CODES[2 * i] = HEX[i]!.charCodeAt(0)), (HEX_CODES[2 * i + 1] = HEX[i]!.charCodeAt(1));
const hexChars: number[] = [];

/**
 * `bytes[at..at+n)` as lower-case hex, one flat string. A string grown by `+=` is a chain of
 * concatenations that V8 walks (or flattens, changing its shape) each time it is hashed or
 * compared as a key, as every object id is; one made by `String.fromCharCode` is flat already.
 */
export function hexAt(bytes: Uint8Array, at: number, n = 20): string {
  hexChars.length = 2 * n;
  for (let k = 0; k < n; k++) {
    const b = bytes[at + k]!;
    hexChars[2 * k] = HEX_CODES[2 * b]!;
    hexChars[2 * k + 1] = HEX_CODES[2 * b + 1]!;
  }
  return String.fromCharCode.apply(null, hexChars);
}
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = HEX_VALUE['0123456789ABCDEF'.charCodeAt(i)] = i;

/** A tree entry's type, as its mode says. */
const typeOfMode = (mode: string): EntryType => (mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob');

/** isomorphic-git's limitModeToAllowed: the five modes git writes into trees. */
function normalMode(mode: string): string {
  if (/^0?4/.test(mode)) return '040000';
  if (mode.startsWith('1006')) return '100644';
  if (mode.startsWith('1007')) return '100755';
  if (mode.startsWith('120')) return '120000';
  if (mode.startsWith('160')) return '160000';
  throw new Error(`Could not understand file mode: ${mode}`);
}

/** Bytes as text; names and modes are nearly always ASCII, which needs no decoder. */
function decodeRange(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b >= 0x80) return decoder.decode(bytes.subarray(start, end));
    text += String.fromCharCode(b);
  }
  return text;
}

export function parseTree(bytes: Uint8Array): Tree {
  const out = new Map<string, TreeEntry>();
  let i = 0;
  while (i < bytes.length) {
    const space = bytes.indexOf(0x20, i);
    const nul = bytes.indexOf(0, space);
    const mode = decodeRange(bytes, i, space).padStart(6, '0');
    const name = decodeRange(bytes, space + 1, nul);
    const oid = hexAt(bytes, nul + 1);
    out.set(name, { name, mode, oid, type: typeOfMode(mode) });
    i = nul + 21;
  }
  return out;
}

/** A tree's children as a walk over reachable objects needs them: no names, no modes. */
export interface TreeChildren {
  readonly trees: readonly string[];
  readonly blobs: readonly string[];
}

/** Whether the mode at `bytes[from..to)` is `want`, with or without a leading zero (as `parseTree` pads it). */
function modeIs(bytes: Uint8Array, from: number, to: number, want: string): boolean {
  if (to - from === want.length + 1 && bytes[from] === 0x30) from++;
  if (to - from !== want.length) return false;
  for (let k = 0; k < want.length; k++) if (bytes[from + k] !== want.charCodeAt(k)) return false;
  return true;
}

const nibble = (c: number) => (c <= 57 ? c - 48 : (c | 0x20) - 87);

/** The 20 bytes of a hex object id, written into `out` at `at` (without a parse per byte). */
export function oidBytesInto(oid: string, out: Uint8Array, at: number): void {
  for (let k = 0; k < 20; k++) out[at + k] = (nibble(oid.charCodeAt(2 * k)) << 4) | nibble(oid.charCodeAt(2 * k + 1));
}

/**
 * Object ids at hand (a push's), found from the 20 bytes a tree holds without making the hex
 * string and hashing it: keyed by their first 30 bits, checked byte by byte against the id's
 * bytes.
 */
export class OidTable {
  readonly #ids: string[] = [];
  readonly #raw: Uint8Array;
  /** First 30 bits -> the first id with them; `#next` chains the others. */
  readonly #byKey = new Map<number, number>();
  readonly #next: Int32Array;

  constructor(oids: Iterable<string>) {
    for (const oid of oids) this.#ids.push(oid);
    const n = this.#ids.length;
    this.#raw = new Uint8Array(n * 20);
    this.#next = new Int32Array(n).fill(-1);
    for (let i = 0; i < n; i++) {
      const oid = this.#ids[i]!;
      oidBytesInto(oid, this.#raw, i * 20);
      const r = this.#raw;
      const key = ((r[i * 20]! << 24) | (r[i * 20 + 1]! << 16) | (r[i * 20 + 2]! << 8) | r[i * 20 + 3]!) >>> 2;
      const had = this.#byKey.get(key);
      if (had !== undefined) this.#next[i] = had;
      this.#byKey.set(key, i);
    }
  }

  /** The id (one of the table's strings) whose bytes are `bytes[at..at+20)`, or undefined. */
  find(bytes: Uint8Array, at: number): string | undefined {
    const i = this.position(bytes, at);
    return i < 0 ? undefined : this.#ids[i];
  }

  /** The position (in the order the table was made from) of the id whose bytes are `bytes[at..at+20)`, or -1. */
  position(bytes: Uint8Array, at: number): number {
    const key = ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 2;
    const raw = this.#raw;
    for (let i = this.#byKey.get(key) ?? -1; i >= 0; i = this.#next[i]!) {
      let k = 0;
      const base = i * 20;
      while (k < 20 && raw[base + k] === bytes[at + k]) k++;
      if (k === 20) return i;
    }
    return -1;
  }
}

/**
 * A tree's subtrees and blobs as positions in `table` (made from a pack's ids in its order):
 * what `treeChildren` reads, or null when a child is not in the table.
 */
export function treeChildPositions(bytes: Uint8Array, table: OidTable): { trees: Int32Array; blobs: Int32Array } | null {
  const n = bytes.length;
  // At most one entry per 28 bytes (a mode, a space, a name, a NUL and 20 bytes of id).
  if (scratch.length < n / 28 + 1) scratch = new Int32Array(2 * Math.ceil(n / 28 + 1));
  const room = scratch.length;
  let trees = 0;
  let blobs = 0;
  let i = 0;
  while (i < n) {
    let space = i;
    while (space < n && bytes[space] !== 0x20) space++;
    let nul = space + 1;
    while (nul < n && bytes[nul] !== 0) nul++;
    if (space >= n || nul + 21 > n) throw new Error('malformed tree');
    const isTree = modeIs(bytes, i, space, '40000');
    if (isTree || !modeIs(bytes, i, space, '160000')) {
      const at = table.position(bytes, nul + 1);
      if (at < 0) return null;
      // Subtrees from the start of the scratch, blobs from its end.
      if (isTree) scratch[trees++] = at;
      else scratch[room - 1 - blobs++] = at;
    }
    i = nul + 21;
  }
  return { trees: scratch.slice(0, trees), blobs: scratch.slice(room - blobs).reverse() };
}

let scratch = new Int32Array(1024);

/**
 * A tree's subtrees and blobs straight from its bytes (submodule commits are not objects of the
 * repository): what `parseTree` reads, without decoding names or making an entry of each.
 * `intern` gives the id of an object already at hand, so that lists share one string per object.
 */
export function treeChildren(bytes: Uint8Array, intern?: ((oid: string) => string) | OidTable): TreeChildren {
  const trees: string[] = [];
  const blobs: string[] = [];
  const table = intern instanceof OidTable ? intern : undefined;
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    // Scanned by hand: a mode is a few bytes and a name a few more, shorter than a call to indexOf.
    let space = i;
    while (space < n && bytes[space] !== 0x20) space++;
    let nul = space + 1;
    while (nul < n && bytes[nul] !== 0) nul++;
    if (space >= n || nul + 21 > n) throw new Error('malformed tree');
    let oid = table ? table.find(bytes, nul + 1) : undefined;
    if (oid === undefined) {
      oid = hexAt(bytes, nul + 1);
      if (typeof intern === 'function') oid = intern(oid);
    }
    if (modeIs(bytes, i, space, '40000')) trees.push(oid);
    else if (!modeIs(bytes, i, space, '160000')) blobs.push(oid);
    i = nul + 21;
  }
  return { trees, blobs };
}

/** git's order of tree entries: by name as bytes (code points), a tree's name as if it ended in `/`. */
function compareEntries(a: TreeEntry, b: TreeEntry): number {
  const x = a.mode === '040000' ? `${a.name}/` : a.name;
  const y = b.mode === '040000' ? `${b.name}/` : b.name;
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    let p = x.charCodeAt(i);
    let q = y.charCodeAt(i);
    if (p === q) continue;
    // UTF-16 puts surrogates (U+10000 and up) below U+E000..U+FFFF; UTF-8 and code points do not.
    if (p >= 0xd800 && q >= 0xd800) {
      p = p >= 0xe000 ? p - 0x800 : p + 0x2000;
      q = q >= 0xe000 ? q - 0x800 : q + 0x2000;
    }
    return p - q;
  }
  return x.length - y.length;
}

/** A tree's entries in git's order, each mode as git writes it into the tree. */
export function sortTree(entries: Iterable<TreeEntry>): TreeEntry[] {
  const out: TreeEntry[] = [];
  for (const e of entries) {
    const mode = normalMode(e.mode);
    out.push({ name: e.name, mode, oid: e.oid, type: typeOfMode(mode) });
  }
  return out.sort(compareEntries);
}

export function renderTree(sorted: readonly TreeEntry[]): Uint8Array {
  let size = 0;
  const names: (Uint8Array | string)[] = [];
  for (const e of sorted) {
    const name = /^[\x00-\x7f]*$/.test(e.name) ? e.name : encoder.encode(e.name);
    names.push(name);
    size += (e.mode === '040000' ? 5 : 6) + 1 + name.length + 1 + 20;
  }
  const out = new Uint8Array(size);
  let o = 0;
  for (let k = 0; k < sorted.length; k++) {
    const e = sorted[k]!;
    const mode = e.mode === '040000' ? '40000' : e.mode;
    for (let i = 0; i < mode.length; i++) out[o++] = mode.charCodeAt(i);
    out[o++] = 0x20;
    const name = names[k]!;
    if (typeof name === 'string') for (let i = 0; i < name.length; i++) out[o++] = name.charCodeAt(i);
    else (out.set(name, o), (o += name.length));
    out[o++] = 0;
    const oid = e.oid;
    if (!/^[0-9a-fA-F]{40}$/.test(oid)) throw new Error(`invalid object id in tree: ${oid}`);
    for (let i = 0; i < 40; i += 2) out[o++] = (HEX_VALUE[oid.charCodeAt(i)]! << 4) | HEX_VALUE[oid.charCodeAt(i + 1)]!;
  }
  return out;
}

export function renderCommit(c: CommitData): Uint8Array {
  let text = `tree ${c.tree}\n`;
  for (const p of c.parents) text += `parent ${p}\n`;
  text += `author ${formatIdent(c.author)}\ncommitter ${formatIdent(c.committer)}\n\n${c.message}`;
  return encoder.encode(text);
}

export function renderTag(t: TagData): Uint8Array {
  let text = `object ${t.object}\ntype ${t.type}\ntag ${t.tag}\n`;
  if (t.tagger) text += `tagger ${formatIdent(t.tagger)}\n`;
  return encoder.encode(`${text}\n${t.message}`);
}

type NodeCrypto = typeof import('node:crypto');
type NodeZlib = typeof import('node:zlib');

/**
 * Hashing and zlib for loose objects: Node's own, synchronous and native, when the core runs in
 * Node; Web Crypto and fflate elsewhere. isomorphic-git would do the same work asynchronously,
 * through streams, several times slower for objects this small.
 */
interface Codec {
  sha1(bytes: Uint8Array): string | Promise<string>;
  deflate(bytes: Uint8Array): Uint8Array;
  inflate(bytes: Uint8Array): Uint8Array;
}

/** git's `core.looseCompression` when neither it nor `core.compression` is set: 1, best speed. */
const LOOSE_COMPRESSION = 1;

const portableCodec: Codec = {
  async sha1(bytes) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
    return hexAt(digest, 0, digest.length);
  },
  deflate: (bytes) => fflate().zlibSync(bytes, { level: LOOSE_COMPRESSION }),
  inflate: (bytes) => fflate().unzlibSync(bytes),
};

function nodeCodec(): Codec | null {
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const nodeCrypto = builtin?.('node:crypto') as NodeCrypto | undefined;
  const zlib = builtin?.('node:zlib') as NodeZlib | undefined;
  if (!nodeCrypto?.createHash || !zlib?.deflateSync) return null;
  return {
    sha1: (bytes) => nodeCrypto.createHash('sha1').update(bytes).digest('hex'),
    deflate: (bytes) => zlib.deflateSync(bytes, { level: LOOSE_COMPRESSION }),
    inflate: (bytes) => zlib.inflateSync(bytes),
  };
}

let chosen: Codec | undefined;
/** Node's codec, or the portable one, chosen at first use (loading node:zlib and node:crypto is not the import's to pay). */
const chosenCodec = (): Codec => (chosen ??= nodeCodec() ?? portableCodec);

/**
 * Objects under this size are kept in zlib's stored blocks (git's `core.looseCompression=0`):
 * a valid zlib stream every reader inflates, made and read here without starting a compressor.
 * Starting one costs 50-100 us an object, which was most of a push of thousands of small
 * objects; they compress little anyway.
 */
const STORED_UNDER = 4096;
const STORED_BLOCK = 65_535;

/** A zlib stream of stored (uncompressed) deflate blocks, with its Adler-32 (RFC 1950, 1951). */
export function storedZlib(bytes: Uint8Array): Uint8Array {
  const blocks = Math.max(1, Math.ceil(bytes.length / STORED_BLOCK));
  const out = new Uint8Array(2 + blocks * 5 + bytes.length + 4);
  out[0] = 0x78; // deflate, a 32 KiB window
  out[1] = 0x01; // no dictionary, the fastest level; (0x7801 % 31) === 0
  let o = 2;
  for (let i = 0; i < blocks; i++) {
    const start = i * STORED_BLOCK;
    const len = Math.min(STORED_BLOCK, bytes.length - start);
    out[o++] = i === blocks - 1 ? 1 : 0; // BFINAL, BTYPE 00
    out[o++] = len & 0xff;
    out[o++] = len >>> 8;
    out[o++] = ~len & 0xff;
    out[o++] = (~len >>> 8) & 0xff;
    out.set(bytes.subarray(start, start + len), o);
    o += len;
  }
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; ) {
    // 5552 bytes at most before the sums need reducing (zlib's NMAX).
    const end = Math.min(bytes.length, i + 5552);
    for (; i < end; i++) b += a += bytes[i]!;
    a %= 65521;
    b %= 65521;
  }
  out[o++] = b >>> 8;
  out[o++] = b & 0xff;
  out[o++] = a >>> 8;
  out[o] = a & 0xff;
  return out;
}

/** The bytes of a zlib stream made only of stored blocks, or null for any other stream. */
export function unstoredZlib(data: Uint8Array): Uint8Array | null {
  if (data.length < 11 || data[0] !== 0x78 || (data[1]! & 0x20) !== 0 || ((data[0] << 8) | data[1]!) % 31 !== 0) return null;
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let o = 2; ; ) {
    if (o + 5 > data.length) return null;
    const head = data[o]!;
    if ((head & 0x06) !== 0) return null; // a compressed block
    const len = data[o + 1]! | (data[o + 2]! << 8);
    if ((len ^ (data[o + 3]! | (data[o + 4]! << 8))) !== 0xffff || o + 5 + len > data.length) return null;
    parts.push(data.subarray(o + 5, o + 5 + len));
    size += len;
    o += 5 + len;
    if (head & 1) break;
  }
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

export const codec: Codec = {
  sha1: (bytes) => chosenCodec().sha1(bytes),
  deflate: (bytes) => (bytes.length < STORED_UNDER ? storedZlib(bytes) : chosenCodec().deflate(bytes)),
  inflate: (bytes) => unstoredZlib(bytes) ?? chosenCodec().inflate(bytes),
};

/** The loose object of `type` with `content`: `<type> <size>\0<content>`, zlib-deflated. */
export function wrap(type: ObjectType, content: Uint8Array): Uint8Array {
  const head = `${type} ${content.length}\0`;
  const raw = new Uint8Array(head.length + content.length);
  for (let i = 0; i < head.length; i++) raw[i] = head.charCodeAt(i);
  raw.set(content, head.length);
  return raw;
}

export function unwrap(raw: Uint8Array, oid: string): { type: ObjectType; object: Uint8Array } {
  const nul = raw.indexOf(0);
  const head = nul < 0 ? '' : decodeRange(raw, 0, nul);
  const sp = head.indexOf(' ');
  const type = head.slice(0, sp) as ObjectType;
  const size = Number(head.slice(sp + 1));
  if (sp < 0 || !['blob', 'tree', 'commit', 'tag'].includes(type) || size !== raw.length - nul - 1) throw new Error(`object ${oid} is corrupt`);
  return { type, object: raw.subarray(nul + 1) };
}
