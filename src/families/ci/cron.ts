// Cron as pipeline schedules read it (Gitlab::Ci::CronParser over Fugit): five fields (minute,
// hour, day of month, month, day of week) with lists, ranges, steps and names, or `@hourly`,
// `@daily`..., evaluated in the schedule's time zone.

export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  anyDay: boolean;
  anyWeekday: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const SHORTHANDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *',
};

function field(text: string, min: number, max: number, names: string[] = [], nameBase = 0): Set<number> | null {
  const out = new Set<number>();
  const value = (s: string): number | null => {
    const i = names.indexOf(s.toLowerCase());
    if (i >= 0) return i + nameBase;
    if (!/^\d+$/.test(s)) return null;
    return Number(s);
  };
  for (const part of text.split(',')) {
    const m = /^(\*|[a-z0-9]+(?:-[a-z0-9]+)?)(?:\/(\d+))?$/i.exec(part);
    if (!m) return null;
    const step = m[2] === undefined ? 1 : Number(m[2]);
    if (step < 1) return null;
    let lo: number, hi: number;
    if (m[1] === '*') {
      lo = min;
      hi = max;
    } else if (m[1]!.includes('-')) {
      const [a, b] = m[1]!.split('-').map(value);
      if (a === null || b === null || a === undefined || b === undefined) return null;
      lo = a;
      hi = b;
    } else {
      const a = value(m[1]!);
      if (a === null) return null;
      lo = a;
      hi = m[2] === undefined ? a : max;
    }
    if (lo < min || hi > max || lo > hi) return null;
    for (let v = lo; v <= hi; v += step) out.add(v);
  }
  return out;
}

/** The cron, or null when it is not valid (GitLab's " is invalid syntax"). */
export function parseCron(text: string): Cron | null {
  const src = SHORTHANDS[text.trim().toLowerCase()] ?? text.trim();
  const parts = src.split(/\s+/);
  if (parts.length !== 5) return null;
  const minutes = field(parts[0]!, 0, 59);
  const hours = field(parts[1]!, 0, 23);
  const days = field(parts[2]!, 1, 31);
  const months = field(parts[3]!, 1, 12, MONTHS, 1);
  const weekdays = field(parts[4]!, 0, 7, DAYS);
  if (!minutes || !hours || !days || !months || !weekdays) return null;
  if (weekdays.has(7)) weekdays.add(0);
  return { minutes, hours, days, months, weekdays, anyDay: parts[2] === '*', anyWeekday: parts[4] === '*' };
}

/** Whether the time zone is one the clock can read (IANA names, `UTC`). */
export function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock fields of an instant in a zone. */
function wall(ms: number, tz: string): { y: number; mo: number; d: number; h: number; mi: number } {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    formatters.set(tz, f);
  }
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { y: parts.year!, mo: parts.month!, d: parts.day!, h: parts.hour! % 24, mi: parts.minute! };
}

/** The instant of a wall-clock time in a zone (the first, when a change of offset repeats it). */
function instant(y: number, mo: number, d: number, h: number, mi: number, tz: string): number {
  const asUtc = Date.UTC(y, mo - 1, d, h, mi);
  let guess = asUtc;
  for (let i = 0; i < 3; i++) {
    const w = wall(guess, tz);
    const diff = Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi) - asUtc;
    if (diff === 0) return guess;
    guess -= diff;
  }
  return guess;
}

/** The first time after `from` the cron names, in its zone (a wall time a change of offset skips does not count). */
export function nextRun(cron: Cron, tz: string, from: number): number | null {
  const start = wall(from, tz);
  const day0 = Date.UTC(start.y, start.mo - 1, start.d);
  for (let i = 0; i < 366 * 5; i++) {
    const date = new Date(day0 + i * 86400_000);
    const y = date.getUTCFullYear();
    const mo = date.getUTCMonth() + 1;
    const d = date.getUTCDate();
    if (!cron.months.has(mo)) continue;
    const dayOk = cron.days.has(d);
    const weekdayOk = cron.weekdays.has(date.getUTCDay());
    const matches = cron.anyDay && cron.anyWeekday ? true : cron.anyDay ? weekdayOk : cron.anyWeekday ? dayOk : dayOk || weekdayOk;
    if (!matches) continue;
    for (const h of [...cron.hours].sort((a, b) => a - b)) {
      for (const mi of [...cron.minutes].sort((a, b) => a - b)) {
        const at = instant(y, mo, d, h, mi, tz);
        const back = wall(at, tz);
        if (back.h !== h || back.mi !== mi) continue;
        if (at > from) return at;
      }
    }
  }
  return null;
}
