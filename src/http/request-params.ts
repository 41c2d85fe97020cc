// GitLab's parameter sources, merged as Grape merges them: query string < body < path.
// Query strings and form bodies are read as Rack reads them (Rack::QueryParser): `a[]=x`
// arrays, `h[k]=v` hashes, `a[][k]=v` arrays of hashes (a repeated key starts a new hash),
// `+` as a space, the last of `a=1&a=2`. What Rack or Rails cannot read (a broken
// %-encoding, bytes that are not UTF-8, a NUL, `a=1&a[]=2`) GitLab answers with a plain
// `400 Bad Request` (Gitlab::Middleware::HandleMalformedStrings) before any route runs.
import { invalidMessageBody, malformedRequest, payloadTooLarge } from '../core/errors.js';
import type { Incoming } from './incoming.js';

export const MAX_QUERY_LENGTH = 10 * 1024; // Puma's limit on a query string
const PARAM_DEPTH_LIMIT = 100; // Rack's default

type Params = Record<string, unknown>;

/** A hash of parameters: no prototype, so any key (`__proto__`, `toString`) is plain data. */
const makeParams = (): Params => Object.create(null) as Params;
/** Half a UTF-16 surrogate pair: text that has no UTF-8 form. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A parameter hash (not an array, not an uploaded file). */
export const isHash = (v: unknown): v is Params => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Blob);

function unescape(text: string): string {
  // Nothing to decode: the text as it is (decodeURIComponent changes only %-escapes).
  if (!text.includes('%') && !text.includes('+')) {
    if (text.includes('\0')) throw malformedRequest();
    return text;
  }
  let out: string;
  try {
    out = decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw malformedRequest();
  }
  if (out.includes('\0')) throw malformedRequest();
  return out;
}

function hasKey(hash: Params, key: string): boolean {
  if (key.includes('[]')) return false;
  let h: unknown = hash;
  for (const part of key.split(/[[\]]+/)) {
    if (part === '') continue;
    if (!isHash(h) || !Object.prototype.hasOwnProperty.call(h, part)) return false;
    h = h[part];
  }
  return true;
}

/** Rack::QueryParser#normalize_params (Rack 2.2). */
function normalize(params: Params, name: string, v: unknown, depth: number): unknown {
  if (depth <= 0) throw malformedRequest();
  const m = /^[[\]]*([^[\]]+)\]*/.exec(name);
  const k = m ? m[1]! : '';
  const after = m ? name.slice(m[0].length) : '';
  if (k === '') return name === '[]' ? [v] : undefined;
  if (after === '') params[k] = v;
  else if (after === '[') params[name] = v;
  else if (after === '[]') {
    const list = (params[k] ??= []);
    if (!Array.isArray(list)) throw malformedRequest();
    list.push(v);
  } else if (after.startsWith('[]')) {
    const md = /^\[\]\[([^[\]]+)\]$/.exec(after) ?? /^\[\](.+)$/.exec(after);
    const child = md![1]!;
    const list = (params[k] ??= []);
    if (!Array.isArray(list)) throw malformedRequest();
    const last: unknown = list[list.length - 1];
    if (isHash(last) && !hasKey(last, child)) normalize(last, child, v, depth - 1);
    else list.push(normalize(makeParams(), child, v, depth - 1));
  } else {
    const hash = (params[k] ??= makeParams());
    if (!isHash(hash)) throw malformedRequest();
    params[k] = normalize(hash, after, v, depth - 1);
  }
  return params;
}

/** Rack's `parse_nested_query`: a query string or a form body into nested parameters. */
export function parseQuery(search: string): Params {
  const text = search.startsWith('?') ? search.slice(1) : search;
  const params = makeParams();
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = unescape(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : unescape(part.slice(eq + 1));
    // A plain name (no brackets) is stored as it is, as normalize would.
    if (!key.includes('[') && !key.includes(']')) {
      if (key !== '') params[key] = value;
    } else normalize(params, key, value, PARAM_DEPTH_LIMIT);
  }
  return params;
}

/** A request's body as sent, read once (before the write lock) and parsed when a route needs it. */
export interface RawBody {
  bytes: Uint8Array;
  empty: boolean;
}

export const NO_BODY: RawBody = Object.freeze({ bytes: new Uint8Array(), empty: true });

/**
 * Reads a request's body, refusing one larger than `limit` bytes (413) as it streams in: a
 * declared Content-Length over the limit is refused before a byte is read.
 */
export async function readBody(request: Incoming, limit: number): Promise<RawBody> {
  if (request.method === 'GET' || request.method === 'HEAD') return NO_BODY;
  const source = request.body;
  if (source === null) return NO_BODY;
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    source.discard();
    throw payloadTooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of source.chunks()) {
    size += chunk.byteLength;
    if (size > limit) {
      source.discard();
      throw payloadTooLarge();
    }
    chunks.push(chunk);
  }
  const bytes = chunks.length === 1 ? chunks[0]! : new Uint8Array(size);
  if (chunks.length !== 1) {
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
  }
  return { bytes, empty: false };
}

/** HandleMalformedStrings for a JSON body: a lone surrogate (no UTF-8 form) in any key or string is 400. */
function checkStrings(value: unknown, depth = 0): void {
  if (typeof value === 'string') {
    if (LONE_SURROGATE.test(value)) throw malformedRequest();
  } else if (typeof value === 'object' && value !== null && depth < 100) {
    for (const [k, v] of Object.entries(value)) {
      if (LONE_SURROGATE.test(k)) throw malformedRequest();
      checkStrings(v, depth + 1);
    }
  }
}

export interface ParsedParams {
  /** The query string's parameters. */
  query: Record<string, unknown>;
  /** The body's parameters (JSON, a form, or multipart parts). */
  params: Record<string, unknown>;
}

/** The query string and the body as parameters, as Rack and Grape read them. */
export async function parseBody(request: Incoming, url: URL, body: RawBody): Promise<ParsedParams> {
  const query = parseQuery(url.search);
  if (body.empty || body.bytes.length === 0) return { query, params: {} };
  const contentType = request.headers.get('content-type') ?? '';
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return { query, params: await parseMultipart(body.bytes, contentType) };
  const text = new TextDecoder().decode(body.bytes);
  if (type === 'application/json' || type.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalidMessageBody('application/json');
    }
    checkStrings(value);
    return { query, params: isObject(value) ? value : {} };
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') return { query, params: parseQuery(text) };
  return { query, params: {} };
}

async function parseMultipart(bytes: Uint8Array, contentType: string): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    throw invalidMessageBody('multipart/form-data');
  }
  // Each part is one parameter, named as in a query string (`files[]`, `h[k]`); files stay File values.
  const params = makeParams();
  for (const [key, value] of form.entries()) {
    if (key === '') continue; // an extra, empty part some clients send
    if (typeof value === 'string' && value.includes('\0')) throw malformedRequest();
    normalize(params, key, value, PARAM_DEPTH_LIMIT);
  }
  return params;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parameters merged as `{ ...a, ...b, ...c }` would (a later source's value wins, a key keeps its
 * first place, `__proto__` is a plain key), without the spread's slow path for a query's hash,
 * which has no prototype.
 */
export function merged(...sources: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const source of sources) {
    for (const k of Object.keys(source)) {
      if (k === '__proto__') Object.defineProperty(out, k, { value: source[k], enumerable: true, writable: true, configurable: true });
      else out[k] = source[k];
    }
  }
  return out;
}
