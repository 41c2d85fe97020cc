// A page of a project's merge requests in any order, by state and one label at most, read
// without sorting the project: each chunk of the project's table (64 merge requests, an immutable
// Map shared by every version of the world that did not write to it) keeps, once computed, its
// merge requests in each order asked, by label, with their counts by state. A page merges the
// chunks' lists (a heap of one cursor per chunk) and stops at the page's end; the total is the
// sum of the chunks' counts. A write re-indexes only the chunk it touched.
import { tchunks, type Table } from '../../store/table.js';
import type { MergeRequest } from './records.js';

export type OrderBy = 'created_at' | 'updated_at' | 'title' | 'merged_at';
type Key = number | string | null;
type StateCounts = Record<MergeRequest['state'], number>;

interface Sorted {
  list: MergeRequest[];
  keys: Key[];
}

interface ChunkIndex {
  /** Label id -> the chunk's merge requests carrying it. */
  byLabel: Map<number, MergeRequest[]> | undefined;
  /** `<order>|<sort>|<label id or *>` -> those merge requests in that order. */
  sorted: Map<string, Sorted>;
  /** `<label id or *>` -> how many of those are in each state. */
  counts: Map<string, StateCounts>;
}

type Chunk = ReadonlyMap<string, MergeRequest>;
const INDEXES = new WeakMap<Chunk, ChunkIndex>();

function indexOf(chunk: Chunk): ChunkIndex {
  let index = INDEXES.get(chunk);
  if (index) return index;
  index = { byLabel: undefined, sorted: new Map(), counts: new Map() };
  // A chunk still being written (a draft) is indexed afresh each time.
  if (Object.isFrozen(chunk)) INDEXES.set(chunk, index);
  return index;
}

function byLabel(chunk: Chunk, index: ChunkIndex): Map<number, MergeRequest[]> {
  if (index.byLabel) return index.byLabel;
  const m = new Map<number, MergeRequest[]>();
  for (const mr of chunk.values()) {
    for (const id of new Set(mr.labelIds)) {
      const list = m.get(id);
      if (list) list.push(mr);
      else m.set(id, [mr]);
    }
  }
  return (index.byLabel = m);
}

const keyOf = (orderBy: OrderBy, m: MergeRequest): Key =>
  orderBy === 'updated_at' ? m.updatedAt : orderBy === 'title' ? m.title.toLowerCase() : orderBy === 'merged_at' ? m.mergedAt : m.createdAt;

/** The order asked, nulls last, ties newest id first (Issuable.sort_by_attribute's with_order_id_desc). */
export function compareKeyed(ka: Key, a: MergeRequest, kb: Key, b: MergeRequest, dir: 1 | -1): number {
  if (ka !== kb) {
    if (ka === null) return 1;
    if (kb === null) return -1;
    return (ka < kb ? -1 : 1) * dir;
  }
  return b.id - a.id;
}

function members(chunk: Chunk, index: ChunkIndex, label: number | null): MergeRequest[] {
  return label === null ? [...chunk.values()] : byLabel(chunk, index).get(label) ?? [];
}

function sortedIn(chunk: Chunk, index: ChunkIndex, orderBy: OrderBy, dir: 1 | -1, label: number | null): Sorted {
  const name = `${orderBy}|${dir}|${label ?? '*'}`;
  let s = index.sorted.get(name);
  if (s) return s;
  const keyed = members(chunk, index, label).map((mr) => ({ mr, k: keyOf(orderBy, mr) }));
  keyed.sort((a, b) => compareKeyed(a.k, a.mr, b.k, b.mr, dir));
  s = { list: keyed.map((x) => x.mr), keys: keyed.map((x) => x.k) };
  index.sorted.set(name, s);
  return s;
}

function countsIn(chunk: Chunk, index: ChunkIndex, label: number | null): StateCounts {
  const name = String(label ?? '*');
  let c = index.counts.get(name);
  if (c) return c;
  c = { opened: 0, closed: 0, merged: 0, locked: 0 };
  for (const mr of members(chunk, index, label)) c[mr.state]++;
  index.counts.set(name, c);
  return c;
}

export interface PageAsk {
  orderBy: OrderBy;
  sort: 'asc' | 'desc';
  state: MergeRequest['state'] | 'all';
  /** A label title every merge request listed carries; undefined for any. */
  label?: string;
  /** Rows to skip, and the row after the last wanted. */
  from: number;
  to: number;
}

/**
 * Rows `from` to `to` of the project's merge requests in the order asked, and how many there
 * are in all; null when a chunk holds two labels of the title asked (a project's and a group's),
 * which this index does not merge (then the caller reads every merge request).
 */
export function mergeRequestPage(table: Table<MergeRequest> | undefined, ask: PageAsk, labelTitle: (id: number) => string | undefined): { page: MergeRequest[]; total: number } | null {
  const dir = ask.sort === 'asc' ? 1 : -1;
  const cursors: { s: Sorted; at: number }[] = [];
  let total = 0;
  if (table) {
    for (const chunk of tchunks(table)) {
      const index = indexOf(chunk);
      let label: number | null = null;
      if (ask.label !== undefined) {
        const ids = [...byLabel(chunk, index).keys()].filter((id) => labelTitle(id) === ask.label);
        if (ids.length === 0) continue;
        if (ids.length > 1) return null;
        label = ids[0]!;
      }
      const counts = countsIn(chunk, index, label);
      const n = ask.state === 'all' ? counts.opened + counts.closed + counts.merged + counts.locked : counts[ask.state];
      if (n === 0) continue;
      total += n;
      cursors.push({ s: sortedIn(chunk, index, ask.orderBy, dir, label), at: 0 });
    }
  }
  // A min-heap of cursors by their next merge request (in the state asked).
  const heap: { s: Sorted; at: number }[] = [];
  const before = (a: { s: Sorted; at: number }, b: { s: Sorted; at: number }) => compareKeyed(a.s.keys[a.at]!, a.s.list[a.at]!, b.s.keys[b.at]!, b.s.list[b.at]!, dir) < 0;
  const skip = (c: { s: Sorted; at: number }) => {
    if (ask.state !== 'all') while (c.at < c.s.list.length && c.s.list[c.at]!.state !== ask.state) c.at++;
    return c.at < c.s.list.length;
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  const to = Math.min(ask.to, total);
  const page: MergeRequest[] = [];
  if (to > ask.from) {
    for (const c of cursors) if (skip(c)) heap.push(c);
    for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
    for (let seen = 0; seen < to && heap.length > 0; seen++) {
      const top = heap[0]!;
      if (seen >= ask.from) page.push(top.s.list[top.at]!);
      top.at++;
      if (!skip(top)) {
        heap[0] = heap[heap.length - 1]!;
        heap.pop();
      }
      if (heap.length > 0) down(0);
    }
  }
  return { page, total };
}
