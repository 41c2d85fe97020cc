// The deliveries kept in the world: WebHookService#async_execute queues one per hook that takes
// an event (its request made then, with GitLab's headers), the dispatcher sends them after the
// answer, and what came back is the hook's log (WebHookLog), kept for seven days.
import type { Draft } from 'immer';
import { randomHex, sequences, type CoreState } from '../../store/state.js';
import { ancestry } from '../../policy/access.js';
import { plist, tget, tset, tdel, tvalues } from '../../store/table.js';
import { GITLAB_VERSION } from '../instance/index.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import type { Delivery, EventFlag, Hook } from './records.js';
import { backedOff, branchMatches, enabled, executable, interpolatedUrl, maskedUrl } from './rules.js';

const ids = sequences(['web_hook_log']);

/** How long logs are kept (WebHookLog's partitions; the events API shows the last seven days). */
const LOG_DAYS = 7;
const DAY = 86_400_000;
/** The most logs one hook keeps, past which the oldest go. */
const LOGS_PER_HOOK = 500;
/** WebHookLog truncates what it keeps of a response body. */
const MAX_RESPONSE_BODY = 8192;

/** A hook scope (GitLab's `*_hooks`): its event flag and the X-Gitlab-Event it sends. */
export const SCOPES = {
  push_hooks: { flag: 'push_events', event: 'Push Hook' },
  tag_push_hooks: { flag: 'tag_push_events', event: 'Tag Push Hook' },
  issue_hooks: { flag: 'issues_events', event: 'Issue Hook' },
  confidential_issue_hooks: { flag: 'confidential_issues_events', event: 'Confidential Issue Hook' },
  note_hooks: { flag: 'note_events', event: 'Note Hook' },
  confidential_note_hooks: { flag: 'confidential_note_events', event: 'Confidential Note Hook' },
  merge_request_hooks: { flag: 'merge_requests_events', event: 'Merge Request Hook' },
  job_hooks: { flag: 'job_events', event: 'Job Hook' },
  pipeline_hooks: { flag: 'pipeline_events', event: 'Pipeline Hook' },
  wiki_page_hooks: { flag: 'wiki_page_events', event: 'Wiki Page Hook' },
  release_hooks: { flag: 'releases_events', event: 'Release Hook' },
  milestone_hooks: { flag: 'milestone_events', event: 'Milestone Hook' },
  emoji_hooks: { flag: 'emoji_events', event: 'Emoji Hook' },
  member_hooks: { flag: 'member_events', event: 'Member Hook' },
  subgroup_hooks: { flag: 'subgroup_events', event: 'Subgroup Hook' },
  project_hooks: { flag: 'project_events', event: 'Project Hook' },
  resource_access_token_hooks: { flag: 'resource_access_token_events', event: 'Resource Access Token Hook' },
  repository_update_hooks: { flag: 'repository_update_events', event: 'System Hook' },
  system_hooks: { flag: null, event: 'System Hook' },
} as const satisfies Record<string, { flag: EventFlag | null; event: string }>;
export type HookScope = keyof typeof SCOPES;

/** The scopes system hooks take from projects (SystemHooksService, Project#execute_hooks). */
const SYSTEM_SCOPES: readonly HookScope[] = ['push_hooks', 'tag_push_hooks', 'merge_request_hooks', 'repository_update_hooks'];

const TIER_RANK = { free: 0, premium: 1, ultimate: 2 } as const;

/** A random UUID (v4's layout) from the world's seeded generator. */
function uuid(draft: Draft<State>): string {
  const hex = randomHex(draft as CoreState, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) % 4]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function takes(hook: Hook, scope: HookScope, ref: string | null, now: number): boolean {
  const flag = SCOPES[scope].flag;
  if (flag !== null && !hook.events[flag]) return false;
  if (!executable(hook, now)) return false;
  return scope !== 'push_hooks' || ref === null || branchMatches(hook, ref);
}

/**
 * The hooks a project's event goes to (Project#execute_hooks): its own, its groups' (Premium,
 * GroupHook with the subgroups' events reaching the groups above), and the system hooks for the
 * scopes they take; a push only to hooks whose branch filter matches `ref`.
 */
export function projectHooksFor(state: State, projectId: number, scope: HookScope, ref: string | null, now: number): Hook[] {
  const out: Hook[] = [];
  const add = (id: number) => {
    const h = tget(state.hooks, id);
    if (h && takes(h, scope, ref, now)) out.push(h);
  };
  for (const id of plist(state.projectHookIds, projectId)) add(id);
  const project = tget(state.projects, projectId);
  if (project && TIER_RANK[state.instance.tier] >= TIER_RANK.premium) {
    for (const ns of ancestry(state, project.namespaceId)) if (ns.kind === 'group') for (const id of plist(state.groupHookIds, ns.id)) add(id);
  }
  if (SYSTEM_SCOPES.includes(scope)) for (const id of tvalues(state.systemHookIds)) add(id);
  return out;
}

/** The hooks of a group and the groups above it (a group's own events: members, subgroups, wiki pages). */
export function groupHooksFor(state: State, groupId: number, scope: HookScope, now: number): Hook[] {
  if (TIER_RANK[state.instance.tier] < TIER_RANK.premium) return [];
  const out: Hook[] = [];
  for (const ns of ancestry(state, groupId)) {
    for (const id of plist(state.groupHookIds, ns.id)) {
      const h = tget(state.hooks, id);
      if (h && takes(h, scope, null, now)) out.push(h);
    }
  }
  return out;
}

/** The system hooks (instance events: projects, groups, users, keys created and destroyed). */
export function systemHooksFor(state: State): Hook[] {
  return [...tvalues(state.systemHookIds)].flatMap((id) => tget(state.hooks, id) ?? []);
}

/** `{{path.to.value}}` of a custom webhook template, JSON-escaped in place. */
function renderTemplate(template: string, data: unknown): string {
  return template.replace(/\{\{(.+?)\}\}/g, (_, path: string) => {
    let value: unknown = data;
    for (const part of path.trim().split('.')) value = value !== null && typeof value === 'object' && Object.hasOwn(value, part) ? (value as Record<string, unknown>)[part] : undefined;
    if (value === undefined) return '';
    const json = JSON.stringify(value);
    return typeof value === 'string' ? json.slice(1, -1) : json;
  });
}

/** What one event sends: the scope, the payload, and the instance's URL. */
export interface Outgoing {
  scope: HookScope;
  data: unknown;
  /** X-Gitlab-Event-UUID: one per event, whichever hooks it goes to. */
  eventUuid: string;
  instanceUrl: string;
}

/** Queues an event's delivery to each hook (WebHookService#async_execute), in the hooks' order. */
export function enqueue(draft: Draft<State>, hooks: readonly Hook[], out: Outgoing, now: number): void {
  if (hooks.length === 0) return;
  const body = JSON.stringify(out.data);
  for (const hook of hooks) {
    const id = ids.next(draft as CoreState, 'web_hook_log');
    const headers: [string, string][] = [
      ['Content-Type', 'application/json'],
      ['User-Agent', `GitLab/${GITLAB_VERSION}`],
      ['Idempotency-Key', uuid(draft)],
      ['X-Gitlab-Event', hook.kind === 'system' ? 'System Hook' : SCOPES[out.scope].event],
      ['X-Gitlab-Webhook-UUID', uuid(draft)],
      ['X-Gitlab-Instance', out.instanceUrl],
    ];
    if (hook.token) headers.push(['X-Gitlab-Token', hook.token.replace(/[\r\n]/g, '')]);
    headers.push(['X-Gitlab-Event-UUID', out.eventUuid]);
    for (const [k, v] of hook.customHeaders) headers.push([k, v]);
    const delivery: Delivery = {
      id, hookId: hook.id, trigger: out.scope, url: interpolatedUrl(hook), shownUrl: maskedUrl(hook), requestHeaders: headers,
      requestBody: hook.customWebhookTemplate ? renderTemplate(hook.customWebhookTemplate, out.data) : body,
      createdAt: now, dueAt: now, state: 'pending', responseStatus: null, responseHeaders: [], responseBody: null, executionDuration: null, internalError: null,
    };
    keep(draft as State, delivery);
  }
}

export const newEventUuid = (draft: Draft<State>) => uuid(draft);

function keep(draft: State, d: Delivery): void {
  tset(draft.hookDeliveries, d.id, d);
  draft.hookQueue.push(d.id);
  const list = [...(tget(draft.hookLogIds, d.hookId) ?? []), d.id];
  while (list.length > LOGS_PER_HOOK) {
    const old = list.shift()!;
    tdel(draft.hookDeliveries, old);
  }
  tset(draft.hookLogIds, d.hookId, list);
}

/** A hook's logs of the last seven days, newest first (WebHookLogsFinder). */
export function hookLogs(state: State, hookId: number, now: number): Delivery[] {
  const out: Delivery[] = [];
  for (const id of tget(state.hookLogIds, hookId) ?? []) {
    const d = tget(state.hookDeliveries, id);
    if (d && d.state === 'sent' && d.createdAt >= now - LOG_DAYS * DAY) out.push(d);
  }
  return out.reverse();
}

/** WebHooks::Events::ResendService: the logged request again, to the hook's URL now, as a new delivery. */
export function resendDelivery(hook: Hook, log: Delivery, now: number): Change<Delivery> {
  return (draft) => {
    const headers = log.requestHeaders.map(([k, v]): [string, string] => [k, k === 'X-Gitlab-Token' ? (hook.token ?? '') : v]).filter(([k, v]) => k !== 'X-Gitlab-Token' || v !== '');
    const again: Delivery = {
      ...log, id: ids.next(draft as CoreState, 'web_hook_log'), url: interpolatedUrl(hook), shownUrl: maskedUrl(hook), requestHeaders: headers,
      createdAt: now, dueAt: now, state: 'pending', responseStatus: null, responseHeaders: [], responseBody: null, executionDuration: null, internalError: null,
    };
    keep(draft as State, again);
    return again;
  };
}

/** What the receiver answered, or why nothing came back. */
export interface Outcome {
  status: number | null;
  headers: [string, string][];
  body: string;
  error: string | null;
}

/** WebHookService#log_execution: the log, and the hook enabled again or backed off. */
export function recordOutcome(sent: Delivery, outcome: Outcome, startedAt: number, now: number): Change<boolean> {
  return (draft) => {
    const d = tget((draft as State).hookDeliveries, sent.id);
    if (!d || d.createdAt !== sent.createdAt || d.requestBody !== sent.requestBody || d.state !== 'pending') return false;
    d.state = 'sent';
    d.responseStatus = outcome.status === null ? 'internal error' : String(outcome.status);
    d.responseHeaders = outcome.headers;
    d.responseBody = (outcome.error ?? outcome.body).slice(0, MAX_RESPONSE_BODY);
    d.internalError = outcome.error;
    d.executionDuration = (now - startedAt) / 1000;
    dequeue(draft as State, sent.id);
    const hook = tget((draft as State).hooks, d.hookId);
    if (hook) {
      const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
      const next = ok ? enabled(hook) : backedOff(hook, now);
      if (next !== hook) tset((draft as State).hooks, hook.id, next);
    }
    return true;
  };
}

/** A delivery whose hook went away before its turn. */
export function dropDelivery(id: number): Change {
  return (draft) => {
    const d = tget((draft as State).hookDeliveries, id);
    if (d) d.state = 'dropped';
    dequeue(draft as State, id);
  };
}

function dequeue(draft: State, id: number): void {
  const at = draft.hookQueue.indexOf(id);
  if (at >= 0) draft.hookQueue.splice(at, 1);
}
