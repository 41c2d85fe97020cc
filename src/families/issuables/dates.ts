// Dates as ActiveRecord casts a string into a date column: `YYYY-MM-DD` (or a timestamp that
// starts with one); what it cannot read becomes nil.

export function castDateLike(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const m = /^\s*(\d{4})-(\d{1,2})-(\d{1,2})(?:$|[T\s])/.exec(raw);
  if (!m) return null;
  const text = `${m[1]}-${m[2]!.padStart(2, '0')}-${m[3]!.padStart(2, '0')}`;
  const d = new Date(`${text}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== text ? null : text;
}
