// A page of merge requests in any order, by state, label titles, author, assignee and milestone
// title, read without sorting them: each chunk of a project's table (64 merge requests, an
// immutable Map shared by every version of the world that did not write to it) keeps, once
// computed, its merge requests meeting each condition asked, in each order asked, with their
// counts by state. A page merges the chunks' lists, of one project or of every project a group's
// or the instance's list covers (a heap of one cursor per chunk), and stops at the page's end;
// the total is the sum of the chunks' counts. A write re-indexes only the chunk it touched.
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
  /** The milestone ids the chunk's merge requests are in. */
  milestones: Set<number> | undefined;
  /** A condition's key (see conditionIn) -> the chunk's merge requests meeting it. */
  members: Map<string, MergeRequest[]>;
  /** `<order>|<sort>|<condition>` -> those merge requests in that order. */
  sorted: Map<string, Sorted>;
  /** `<condition>` -> how many of those are in each state. */
  counts: Map<string, StateCounts>;
}

type Chunk = ReadonlyMap<string, MergeRequest>;
const INDEXES = new WeakMap<Chunk, ChunkIndex>();

function indexOf(chunk: Chunk): ChunkIndex {
  let index = INDEXES.get(chunk);
  if (index) return index;
  index = { byLabel: undefined, milestones: undefined, members: new Map(), sorted: new Map(), counts: new Map() };
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

function milestonesIn(chunk: Chunk, index: ChunkIndex): Set<number> {
  if (index.milestones) return index.milestones;
  const m = new Set<number>();
  for (const mr of chunk.values()) if (mr.milestoneId !== null) m.add(mr.milestoneId);
  return (index.milestones = m);
}

/**
 * What a chunk's merge requests must meet, in the chunk's own ids: for each label title asked,
 * one of the labels of that title; the author; the assignee; one of the milestones of the title
 * asked. Its key names it among the chunk's cached lists. Null when no merge request of the
 * chunk can meet it (a title none of its labels or milestones has).
 */
interface Condition {
  key: string;
  labels: number[][];
  authorId?: number;
  assigneeId?: number;
  milestones?: number[];
}

const ANY: Condition = { key: '*', labels: [] };

function conditionIn(chunk: Chunk, index: ChunkIndex, ask: PageAsk, lookup: Lookup): Condition | null {
  if (!ask.labels?.length && ask.milestone === undefined && ask.authorId === undefined && ask.assigneeId === undefined) return ANY;
  const labels: number[][] = [];
  const parts: string[] = [];
  for (const title of ask.labels ?? []) {
    let ids: number[] | undefined;
    for (const id of byLabel(chunk, index).keys()) if (lookup.labelTitle(id) === title) (ids ??= []).push(id);
    if (!ids) return null;
    if (ids.length > 1) ids.sort((a, b) => a - b);
    labels.push(ids);
    parts.push(`l${ids.join(',')}`);
  }
  let milestones: number[] | undefined;
  if (ask.milestone !== undefined) {
    const first = chunk.values().next().value as MergeRequest | undefined;
    if (!first) return null;
    const ids = [...milestonesIn(chunk, index)].filter((id) => lookup.milestoneTitle(first.projectId, id) === ask.milestone).sort((a, b) => a - b);
    if (ids.length === 0) return null;
    milestones = ids;
    parts.push(`m${ids.join(',')}`);
  }
  if (ask.authorId !== undefined) parts.push(`a${ask.authorId}`);
  if (ask.assigneeId !== undefined) parts.push(`s${ask.assigneeId}`);
  return { key: parts.length === 1 ? parts[0]! : parts.length ? [...new Set(parts)].sort().join('|') : '*', labels, authorId: ask.authorId, assigneeId: ask.assigneeId, milestones };
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

function members(chunk: Chunk, index: ChunkIndex, c: Condition): MergeRequest[] {
  let list = index.members.get(c.key);
  if (list) return list;
  if (c.key === '*') list = [...chunk.values()];
  else {
    // The smallest label's list (or the whole chunk) narrowed by the rest.
    let base: Iterable<MergeRequest> = chunk.values();
    let size = Infinity;
    for (const ids of c.labels) {
      if (ids.length !== 1) continue;
      const l = byLabel(chunk, index).get(ids[0]!) ?? [];
      if (l.length < size) [base, size] = [l, l.length];
    }
    const labels = c.labels.map((ids) => new Set(ids));
    const milestones = c.milestones && new Set(c.milestones);
    list = [];
    for (const mr of base) {
      if (c.authorId !== undefined && mr.authorId !== c.authorId) continue;
      if (c.assigneeId !== undefined && !mr.assigneeIds.includes(c.assigneeId)) continue;
      if (milestones && (mr.milestoneId === null || !milestones.has(mr.milestoneId))) continue;
      if (!labels.every((ids) => mr.labelIds.some((id) => ids.has(id)))) continue;
      list.push(mr);
    }
  }
  index.members.set(c.key, list);
  return list;
}

function sortedIn(chunk: Chunk, index: ChunkIndex, orderBy: OrderBy, dir: 1 | -1, c: Condition): Sorted {
  const name = `${orderBy}|${dir}|${c.key}`;
  let s = index.sorted.get(name);
  if (s) return s;
  const keyed = members(chunk, index, c).map((mr) => ({ mr, k: keyOf(orderBy, mr) }));
  keyed.sort((a, b) => compareKeyed(a.k, a.mr, b.k, b.mr, dir));
  s = { list: keyed.map((x) => x.mr), keys: keyed.map((x) => x.k) };
  index.sorted.set(name, s);
  return s;
}

function countsIn(chunk: Chunk, index: ChunkIndex, c: Condition): StateCounts {
  let n = index.counts.get(c.key);
  if (n) return n;
  n = { opened: 0, closed: 0, merged: 0, locked: 0 };
  for (const mr of members(chunk, index, c)) n[mr.state]++;
  index.counts.set(c.key, n);
  return n;
}

export interface PageAsk {
  orderBy: OrderBy;
  sort: 'asc' | 'desc';
  state: MergeRequest['state'] | 'all';
  /** Label titles every merge request listed carries (each by one label of that title at least). */
  labels?: string[];
  authorId?: number;
  assigneeId?: number;
  /** The title of the milestone every merge request listed is in. */
  milestone?: string;
  /** Rows to skip, and the row after the last wanted. */
  from: number;
  to: number;
}

/** Titles of labels, and of milestones as a project sees them (its own and its groups'). */
export interface Lookup {
  labelTitle(id: number): string | undefined;
  milestoneTitle(projectId: number, id: number): string | null;
}

/**
 * Rows `from` to `to` of the merge requests of the tables given (one project's, or those of
 * every project a list covers) in the order asked, and how many there are in all.
 */
export function mergeRequestPage(tables: Iterable<Table<MergeRequest> | undefined>, ask: PageAsk, lookup: Lookup): { page: MergeRequest[]; total: number } {
  const dir = ask.sort === 'asc' ? 1 : -1;
  const cursors: { s: Sorted; at: number }[] = [];
  let total = 0;
  for (const table of tables) {
    if (!table) continue;
    for (const chunk of tchunks(table)) {
      const index = indexOf(chunk);
      const c = conditionIn(chunk, index, ask, lookup);
      if (!c) continue;
      const counts = countsIn(chunk, index, c);
      const n = ask.state === 'all' ? counts.opened + counts.closed + counts.merged + counts.locked : counts[ask.state];
      if (n === 0) continue;
      total += n;
      cursors.push({ s: sortedIn(chunk, index, ask.orderBy, dir, c), at: 0 });
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
