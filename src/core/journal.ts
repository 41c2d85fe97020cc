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
  /** Set when no route of the emulator matches the path (answered GitLab's 404). */
  noRoute?: true;
  /** Why authentication refused the request's credentials (an expired token, a wrong git password). */
  refused?: string;
}

/** The last `limit` entries in a ring: adding one costs the same however full it is. */
export class Journal<S = unknown> {
  #ring: JournalEntry<S>[] = [];
  /** Where the oldest entry is, once the ring is full. */
  #start = 0;
  #seq = 0;

  constructor(readonly limit = 1000) {}

  add(entry: Omit<JournalEntry<S>, 'seq'>): JournalEntry<S> {
    const full = { seq: ++this.#seq, ...entry } as JournalEntry<S>;
    if (this.limit <= 0) return full;
    if (this.#ring.length < this.limit) this.#ring.push(full);
    else {
      this.#ring[this.#start] = full;
      this.#start = (this.#start + 1) % this.#ring.length;
    }
    return full;
  }

  /** Oldest first. */
  entries(): readonly JournalEntry<S>[] {
    return this.#start === 0 ? this.#ring : [...this.#ring.slice(this.#start), ...this.#ring.slice(0, this.#start)];
  }

  last(): JournalEntry<S> | undefined {
    const n = this.#ring.length;
    return n === 0 ? undefined : this.#ring[(this.#start + n - 1) % n];
  }

  clear(): void {
    this.#ring = [];
    this.#start = 0;
  }
}
