// A reply as an HTTP response: GitLab's base headers, JSON or raw bodies, a weak ETag on
// successful GETs (with If-None-Match answered 304), and no body on HEAD, 204 and 304.
import { hash53 } from '../core/hash.js';
import type { Incoming, Rendered } from './incoming.js';
import type { Reply } from './route.js';

const BASE_HEADERS: Record<string, string> = {
  'Cache-Control': 'max-age=0, private, must-revalidate',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'SAMEORIGIN',
};

const utf8 = new TextEncoder();

/**
 * A header value as it can go on the wire. A URL (`Location`) has its non-ASCII characters and
 * controls percent-encoded; any other value goes out as its UTF-8 bytes, as Rack sends them,
 * with control characters (CR, LF and NUL, which no header may hold, and the others node refuses)
 * percent-encoded.
 */
export function headerValue(name: string, value: string): string {
  if (/^[\x20-\x7e\t]*$/.test(value)) return value;
  if (name.toLowerCase() === 'location') return value.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run.replace(LONE, '\uFFFD')));
  const safe = value.replace(/[\0-\x08\n-\x1f\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`).replace(LONE, '\uFFFD');
  let bytes = '';
  for (const b of utf8.encode(safe)) bytes += String.fromCharCode(b);
  return bytes;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A reply as the answer cache keeps it: its body serialised once (answering from the cache
 * again does not serialise it), and for a 200 its weak ETag, computed from the same text as an
 * uncached answer's. The text is encoded when the cache first answers from it (the first hit
 * renders it once for every later one), not here: a miss writes its text as it is, and an
 * answer never asked again is never encoded.
 */
export function settle(reply: Reply): Reply {
  let out = reply;
  if (out.json === undefined && out.raw === undefined && out.body !== undefined && out.contentType === undefined) {
    const { body, ...rest } = out;
    out = { ...rest, json: JSON.stringify(body) };
  }
  const text = out.json ?? out.raw;
  if (out.status === 200 && out.etag === undefined && text !== undefined) out = { ...out, etag: `W/"${hash53(text)}"` };
  return out;
}

/** Header names as sent, deduplicated without regard to case (a reply's own header wins). */
class HeaderBag {
  readonly out: Record<string, string> = Object.create(null) as Record<string, string>;
  #names = new Map<string, string>();

  set(name: string, value: string): void {
    const lower = name.toLowerCase();
    const had = this.#names.get(lower);
    if (had !== undefined && had !== name) delete this.out[had];
    this.#names.set(lower, name);
    this.out[name] = value;
  }

  has(name: string): boolean {
    return this.#names.has(name.toLowerCase());
  }
}

export function render(request: Incoming, method: string, reply: Reply, extra: Record<string, string>): Rendered {
  if (reply.headers === undefined && isEmpty(extra)) return renderPlain(request, method, reply);
  const headers = new HeaderBag();
  for (const k in BASE_HEADERS) headers.set(k, BASE_HEADERS[k]!);
  for (const k in extra) headers.set(k, headerValue(k, extra[k]!));
  if (reply.headers) for (const k in reply.headers) headers.set(k, headerValue(k, reply.headers[k]!));
  let body: Uint8Array | string | null = null;
  if (reply.json !== undefined) {
    body = reply.json;
    headers.set('Content-Type', 'application/json');
  } else if (reply.raw !== undefined) {
    body = reply.raw;
    headers.set('Content-Type', reply.contentType ?? 'application/octet-stream');
  } else if (reply.body !== undefined) {
    body = typeof reply.body === 'string' && reply.contentType ? reply.body : JSON.stringify(reply.body);
    headers.set('Content-Type', reply.contentType ?? 'application/json');
  }
  if (body !== null && reply.status === 200 && (method === 'GET' || method === 'HEAD') && !headers.has('ETag')) {
    const etag = reply.etag ?? `W/"${hash53(body)}"`;
    headers.set('ETag', etag);
    const inm = request.headers.get('if-none-match');
    if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) {
      return { status: 304, headers: headers.out, body: null };
    }
  }
  if (reply.status === 204 || reply.status === 304 || method === 'HEAD') body = null;
  return { status: reply.status, headers: headers.out, body };
}

function isEmpty(o: Record<string, string>): boolean {
  for (const _ in o) return false;
  return true;
}

/**
 * `render` for a reply with no headers of its own and none from the request's context (most
 * answers): the same headers in the same order, with no deduplication to do.
 */
function renderPlain(request: Incoming, method: string, reply: Reply): Rendered {
  const headers: Record<string, string> = {
    'Cache-Control': BASE_HEADERS['Cache-Control']!,
    'X-Content-Type-Options': BASE_HEADERS['X-Content-Type-Options']!,
    'X-Frame-Options': BASE_HEADERS['X-Frame-Options']!,
  };
  let body: Uint8Array | string | null = null;
  if (reply.json !== undefined) {
    body = reply.json;
    headers['Content-Type'] = 'application/json';
  } else if (reply.raw !== undefined) {
    body = reply.raw;
    headers['Content-Type'] = reply.contentType ?? 'application/octet-stream';
  } else if (reply.body !== undefined) {
    body = typeof reply.body === 'string' && reply.contentType ? reply.body : JSON.stringify(reply.body);
    headers['Content-Type'] = reply.contentType ?? 'application/json';
  }
  if (body !== null && reply.status === 200 && (method === 'GET' || method === 'HEAD')) {
    const etag = reply.etag ?? `W/"${hash53(body)}"`;
    headers.ETag = etag;
    const inm = request.headers.get('if-none-match');
    if (inm && inm.split(',').some((t) => t.trim() === etag || t.trim() === '*')) return { status: 304, headers, body: null };
  }
  if (reply.status === 204 || reply.status === 304 || method === 'HEAD') body = null;
  return { status: reply.status, headers, body };
}
