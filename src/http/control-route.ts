// What a route of the control API (`/-/emulator/...`) is, wherever it is declared (the control
// surface, or a family's `control`), and the checks its body goes through before anything
// changes: a check answers what is wrong with a value, naming it by `at`
// (`instance.settings.rate_limits.x.limit must be ...`), and the route answers that as a 400.
import { parseDuration } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Context } from './context.js';
import type { Reply, RouteDef } from './route.js';

export const CONTROL_PREFIX = '/-/emulator';

/** A route of the control API: admitted (its token, a JSON body) and its errors answered by the control surface. */
export interface ControlRoute {
  method: RouteDef['method'];
  path: string;
  handler(ctx: Context<unknown>): Reply | Promise<Reply>;
}

/** A failure as the control API answers it: `{"message": ...}`. */
export const controlError = (status: number, message: string, headers?: Record<string, string>) => new ApiError(status, { message }, headers);

export type Check = (value: unknown, at: string) => string | undefined;

export const isHash = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Blob);
export const attempt = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};
export const must = (ok: (v: unknown) => boolean, what: string): Check => (v, at) => (ok(v) ? undefined : `${at} must be ${what}`);
export const bool = must((v) => typeof v === 'boolean', 'true or false');
export const text = must((v) => typeof v === 'string', 'a string');
export const oneOf = (...values: readonly string[]) => must((v) => values.includes(v as string), `one of ${values.join(', ')}`);
export const int = (min: number, max = Number.MAX_SAFE_INTEGER, what = `an integer from ${min}`) =>
  must((v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max, what);
export const nullable = (check: Check): Check => (v, at) => (v === null ? undefined : check(v, at));
/** An object with these fields (others refused), the required ones present. */
export const fields = (table: Record<string, Check>, required: readonly string[] = []): Check => (v, at) => {
  if (!isHash(v)) return `${at} must be an object`;
  for (const k of required) if (v[k] === undefined) return `${at}.${k} is required`;
  for (const [k, value] of Object.entries(v)) {
    if (!Object.hasOwn(table, k)) return `${at}.${k} is not one of ${Object.keys(table).join(', ')}`;
    const wrong = value === undefined ? undefined : table[k]!(value, `${at}.${k}`);
    if (wrong) return wrong;
  }
  return undefined;
};
/** An object whose every value passes `check` (the keys are names). */
export const mapOf = (check: Check): Check => (v, at) => {
  if (!isHash(v)) return `${at} must be an object`;
  for (const [k, value] of Object.entries(v)) {
    const wrong = check(value, `${at}.${k}`);
    if (wrong) return wrong;
  }
  return undefined;
};

/** GitLab's durations: `2h30m`, `1d 4h`, `90s`, `500ms`, or milliseconds. */
export const DURATION = must(
  (v) => (typeof v === 'string' || typeof v === 'number') && attempt(() => parseDuration(v as string | number)),
  'a duration such as 2h30m, 1d 4h, 90s, 500ms, or milliseconds (not negative)',
);

/** The body checked against its check, named `at`: a 400 naming the field, before anything changes. */
export function checkBody<T>(body: Record<string, unknown>, check: Check, at: string): T {
  const wrong = check(body, at);
  if (wrong) throw controlError(400, wrong);
  return body as T;
}

/** Checks a request's body against a table of checks by endpoint, named by the endpoint (`ciLimits.project_ci_variables must be ...`). */
export const bodyChecker =
  <C extends Record<string, Check>>(checks: C) =>
  <T>(ctx: Context<unknown>, endpoint: keyof C & string): T =>
    checkBody<T>(ctx.raw, checks[endpoint]!, endpoint);
