// The settings PUT /application/settings takes (lib/api/settings.rb, ApplicationSetting's
// validations): each with its type as Grape declares it, and where it lives. The ones other
// families read live in the instance's settings; the others are kept by this family, over the
// defaults Entities::ApplicationSetting renders.
import { arr, bool, int, str, type Param } from '../../http/params.js';
import { VISIBILITIES } from '../../policy/visibility.js';
import type { Settings } from '../../store/state.js';

type AnyParam = Param<unknown, boolean>;

/** Settings the instance keeps (store/state.ts Settings), which other families obey. */
export const INSTANCE_FIELDS = {
  default_project_visibility: str().values(VISIBILITIES),
  default_group_visibility: str().values(VISIBILITIES),
  max_personal_access_token_lifetime: int().nullable(),
  require_personal_access_token_expiry: bool(),
  user_defaults_to_private_profile: bool(),
  impersonation_enabled: bool(),
  enforce_ci_inbound_job_token_scope_enabled: bool(),
} satisfies Partial<Record<keyof Settings, AnyParam>>;

/** GitLab's defaults of the settings this family keeps and Entities::ApplicationSetting renders besides the entity's others. */
export const EXTRA_DEFAULTS: Record<string, unknown> = {
  throttle_authenticated_api_enabled: false,
  throttle_authenticated_api_requests_per_period: 7200,
  throttle_authenticated_api_period_in_seconds: 3600,
  throttle_unauthenticated_api_enabled: false,
  throttle_unauthenticated_api_requests_per_period: 3600,
  throttle_unauthenticated_api_period_in_seconds: 3600,
  throttle_authenticated_web_enabled: false,
  throttle_authenticated_web_requests_per_period: 7200,
  throttle_authenticated_web_period_in_seconds: 3600,
  throttle_unauthenticated_enabled: false,
  throttle_unauthenticated_requests_per_period: 3600,
  throttle_unauthenticated_period_in_seconds: 3600,
};

/** Settings whose default is null, by their type. */
const NULLABLE_STRINGS = ['sign_in_text', 'home_page_url', 'after_sign_out_path', 'plantuml_url', 'terms', 'asset_proxy_url', 'default_branch_name', 'rate_limiting_response_text'];

/** Kept only for the legacy names GitLab maps (performance_bar_allowed_group_id) or never set through the API. */
const NOT_SETTABLE = new Set(['id', 'performance_bar_allowed_group_id', 'repository_storages_weighted']);

/** Each rendered setting's parameter, read from the type of its default. */
export function settableFields(rendered: Record<string, unknown>): Record<string, AnyParam> {
  const out: Record<string, AnyParam> = {};
  for (const [k, v] of Object.entries({ ...rendered, ...EXTRA_DEFAULTS })) {
    if (NOT_SETTABLE.has(k) || Object.hasOwn(INSTANCE_FIELDS, k)) continue;
    if (typeof v === 'boolean') out[k] = bool();
    else if (typeof v === 'number') out[k] = Number.isInteger(v) && k !== 'polling_interval_multiplier' ? int() : str();
    else if (typeof v === 'string') out[k] = str();
    else if (Array.isArray(v)) out[k] = arr(str(), { commaSeparated: true });
    else if (v === null && NULLABLE_STRINGS.includes(k)) out[k] = str().nullable();
  }
  for (const [k, p] of Object.entries(INSTANCE_FIELDS)) out[k] = p as AnyParam;
  return out;
}

/** ApplicationSetting's numericality: throttles above 0, limits and sizes at 0 or more. */
export function numericError(name: string, value: number): string | null {
  if (/^throttle_.*_(requests_per_period|period_in_seconds)$/.test(name)) return value > 0 ? null : 'must be greater than 0';
  if (/(_limit|_size|_delay|_lifetime|_period)$/.test(name) || name === 'max_attachment_size') return value >= 0 ? null : 'must be greater than or equal to 0';
  return null;
}
