// Git objects (DESIGN.md "Git objects are append-only, refs are state"): loose objects on one
// memfs volume per emulator, one bare gitdir per storage (a repository's storage id is recorded
// in the world with its refs, and never reused), in the layout git and isomorphic-git read
// (isomorphic-git still reads what is not loose: the empty tree). Objects are content-addressed
// and never rewritten, so what is written or parsed once is cached for every reader, every fork
// and every snapshot of the world; a request's writes stay pending until it commits.
import { unzlibSync, zlibSync } from 'fflate';
import git, { type FsClient } from 'isomorphic-git';
import { Volume, createFsFromVolume } from 'memfs';

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
class Lru<V> {
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

function parseCommit(bytes: Uint8Array): CommitData {
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

function parseTag(bytes: Uint8Array): TagData {
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

function parseTree(bytes: Uint8Array): Tree {
  const out = new Map<string, TreeEntry>();
  let i = 0;
  while (i < bytes.length) {
    const space = bytes.indexOf(0x20, i);
    const nul = bytes.indexOf(0, space);
    const mode = decodeRange(bytes, i, space).padStart(6, '0');
    const name = decodeRange(bytes, space + 1, nul);
    let oid = '';
    for (let j = nul + 1; j < nul + 21; j++) oid += HEX[bytes[j]!]!;
    out.set(name, { name, mode, oid, type: typeOfMode(mode) });
    i = nul + 21;
  }
  return out;
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
function sortTree(entries: Iterable<TreeEntry>): TreeEntry[] {
  const out: TreeEntry[] = [];
  for (const e of entries) {
    const mode = normalMode(e.mode);
    out.push({ name: e.name, mode, oid: e.oid, type: typeOfMode(mode) });
  }
  return out.sort(compareEntries);
}

function renderTree(sorted: readonly TreeEntry[]): Uint8Array {
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

function renderCommit(c: CommitData): Uint8Array {
  let text = `tree ${c.tree}\n`;
  for (const p of c.parents) text += `parent ${p}\n`;
  text += `author ${formatIdent(c.author)}\ncommitter ${formatIdent(c.committer)}\n\n${c.message}`;
  return encoder.encode(text);
}

function renderTag(t: TagData): Uint8Array {
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

const portableCodec: Codec = {
  async sha1(bytes) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>));
    let hex = '';
    for (const b of digest) hex += HEX[b]!;
    return hex;
  },
  deflate: (bytes) => zlibSync(bytes),
  inflate: (bytes) => unzlibSync(bytes),
};

function nodeCodec(): Codec | null {
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const nodeCrypto = builtin?.('node:crypto') as NodeCrypto | undefined;
  const zlib = builtin?.('node:zlib') as NodeZlib | undefined;
  if (!nodeCrypto?.createHash || !zlib?.deflateSync) return null;
  return {
    sha1: (bytes) => nodeCrypto.createHash('sha1').update(bytes).digest('hex'),
    deflate: (bytes) => zlib.deflateSync(bytes),
    inflate: (bytes) => zlib.inflateSync(bytes),
  };
}

const codec: Codec = nodeCodec() ?? portableCodec;

/** The loose object of `type` with `content`: `<type> <size>\0<content>`, zlib-deflated. */
function wrap(type: ObjectType, content: Uint8Array): Uint8Array {
  const head = `${type} ${content.length}\0`;
  const raw = new Uint8Array(head.length + content.length);
  for (let i = 0; i < head.length; i++) raw[i] = head.charCodeAt(i);
  raw.set(content, head.length);
  return raw;
}

function unwrap(raw: Uint8Array, oid: string): { type: ObjectType; object: Uint8Array } {
  const nul = raw.indexOf(0);
  const head = nul < 0 ? '' : decodeRange(raw, 0, nul);
  const sp = head.indexOf(' ');
  const type = head.slice(0, sp) as ObjectType;
  const size = Number(head.slice(sp + 1));
  if (sp < 0 || !['blob', 'tree', 'commit', 'tag'].includes(type) || size !== raw.length - nul - 1) throw new Error(`object ${oid} is corrupt`);
  return { type, object: raw.subarray(nul + 1) };
}

/** A change of the world (an immer recipe), opaque at this layer: the world's type is defined above it. */
export type WorldChange = (draft: any) => unknown;

/**
 * Where the world says which storage each project's repository uses (the repositories family
 * keeps it with the refs, so a snapshot carries it). Typed loosely: the world is defined above.
 */
export interface StorageBinding {
  /** The storage of a project's repository in `world`; undefined while it has none. */
  storageOf(world: unknown, projectId: number): number | undefined;
  /** The change that records `storage` as the project's from now on. */
  record(projectId: number, storage: number): WorldChange;
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

/** One storage's committed objects: a bare gitdir of loose objects on the shared volume. */
export class ObjectStorage {
  #ready = false;
  /** Objects known to be in this gitdir (objects are never removed). */
  #present = new Set<string>();
  /** Fan-out directories (`objects/ab`) known to exist. */
  #dirs = new Set<string>();

  constructor(
    readonly volume: Volume,
    readonly gitdir: string,
    /** The storage of a repository that has none yet: nothing is ever written to it. */
    readonly empty = false,
  ) {}

  /** A bare repository layout, so that isomorphic-git's own commands work on the gitdir too. */
  ensure(): void {
    if (this.#ready) return;
    const v = this.volume;
    if (!v.existsSync(`${this.gitdir}/HEAD`)) {
      for (const d of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) v.mkdirSync(`${this.gitdir}/${d}`, { recursive: true });
      v.writeFileSync(`${this.gitdir}/HEAD`, 'ref: refs/heads/main\n');
      v.writeFileSync(`${this.gitdir}/config`, '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
    }
    this.#ready = true;
  }

  objectPath(oid: string): string {
    return `${this.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  }

  has(oid: string): boolean {
    if (this.#present.has(oid)) return true;
    this.ensure();
    if (!/^[0-9a-f]{40}$/.test(oid)) return false;
    if (oid === EMPTY_TREE) return true;
    if (!this.volume.existsSync(this.objectPath(oid))) return false;
    this.#present.add(oid);
    return true;
  }

  /** The stored (deflated) loose object, or null. */
  file(oid: string): Uint8Array | null {
    return oid !== EMPTY_TREE && this.has(oid) ? (this.volume.readFileSync(this.objectPath(oid)) as Uint8Array) : null;
  }

  findByPrefix(prefix: string): string[] {
    this.ensure();
    if (!/^[0-9a-f]{4,40}$/.test(prefix)) return [];
    const dir = `${this.gitdir}/objects/${prefix.slice(0, 2)}`;
    if (!this.volume.existsSync(dir)) return [];
    const rest = prefix.slice(2);
    return (this.volume.readdirSync(dir) as string[]).filter((f) => f.startsWith(rest)).map((f) => prefix.slice(0, 2) + f);
  }

  /** Stores a loose object (`raw` uncompressed, with its header); one already present is not written again. */
  put(oid: string, raw: Uint8Array): void {
    if (this.empty) throw new Error('the storage of an empty repository is never written');
    if (this.#present.has(oid)) return;
    this.ensure();
    const fan = oid.slice(0, 2);
    const dir = `${this.gitdir}/objects/${fan}`;
    if (!this.#dirs.has(fan)) {
      this.volume.mkdirSync(dir, { recursive: true });
      this.#dirs.add(fan);
    }
    // Rewriting an object that some other writer already stored changes no byte of it.
    this.volume.writeFileSync(`${dir}/${oid.slice(2)}`, codec.deflate(raw));
    this.#present.add(oid);
  }
}

/**
 * Every repository's objects: one volume, shared by an emulator and its forks. A repository's
 * objects are kept in a storage whose id is never reused, recorded in the world with its refs
 * (`StorageBinding`): a project id that a restore hands out again, or that a fork and its
 * original both hand out, starts from storage of its own and reads nothing the other project
 * wrote. (A repository that had storage before a snapshot or a fork keeps it in both histories:
 * what one of them commits to it later the other can reach by sha, though by no ref.)
 */
export class ObjectDatabase {
  readonly volume = new Volume();
  readonly fs: FsClient = createFsFromVolume(this.volume) as unknown as FsClient;
  // Parsed objects, keyed by oid alone: the same oid is the same content in every repository.
  // A repository reads them only after `has` says that it holds the object.
  readonly parsed = new Lru<Tree | CommitData | TagData>(2_000_000);
  readonly blobs = new Lru<Uint8Array>(64 * 1024 * 1024);
  /** Facts derived from immutable objects (last commit of a path, blame, stats): never stale. */
  readonly memo = new Lru<unknown>(4_000_000);
  #storages = new Map<number, RepositoryObjects>();
  #empty: ObjectStorage | undefined;

  constructor(readonly binding: StorageBinding) {}

  /** A new storage id, never handed out before. */
  allocate(): number {
    return ++lastStorage;
  }

  /** The committed objects of one storage; writes go straight to it (seeding, tests). */
  storage(id: number): RepositoryObjects {
    let r = this.#storages.get(id);
    if (!r) this.#storages.set(id, (r = new RepositoryObjects(this, new ObjectStorage(this.volume, `/repositories/storage-${id}.git`))));
    return r;
  }

  /** The storage of repositories that have none yet: an empty gitdir. */
  get emptyStorage(): ObjectStorage {
    return (this.#empty ??= new ObjectStorage(this.volume, '/repositories/empty.git', true));
  }

  /**
   * The committed objects of a project's repository in `world`. For one with no storage yet, a
   * direct write allocates a storage and hands it to `adopt` to record in the world (without
   * `adopt`, such a write is refused).
   */
  repositoryIn(world: unknown, projectId: number, adopt?: (storage: number) => void): RepositoryObjects {
    const id = this.binding.storageOf(world, projectId);
    if (id !== undefined) return this.storage(id);
    const empty = new RepositoryObjects(this, this.emptyStorage);
    if (adopt) {
      empty.opening = () => {
        const storage = this.allocate();
        adopt(storage);
        return this.storage(storage).store;
      };
    }
    return empty;
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
 * again, leaves nothing behind. A repository with no storage gets one at its first write,
 * recorded in the request's world, so a failed request records none.
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
 * Reads and writes the objects of one repository; reads go through the shared caches, but only
 * for objects this repository holds. A request's view (`pendingView`) is an object whose
 * prototype is the repository's committed instance, so what a test changes on the instance
 * (`emulator.git(p).objects`, a spy) a request sees too; its own writes stay pending.
 */
export class RepositoryObjects {
  /** Objects written and not committed yet (oid -> the loose object, uncompressed); null: writes are stored at once. */
  protected pending: Map<string, Uint8Array> | null = null;
  /** Runs at the first write: gives the storage the writes go to (a new one for a repository with none). */
  opening: (() => ObjectStorage) | null = null;

  constructor(
    readonly db: ObjectDatabase,
    /** Where committed objects are (a request's view learns its own at its first write). */
    public store: ObjectStorage,
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
    view.opening = () => {
      host.afterCommit(() => view.flush());
      if (!this.store.empty) return this.store;
      const storage = this.db.allocate();
      host.update(this.db.binding.record(projectId, storage));
      return this.db.storage(storage).store;
    };
    return view;
  }

  /** Stores what this view wrote (its request committed). */
  private flush(): void {
    if (!this.pending) return;
    for (const [oid, raw] of this.pending) this.store.put(oid, raw);
    this.pending.clear();
  }

  /** The loose object's file, as git stores it (deflated, with its header), once committed. */
  objectPath(oid: string): string {
    return this.store.objectPath(oid);
  }

  /** Whether this repository holds the object (not merely some other repository). */
  has(oid: string): boolean {
    return (this.pending !== null && this.pending.has(oid)) || this.store.has(oid);
  }

  /** Objects whose id starts with `prefix` (at least 4 hex digits), as `git rev-parse` looks them up. */
  findByPrefix(prefix: string): string[] {
    const found = this.store.findByPrefix(prefix);
    if (this.pending && this.pending.size > 0 && /^[0-9a-f]{4,40}$/.test(prefix)) {
      for (const oid of this.pending.keys()) if (oid.startsWith(prefix) && !found.includes(oid)) found.push(oid);
    }
    return found;
  }

  /**
   * Hashes one object and stores it as a loose object, in the layout git and isomorphic-git read
   * (or keeps it pending, in a request's view).
   */
  private async put(type: ObjectType, content: Uint8Array): Promise<{ oid: string; raw: Uint8Array }> {
    const raw = wrap(type, content);
    const oid = await codec.sha1(raw);
    if (this.opening) {
      this.store = this.opening();
      this.opening = null;
    }
    if (this.pending) {
      if (!this.pending.has(oid)) this.pending.set(oid, raw);
    } else this.store.put(oid, raw);
    return { oid, raw };
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

  async writeTag(tag: TagData): Promise<string> {
    const object = renderTag(tag);
    const { oid } = await this.put('tag', object);
    this.remember(oid, 'tag', object);
    return oid;
  }

  private async load(oid: string): Promise<{ type: ObjectType; object: Uint8Array }> {
    const raw = this.pending?.get(oid);
    if (raw) return unwrap(raw, oid);
    const file = this.store.file(oid);
    if (file) return unwrap(codec.inflate(file), oid);
    // The empty tree (git knows it without a file), or an object this repository does not hold.
    this.store.ensure();
    const r = await git.readObject({ fs: this.fs, gitdir: this.store.gitdir, oid, format: 'content' });
    return { type: r.type as ObjectType, object: r.object as Uint8Array };
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

  readTag(oid: string): Promise<TagData> {
    return this.get(oid, 'tag') as Promise<TagData>;
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
