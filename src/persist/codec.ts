// The world as JSON, and what changed between two worlds. The world is plain data (objects,
// arrays, Maps of chunked tables, bytes), so it is written as JSON with a few tagged values for
// what JSON lacks: an object with a `$` key, whose value names the tag (a Map, bytes, undefined,
// a record without a prototype...). A record of the world that has a `$` key itself is escaped.
//
// A change is the paths where two worlds differ, found by identity: immer shares what a commit
// did not touch, so the walk skips every shared subtree unread and its cost follows the change,
// not the world. Records are compared field by field, so a changed issue logs its changed fields.
import { freeze } from 'immer';

export type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

/** A path from the world's root: object keys and Map keys (every Map of the world is keyed by strings). */
export type Path = string[];
/** `[path, value]` sets, `[path]` deletes. */
export type Change = [Path, Encoded] | [Path];

export class CodecError extends Error {}

const NUMBERS: Record<string, number> = { NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 };

const protoName = (v: object): string => {
  const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null;
  return proto === null ? 'null' : (proto.constructor?.name ?? 'unknown');
};

function bytesToBase64(b: Uint8Array): string {
  let s = '';
  for (let i = 0; i < b.length; i += 0x8000) s += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(s);
}

function base64ToBytes(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A value of the world as JSON. Anything that is not plain data is an error naming where it is. */
export function encode(v: unknown, where: () => string = () => '(root)'): Encoded {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      if (Number.isFinite(v) && !Object.is(v, -0)) return v;
      return { $: 'n', v: Object.is(v, -0) ? '-0' : String(v) };
    case 'undefined':
      return { $: 'u' };
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) return v.map((x, i) => encode(x, () => `${where()}[${i}]`));
      if (v instanceof Map) {
        const entries: Encoded[] = [];
        for (const [k, x] of v) entries.push([encode(k, where), encode(x, () => `${where()}{${String(k)}}`)]);
        return { $: 'm', v: entries };
      }
      if (v instanceof Set) return { $: 's', v: [...v].map((x) => encode(x, where)) };
      if (v instanceof Uint8Array) return { $: 'b', v: bytesToBase64(v) };
      if (v instanceof Date) return { $: 'd', v: v.getTime() };
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) throw new CodecError(`cannot keep a ${protoName(v)} at ${where()}`);
      const out: { [key: string]: Encoded } = Object.create(null) as { [key: string]: Encoded };
      for (const k of Object.keys(v)) out[k] = encode((v as Record<string, unknown>)[k], () => `${where()}.${k}`);
      if (proto === null) return { $: 'z', v: out };
      return Object.hasOwn(out, '$') ? { $: 'o', v: out } : out;
    }
    default:
      throw new CodecError(`cannot keep a ${typeof v} at ${where()}`);
  }
}

/** A record's own keys, set as data (a key `__proto__` is a key like any other). */
function plainObject(proto: object | null, from: { [key: string]: Encoded }): Record<string, unknown> {
  const out = Object.create(proto) as Record<string, unknown>;
  for (const k of Object.keys(from)) Object.defineProperty(out, k, { value: decode(from[k]!), writable: true, enumerable: true, configurable: true });
  return out;
}

export function decode(v: Encoded): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(decode);
  if (!Object.hasOwn(v, '$')) return plainObject(Object.prototype, v);
  const tag = v.$;
  const body = v.v;
  switch (tag) {
    case 'u':
      return undefined;
    case 'n':
      if (typeof body === 'string' && Object.hasOwn(NUMBERS, body)) return NUMBERS[body];
      break;
    case 'm':
      if (Array.isArray(body)) return new Map(body.map((e) => (Array.isArray(e) && e.length === 2 ? [decode(e[0]!), decode(e[1]!)] : bad(tag))));
      break;
    case 's':
      if (Array.isArray(body)) return new Set(body.map(decode));
      break;
    case 'b':
      if (typeof body === 'string') return base64ToBytes(body);
      break;
    case 'd':
      if (typeof body === 'number') return new Date(body);
      break;
    case 'o':
    case 'z':
      if (typeof body === 'object' && body !== null && !Array.isArray(body)) return plainObject(tag === 'z' ? null : Object.prototype, body);
      break;
  }
  return bad(tag);
}

function bad(tag: unknown): never {
  throw new CodecError(`unknown or malformed value tagged ${JSON.stringify(tag)}`);
}

/** A decoded value, frozen throughout as immer freezes a world. */
export function decodeFrozen<T>(v: Encoded): T {
  return freeze(decode(v), true) as T;
}

const isRecord = (v: unknown): v is Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const stringKeyed = (m: Map<unknown, unknown>): boolean => {
  for (const k of m.keys()) if (typeof k !== 'string') return false;
  return true;
};

/**
 * Whether `after`'s keys keep `before`'s order: the keys both have in the same order, the new ones
 * after them (as setting a key appends it). Else a change would give the keys another order.
 */
function sameOrder(before: Iterable<unknown>, has: (k: unknown) => boolean, after: Iterable<unknown>, had: (k: unknown) => boolean): boolean {
  const kept = before[Symbol.iterator]();
  let added = false;
  for (const k of after) {
    if (!had(k)) {
      added = true;
      continue;
    }
    if (added) return false;
    let next = kept.next();
    while (!next.done && !has(next.value)) next = kept.next();
    if (next.done || next.value !== k) return false;
  }
  return true;
}

/** Where `b` differs from `a`, as changes that turn `a` into `b` (keys in `b`'s order too). */
export function diff(a: unknown, b: unknown): Change[] {
  const out: Change[] = [];
  const walk = (x: unknown, y: unknown, path: Path): void => {
    if (x === y) return;
    if (isRecord(x) && isRecord(y) && Object.getPrototypeOf(x) === Object.getPrototypeOf(y)) {
      const xs = Object.keys(x);
      const ys = Object.keys(y);
      if (sameOrder(xs, (k) => Object.hasOwn(y, k as string), ys, (k) => Object.hasOwn(x, k as string))) {
        for (const k of xs) if (!Object.hasOwn(y, k)) out.push([[...path, k]]);
        for (const k of ys) {
          if (!Object.hasOwn(x, k)) out.push([[...path, k], encode(y[k], () => [...path, k].join('.'))]);
          else if (x[k] !== y[k]) walk(x[k], y[k], [...path, k]);
        }
        return;
      }
    } else if (x instanceof Map && y instanceof Map && stringKeyed(x) && stringKeyed(y) && sameOrder(x.keys(), (k) => y.has(k), y.keys(), (k) => x.has(k))) {
      for (const k of x.keys()) if (!y.has(k)) out.push([[...path, k as string]]);
      for (const [k, v] of y) {
        if (!x.has(k)) out.push([[...path, k as string], encode(v, () => [...path, k].join('.'))]);
        else if (x.get(k) !== v) walk(x.get(k), v, [...path, k as string]);
      }
      return;
    }
    // Object.is: NaN is NaN, and -0 is not 0.
    if (Object.is(x, y)) return;
    out.push([path, encode(y, () => path.join('.'))]);
  };
  walk(a, b, []);
  return out;
}

/** `base` with the changes applied (structure shared where they touch nothing), frozen. */
export function apply<T>(base: T, changes: readonly Change[]): T {
  if (changes.length === 0) return base;
  const fresh = new Set<object>();
  const copy = (v: unknown, path: Path): object => {
    if (typeof v !== 'object' || v === null) throw new CodecError(`a change names ${path.join('.')}, which the world does not have`);
    if (fresh.has(v)) return v;
    let out: object;
    if (v instanceof Map) out = new Map(v);
    else if (Array.isArray(v)) out = v.slice();
    else if (isRecord(v)) {
      out = Object.create(Object.getPrototypeOf(v) as object | null) as object;
      for (const k of Object.keys(v)) setKey(out, k, v[k]);
    } else throw new CodecError(`a change names ${path.join('.')}, which the world does not have`);
    fresh.add(out);
    return out;
  };
  let root: unknown = base;
  for (const change of changes) {
    const path = change[0];
    if (path.length === 0) {
      if (change.length === 1) throw new CodecError('a change deletes the whole world');
      root = decode(change[1]);
      if (typeof root === 'object' && root !== null) fresh.add(root);
      continue;
    }
    root = copy(root, path);
    let at = root as object;
    for (let i = 0; i < path.length - 1; i++) {
      const next = copy(getKey(at, path[i]!, path), path);
      putKey(at, path[i]!, next, path);
      at = next;
    }
    const key = path[path.length - 1]!;
    if (change.length === 1) deleteKey(at, key, path);
    else {
      const value = decode(change[1]);
      if (typeof value === 'object' && value !== null) fresh.add(value);
      putKey(at, key, value, path);
    }
  }
  return freeze(root, true) as T;
}

function setKey(o: object, k: string, value: unknown): void {
  Object.defineProperty(o, k, { value, writable: true, enumerable: true, configurable: true });
}

function getKey(at: object, key: string, path: Path): unknown {
  if (at instanceof Map) return at.get(key);
  if (Object.hasOwn(at, key)) return (at as Record<string, unknown>)[key];
  throw new CodecError(`a change names ${path.join('.')}, which the world does not have`);
}

function putKey(at: object, key: string, value: unknown, path: Path): void {
  if (at instanceof Map) at.set(key, value);
  else if (Array.isArray(at)) {
    if (!/^\d+$/.test(key)) throw new CodecError(`a change names ${path.join('.')}, which the world does not have`);
    at[Number(key)] = value;
  } else setKey(at, key, value);
}

function deleteKey(at: object, key: string, path: Path): void {
  if (at instanceof Map) at.delete(key);
  else if (Array.isArray(at)) throw new CodecError(`a change deletes an element of the array at ${path.join('.')}`);
  else delete (at as Record<string, unknown>)[key];
}
