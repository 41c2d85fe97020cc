// The records of webhooks (app/models/hooks/*): a hook of a project, a group or the instance, and
// a delivery, which is both the request queued for a receiver and, once sent, its WebHookLog.

/** Where a hook hangs: a project (ProjectHook), a group (GroupHook, with its subgroups) or the instance (SystemHook). */
export type HookKind = 'project' | 'group' | 'system';

/** GitLab's branch filter strategies (WebHook#branch_filter_strategy). */
export const BRANCH_FILTER_STRATEGIES = ['wildcard', 'regex', 'all_branches'] as const;
export type BranchFilterStrategy = (typeof BRANCH_FILTER_STRATEGIES)[number];

/** Every event flag a hook has (the `*_events` columns), as the API names them. */
export const EVENT_FLAGS = [
  'push_events',
  'tag_push_events',
  'merge_requests_events',
  'repository_update_events',
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'job_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'resource_deploy_token_events',
  'vulnerability_events',
  'member_events',
  'subgroup_events',
  'project_events',
] as const;
export type EventFlag = (typeof EVENT_FLAGS)[number];

/** The flags a system hook has besides push, tag push, merge request and repository update. */
export const SYSTEM_FLAGS: readonly EventFlag[] = ['push_events', 'tag_push_events', 'merge_requests_events', 'repository_update_events'];

export interface Hook {
  id: number;
  kind: HookKind;
  /** The project's or group's id; null for a system hook. */
  ownerId: number | null;
  /** As given, with `{name}` placeholders for its URL variables. */
  url: string;
  name: string | null;
  description: string | null;
  /** Write-only: sent as `X-Gitlab-Token`, never rendered. */
  token: string | null;
  createdAt: number;
  events: Record<EventFlag, boolean>;
  enableSslVerification: boolean;
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: BranchFilterStrategy;
  customWebhookTemplate: string | null;
  /** Name -> value, in the order given (pairs, so `__proto__` is a name like any other). */
  customHeaders: [string, string][];
  urlVariables: [string, string][];
  /** WebHooks::AutoDisabling: failures in a row, and how many backoffs they caused. */
  recentFailures: number;
  backoffCount: number;
  /** Until when a temporarily disabled hook stays so (epoch ms). */
  disabledUntil: number | null;
}

/**
 * One execution of a hook: queued with its request when the event happened, then sent (its
 * WebHookLog: the response, how long it took) or dropped (its hook went away before its turn).
 */
export interface Delivery {
  id: number;
  hookId: number;
  /** The first delivery id of its event: what the event's UUID is made from. */
  eventKey: number;
  /** GitLab's hook scope: `push_hooks`, `issue_hooks`... */
  trigger: string;
  /** The URL it goes to (URL variables put in). */
  url: string;
  /** The URL as the log shows it: URL variables masked. */
  shownUrl: string;
  /** As sent (made when its turn came; empty before). */
  requestHeaders: [string, string][];
  /** The JSON body, as sent; null before its turn. */
  requestBody: string | null;
  /** When it was queued (the event's time) and when it is due. */
  createdAt: number;
  dueAt: number;
  state: 'pending' | 'sent' | 'dropped';
  /** The receiver's status as text (`200`), or `internal error` when none answered. */
  responseStatus: string | null;
  responseHeaders: [string, string][];
  responseBody: string | null;
  /** Seconds, on the emulator's clock. */
  executionDuration: number | null;
  /** The error message when no response came (`Url is blocked: ...`, a refused connection). */
  internalError: string | null;
}
