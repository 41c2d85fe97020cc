// GitLab's connections (Gitlab::Graphql::Pagination::Keyset): `nodes`, `edges { cursor node }`,
// `pageInfo` and `count` over a list in its order; a cursor is Base64 of the JSON of the record's
// sort keys and id, and `after`/`before` find their place by that id.
import { GraphQLError } from 'graphql';
import { fromBase64, toBase64, utf8 } from '../../git/bytes.js';

export const MAX_PAGE_SIZE = 100;

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** The cursor of a record: its sort keys, then its id, as strings. */
export const cursorOf = (keys: Record<string, string | number | null>, id: number | string): string =>
  toBase64(utf8(JSON.stringify({ ...Object.fromEntries(Object.entries(keys).map(([k, v]) => [k, v === null ? null : String(v)])), id: String(id) })));

function cursorId(cursor: string): string {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(fromBase64(cursor))) as unknown;
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { id?: unknown }).id === 'string') return (parsed as { id: string }).id;
  } catch {
    // not one of ours
  }
  throw new GraphQLError('Please provide a valid cursor', { extensions: { code: 'argumentError' } });
}

export class Connection<T> {
  readonly #all: readonly T[];
  readonly #page: { item: T; index: number }[];
  readonly #cursor: (t: T) => string;

  constructor(all: readonly T[], args: PageArgs, id: (t: T) => number | string, keys: (t: T) => Record<string, string | number | null> = () => ({})) {
    this.#all = all;
    this.#cursor = (t) => cursorOf(keys(t), id(t));
    for (const n of [args.first, args.last]) {
      if (typeof n === 'number' && n < 0) throw new GraphQLError('Argument "first" and "last" must be a non-negative integer', { extensions: { code: 'argumentError' } });
    }
    let start = 0;
    let end = all.length;
    const at = (cursor: string) => {
      const want = cursorId(cursor);
      return all.findIndex((t) => String(id(t)) === want);
    };
    if (args.after) {
      const i = at(args.after);
      start = i < 0 ? all.length : i + 1;
    }
    if (args.before) {
      const i = at(args.before);
      end = i < 0 ? end : Math.min(end, i);
    }
    const first = typeof args.first === 'number' ? Math.min(args.first, MAX_PAGE_SIZE) : undefined;
    const last = typeof args.last === 'number' ? Math.min(args.last, MAX_PAGE_SIZE) : undefined;
    if (first !== undefined) end = Math.min(end, start + first);
    if (last !== undefined) start = Math.max(start, end - last);
    if (first === undefined && last === undefined) end = Math.min(end, start + MAX_PAGE_SIZE);
    this.#page = [];
    for (let i = start; i < end; i++) this.#page.push({ item: all[i]!, index: i });
  }

  get count(): number {
    return this.#all.length;
  }

  nodes(): T[] {
    return this.#page.map((p) => p.item);
  }

  edges(): { cursor: string; node: T }[] {
    return this.#page.map((p) => ({ cursor: this.#cursor(p.item), node: p.item }));
  }

  pageInfo() {
    const first = this.#page[0];
    const last = this.#page[this.#page.length - 1];
    return {
      hasNextPage: last ? last.index < this.#all.length - 1 : false,
      hasPreviousPage: first ? first.index > 0 : false,
      startCursor: first ? this.#cursor(first.item) : null,
      endCursor: last ? this.#cursor(last.item) : null,
    };
  }
}
