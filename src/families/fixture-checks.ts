// What the fixture format's JSON types cannot say, checked with them so that a fixture's
// mistakes are named all at once: a token's scopes are GitLab's scope names, and a date or a
// time (`*_at`, `*_date`, `date`) is ISO 8601 and on the calendar (no February 30th).
import { nearest, type Refine } from '../core/schema.js';
import { ALL_SCOPES } from './users/tokens.js';

/** Gitlab::Auth.all_available_scopes, and the OpenID Connect ones an OAuth token may carry. */
export const FIXTURE_TOKEN_SCOPES: readonly string[] = [...ALL_SCOPES, 'openid', 'profile', 'email'];

const DATE_KEY = /(?:^|_)(?:at|date)$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-](\d{2}):?(\d{2}))?)?$/i;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const child = (path: string, key: string) => (IDENTIFIER.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`);

/** Whether text is an ISO 8601 date or time whose day and hour are real. */
export function isCalendarTime(text: string): boolean {
  const m = ISO.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false;
  if (m[8] !== undefined && (Number(m[8]) > 23 || Number(m[9]) > 59)) return false;
  return true;
}

export const refineFixture: Refine = (key, value, parentPath) => {
  if (key === 'scopes' && /(?:^|\.)tokens\[\d+\]$/.test(parentPath) && Array.isArray(value)) {
    for (const [i, scope] of value.entries()) {
      if (typeof scope !== 'string' || FIXTURE_TOKEN_SCOPES.includes(scope)) continue;
      const near = nearest(scope, FIXTURE_TOKEN_SCOPES);
      return `${child(parentPath, key)}[${i}]: unknown scope ${JSON.stringify(scope)}${near ? `; did you mean ${JSON.stringify(near)}?` : ` (GitLab's scopes: ${FIXTURE_TOKEN_SCOPES.join(', ')})`}`;
    }
    return undefined;
  }
  if (DATE_KEY.test(key) && typeof value === 'string' && !isCalendarTime(value)) {
    return `${child(parentPath, key)}: ${JSON.stringify(value)} is not an ISO 8601 date (2025-01-31) or time (2025-01-31T09:00:00Z) on the calendar`;
  }
  return undefined;
};
