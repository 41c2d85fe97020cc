// Dates as ActiveRecord casts a string into a date column (the milestones family's castDate:
// `YYYY-MM-DD`, or a timestamp that starts with one; what it cannot read becomes nil), and dates
// as quick actions read them with Chronic (chrono-node's casual English parser).
import { castDate } from '../milestones/index.js';

export const castDateLike = castDate;

/**
 * chrono-node costs ~40 ms of CPU to load: in Node it is loaded at its first use (a `/due`
 * quick action), synchronously; where there is no `require` (a page), with the first emulator
 * (`load` in the declaration).
 */
let chrono: typeof import('chrono-node/en') | undefined;

export async function loadDates(): Promise<void> {
  if (!chrono && !nodeRequire()) chrono = await import('chrono-node/en');
}

function nodeRequire(): ((id: string) => unknown) | undefined {
  const builtin = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  const mod = builtin?.('node:module') as typeof import('node:module') | undefined;
  const base: string | undefined = import.meta.url ?? (typeof __filename === 'string' ? __filename : undefined); // a CommonJS build has no import.meta
  return mod?.createRequire && base ? mod.createRequire(base) : undefined;
}

function loadedChrono(): typeof import('chrono-node/en') | undefined {
  return (chrono ??= nodeRequire()?.('chrono-node/en') as typeof import('chrono-node/en') | undefined);
}

/** Words that turn Chronic to the past (`last monday`, `2 days ago`); anything else is read as the next such day. */
const PAST = /\b(?:last|ago|yesterday|previous|before)\b/i;

/**
 * `Chronic.parse(text).to_date`, as `/due` reads its argument: a date (`2027-01-15`, `jan 15`,
 * `December 31st`), a day (`today`, `tomorrow`, `yesterday`, `friday`, `next monday`) or a span
 * from now (`in 2 days`), in UTC; null when it names no date.
 */
export function chronicDate(text: string, now: number): string | null {
  const chrono = loadedChrono();
  if (!chrono) throw new Error('dates are read before the issuables family loaded chrono-node: create emulators with createEmulator');
  const d = chrono.casual.parseDate(text, { instant: new Date(now), timezone: 0 }, { forwardDate: !PAST.test(text) });
  return d ? d.toISOString().slice(0, 10) : null;
}
