// GitLab's duration language (Gitlab::TimeTrackingFormatter over gitlab-chronic-duration):
// `1mo 2w 3d 4h 5m`, 1mo = 4w, 1w = 5d, 1d = 8h, a bare number is hours, a leading minus
// negates; and the short human form of a number of seconds.

const MINUTE = 60;
const HOUR = 3600;
const DAY = 8 * HOUR;
const WEEK = 5 * DAY;
const MONTH = 4 * WEEK;
const YEAR = 31_557_600;
/** The largest duration GitLab's columns hold (time_estimate and time_spent are int4): a longer one is refused. */
export const MAX_DURATION = 2_147_483_647;

const UNITS: ReadonlyMap<string, number> = new Map([
  ...['s', 'sec', 'secs', 'second', 'seconds'].map((w) => [w, 1] as const),
  ...['m', 'min', 'mins', 'minute', 'minutes'].map((w) => [w, MINUTE] as const),
  ...['h', 'hr', 'hrs', 'hour', 'hours'].map((w) => [w, HOUR] as const),
  ...['d', 'dy', 'day', 'days'].map((w) => [w, DAY] as const),
  ...['w', 'wk', 'wks', 'week', 'weeks'].map((w) => [w, WEEK] as const),
  ...['mo', 'mos', 'month', 'months'].map((w) => [w, MONTH] as const),
  ...['y', 'yr', 'yrs', 'year', 'years'].map((w) => [w, YEAR] as const),
]);

/** Units of the chrono form `1:30` from the right: seconds, minutes, hours, days, months, years. */
const CHRONO = [1, MINUTE, HOUR, DAY, MONTH, YEAR];

/**
 * TimeTrackingFormatter.parse: seconds, or null for what reads as nothing (and for 0 unless
 * `keepZero`). Unknown words are dropped, as the formatter runs with exceptions off. A duration
 * no int4 column holds (`9999…w`) is refused as one that cannot be read.
 */
export function parseDuration(input: string, keepZero = false): number | null {
  let text = input.trim().toLowerCase();
  let sign = 1;
  if (text.startsWith('-')) {
    sign = -1;
    text = text.slice(1);
  }
  let seconds: number | null;
  if (/^\d+(?:\.\d+)?(?::\d+(?:\.\d+)?)+$/.test(text)) {
    const parts = text.split(':').map(Number).reverse();
    seconds = parts.length > CHRONO.length ? null : parts.reduce((sum, n, i) => sum + n * CHRONO[i]!, 0);
  } else {
    seconds = fromWords(text);
  }
  if (seconds === null || !(Math.abs(seconds) <= MAX_DURATION)) return null;
  seconds = Math.round(seconds);
  if (seconds === 0 && !keepZero) return null;
  return sign * seconds;
}

function fromWords(text: string): number | null {
  const spaced = text.replace(/(\d)\s*([a-z])/g, '$1 $2').replace(/([a-z])\s*(\d)/g, '$1 $2').replace(/,/g, ' ');
  const words = spaced.split(/\s+/).filter((w) => w !== '' && (/^\d+(?:\.\d+)?$/.test(w) || /^\.\d+$/.test(w) || UNITS.has(w)));
  if (words.length === 0) return null;
  if (UNITS.has(words[0]!)) words.unshift('1');
  let total = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (UNITS.has(w)) continue;
    const n = Number(w);
    const next = words[i + 1];
    total += n * (next !== undefined && UNITS.has(next) ? UNITS.get(next)! : HOUR);
  }
  return total;
}

/** TimeTrackingFormatter.output: `1mo 2w 3d 4h 5m`; null for 0; a minus before a negative. */
export function formatDuration(seconds: number): string | null {
  if (seconds === 0) return null;
  if (seconds < 0) return `-${formatDuration(-seconds)}`;
  if (seconds >= YEAR && seconds % YEAR < seconds % MONTH) {
    const month160 = 160 * HOUR;
    return parts(seconds, [['y', YEAR], ['mo', month160], ['d', DAY], ['h', HOUR], ['m', MINUTE], ['s', 1]]);
  }
  return parts(seconds, [['mo', MONTH], ['w', WEEK], ['d', DAY], ['h', HOUR], ['m', MINUTE], ['s', 1]]);
}

function parts(seconds: number, units: [string, number][]): string {
  const out: string[] = [];
  let rest = seconds;
  for (const [name, size] of units) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) out.push(`${n}${name}`);
  }
  return out.join(' ');
}
