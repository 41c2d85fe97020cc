// GitLab's parameter sources, merged as Grape merges them: query string < body < path.
// Brackets (`a[]=`, `h[k]=`, `a[][k]=`) are read by qs; `+` in a query value is a space.
import qs from 'qs';
import { grapeError } from './errors.js';

export const MAX_QUERY_LENGTH = 10 * 1024; // Puma's limit on a query string

const QS_OPTIONS: qs.IParseOptions = {
  arrayLimit: 10_000,
  parameterLimit: 10_000,
  depth: 10,
  duplicates: 'last', // Rack keeps the last of `a=1&a=2`
  allowPrototypes: false,
};

export function parseQuery(search: string): Record<string, unknown> {
  const text = search.startsWith('?') ? search.slice(1) : search;
  return text === '' ? {} : (qs.parse(text, QS_OPTIONS) as Record<string, unknown>);
}

export interface ParsedBody {
  params: Record<string, unknown>;
  /** The raw bytes, for routes that read a body as it is. */
  bytes?: Uint8Array;
}

const invalidBody = () => grapeError(400, 'message body does not match declared format');

export async function parseBody(request: Request): Promise<ParsedBody> {
  if (request.method === 'GET' || request.method === 'HEAD' || request.body === null) return { params: {} };
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'multipart/form-data') return { params: await parseMultipart(request) };
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.length === 0) return { params: {}, bytes };
  const text = new TextDecoder().decode(bytes);
  if (type === 'application/json' || type.endsWith('+json')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalidBody();
    }
    return { params: isObject(value) ? value : {}, bytes };
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    return { params: parseQuery(text), bytes };
  }
  return { params: {}, bytes };
}

async function parseMultipart(request: Request): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw invalidBody();
  }
  const pairs: string[] = [];
  const files: [string, unknown][] = [];
  for (const [key, value] of form.entries()) {
    if (key === '') continue; // an extra, empty part some clients send
    if (typeof value === 'string') pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
    else files.push([key.replace(/\[\]$/, ''), value]);
  }
  const params = parseQuery(pairs.join('&'));
  for (const [key, file] of files) params[key] = file;
  return params;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
