// The parameters the project routes declare (lib/api/helpers/projects_helpers.rb, lib/api/projects.rb),
// and how the editable ones become the changes a service applies.
import { arr, bool, datetime, hash, int, str, type ParamSpec, type Parsed } from '../../http/params.js';
import { VISIBILITIES } from '../../policy/visibility.js';
import { ACCESS, type FeatureAccess } from '../../store/state.js';
import { FEATURES } from './rules.js';
import type { ProjectChanges } from './service.js';

const ACCESS_LEVELS = [ACCESS.guest, ACCESS.planner, ACCESS.reporter, ACCESS.developer, ACCESS.maintainer, ACCESS.owner];
const FEATURE_VALUES = ['disabled', 'private', 'enabled', 'public'] as const;

/** Settings kept as they are sent and rendered back by the entity. */
const SETTING_PARAMS = {
  packages_enabled: bool(), emails_enabled: bool(), shared_runners_enabled: bool(), group_runners_enabled: bool(),
  lfs_enabled: bool(), public_jobs: bool(), request_access_enabled: bool(), only_allow_merge_if_pipeline_succeeds: bool(),
  allow_merge_on_skipped_pipeline: bool(), only_allow_merge_if_all_discussions_are_resolved: bool(),
  remove_source_branch_after_merge: bool(), printing_merge_request_link_enabled: bool(), resolve_outdated_diff_discussions: bool(),
  autoclose_referenced_issues: bool(), auto_devops_enabled: bool(), merge_pipelines_enabled: bool(), merge_trains_enabled: bool(), merge_trains_skip_train_allowed: bool(),
  merge_method: str().values(['merge', 'rebase_merge', 'ff']),
  squash_option: str().values(['never', 'always', 'default_on', 'default_off']),
  build_git_strategy: str().values(['fetch', 'clone']),
  auto_devops_deploy_strategy: str().values(['continuous', 'manual', 'timed_incremental']),
  auto_cancel_pending_pipelines: str().values(['disabled', 'enabled']),
  build_timeout: int(), ci_config_path: str(), ci_default_git_depth: int(),
  suggestion_commit_message: str(), merge_commit_template: str(), squash_commit_template: str(), issue_branch_template: str(),
} satisfies ParamSpec;

const featureParams: ParamSpec = {};
for (const f of FEATURES) featureParams[`${f}_access_level`] = str().values(FEATURE_VALUES);
const LEGACY_ENABLED: Record<string, string> = {
  issues_enabled: 'issues', merge_requests_enabled: 'merge_requests', wiki_enabled: 'wiki', jobs_enabled: 'builds',
  snippets_enabled: 'snippets', container_registry_enabled: 'container_registry',
};
for (const k of Object.keys(LEGACY_ENABLED)) featureParams[k] = bool();

/** What POST and PUT /projects accept about a project. */
export const EDITABLE = {
  name: str(),
  path: str(),
  description: str(),
  visibility: str().values(VISIBILITIES),
  default_branch: str(),
  topics: arr(str(), { commaSeparated: true }),
  tag_list: arr(str(), { commaSeparated: true }),
  emails_disabled: bool(),
  ...SETTING_PARAMS,
  ...featureParams,
} satisfies ParamSpec;

export type Editable = Parsed<typeof EDITABLE>;

function featuresFrom(p: Record<string, unknown>): Record<string, FeatureAccess> {
  const out: Record<string, FeatureAccess> = {};
  for (const [k, f] of Object.entries(LEGACY_ENABLED)) if (p[k] !== undefined) out[f] = p[k] ? 'enabled' : 'disabled';
  for (const f of FEATURES) if (p[`${f}_access_level`] !== undefined) out[f] = p[`${f}_access_level`] as FeatureAccess;
  return out;
}

function settingsFrom(p: Editable): Record<string, unknown> {
  const sent = p as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(SETTING_PARAMS)) if (sent[k] !== undefined) out[k] = sent[k];
  if (p.emails_disabled !== undefined && p.emails_enabled === undefined) out.emails_enabled = !p.emails_disabled;
  return out;
}

/** The editable parameters as a service's changes: `tag_list` is the old name of `topics`. */
export function changesFrom(p: Editable): ProjectChanges {
  return {
    name: p.name, path: p.path, description: p.description, visibility: p.visibility, defaultBranch: p.default_branch,
    topics: p.topics ?? p.tag_list, features: featuresFrom(p), settings: settingsFrom(p),
  };
}

/** GET /projects and a group's project list (`use :collection_params`, `use :pagination` aside). */
export const PROJECT_LIST_PARAMS = {
  order_by: str().values(['id', 'name', 'path', 'created_at', 'updated_at', 'last_activity_at', 'similarity', 'star_count']).default('created_at'),
  sort: str().values(['asc', 'desc']).default('desc'),
  archived: bool(),
  visibility: str().values(VISIBILITIES),
  search: str(),
  search_namespaces: bool(),
  owned: bool().default(false),
  starred: bool().default(false),
  membership: bool().default(false),
  simple: bool().default(false),
  statistics: bool().default(false),
  with_issues_enabled: bool().default(false),
  with_merge_requests_enabled: bool().default(false),
  min_access_level: int().values(ACCESS_LEVELS),
  id_after: int(),
  id_before: int(),
  last_activity_after: datetime(),
  last_activity_before: datetime(),
  updated_after: datetime(),
  updated_before: datetime(),
  topic: arr(str(), { commaSeparated: true }),
  /** Administrators: `custom_attributes[key]=value` (the custom attributes family's). */
  custom_attributes: hash(),
  pagination: str().values(['keyset', 'offset']),
} satisfies ParamSpec;

export type ProjectListParams = Parsed<typeof PROJECT_LIST_PARAMS>;
