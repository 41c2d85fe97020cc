// The emulator's clock: real by default, can be frozen, set and advanced. Every timestamp the
// emulator writes comes from here. Listeners run after each change so that timed work scheduled
// in the world can run as the clock passes it.

export type DurationInput = number | string;

const UNITS: Record<string, number> = {
  ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000,
};

/** Parses `1500`, `'2h30m'`, `'1d 4h'`, `'90s'`, `'250ms'` into milliseconds. */
export function parseDuration(input: DurationInput): number {
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
  if (text.length === 0) throw new RangeError(`invalid duration: '${input}'`);
  return total;
}

export function toEpoch(value: Date | string | number): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`invalid time: ${String(value)}`);
  return ms;
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

  constructor(options: ClockOptions = {}) {
    const real = Date.now();
    const start = options.now === undefined ? real : toEpoch(options.now);
    this.#offset = start - real;
    // A frozen clock stands exactly at its start: reading Date.now() again could be a tick later.
    if (options.frozen) this.#frozenAt = start;
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
    if (this.#frozenAt !== undefined) this.#frozenAt += ms;
    else this.#offset += ms;
    this.#changed();
    return this;
  }

  /** Called after every set, advance or freeze. Returns an unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const l of this.#listeners) l();
  }
}
