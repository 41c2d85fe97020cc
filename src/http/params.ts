// Declared, typed parameters with Grape's coercions and messages (ruby-grape/grape en.yml,
// dry-types Params::Bool). A route declares them; the pipeline coerces the merged raw params
// and answers 400 before the handler runs. A missing required one uses the spec's envelope,
// `{"message":"400 Bad request - \"title\" not given"}`; other failures Grape's `{"error": ...}`.
import { grapeError, missingAttribute, type ApiError } from '../core/errors.js';

const INVALID = Symbol('invalid');
type Invalid = typeof INVALID;
type Coerce<T> = (raw: unknown, name: string, issues: Issue[]) => T | undefined | Invalid;

interface Issue {
  name: string;
  text: string;
  missing?: boolean;
}

interface Options {
  required: boolean;
  default?: unknown;
  values?: readonly unknown[];
  /** Grape's `values:` given as a lambda. */
  test?: (value: unknown) => boolean;
  allowBlank: boolean;
  /**
   * What a JSON `null` means for an optional parameter: absent (Grape's coercer leaves nil
   * alone, the default), a null the handler sees (`nullable()`), or a value to coerce (lists).
   */
  onNull?: 'absent' | 'null' | 'coerce';
}

export class Param<T, R extends boolean = false> {
  declare readonly _out: R extends true ? T : T | undefined;
  constructor(readonly coerce: Coerce<T>, readonly options: Options = { required: false, allowBlank: true }) {}

  required(): Param<T, true> {
    return new Param<T, true>(this.coerce, { ...this.options, required: true });
  }
  /** Used when the parameter is absent; also shows in pagination links, as GitLab's do. */
  default(value: T): Param<T, true> {
    return new Param<T, true>(this.coerce, { ...this.options, default: value });
  }
  values<const V extends T>(list: readonly V[]): Param<V, R> {
    return new Param<V, R>(this.coerce as Coerce<V>, { ...this.options, values: list });
  }
  /** Grape's `values:` given as a lambda: a value it refuses "does not have a valid value". */
  where(test: (value: T) => boolean): Param<T, R> {
    return new Param<T, R>(this.coerce, { ...this.options, test: test as (value: unknown) => boolean });
  }
  /** A JSON `null` reaches the handler as null, to tell "cleared" from "not sent". */
  nullable(): Param<T | null, R> {
    return new Param<T | null, R>(this.coerce, { ...this.options, onNull: 'null' });
  }
  /** Grape's `allow_blank: false`: an empty string is "is empty". */
  notBlank(): Param<T, R> {
    return new Param<T, R>(this.coerce, { ...this.options, allowBlank: false });
  }
}

export type ParamSpec = Record<string, Param<unknown, boolean>>;
export type Parsed<S extends ParamSpec> = { [K in keyof S]: S[K]['_out'] };

const isBlank = (v: unknown) => v === '' || (typeof v === 'string' && v.trim() === '');

export const str = () =>
  new Param<string>((raw) => {
    if (typeof raw === 'string') return raw;
    if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
    return INVALID;
  });

export const int = () =>
  new Param<number>((raw) => {
    if (typeof raw === 'number') return Number.isInteger(raw) ? raw : INVALID;
    if (typeof raw === 'string') {
      const t = raw.trim();
      if (t === '') return undefined;
      return /^[-+]?\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : INVALID;
    }
    return INVALID;
  });

const TRUE = new Set(['1', 'on', 'On', 'ON', 't', 'true', 'True', 'TRUE', 'T', 'y', 'yes', 'Yes', 'YES', 'Y']);
const FALSE = new Set(['0', 'off', 'Off', 'OFF', 'f', 'false', 'False', 'FALSE', 'F', 'n', 'no', 'No', 'NO', 'N']);

export function parseBoolean(raw: unknown): boolean | undefined | Invalid {
  if (typeof raw === 'boolean') return raw;
  if (raw === 1 || raw === 0) return raw === 1;
  if (typeof raw === 'string') {
    if (raw === '') return undefined;
    if (TRUE.has(raw)) return true;
    if (FALSE.has(raw)) return false;
  }
  return INVALID;
}

export const bool = () => new Param<boolean>(parseBoolean);

/** The times a Date can hold (ECMA-262's time range): a number outside them is no time. */
const MAX_TIME = 8.64e15;

/** ISO 8601; without a zone the time is UTC, as Rails reads it. Yields epoch milliseconds. */
export function parseDateTime(raw: unknown): number | undefined | Invalid {
  if (typeof raw === 'number') return Number.isFinite(raw) && Math.abs(raw) <= MAX_TIME ? raw : INVALID;
  if (typeof raw !== 'string') return INVALID;
  const t = raw.trim();
  if (t === '') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (!m) return INVALID;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  let z = zone ? zone.toUpperCase() : 'Z';
  if (z !== 'Z' && !z.includes(':')) z = `${z.slice(0, 3)}:${z.slice(3)}`;
  const ms = Date.parse(`${y}-${mo}-${d}T${h}:${mi}:${s}${frac.slice(0, 4)}${z}`);
  return Number.isFinite(ms) ? ms : INVALID;
}

export const datetime = () => new Param<number>(parseDateTime);

/** A plain date, `YYYY-MM-DD`, kept as that string. */
export const date = () =>
  new Param<string>((raw) => {
    if (typeof raw !== 'string') return INVALID;
    if (raw === '') return undefined;
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
    return m && Number.isFinite(Date.parse(`${m[0]}T00:00:00Z`)) ? m[0] : INVALID;
  });

/**
 * `Array[...]`: `a[]=x&a[]=y` or a JSON array; with `commaSeparated`, also `a=x,y`. The item's
 * `values` (or `where`) hold for each element, as Grape's `values:` on an Array: one outside
 * them "does not have a valid value".
 */
export const arr = <T>(item: Param<T, boolean>, opts: { commaSeparated?: boolean } = {}) =>
  new Param<T[]>((raw, name, issues) => {
    let list: unknown[];
    if (raw === null) list = [];
    else if (Array.isArray(raw)) list = raw;
    else if (typeof raw === 'object') list = Object.values(raw as object); // a[0]=x&a[1]=y
    else if (opts.commaSeparated && typeof raw === 'string') list = raw === '' ? [] : raw.split(',');
    else return INVALID;
    const out: T[] = [];
    for (const v of list) {
      const c = item.coerce(v, name, issues);
      if (c === INVALID) return INVALID;
      if (c !== undefined) out.push(c);
    }
    return out;
  }, { required: false, allowBlank: true, onNull: 'coerce', values: item.options.values, test: item.options.test }); // a null list is an empty one

/** A `Hash`: `h[k]=v` or a JSON object. With a shape, each key is a declared parameter. */
export function hash(): Param<Record<string, unknown>>;
export function hash<S extends ParamSpec>(shape: S): Param<Parsed<S>>;
export function hash(shape?: ParamSpec): Param<Record<string, unknown>> {
  return new Param((raw, name, issues) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return INVALID;
    if (!shape) return raw as Record<string, unknown>;
    return coerceAll(shape, raw as Record<string, unknown>, issues, name);
  });
}

/** Anything, as sent (a file part, a free-form value). */
export const any = () => new Param<unknown>((raw) => raw);

function coerceAll(spec: ParamSpec, raw: Record<string, unknown>, issues: Issue[], prefix?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(spec)) {
    const p = spec[key]!;
    const name = prefix ? `${prefix}[${key}]` : key;
    let value = Object.prototype.hasOwnProperty.call(raw, key) ? raw[key] : undefined;
    const { required, allowBlank, values, test, onNull = 'absent' } = p.options;
    if (value === null && !required && onNull !== 'coerce') {
      if (onNull === 'null') {
        out[key] = null;
        continue;
      }
      value = undefined;
    }
    if (value === undefined) {
      if (required) issues.push({ name, text: 'is missing', missing: true });
      // Grape reports an absent required parameter as empty too; an absent optional one is fine.
      if (required && !allowBlank) issues.push({ name, text: 'is empty' });
      if (p.options.default !== undefined) out[key] = p.options.default;
      continue;
    }
    if (!allowBlank && isBlank(value)) {
      issues.push({ name, text: 'is empty' });
      continue;
    }
    const c = p.coerce(value, name, issues);
    if (c === INVALID) {
      issues.push({ name, text: 'is invalid' });
      continue;
    }
    if (c === undefined) {
      if (required) issues.push({ name, text: 'is missing', missing: true });
      else if (p.options.default !== undefined) out[key] = p.options.default;
      continue;
    }
    const valid = (v: unknown) => (!values || values.includes(v)) && (!test || test(v));
    if (!(Array.isArray(c) ? c.every(valid) : valid(c))) {
      issues.push({ name, text: 'does not have a valid value' });
      continue;
    }
    out[key] = c;
  }
  return out;
}

export interface Constraint {
  kind: 'at_least_one_of' | 'exactly_one_of' | 'mutually_exclusive';
  names: string[];
  message?: string;
  /** None of them given is the spec's missing attribute, naming this one (`"user_id" not given`). */
  missing?: string;
}

/** Coerces `raw` by `spec`; returns the typed values or the 400 GitLab would answer. */
export function parseParams<S extends ParamSpec>(
  spec: S,
  raw: Record<string, unknown>,
  constraints: readonly Constraint[] = [],
): { ok: true; value: Parsed<S> } | { ok: false; error: ApiError } {
  const issues: Issue[] = [];
  const value = coerceAll(spec, raw, issues) as Parsed<S>;
  const missing = issues.find((i) => i.missing);
  if (missing) return { ok: false, error: missingAttribute(missing.name) };
  // A JSON null of a parameter that reads null as absent is not given, for the constraints too.
  const isGiven = (n: string) => raw[n] !== undefined && !(raw[n] === null && (spec[n]?.options.onNull ?? 'absent') === 'absent');
  for (const c of constraints) {
    const given = c.names.filter(isGiven);
    if (c.missing && given.length === 0) return { ok: false, error: missingAttribute(c.missing) };
    const list = c.names.join(', ');
    if (c.kind === 'at_least_one_of' && given.length === 0)
      issues.push({ name: list, text: c.message ?? 'are missing, at least one parameter must be provided' });
    if (c.kind === 'exactly_one_of' && given.length !== 1)
      issues.push({
        name: list,
        text: c.message ?? (given.length ? 'are mutually exclusive' : 'are missing, exactly one parameter must be provided'),
      });
    if (c.kind === 'mutually_exclusive' && given.length > 1)
      issues.push({ name: given.join(', '), text: c.message ?? 'are mutually exclusive' });
  }
  if (issues.length === 0) return { ok: true, value };
  const text = [...new Set(issues.map((i) => `${i.name} ${i.text}`))].join(', ');
  return { ok: false, error: grapeError(400, text) };
}
