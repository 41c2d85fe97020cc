// ChronicDuration.parse as GitLab reads `start_in`, `timeout`, `expire_in` and `auto_stop_in`:
// a number alone is seconds; otherwise numbers with units (`1h 30m`, `2 days`, `1 week`);
// `never` (for expire_in) is read by the caller. Null when it is not a duration.

const UNITS: [RegExp, number][] = [
  [/^(s|secs?|seconds?)$/, 1],
  [/^(m|mins?|minutes?)$/, 60],
  [/^(h|hrs?|hours?)$/, 3600],
  [/^(d|days?)$/, 86400],
  [/^(w|wks?|weeks?)$/, 604800],
  [/^(mo|mos|months?)$/, 2592000],
  [/^(y|yrs?|years?)$/, 31557600],
];

export function parseDuration(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase().replace(/\band\b/g, ' ').replace(/,/g, ' ');
  if (text === '') return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text));
  const hms = /^(\d+):(\d{1,2})(?::(\d{1,2}))?$/.exec(text);
  if (hms) return hms[3] !== undefined ? Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3]) : Number(hms[1]) * 60 + Number(hms[2]);
  const re = /(\d+(?:\.\d+)?)\s*([a-z]+)/g;
  let total = 0;
  let consumed = '';
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const unit = UNITS.find(([u]) => u.test(m![2]!));
    if (!unit) return null;
    total += Number(m[1]) * unit[1];
    consumed += m[0];
  }
  if (consumed.replace(/\s+/g, '') !== text.replace(/\s+/g, '')) return null;
  return Math.round(total);
}
