// A keyed collection split into small chunks under a two-level index, so that an immer update
// copies one chunk (at most 64 entries) and two small index records (at most 64 keys each),
// never the whole collection: a write, and what the journal keeps of it, costs about the same at
// 100 records as at 100,000. Numeric keys chunk by range (iteration stays in ascending id
// order); string keys by hash. A chunk is a Map: any key (`__proto__`, `constructor`) is data,
// and a frozen Map is known frozen at once, where a frozen object of many keys makes immer
// re-check every key on each write. The index's own keys are digits (or `s` and digits).
import { enableMapSet } from 'immer';

enableMapSet();

export interface Table<T> {
  size: number;
  /** Top key -> chunk key -> chunk. */
  chunks: Record<string, Record<string, Map<string, T>>>;
}

/** Entries of a numeric chunk, and chunks under one top key. */
const CHUNK = 64;
const FAN = 64;
/** Hash buckets for string keys: 32 top keys of 32 chunks each. */
const STRING_TOP = 32;

export function emptyTable<T>(): Table<T> {
  return { size: 0, chunks: {} };
}

/** Where a key lives: its top key and its chunk key. */
function place(key: string | number): [string, string] {
  if (typeof key === 'number') {
    const chunk = Math.floor(key / CHUNK);
    return [String(Math.floor(chunk / FAN)), String(chunk)];
  }
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  h >>>= 0;
  return ['s' + (h % STRING_TOP), String((h >>> 5) % STRING_TOP)];
}

/** The chunk a key lives in, named uniquely in the table (what `tchunkEntries` names each chunk by). */
export function chunkOf(key: string | number): string {
  const [top, chunk] = place(key);
  return typeof key === 'number' ? chunk : `${top}/${chunk}`;
}

export function tget<T>(table: Table<T>, key: string | number): T | undefined {
  // As `place` names them, without its pair and strings (a number indexes as its own text).
  if (typeof key === 'number') {
    const chunk = Math.floor(key / CHUNK);
    return table.chunks[Math.floor(chunk / FAN)]?.[chunk]?.get(String(key));
  }
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  h >>>= 0;
  return table.chunks[STRING_TOPS[h % STRING_TOP]!]?.[(h >>> 5) % STRING_TOP]?.get(key);
}

const STRING_TOPS = Array.from({ length: STRING_TOP }, (_, i) => `s${i}`);

export function tset<T>(table: Table<T>, key: string | number, value: T): void {
  const [top, chunk] = place(key);
  let mid = table.chunks[top];
  if (mid === undefined) mid = table.chunks[top] = {};
  let c = mid[chunk];
  if (c === undefined) c = mid[chunk] = new Map();
  const k = String(key);
  if (!c.has(k)) table.size++;
  c.set(k, value);
}

export function tdel<T>(table: Table<T>, key: string | number): boolean {
  const [top, chunk] = place(key);
  const c = table.chunks[top]?.[chunk];
  if (c === undefined || !c.delete(String(key))) return false;
  table.size--;
  return true;
}

export function* tvalues<T>(table: Table<T>): IterableIterator<T> {
  for (const top in table.chunks) {
    const mid = table.chunks[top]!;
    for (const chunk in mid) yield* mid[chunk]!.values();
  }
}

/** Every key and value of the table, in its order. */
export function* tentries<T>(table: Table<T>): IterableIterator<[string, T]> {
  for (const top in table.chunks) {
    const mid = table.chunks[top]!;
    for (const chunk in mid) yield* mid[chunk]!.entries();
  }
}

/**
 * The table's chunks, each an immutable Map that the next version shares unless a write
 * touched it: what an index memoised per chunk (a WeakMap keyed by the chunk) is built on.
 */
export function* tchunks<T>(table: Table<T>): IterableIterator<ReadonlyMap<string, T>> {
  for (const top in table.chunks) {
    const mid = table.chunks[top]!;
    for (const chunk in mid) yield mid[chunk]!;
  }
}

/**
 * The same chunks in groups (the table's top-level records, up to 64 chunks each, in its
 * order), each group also an immutable value shared until a write touches one of its chunks:
 * what an index memoised per group (a WeakMap keyed by the group) lets a reader skip at once.
 */
export function* tchunkGroups<T>(table: Table<T>): IterableIterator<Readonly<Record<string, ReadonlyMap<string, T>>>> {
  for (const top in table.chunks) yield table.chunks[top]!;
}

/**
 * The keys whose values differ between two versions of a table (either may be absent), with
 * both values: chunks the versions share are skipped unread, so the cost follows the change.
 */
export function* tchanges<T>(a: Table<T> | undefined, b: Table<T> | undefined): IterableIterator<[string, T | undefined, T | undefined]> {
  if (a === b) return;
  const ta = a?.chunks ?? {};
  const tb = b?.chunks ?? {};
  for (const top of new Set([...Object.keys(ta), ...Object.keys(tb)])) {
    const ma = ta[top] ?? {};
    const mb = tb[top] ?? {};
    if (ma === mb) continue;
    for (const chunk of new Set([...Object.keys(ma), ...Object.keys(mb)])) {
      const ca = ma[chunk];
      const cb = mb[chunk];
      if (ca === cb) continue;
      for (const k of new Set([...(ca?.keys() ?? []), ...(cb?.keys() ?? [])])) {
        const va = ca?.get(k);
        const vb = cb?.get(k);
        if (va !== vb) yield [k, va, vb];
      }
    }
  }
}

/** Whether a value is a table (for code that walks the world without knowing its types). */
export function isTableValue(v: object): v is Table<unknown> {
  return 'chunks' in v && 'size' in v && Object.keys(v).length === 2;
}

/** The table's chunks in its order, each named as `chunkOf` names the chunk of a key. */
export function* tchunkEntries<T>(table: Table<T>): IterableIterator<[string, ReadonlyMap<string, T>]> {
  for (const top in table.chunks) {
    const mid = table.chunks[top]!;
    const numeric = !top.startsWith('s');
    for (const chunk in mid) yield [numeric ? chunk : `${top}/${chunk}`, mid[chunk]!];
  }
}

export function tlist<T>(table: Table<T>): T[] {
  return Array.from(tvalues(table));
}

const DERIVED = new WeakMap<object, Map<unknown, unknown>>();

/**
 * A value derived from a table (an index, a list in order), computed once per version of the
 * table: tables are immutable, so a write makes a new one and the next read derives again.
 * `derive` must be a module-level function: it is the memo's key. A table not yet frozen (a
 * draft) is derived from afresh each time.
 */
export function derived<T, R>(table: Table<T>, derive: (table: Table<T>) => R): R {
  if (!Object.isFrozen(table)) return derive(table); // a draft, or a world being built: it may still change
  let memo = DERIVED.get(table);
  if (memo === undefined) DERIVED.set(table, (memo = new Map()));
  if (memo.has(derive)) return memo.get(derive) as R;
  const value = derive(table);
  memo.set(derive, value);
  return value;
}

/** Every value of the table, in its order, as one array shared by every reader of this version. */
export function tarray<T>(table: Table<T>): readonly T[] {
  return derived(table, tlist) as readonly T[];
}

/**
 * A collection split by owner (a project, a group): each owner's records are a table of their
 * own, so a write copies one owner's chunk, and listing one owner never walks the others.
 */
export type Partitioned<T> = Table<Table<T>>;

export function pget<T>(p: Partitioned<T>, owner: number, key: string | number): T | undefined {
  const t = tget(p, owner);
  return t === undefined ? undefined : tget(t, key);
}

/** The owner's table, made when absent (use on a draft). */
export function partition<T>(p: Partitioned<T>, owner: number): Table<T> {
  let t = tget(p, owner);
  if (t === undefined) {
    tset(p, owner, emptyTable<T>());
    t = tget(p, owner)!;
  }
  return t;
}

export function pset<T>(p: Partitioned<T>, owner: number, key: string | number, value: T): void {
  tset(partition(p, owner), key, value);
}

export function pdel<T>(p: Partitioned<T>, owner: number, key: string | number): boolean {
  const t = tget(p, owner);
  return t !== undefined && tdel(t, key);
}

export function* pvalues<T>(p: Partitioned<T>, owner: number): IterableIterator<T> {
  const t = tget(p, owner);
  if (t !== undefined) yield* tvalues(t);
}

export function plist<T>(p: Partitioned<T>, owner: number): T[] {
  return Array.from(pvalues(p, owner));
}

/**
 * A table keyed by increasing ids, newest first, lazily: a page of the newest records reads the
 * chunk index and the chunks it needs, whatever the table's size.
 */
export function* tvaluesDesc<T>(table: Table<T>): IterableIterator<T> {
  const tops = Object.keys(table.chunks).filter((k) => !k.startsWith('s')).map(Number).sort((a, b) => b - a);
  for (const top of tops) {
    const mid = table.chunks[String(top)]!;
    for (const ck of Object.keys(mid).map(Number).sort((a, b) => b - a)) {
      const entries = [...mid[String(ck)]!.entries()].sort((a, b) => Number(b[0]) - Number(a[0]));
      for (const [, v] of entries) yield v;
    }
  }
}
