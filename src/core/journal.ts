// The request journal: the last N requests with the world before and after each (two
// references, no copies), so a test can assert on traffic and step back to any point.

/** One request; `S` is the world's snapshot type (two references, no copies). */
export interface JournalEntry<S = unknown> {
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
  before: S;
  after: S;
  /** Set when the request failed with an unexpected exception (a defect, answered 500). */
  error?: string;
  /** Set when the client went away before its request was read (status 499, nginx's). */
  aborted?: true;
}

export class Journal<S = unknown> {
  #entries: JournalEntry<S>[] = [];
  #seq = 0;

  constructor(public limit = 1000) {}

  add(entry: Omit<JournalEntry<S>, 'seq'>): JournalEntry<S> {
    const full = { seq: ++this.#seq, ...entry };
    if (this.limit <= 0) return full;
    this.#entries.push(full);
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit);
    return full;
  }

  entries(): readonly JournalEntry<S>[] {
    return this.#entries;
  }

  last(): JournalEntry<S> | undefined {
    return this.#entries[this.#entries.length - 1];
  }

  clear(): void {
    this.#entries = [];
  }
}
