// A small description of JSON data, with a validator whose messages name the path and suggest
// the nearest key, and a translation to JSON Schema. The fixture format is written in it, and
// its TypeScript types are read from it (`Infer`): a description is the one source of both.

export type Schema =
  | { readonly kind: 'string' | 'number' | 'boolean' | 'null' | 'any'; readonly optional?: boolean }
  | { readonly kind: 'literal'; readonly values: readonly (string | number | boolean)[]; readonly optional?: boolean }
  | { readonly kind: 'array' | 'record'; readonly of: Schema; readonly optional?: boolean }
  | { readonly kind: 'union'; readonly of: readonly Schema[]; readonly optional?: boolean }
  | ObjectSchema;

export interface ObjectSchema {
  readonly kind: 'object';
  readonly props: Readonly<Record<string, Schema>>;
  readonly optional?: boolean;
}

declare const value: unique symbol;
/** The TypeScript type of the values a description accepts: a marker of its type, never set. */
export interface Typed<T> {
  readonly [value]?: T;
}
/** A description (its kind and fields), with the type of the values it accepts. */
export type Described<S, T> = S & { readonly optional?: boolean } & Typed<T>;

/**
 * The TypeScript type of the values a description accepts: `Infer<typeof issueSchema>`. An
 * object's keys wrapped in `opt` are optional, and each keeps the comment written on it.
 */
export type Infer<S> = S extends Typed<infer T> ? Exclude<T, undefined> : unknown;

export const str: Described<{ readonly kind: 'string' }, string> = { kind: 'string' };
export const num: Described<{ readonly kind: 'number' }, number> = { kind: 'number' };
export const bool: Described<{ readonly kind: 'boolean' }, boolean> = { kind: 'boolean' };
export const nul: Described<{ readonly kind: 'null' }, null> = { kind: 'null' };
/** Any JSON value: for data the emulator passes on untouched. */
export const any: Described<{ readonly kind: 'any' }, unknown> = { kind: 'any' };
/** One of these values. */
export const oneOf = <const V extends readonly (string | number | boolean)[]>(...values: V): Described<{ readonly kind: 'literal'; readonly values: V }, V[number]> => ({ kind: 'literal', values });
export const arrayOf = <S extends Schema>(of: S): Described<{ readonly kind: 'array'; readonly of: S }, Infer<S>[]> => ({ kind: 'array', of });
/** An object whose keys are the data's own (paths, names), each value `of`. */
export const recordOf = <S extends Schema>(of: S): Described<{ readonly kind: 'record'; readonly of: S }, Record<string, Infer<S>>> => ({ kind: 'record', of });
export const union = <const S extends readonly Schema[]>(...of: S): Described<{ readonly kind: 'union'; readonly of: S }, Infer<S[number]>> => ({ kind: 'union', of });
export const nullable = <S extends Schema>(s: S) => union(s, nul);
/** A key that may be left out. */
export const opt = <S extends Schema>(s: S): S & { readonly optional: true } => ({ ...s, optional: true });
/** An object with known keys (required unless wrapped in `opt`); any other key is a mistake. */
export const object = <P extends Record<string, Schema>>(props: P): ObjectOf<P> => ({ kind: 'object', props });
/** An object description that keeps its keys, and the type of the objects it accepts, in its type. */
export interface ObjectOf<P extends Record<string, Schema>> extends ObjectSchema, Typed<Shape<P> extends infer O ? { [K in keyof O]: O[K] } : never> {
  readonly props: P;
}
/** One object with the keys of all: how the parts of several owners make one record. */
export function merge<T extends ObjectSchema[]>(...parts: T): ObjectOf<UnionToIntersection<T[number]['props']> & Record<never, Schema>> {
  const props: Record<string, Schema> = {};
  for (const part of parts) Object.assign(props, part.props);
  return object(props) as never;
}

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The keys of `P` left out unless given (`opt`), and the others. */
type OptionalKeys<P> = { [K in keyof P]: P[K] extends { readonly optional: true } ? K : never }[keyof P];
type RequiredKeys<P> = Exclude<keyof P, OptionalKeys<P>>;
/** The objects an object description accepts, its optional keys optional (each key's comment kept: the mappings are homomorphic). */
type Shape<P> = { [K in keyof P as K extends RequiredKeys<P> ? K : never]: Infer<P[K]> } & { [K in keyof P as K extends OptionalKeys<P> ? K : never]?: Infer<P[K]> };

const own = (o: object, key: string) => Object.prototype.hasOwnProperty.call(o, key);

/** How a message names an expected value: `a string`, `one of "a", "b"`, `a string or null`. */
export function describe(s: Schema): string {
  switch (s.kind) {
    case 'string': return 'a string';
    case 'number': return 'a number';
    case 'boolean': return 'true or false';
    case 'null': return 'null';
    case 'any': return 'any value';
    case 'literal': return s.values.length === 1 ? JSON.stringify(s.values[0]) : `one of ${s.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'array': return 'an array';
    case 'record':
    case 'object': return 'an object';
    case 'union': return s.of.map(describe).join(' or ');
  }
}

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'string' ? 'a string' : typeof v === 'number' ? 'a number' : typeof v === 'boolean' ? 'a boolean' : typeof v);

/** Edit distance (insertions, deletions, substitutions, transpositions of neighbours). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known key nearest to `key`, when it is near enough to be what was meant. */
export function nearest(key: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const dist = distance(key.toLowerCase(), k.toLowerCase());
    if (dist < bestDistance) [best, bestDistance] = [k, dist];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const child = (path: string, key: string) => (IDENTIFIER.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`);

/**
 * A check of a known key's value beyond its JSON type (a date that is on the calendar, a scope
 * GitLab knows): the mistake, or undefined. Given the key, the value and the path of its parent.
 */
export type Refine = (key: string, value: unknown, parentPath: string) => string | undefined;

/** The first mistake of `value` against `schema`, as `path: what is wrong`; undefined when it fits. */
export function check(schema: Schema, value: unknown, path = ''): string | undefined {
  const out: string[] = [];
  collect(schema, value, path, out, 1);
  return out[0];
}

/** Every mistake of `value` against `schema` (up to `limit`), each as `path: what is wrong`, in document order. */
export function checkAll(schema: Schema, value: unknown, options: { path?: string; limit?: number; refine?: Refine } = {}): string[] {
  const out: string[] = [];
  collect(schema, value, options.path ?? '', out, options.limit ?? 50, options.refine);
  return out;
}

function collect(schema: Schema, value: unknown, path: string, out: string[], limit: number, refine?: Refine): void {
  const at = (text: string) => `${path || 'the value'}: ${text}`;
  const push = (mistake: string) => {
    if (out.length < limit) out.push(mistake);
  };
  switch (schema.kind) {
    case 'any': return;
    case 'string':
    case 'number':
    case 'boolean':
      if (typeof value === schema.kind && (schema.kind !== 'number' || Number.isFinite(value))) return;
      return push(at(`expected ${describe(schema)}, got ${kindOf(value)}`));
    case 'null': return value === null ? undefined : push(at(`expected null, got ${kindOf(value)}`));
    case 'literal': {
      if (schema.values.includes(value as string)) return;
      const near = typeof value === 'string' ? nearest(value, schema.values.filter((v): v is string => typeof v === 'string')) : undefined;
      return push(at(`expected ${describe(schema)}, got ${typeof value === 'string' || typeof value === 'number' ? JSON.stringify(value) : kindOf(value)}${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`));
    }
    case 'array': {
      if (!Array.isArray(value)) return push(at(`expected an array, got ${kindOf(value)}`));
      for (let i = 0; i < value.length && out.length < limit; i++) collect(schema.of, value[i], `${path}[${i}]`, out, limit, refine);
      return;
    }
    case 'record': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return push(at(`expected an object, got ${kindOf(value)}`));
      for (const key of Object.keys(value)) {
        if (out.length >= limit) return;
        collect(schema.of, (value as Record<string, unknown>)[key], child(path, key), out, limit, refine);
      }
      return;
    }
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return push(at(`expected an object, got ${kindOf(value)}`));
      const known = Object.keys(schema.props);
      // A misspelt key is one mistake: the key it was meant to be is not also "required".
      const meant = new Set<string>();
      for (const key of Object.keys(value)) {
        if (own(schema.props, key)) continue;
        const near = nearest(key, known.filter((k) => !own(value, k)));
        if (near) meant.add(near);
        push(`${child(path, key)}: unknown key${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`);
      }
      for (const key of known) {
        const prop = schema.props[key]!;
        const v = (value as Record<string, unknown>)[key];
        if (!own(value, key) || v === undefined) {
          if (!prop.optional && !meant.has(key)) push(`${child(path, key)}: required, ${describe(prop)}`);
          continue;
        }
        const before = out.length;
        collect(prop, v, child(path, key), out, limit, refine);
        if (refine && out.length === before) {
          const wrong = refine(key, v, path);
          if (wrong) push(wrong);
        }
      }
      return;
    }
    case 'union': {
      const fits = schema.of.filter((s) => sameShape(s, value));
      // Of the alternatives of the value's shape, the mistakes of the first; else a plain "expected".
      const tries = fits.map((s) => {
        const mistakes: string[] = [];
        collect(s, value, path, mistakes, limit, refine);
        return mistakes;
      });
      if (tries.some((m) => m.length === 0)) return;
      if (tries.length) {
        for (const m of tries[0]!) push(m);
        return;
      }
      return push(at(`expected ${describe(schema)}, got ${kindOf(value)}`));
    }
  }
}

/** Whether the value has the alternative's JSON type (so a mistake inside it is worth naming). */
function sameShape(s: Schema, v: unknown): boolean {
  switch (s.kind) {
    case 'any': return true;
    case 'string':
    case 'number':
    case 'boolean': return typeof v === s.kind;
    case 'null': return v === null;
    case 'literal': return s.values.some((x) => typeof x === typeof v);
    case 'array': return Array.isArray(v);
    case 'record':
    case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'union': return s.of.some((x) => sameShape(x, v));
  }
}

/** The same description as a JSON Schema (draft 2020-12), for editors and other tools. */
export function toJsonSchema(s: Schema): Record<string, unknown> {
  switch (s.kind) {
    case 'any': return {};
    case 'string':
    case 'number':
    case 'boolean':
    case 'null': return { type: s.kind };
    case 'literal': return s.values.length === 1 ? { const: s.values[0] } : { enum: [...s.values] };
    case 'array': return { type: 'array', items: toJsonSchema(s.of) };
    case 'record': return { type: 'object', additionalProperties: toJsonSchema(s.of) };
    case 'union': return { anyOf: s.of.map(toJsonSchema) };
    case 'object': {
      const properties: Record<string, unknown> = {};
      const required: string[] = [];
      for (const [key, prop] of Object.entries(s.props)) {
        properties[key] = toJsonSchema(prop);
        if (!prop.optional) required.push(key);
      }
      return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
    }
  }
}
