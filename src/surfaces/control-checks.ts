// What each control endpoint accepts, as one table of checks: a check answers what is wrong
// with a value, naming it by `at` (`instance.settings.rate_limits.x.limit must be ...`).
import { parseDuration, toEpoch } from '../core/clock.js';
import type { FaultRule } from '../core/faults.js';
import type { Offering, Settings, Tier, Visibility } from '../store/state.js';

export type Check = (value: unknown, at: string) => string | undefined;

const isHash = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Blob);
const attempt = (f: () => unknown): boolean => {
  try {
    f();
    return true;
  } catch {
    return false;
  }
};
const must = (ok: (v: unknown) => boolean, what: string): Check => (v, at) => (ok(v) ? undefined : `${at} must be ${what}`);
const bool = must((v) => typeof v === 'boolean', 'true or false');
const text = must((v) => typeof v === 'string', 'a string');
const oneOf = (...values: readonly string[]) => must((v) => values.includes(v as string), `one of ${values.join(', ')}`);
const int = (min: number, max = Number.MAX_SAFE_INTEGER, what = `an integer from ${min}`) =>
  must((v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max, what);
const nullable = (check: Check): Check => (v, at) => (v === null ? undefined : check(v, at));
/** An object with these fields (others refused), the required ones present. */
const fields = (table: Record<string, Check>, required: readonly string[] = []): Check => (v, at) => {
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
const mapOf = (check: Check): Check => (v, at) => {
  if (!isHash(v)) return `${at} must be an object`;
  for (const [k, value] of Object.entries(v)) {
    const wrong = check(value, `${at}.${k}`);
    if (wrong) return wrong;
  }
  return undefined;
};

/** A fault answers with a body, which a 1xx or a 205 response cannot carry (it would be a 500). */
const FAULT_STATUS = must(
  (v) => Number.isInteger(v) && (v as number) >= 200 && (v as number) <= 599 && v !== 205,
  'an HTTP status from 200 to 599 other than 205 (the fault answers with a body)',
);
const MAX_LATENCY_MS = 60_000;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;
const VISIBILITY = oneOf(...(['private', 'internal', 'public'] satisfies Visibility[]));

const SETTINGS: { [K in keyof Settings]-?: Check } = {
  impersonation_enabled: bool,
  runner_registration_restricted: bool,
  require_personal_access_token_expiry: bool,
  max_personal_access_token_lifetime: nullable(int(1, 36_500, 'a number of days from 1, or null')),
  default_project_visibility: VISIBILITY,
  default_group_visibility: VISIBILITY,
  user_defaults_to_private_profile: bool,
  offset_pagination_limit: int(1),
  rate_limits: mapOf(fields({ limit: int(1), period_seconds: int(1) }, ['limit', 'period_seconds'])),
};

const FAULT: { [K in keyof FaultRule]-?: Check } = {
  method: must((v) => typeof v === 'string' && METHODS.includes(v.toUpperCase()), `an HTTP method (${METHODS.join(', ')})`),
  path: text,
  status: FAULT_STATUS,
  latencyMs: must((v) => typeof v === 'number' && v >= 0 && v <= MAX_LATENCY_MS, `a number of milliseconds from 0 to ${MAX_LATENCY_MS}`),
  times: int(1),
  drop: bool,
  body: must((v) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) || isHash(v), 'a JSON object, string, number or null'),
};

const DURATION = must(
  (v) => (typeof v === 'string' || typeof v === 'number') && attempt(() => parseDuration(v as string | number)),
  'a duration such as 2h30m, 1d 4h, 90s, 500ms, or milliseconds (not negative)',
);
const JOB_STATUS = oneOf('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled');
/** Artifacts to upload: path -> text, or path -> Base64 for bytes; GitLab's `expire_in` words. */
const ARTIFACT_FIELDS = {
  files: mapOf(text),
  files_base64: mapOf(must((v) => typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v), 'Base64 text')),
  expire_in: text,
  public: bool,
};

/** The body of each control write, by endpoint. */
export const CHECKS = {
  clock: fields({
    freeze: bool,
    set: must(
      (v) => (typeof v === 'string' ? ISO_8601.test(v) : Number.isInteger(v)) && attempt(() => toEpoch(v as string | number)),
      'an ISO 8601 time or epoch milliseconds between 1970 and 9999',
    ),
    advance: must(
      (v) => (typeof v === 'string' || typeof v === 'number') && attempt(() => parseDuration(v as string | number)),
      'a duration such as 2h30m, 1d 4h, 90s, 500ms, or milliseconds (not negative)',
    ),
  }),
  instance: fields({
    tier: oneOf(...(['free', 'premium', 'ultimate'] satisfies Tier[])),
    offering: oneOf(...(['self-managed', 'hosted'] satisfies Offering[])),
    settings: fields(SETTINGS),
  }),
  faults: fields(FAULT, ['path']),
  sessions: fields({ username: text }, ['username']),
  scim_tokens: fields({ group: text }, ['group']),
  journal: fields({ seq: text, to: oneOf('before', 'after') }),
  /** A failure chosen ahead for a container's next storage move (null: it succeeds). */
  move_failures: fields(
    {
      type: oneOf('project', 'snippet', 'group'),
      container: must((v) => (typeof v === 'string' && v !== '') || (Number.isInteger(v) && (v as number) > 0), 'an id or a full path'),
      failure: nullable(oneOf('copy', 'checksum', 'same_filesystem', 'cleanup')),
    },
    ['type', 'container', 'failure'],
  ),
  /** A failure chosen for a scheduled storage move. */
  move_fail: fields({ failure: oneOf('copy', 'checksum', 'same_filesystem', 'cleanup') }, ['failure']),
  /** Each storage move step's time on the clock. */
  move_step: fields(
    { step: must((v) => (typeof v === 'string' || typeof v === 'number') && attempt(() => parseDuration(v as string | number) > 0 || (() => { throw new Error(); })()), 'a duration above zero such as 30s or 2m, or milliseconds') },
    ['step'],
  ),
  ciPipeline: fields({ project: text, ref: text, user: text, source: text, parent_id: int(1), status: JOB_STATUS }),
  ciJob: fields({ project: text, pipeline_id: int(1), name: text, stage: text, status: JOB_STATUS, user: text, allow_failure: bool, tags: must((v) => Array.isArray(v) && v.every((t) => typeof t === 'string'), 'a list of strings'), token: text }, ['pipeline_id', 'name']),
  ciJobId: fields({ project: text, job_id: text }),
  ciLog: fields({ project: text, job_id: text, text }, ['text']),
  ciFinish: fields({ project: text, job_id: text, status: oneOf('success', 'failed', 'canceled', 'skipped'), failure_reason: text, coverage: must((v) => typeof v === 'number' && Number.isFinite(v), 'a number'), log: text, artifacts: fields(ARTIFACT_FIELDS) }, ['status']),
  ciArtifacts: fields({ project: text, job_id: text, ...ARTIFACT_FIELDS }),
  ciLock: fields({ project: text, pipeline_id: text, locked: bool }, ['locked']),
  ciCleanup: fields({ fail: int(0), lag: DURATION, retry: DURATION }),
  ciCdn: fields({ enabled: bool, ttl: DURATION }, ['enabled']),
  ciLimits: fields({ project_ci_variables: int(0), group_ci_variables: int(0), ci_instance_level_variables: int(0) }),
} satisfies Record<string, Check>;
