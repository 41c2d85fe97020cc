// What each endpoint of the control surface itself accepts, as one table of checks over the
// shared ones (http/control-route.ts); the families' endpoints declare theirs with their routes.
import { toEpoch } from '../core/clock.js';
import type { FaultRule } from '../core/faults.js';
import { attempt, bool, DURATION, fields, int, isHash, mapOf, must, nullable, oneOf, text, type Check } from '../http/control-route.js';
import type { Offering, Settings, Tier, Visibility } from '../store/state.js';

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
  default_branch_protection: int(0, 4, 'a level of branch protection from 0 to 4'),
  offset_pagination_limit: int(1),
  rate_limits: mapOf(fields({ limit: int(1), period_seconds: int(1) }, ['limit', 'period_seconds'])),
  enforce_ci_inbound_job_token_scope_enabled: bool,
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

/** The body of each control write, by endpoint. */
export const CHECKS = {
  clock: fields({
    freeze: bool,
    set: must(
      (v) => (typeof v === 'string' ? ISO_8601.test(v) : Number.isInteger(v)) && attempt(() => toEpoch(v as string | number)),
      'an ISO 8601 time or epoch milliseconds between 1970 and 9999',
    ),
    advance: DURATION,
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
} satisfies Record<string, Check>;
