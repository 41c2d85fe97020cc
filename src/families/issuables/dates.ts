// Dates as ActiveRecord casts a string into a date column: `YYYY-MM-DD` (or a timestamp that
// starts with one); what it cannot read becomes nil. And dates as quick actions read them with
// Chronic (chrono-node's casual English parser).
import * as chrono from 'chrono-node/en';

export function castDateLike(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(raw);
  if (!m) return null;
  const text = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  const d = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text ? null : text;
}

/** Words that turn Chronic to the past (`last monday`, `2 days ago`); anything else is read as the next such day. */
const PAST = /\b(?:last|ago|yesterday|previous|before)\b/i;

/**
 * `Chronic.parse(text).to_date`, as `/due` reads its argument: a date (`2027-01-15`, `jan 15`,
 * `December 31st`), a day (`today`, `tomorrow`, `yesterday`, `friday`, `next monday`) or a span
 * from now (`in 2 days`), in UTC; null when it names no date.
 */
export function chronicDate(text: string, now: number): string | null {
  const d = chrono.casual.parseDate(text, { instant: new Date(now), timezone: 0 }, { forwardDate: !PAST.test(text) });
  return d ? d.toISOString().slice(0, 10) : null;
}
