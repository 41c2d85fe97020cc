// The world's records as JSON and back, exactly: what an exported fixture (`world`) carries.
// JSON has no Map, Set, byte array, null-prototype object or undefined, and the world holds
// them (a table's chunks are Maps, sequences a null-prototype object), so each is written as a
// one-key object whose key starts with `$`; a plain object with such a key of its own is
// wrapped (`$obj`), so no data is ever read as a marker. Decoding never assigns `__proto__`.

/** Why a value could not be read back: the path of the first mistake. */
export class EncodingError extends Error {}

const MARKERS = new Set(['$map', '$set', '$null', '$obj', '$bytes', '$undefined', '$number']);

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string, path: string): Uint8Array {
  let s: string;
  try {
    s = atob(text);
  } catch {
    throw new EncodingError(`${path}: not Base64`);
  }
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** `value` as plain JSON data (see the file's comment); throws on what the world never holds (a function, a class instance). */
export function encode(value: unknown, path = 'world'): unknown {
  if (value === undefined) return { $undefined: true };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0) ? value : { $number: String(value === 0 ? '-0' : value) };
  if (typeof value !== 'object') throw new EncodingError(`${path}: a ${typeof value} cannot be exported`);
  if (Array.isArray(value)) return value.map((v, i) => encode(v, `${path}[${i}]`));
  if (value instanceof Map) return { $map: [...value].map(([k, v], i) => [encode(k, `${path}<key ${i}>`), encode(v, `${path}[${JSON.stringify(String(k))}]`)]) };
  if (value instanceof Set) return { $set: [...value].map((v, i) => encode(v, `${path}{${i}}`)) };
  if (value instanceof Uint8Array) return { $bytes: toBase64(value) };
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto !== null && proto !== Object.prototype) throw new EncodingError(`${path}: a ${(value as object).constructor?.name ?? 'class instance'} cannot be exported`);
  const out: Record<string, unknown> = {};
  let marked = false;
  for (const key of Object.keys(value)) {
    if (MARKERS.has(key)) marked = true;
    define(out, key, encode((value as Record<string, unknown>)[key], `${path}.${key}`));
  }
  if (proto === null) return { $null: out };
  return marked ? { $obj: out } : out;
}

function define(o: Record<string, unknown>, key: string, v: unknown): void {
  Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
}

function fields(value: object, path: string, into: Record<string, unknown>): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EncodingError(`${path}: expected an object`);
  for (const key of Object.keys(value)) define(into, key, decode((value as Record<string, unknown>)[key], `${path}.${key}`));
  return into;
}

/** The value `encode` wrote, as it was. */
export function decode(value: unknown, path = 'world'): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value.map((v, i) => decode(v, `${path}[${i}]`));
  if (typeof value !== 'object') throw new EncodingError(`${path}: a ${typeof value} is no JSON value`);
  const keys = Object.keys(value);
  const only = keys.length === 1 && MARKERS.has(keys[0]!) ? keys[0]! : undefined;
  const inner = only === undefined ? undefined : (value as Record<string, unknown>)[only];
  switch (only) {
    case undefined:
      return fields(value, path, {});
    case '$obj':
      return fields(inner as object, path, {});
    case '$null':
      return fields(inner as object, path, Object.create(null) as Record<string, unknown>);
    case '$undefined':
      return undefined;
    case '$number': {
      const n = inner === '-0' ? -0 : Number(inner);
      if (typeof inner !== 'string' || (Number.isNaN(n) && inner !== 'NaN')) throw new EncodingError(`${path}: not a number`);
      return n;
    }
    case '$bytes':
      if (typeof inner !== 'string') throw new EncodingError(`${path}.$bytes: expected a string`);
      return fromBase64(inner, path);
    case '$set':
      if (!Array.isArray(inner)) throw new EncodingError(`${path}.$set: expected an array`);
      return new Set(inner.map((v, i) => decode(v, `${path}{${i}}`)));
    case '$map': {
      if (!Array.isArray(inner)) throw new EncodingError(`${path}.$map: expected an array`);
      const map = new Map<unknown, unknown>();
      inner.forEach((entry, i) => {
        if (!Array.isArray(entry) || entry.length !== 2) throw new EncodingError(`${path}.$map[${i}]: expected [key, value]`);
        map.set(decode(entry[0], `${path}<key ${i}>`), decode(entry[1], `${path}[${JSON.stringify(String(entry[0]))}]`));
      });
      return map;
    }
    default:
      throw new EncodingError(`${path}: unknown marker ${only}`);
  }
}
