// The request journal: the last N requests with the world before and after each (two
// references, no copies), so a test can assert on traffic and step back to any point.
import type { Snapshot } from '../store/store.js';

export interface JournalEntry {
  seq: number;
  at: string;
  method: string;
  path: string;
  query: string;
  status: number;
  /** Username of the acting user (after sudo), or null. */
  user: string | null;
  durationMs: number;
  route: string | null;
  before: Snapshot;
  after: Snapshot;
  /** Set when the request failed with an unexpected exception (a defect, answered 500). */
  error?: string;
}

export class Journal {
  #entries: JournalEntry[] = [];
  #seq = 0;

  constructor(public limit = 1000) {}

  add(entry: Omit<JournalEntry, 'seq'>): JournalEntry {
    const full = { seq: ++this.#seq, ...entry };
    if (this.limit <= 0) return full;
    this.#entries.push(full);
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit);
    return full;
  }

  entries(): readonly JournalEntry[] {
    return this.#entries;
  }

  last(): JournalEntry | undefined {
    return this.#entries[this.#entries.length - 1];
  }

  clear(): void {
    this.#entries = [];
  }
}
