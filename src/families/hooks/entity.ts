// Entities::Hook, ProjectHook, GroupHook (ee) and WebHookLog: a hook never shows its token, and
// shows only the names of its URL variables and custom headers.
import { iso } from '../../render/time.js';
import type { EventFlag, Delivery, Hook } from './records.js';
import { alertStatus } from './rules.js';

const PROJECT_FLAGS: readonly EventFlag[] = [
  'issues_events', 'confidential_issues_events', 'note_events', 'confidential_note_events', 'pipeline_events', 'wiki_page_events', 'deployment_events',
  'feature_flag_events', 'job_events', 'releases_events', 'milestone_events', 'emoji_events', 'resource_access_token_events', 'resource_deploy_token_events',
  'vulnerability_events',
];

const GROUP_FLAGS: readonly EventFlag[] = [
  'issues_events', 'confidential_issues_events', 'note_events', 'confidential_note_events', 'pipeline_events', 'wiki_page_events', 'job_events',
  'deployment_events', 'feature_flag_events', 'releases_events', 'subgroup_events', 'member_events', 'emoji_events', 'project_events', 'milestone_events',
  'resource_access_token_events', 'resource_deploy_token_events', 'vulnerability_events',
];

/** Entities::Hook, then the kind's own fields. */
export function hookEntity(hook: Hook, now: number) {
  const e = hook.events;
  const base: Record<string, unknown> = {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: iso(hook.createdAt),
    push_events: e.push_events,
    tag_push_events: e.tag_push_events,
    merge_requests_events: e.merge_requests_events,
    repository_update_events: e.repository_update_events,
    enable_ssl_verification: hook.enableSslVerification,
    ...(hook.kind === 'system' ? { organization_id: 1 } : {}),
    alert_status: alertStatus(hook, now),
    disabled_until: hook.disabledUntil !== null && hook.disabledUntil >= now ? iso(hook.disabledUntil) : null,
    url_variables: hook.urlVariables.map(([key]) => ({ key })),
    push_events_branch_filter: hook.pushEventsBranchFilter,
    branch_filter_strategy: hook.branchFilterStrategy,
    custom_webhook_template: hook.customWebhookTemplate,
    custom_headers: hook.customHeaders.map(([key]) => ({ key })),
  };
  if (hook.kind === 'project') {
    base.project_id = hook.ownerId;
    for (const f of PROJECT_FLAGS) base[f] = e[f];
  } else if (hook.kind === 'group') {
    base.group_id = hook.ownerId;
    for (const f of GROUP_FLAGS) base[f] = e[f];
  }
  return base;
}

/** A header's value as a log keeps it: the token redacted. */
const logged = ([k, v]: [string, string]): [string, string] => [k, k === 'X-Gitlab-Token' ? '[REDACTED]' : v];

/** Entities::WebHookLog. */
export function hookLogEntity(d: Delivery) {
  let requestData: unknown;
  try {
    requestData = d.requestBody === null ? null : JSON.parse(d.requestBody);
  } catch {
    requestData = d.requestBody;
  }
  return {
    id: d.id,
    url: d.shownUrl,
    trigger: d.trigger,
    request_headers: Object.fromEntries(d.requestHeaders.map(logged)),
    request_data: requestData,
    response_headers: Object.fromEntries(d.responseHeaders),
    response_body: d.responseBody ?? '',
    execution_duration: d.executionDuration,
    response_status: d.responseStatus,
  };
}
