// A keyed collection split into small chunks, so that an immer update copies one chunk
// (at most a few hundred entries) and the chunk index, never the whole collection.
// Numeric keys chunk by range (iteration stays in ascending id order); string keys by hash.
// A chunk is a Map: any key (`__proto__`, `constructor`) is data, and a frozen Map is known
// frozen at once, where a frozen object of hundreds of keys makes immer re-check every key of
// every chunk on each write (the cost of a write would follow the collection, not the work).
import { enableMapSet } from 'immer';

enableMapSet();

export interface Table<T> {
  size: number;
  chunks: Record<string, Map<string, T>>;
}

const CHUNK = 256;

export function emptyTable<T>(): Table<T> {
  return { size: 0, chunks: {} };
}

function chunkOf(key: string | number): string {
  if (typeof key === 'number') return String(Math.floor(key / CHUNK));
  let h = 2166136261;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  return 's' + ((h >>> 0) % 1024);
}

export function tget<T>(table: Table<T>, key: string | number): T | undefined {
  return table.chunks[chunkOf(key)]?.get(String(key));
}

export function tset<T>(table: Table<T>, key: string | number, value: T): void {
  const ck = chunkOf(key);
  let c = table.chunks[ck];
  if (c === undefined) c = table.chunks[ck] = new Map();
  const k = String(key);
  if (!c.has(k)) table.size++;
  c.set(k, value);
}

export function tdel<T>(table: Table<T>, key: string | number): boolean {
  const c = table.chunks[chunkOf(key)];
  if (c === undefined || !c.delete(String(key))) return false;
  table.size--;
  return true;
}

export function* tvalues<T>(table: Table<T>): IterableIterator<T> {
  for (const ck in table.chunks) yield* table.chunks[ck]!.values();
}

export function tlist<T>(table: Table<T>): T[] {
  return Array.from(tvalues(table));
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
  const chunks = Object.keys(table.chunks).map(Number).filter(Number.isFinite).sort((a, b) => b - a);
  for (const ck of chunks) {
    const entries = [...table.chunks[String(ck)]!.entries()].sort((a, b) => Number(b[0]) - Number(a[0]));
    for (const [, v] of entries) yield v;
  }
}
