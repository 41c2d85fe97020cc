// A reply as an HTTP response: GitLab's base headers, JSON or raw bodies, a weak ETag on
// successful GETs (with If-None-Match answered 304), and no body on HEAD, 204 and 304.
import { hash53 } from '../core/hash.js';
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
 * with CR, LF and NUL (which no header may hold) percent-encoded.
 */
export function headerValue(name: string, value: string): string {
  if (/^[\x20-\x7e\t]*$/.test(value)) return value;
  if (name.toLowerCase() === 'location') return value.replace(/[^\x21-\x7e]+/g, (run) => encodeURIComponent(run.replace(LONE, '\uFFFD')));
  const safe = value.replace(/[\r\n\0]/g, (c) => `%0${c.charCodeAt(0).toString(16).toUpperCase()}`).replace(LONE, '\uFFFD');
  let bytes = '';
  for (const b of utf8.encode(safe)) bytes += String.fromCharCode(b);
  return bytes;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * A reply with its JSON body serialised and, for a 200, its weak ETag computed: what the answer
 * cache keeps, so answering from it again costs neither.
 */
export function settle(reply: Reply): Reply {
  let out = reply;
  if (out.json === undefined && out.raw === undefined && out.body !== undefined && out.contentType === undefined) {
    const { body, ...rest } = out;
    out = { ...rest, json: JSON.stringify(body) };
  }
  const bytes = out.json ?? out.raw;
  if (out.status === 200 && out.etag === undefined && bytes !== undefined) out = { ...out, etag: `W/"${hash53(bytes)}"` };
  return out;
}

export function render(request: Request, method: string, reply: Reply, extra: Record<string, string>): Response {
  const headers = new Headers(BASE_HEADERS);
  for (const [k, v] of Object.entries(extra)) headers.set(k, headerValue(k, v));
  for (const [k, v] of Object.entries(reply.headers ?? {})) headers.set(k, headerValue(k, v));
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
      return new Response(null, { status: 304, headers });
    }
  }
  if (reply.status === 204 || reply.status === 304) body = null;
  return new Response(method === 'HEAD' ? null : (body as BodyInit | null), { status: reply.status, headers });
}
