// Offset and keyset pagination with GitLab's headers (lib/gitlab/pagination/*): Link with
// prev, next, first, last in that order, x-* headers, no totals past 10,000 rows.
// Link URLs carry every parameter of the request (and declared defaults), sorted, as Rails'
// Hash#to_query writes them, and start at the origin the client used.
import { grapeError } from '../core/errors.js';
import { LONE_SURROGATE, isHash } from './request-params.js';

export const MAX_PER_PAGE = 100;
export const COUNT_LIMIT = 10_000;

export interface PageInput {
  page?: unknown;
  per_page?: unknown;
}

export interface LinkBase {
  /** Origin plus path, as the client sent it. */
  base: string;
  /** Every parameter to repeat in a link (route, query, body, declared defaults). */
  params: Record<string, unknown>;
}

function intParam(name: string, raw: unknown, fallback: number): number {
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[-+]?\d+\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n)) throw grapeError(400, `${name} is invalid`);
  return n;
}

export function pageRequest(input: PageInput): { page: number; perPage: number; perPageParam: number } {
  const pageParam = intParam('page', input.page, 1);
  const perPageParam = intParam('per_page', input.per_page, 20);
  // `use :pagination` declares per_page with `except_values: [0]`.
  if (perPageParam === 0) throw grapeError(400, 'per_page has a value not allowed');
  const perPage = perPageParam <= 0 ? 20 : Math.min(perPageParam, MAX_PER_PAGE);
  return { page: Math.max(1, pageParam), perPage, perPageParam };
}

/**
 * Rails' `Hash#to_query`: each `key=value` CGI-escaped, arrays as `k[]=v`, hashes as `k[s]=v`,
 * empty arrays and hashes left out, and the pieces sorted as strings (inside an array of
 * hashes they keep their order).
 */
export function toQuery(params: Record<string, unknown>): string {
  return hashToQuery(params);
}

function hashToQuery(hash: Record<string, unknown>, namespace?: string): string {
  const parts: string[] = [];
  for (const key of Object.keys(hash)) {
    const value = hash[key];
    if (value === undefined) continue;
    if ((Array.isArray(value) || isHash(value)) && Object.keys(value).length === 0) continue;
    parts.push(valueToQuery(value, namespace === undefined ? key : `${namespace}[${key}]`));
  }
  if (!namespace?.includes('[]')) parts.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return parts.join('&');
}

function valueToQuery(value: unknown, key: string): string {
  if (Array.isArray(value)) {
    const prefix = `${key}[]`;
    return value.length === 0 ? `${cgiEscape(prefix)}=` : value.map((v) => valueToQuery(v, prefix)).join('&');
  }
  if (isHash(value)) return hashToQuery(value, key);
  return `${cgiEscape(key)}=${cgiEscape(value === null ? '' : String(value))}`;
}


function cgiEscape(s: string): string {
  // A lone surrogate has no UTF-8 form: it is written as U+FFFD, as a well-formed string would be.
  return encodeURIComponent(s.replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD')).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase()).replace(/%20/g, '+');
}

function link(base: LinkBase, extra: Record<string, unknown>, rel: string): string {
  return `<${base.base}?${toQuery({ ...base.params, ...extra })}>; rel="${rel}"`;
}

export interface PageResult<T> {
  items: T[];
  headers: Record<string, string>;
}

/** Offset pagination of an in-memory list. */
export function paginateOffset<T>(all: readonly T[], input: PageInput, base: LinkBase): PageResult<T> {
  const { page, perPage } = pageRequest(input);
  return { items: all.slice((page - 1) * perPage, page * perPage), headers: offsetHeaders(all.length, input, base) };
}

/**
 * The headers of one page of `total` rows (OffsetHeaderBuilder). `excludeTotalHeaders` leaves
 * out X-Total and X-Total-Pages, for lists whose total is a guess (commits).
 */
export function offsetHeaders(total: number, input: PageInput, base: LinkBase, opts: { excludeTotalHeaders?: boolean } = {}): Record<string, string> {
  const { page, perPage, perPageParam } = pageRequest(input);
  const totalPages = Math.max(1, Math.ceil(total / perPage));
  const outOfRange = page > totalPages;
  const prev = page > 1 && !outOfRange ? page - 1 : null;
  const next = page < totalPages ? page + 1 : null;
  const counted = total <= COUNT_LIMIT;
  const pp = { per_page: perPageParam };
  const links: string[] = [];
  if (prev) links.push(link(base, { ...pp, page: prev }, 'prev'));
  if (next) links.push(link(base, { ...pp, page: next }, 'next'));
  links.push(link(base, { ...pp, page: 1 }, 'first'));
  if (counted) links.push(link(base, { ...pp, page: totalPages }, 'last'));
  const headers: Record<string, string> = {
    Link: links.join(', '),
    'X-Per-Page': String(perPage),
    'X-Page': String(page),
    'X-Next-Page': next ? String(next) : '',
    'X-Prev-Page': prev ? String(prev) : '',
  };
  if (counted && !opts.excludeTotalHeaders) {
    headers['X-Total'] = String(total);
    headers['X-Total-Pages'] = String(totalPages);
  }
  return headers;
}

/** GitLab refuses deep offsets on types that offer keyset pagination. */
export function checkMaxOffset(input: PageInput, limit: number, type: string): void {
  const { page, perPage } = pageRequest(input);
  if (limit > 0 && page * perPage > limit) {
    throw grapeError(
      405,
      `Offset pagination has a maximum allowed offset of ${limit} for requests that return objects of type ${type}. Remaining records can be retrieved using keyset pagination.`,
    );
  }
}

/**
 * The headers of a keyset page that has a next one (Keyset::HeaderBuilder#add_next_page_header):
 * `Link` and, with the same value, the deprecated `Links`.
 */
export function keysetNextHeaders(base: LinkBase, extra: Record<string, unknown>): Record<string, string> {
  const value = link(base, extra, 'next');
  return { Links: value, Link: value };
}

export const keysetUnsupported = () => grapeError(405, 'Keyset pagination is not yet available for this type of request');

/**
 * Keyset pagination by id (projects): the caller filters by `id_after`/`id_before`; a `next`
 * link is sent whenever the page is not empty, so the page after the last is `[]` with none.
 */
export function paginateKeysetById<T extends { id: number }>(
  sorted: readonly T[],
  input: PageInput & { sort: 'asc' | 'desc'; id_after?: number; id_before?: number },
  base: LinkBase,
): PageResult<T> {
  const { perPage } = pageRequest(input);
  const asc = input.sort === 'asc';
  const rows = sorted.filter(
    (r) => (input.id_after === undefined || r.id > input.id_after) && (input.id_before === undefined || r.id < input.id_before),
  );
  const items = rows.slice(0, perPage);
  const headers: Record<string, string> = {};
  const last = items[items.length - 1];
  if (last) {
    const params = { ...base.params };
    delete params.id_after;
    delete params.id_before;
    Object.assign(headers, keysetNextHeaders({ base: base.base, params }, asc ? { id_after: last.id } : { id_before: last.id }));
  }
  return { items, headers };
}

