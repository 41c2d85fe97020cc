// Git objects (DESIGN.md "Git objects are append-only, refs are state"): isomorphic-git's
// low-level calls over one memfs volume per emulator, one bare gitdir per project. Objects are
// content-addressed and never rewritten, so what is parsed once is cached for every reader,
// every fork and every snapshot of the world.
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

function parseTree(bytes: Uint8Array): Tree {
  const out = new Map<string, TreeEntry>();
  let i = 0;
  while (i < bytes.length) {
    const space = bytes.indexOf(0x20, i);
    const nul = bytes.indexOf(0, space);
    const raw = decoder.decode(bytes.subarray(i, space));
    const mode = raw.padStart(6, '0');
    const name = decoder.decode(bytes.subarray(space + 1, nul));
    let oid = '';
    for (let j = nul + 1; j < nul + 21; j++) oid += bytes[j]!.toString(16).padStart(2, '0');
    const type: EntryType = mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob';
    out.set(name, { name, mode, oid, type });
    i = nul + 21;
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

/** Every project's objects: one volume, shared by an emulator and its forks. */
export class ObjectDatabase {
  readonly volume = new Volume();
  readonly fs: FsClient = createFsFromVolume(this.volume) as unknown as FsClient;
  // Parsed objects, keyed by oid alone: the same oid is the same content in every repository.
  readonly parsed = new Lru<Tree | CommitData | TagData>(2_000_000);
  readonly blobs = new Lru<Uint8Array>(64 * 1024 * 1024);
  /** Facts derived from immutable objects (last commit of a path, blame, stats): never stale. */
  readonly memo = new Lru<unknown>(4_000_000);
  #repos = new Map<number, RepositoryObjects>();

  /** The objects of one project's repository. */
  repository(projectId: number): RepositoryObjects {
    let r = this.#repos.get(projectId);
    if (!r) this.#repos.set(projectId, (r = new RepositoryObjects(this, `/repositories/${projectId}.git`)));
    return r;
  }
}

/** Reads and writes the objects of one bare gitdir; reads go through the shared caches. */
export class RepositoryObjects {
  #ready = false;

  constructor(
    readonly db: ObjectDatabase,
    readonly gitdir: string,
  ) {}

  get fs(): FsClient {
    return this.db.fs;
  }

  /** A bare repository layout, so that isomorphic-git's own commands work on the gitdir too. */
  #ensure(): void {
    if (this.#ready) return;
    const v = this.db.volume;
    if (!v.existsSync(`${this.gitdir}/HEAD`)) {
      for (const d of ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags']) v.mkdirSync(`${this.gitdir}/${d}`, { recursive: true });
      v.writeFileSync(`${this.gitdir}/HEAD`, 'ref: refs/heads/main\n');
      v.writeFileSync(`${this.gitdir}/config`, '[core]\n\trepositoryformatversion = 0\n\tbare = true\n');
    }
    this.#ready = true;
  }

  /** The loose object's file, as git stores it (deflated, with its header). */
  objectPath(oid: string): string {
    return `${this.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
  }

  /** Whether this repository holds the object (not merely some other repository). */
  has(oid: string): boolean {
    this.#ensure();
    return /^[0-9a-f]{40}$/.test(oid) && (oid === EMPTY_TREE || this.db.volume.existsSync(this.objectPath(oid)));
  }

  /** Objects whose id starts with `prefix` (at least 4 hex digits), as `git rev-parse` looks them up. */
  findByPrefix(prefix: string): string[] {
    this.#ensure();
    if (!/^[0-9a-f]{4,40}$/.test(prefix)) return [];
    const dir = `${this.gitdir}/objects/${prefix.slice(0, 2)}`;
    if (!this.db.volume.existsSync(dir)) return [];
    const rest = prefix.slice(2);
    return (this.db.volume.readdirSync(dir) as string[]).filter((f) => f.startsWith(rest)).map((f) => prefix.slice(0, 2) + f);
  }

  async writeBlob(blob: Uint8Array): Promise<string> {
    this.#ensure();
    return git.writeBlob({ fs: this.fs, gitdir: this.gitdir, blob });
  }

  /** Writes a tree; git's entry order is applied by isomorphic-git. */
  async writeTree(entries: Iterable<TreeEntry>): Promise<string> {
    this.#ensure();
    // Even the empty tree is written: git knows it without a file, an exported copy may not.
    const tree = [...entries].map((e) => ({ mode: e.mode, path: e.name, oid: e.oid, type: e.type }));
    return git.writeTree({ fs: this.fs, gitdir: this.gitdir, tree });
  }

  /** Writes the commit byte for byte as given (isomorphic-git's writeCommit would reflow the message). */
  async writeCommit(commit: CommitData): Promise<string> {
    this.#ensure();
    const object = renderCommit(commit);
    const oid = await git.writeObject({ fs: this.fs, gitdir: this.gitdir, type: 'commit', format: 'content', object });
    this.#remember(oid, 'commit', object);
    return oid;
  }

  async writeTag(tag: TagData): Promise<string> {
    this.#ensure();
    const object = renderTag(tag);
    return git.writeObject({ fs: this.fs, gitdir: this.gitdir, type: 'tag', format: 'content', object });
  }

  async #read(oid: string): Promise<{ type: ObjectType; object: Uint8Array }> {
    this.#ensure();
    const r = await git.readObject({ fs: this.fs, gitdir: this.gitdir, oid, format: 'content' });
    return { type: r.type as ObjectType, object: r.object as Uint8Array };
  }

  async type(oid: string): Promise<ObjectType | null> {
    if (!this.has(oid)) return null;
    if (this.db.blobs.get(oid)) return 'blob';
    const p = this.db.parsed.get(oid);
    if (p instanceof Map) return 'tree';
    if (p && 'tree' in p) return 'commit';
    if (p && 'object' in p) return 'tag';
    const { type, object } = await this.#read(oid);
    this.#remember(oid, type, object);
    return type;
  }

  #remember(oid: string, type: ObjectType, object: Uint8Array): unknown {
    if (type === 'blob') {
      this.db.blobs.set(oid, object, object.length + 64);
      return object;
    }
    const parsed = type === 'tree' ? parseTree(object) : type === 'commit' ? parseCommit(object) : parseTag(object);
    this.db.parsed.set(oid, parsed, parsed instanceof Map ? 1 + parsed.size : 1);
    return parsed;
  }

  async #get(oid: string, want: ObjectType): Promise<unknown> {
    if (want === 'tree' && oid === EMPTY_TREE) return new Map();
    const cached = want === 'blob' ? this.db.blobs.get(oid) : this.db.parsed.get(oid);
    if (cached) return cached;
    const { type, object } = await this.#read(oid);
    if (type !== want) throw new Error(`object ${oid} is a ${type}, not a ${want}`);
    return this.#remember(oid, type, object);
  }

  readBlob(oid: string): Promise<Uint8Array> {
    return this.#get(oid, 'blob') as Promise<Uint8Array>;
  }

  readTree(oid: string): Promise<Tree> {
    return this.#get(oid, 'tree') as Promise<Tree>;
  }

  readCommit(oid: string): Promise<CommitData> {
    return this.#get(oid, 'commit') as Promise<CommitData>;
  }

  readTag(oid: string): Promise<TagData> {
    return this.#get(oid, 'tag') as Promise<TagData>;
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
