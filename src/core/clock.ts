// The emulator's clock: real by default, can be frozen, set and advanced. Every timestamp the
// emulator writes comes from here. Listeners run after each change so that timed work scheduled
// in the world can run as the clock passes it. The clock stays between 1970 and the end of 9999,
// the times `Date` renders as ISO 8601; anything outside is refused with a RangeError.

export type DurationInput = number | string;

/** The earliest time the clock may show: 1970-01-01T00:00:00.000Z. */
export const MIN_TIME = 0;
/** The latest time the clock may show: 9999-12-31T23:59:59.999Z. */
export const MAX_TIME = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function checkTime(ms: number, what: string): number {
  if (!(ms >= MIN_TIME && ms <= MAX_TIME)) {
    throw new RangeError(`${what}: the clock runs from 1970-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z`);
  }
  return ms;
}

const UNITS: Record<string, number> = {
  ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000,
};

/** Parses `1500`, `'2h30m'`, `'1d 4h'`, `'90s'`, `'250ms'` into milliseconds. */
export function parseDuration(input: DurationInput): number {
  if (typeof input !== 'number' && typeof input !== 'string') throw new RangeError(`invalid duration: ${String(input)}`);
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) throw new RangeError(`invalid duration: ${input}`);
    return input;
  }
  const text = input.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const re = /(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)/gy;
  let total = 0;
  let pos = 0;
  let match: RegExpExecArray | null;
  while (pos < text.length) {
    re.lastIndex = pos;
    match = re.exec(text);
    if (!match) throw new RangeError(`invalid duration: '${input}' (use forms like 2h30m, 10m, 1d, 500ms)`);
    total += Number(match[1]) * UNITS[match[2]!]!;
    pos = re.lastIndex;
    while (text[pos] === ' ') pos++;
  }
  if (text.length === 0 || !Number.isFinite(total)) throw new RangeError(`invalid duration: '${input}'`);
  return total;
}

/** A time as epoch milliseconds; a time that is not one, or is outside 1970..9999, is a RangeError. */
export function toEpoch(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw new RangeError(`invalid time: ${String(value)}`);
  return checkTime(ms, `invalid time: ${String(value)}`);
}

export interface ClockOptions {
  /** Start time; the clock runs from here (or stays, when frozen). */
  now?: Date | string | number;
  frozen?: boolean;
}

export class Clock {
  #frozenAt: number | undefined;
  #offset = 0;
  #listeners = new Set<() => void>();
  /** As created: where `reset()` returns to. */
  readonly #initial: { frozenAt: number | undefined; offset: number };

  constructor(options: ClockOptions = {}) {
    const real = Date.now();
    const start = options.now === undefined ? real : toEpoch(options.now);
    this.#offset = start - real;
    // A frozen clock stands exactly at its start: reading Date.now() again could be a tick later.
    if (options.frozen) this.#frozenAt = start;
    this.#initial = { frozenAt: this.#frozenAt, offset: this.#offset };
  }

  now(): number {
    return this.#frozenAt ?? Date.now() + this.#offset;
  }

  date(): Date {
    return new Date(this.now());
  }

  get frozen(): boolean {
    return this.#frozenAt !== undefined;
  }

  freeze(at?: Date | string | number): this {
    this.#frozenAt = at === undefined ? this.now() : toEpoch(at);
    this.#changed();
    return this;
  }

  unfreeze(): this {
    if (this.#frozenAt !== undefined) {
      this.#offset = this.#frozenAt - Date.now();
      this.#frozenAt = undefined;
      this.#changed();
    }
    return this;
  }

  set(at: Date | string | number): this {
    const t = toEpoch(at);
    if (this.#frozenAt !== undefined) this.#frozenAt = t;
    else this.#offset = t - Date.now();
    this.#changed();
    return this;
  }

  advance(by: DurationInput): this {
    const ms = parseDuration(by);
    checkTime(this.now() + ms, `cannot advance the clock by ${String(by)}`);
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offset += ms;
    this.#changed();
    return this;
  }

  /**
   * Back to the clock as it was created: a frozen clock to its start time, a running one running
   * at the distance from real time it started with (as if it had never been set or advanced).
   */
  reset(): this {
    this.#frozenAt = this.#initial.frozenAt;
    this.#offset = this.#initial.offset;
    this.#changed();
    return this;
  }

  /** Called after every set, advance, freeze or unfreeze. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const l of this.#listeners) l();
  }
}
