// Offset and keyset pagination with GitLab's headers (lib/gitlab/pagination/*): Link with
// prev, next, first, last in that order, x-* headers, no totals past 10,000 rows.
// Link URLs carry every parameter of the request (and declared defaults), sorted, as Rails'
// Hash#to_query writes them, and start at the origin the client used.
import { grapeError } from '../core/errors.js';
import type { CoreState } from '../store/state.js';
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

/** A request's page: its number, its size, and `per_page` as sent. */
export interface PageSize {
  page: number;
  perPage: number;
  perPageParam: number;
}

export function pageRequest(input: PageInput): PageSize {
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

const keysetUnsupported = () => grapeError(405, 'Keyset pagination is not yet available for this type of request');

/** What a keyset page is cut by: the request's parameters, or what the handler pages by. */
export type KeysetInput = PageInput & Record<string, unknown>;

/**
 * How a route pages by keyset (Gitlab::Pagination::Keyset, GitalyKeysetPager), declared once on
 * the route (`paginated: { keyset }`): `ctx.paginate` cuts a keyset page when the request asks
 * for one, an offset page otherwise. Its checks run when the handler pages, where GitLab's
 * `paginate` makes them (after the handler's own).
 */
export interface Keyset<T, W extends CoreState = CoreState> {
  /** Whether a request asks for keyset pages: `pagination=keyset` unless it says otherwise. */
  readonly asked?: (input: KeysetInput) => boolean;
  /** The orders (`order_by`) that have keyset pages (`Keyset.available?`); another is 405. Any, when absent. */
  readonly orderBy?: readonly string[];
  /** The parameters that name where a page starts: the next page's link names its own. */
  readonly cursor: readonly string[];
  /**
   * The page the request names in the world as the request sees it, at most `size.perPage`
   * rows, and the next page's cursor when the page announces one; a cursor it cannot place is
   * GitLab's 400 (or the type's own error).
   */
  page(all: readonly T[], input: KeysetInput, size: PageSize, state: W): KeysetPage<T>;
  /**
   * How a page announces the next: `Link` and `Links` (Keyset::HeaderBuilder, the default);
   * `Link` alone and `X-Per-Page` on every page (an opaque `cursor`); or not at all.
   */
  readonly headers?: 'links' | 'cursor' | 'none';
}

export interface KeysetPage<T> {
  items: T[];
  /** The next page's cursor parameters; absent on a page that announces none. */
  next?: Record<string, unknown>;
}

/** Whether a request asks a route that declares `keyset` for keyset pages. */
export const keysetAsked = <T, W extends CoreState>(keyset: Keyset<T, W>, input: KeysetInput): boolean =>
  keyset.asked ? keyset.asked(input) : input.pagination === 'keyset';

/** A keyset page of `all` with its headers: 405 for an order without keyset pages, then the declared cut. */
export function paginateKeyset<T, W extends CoreState>(keyset: Keyset<T, W>, all: readonly T[], input: KeysetInput, base: LinkBase, state: W): PageResult<T> {
  if (keyset.orderBy && !keyset.orderBy.includes(input.order_by as string)) throw keysetUnsupported();
  const size = pageRequest(input);
  const { items, next } = keyset.page(all, input, size, state);
  const style = keyset.headers ?? 'links';
  const headers: Record<string, string> = {};
  if (next && style !== 'none') {
    const params = { ...base.params };
    for (const name of keyset.cursor) delete params[name];
    const value = link({ base: base.base, params }, next, 'next');
    // Keyset::HeaderBuilder#add_next_page_header: `Link` and, with the same value, the deprecated `Links`.
    if (style === 'links') headers.Links = value;
    headers.Link = value;
  }
  if (style === 'cursor') headers['X-Per-Page'] = String(size.perPage);
  return { items, headers };
}

/**
 * Keyset pages by id (projects, users): only `order_by=id`; the caller filters by
 * `id_after`/`id_before` in the order's direction (`sort`); a `next` link is sent whenever the
 * page is not empty, so the page after the last is `[]` with none.
 */
export const KEYSET_BY_ID: Keyset<{ id: number }> = {
  orderBy: ['id'],
  cursor: ['id_after', 'id_before'],
  page(sorted, input, { perPage }) {
    const after = input.id_after as number | undefined;
    const before = input.id_before as number | undefined;
    const items = sorted.filter((r) => (after === undefined || r.id > after) && (before === undefined || r.id < before)).slice(0, perPage);
    const last = items[items.length - 1];
    return { items, next: last && (input.sort === 'asc' ? { id_after: last.id } : { id_before: last.id }) };
  },
};

/**
 * Gitaly's keyset pages (GitalyKeysetPager): the rows after the one `page_token` names (where
 * `start` places it: the index after that row, or its own error), `per_page` of them; the next
 * page, named by the last row's token, is announced by a full page (`full`), or only when rows
 * remain after it (`remaining`).
 */
export function pageTokenKeyset<T>(opts: {
  token: (row: T) => string;
  start: (all: readonly T[], token: string) => number;
  announce: 'full' | 'remaining';
}): Keyset<T> {
  return {
    cursor: ['page_token'],
    page(all, input, { perPage }) {
      const token = input.page_token as string | undefined;
      const start = token === undefined ? 0 : opts.start(all, token);
      const items = all.slice(start, start + perPage);
      const more = opts.announce === 'full' ? items.length === perPage : start + perPage < all.length;
      return { items, next: more ? { page_token: opts.token(items[items.length - 1]!) } : undefined };
    },
  };
}
