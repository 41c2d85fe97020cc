// The deliveries kept in the world: WebHookService#async_execute queues one per hook that takes
// an event (its request made then, with GitLab's headers), the dispatcher sends them after the
// answer, and what came back is the hook's log (WebHookLog), kept for seven days.
import { isDraft, original, type Draft } from 'immer';
import { sequences, type CoreState } from '../../store/state.js';
import { hash53 } from '../../core/hash.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { ancestry } from '../../policy/access.js';
import { pdel, plist, pset, tget, tset, tdel, tvalues } from '../../store/table.js';
import { GITLAB_VERSION } from '../instance/index.js';
import type { Change, Context } from '../define.js';
import { lastEventId, type StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import type { Delivery, EventFlag, Hook } from './records.js';
import { backedOff, branchMatches, enabled, executable, interpolatedUrl, maskedUrl } from './rules.js';

const ids = sequences(['web_hook_log']);

/** How long logs are kept (WebHookLog's partitions; the events API shows the last seven days). */
const LOG_DAYS = 7;
const DAY = 86_400_000;
/** The most deliveries the world keeps, past which the oldest go (their hooks' logs with them). */
export const DELIVERIES_KEPT = 20_000;
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
  deployment_hooks: { flag: 'deployment_events', event: 'Deployment Hook' },
  member_hooks: { flag: 'member_events', event: 'Member Hook' },
  subgroup_hooks: { flag: 'subgroup_events', event: 'Subgroup Hook' },
  project_hooks: { flag: 'project_events', event: 'Project Hook' },
  feature_flag_hooks: { flag: 'feature_flag_events', event: 'Feature Flag Hook' },
  resource_access_token_hooks: { flag: 'resource_access_token_events', event: 'Resource Access Token Hook' },
  repository_update_hooks: { flag: 'repository_update_events', event: 'System Hook' },
  system_hooks: { flag: null, event: 'System Hook' },
} as const satisfies Record<string, { flag: EventFlag | null; event: string }>;
export type HookScope = keyof typeof SCOPES;

/** The scopes system hooks take from projects (SystemHooksService, Project#execute_hooks). */
const SYSTEM_SCOPES: readonly HookScope[] = ['push_hooks', 'tag_push_hooks', 'merge_request_hooks', 'repository_update_hooks'];

const TIER_RANK = { free: 0, premium: 1, ultimate: 2 } as const;

/** A UUID (v4's layout) derived from the world's seed and what it names: the same world, the same UUIDs. */
export function uuidFor(seed: number, name: string): string {
  const hex = (hash53(`${seed}:${name}:a`) + hash53(`${seed}:${name}:b`) + hash53(`${seed}:${name}:c`)).slice(0, 32);
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

/** What one event sends: the scope, how its payload is built, and the instance's URL. */
export interface Outgoing {
  scope: HookScope;
  /** Builds the payload from the world the event happened in, given the repositories' objects. */
  build(repo: (projectId: number) => RepositoryObjects): unknown;
  instanceUrl: string;
}

/** An event's payload, built once for all its deliveries when the first is due. */
interface Pending {
  build?: Outgoing['build'];
  body?: Promise<string>;
  instanceUrl: string;
}

/** Each queued delivery's event (by the record itself, which the world keeps as it is until it is sent). */
const PENDING = new WeakMap<object, Pending>();

/** What some hooks take of one event: the hooks, in their order, as they were when it happened. */
export interface HookEvent {
  scope: HookScope;
  hookIds: number[];
  createdAt: number;
  /** Kept outside a subscriber (a push's repository update): the id the next event of the stream was to take. */
  before?: number;
}

/**
 * Each hook event's payload (by the record): its builder until the first of its deliveries is
 * due, then the JSON built, which every delivery of the event sends (and a world restored from
 * before they were queued sends again), so the builder lets go of the worlds it read.
 */
const OUTGOING = new WeakMap<object, Pending>();

/**
 * The hook events each event of the stream made, by the stored event as the world keeps it: a
 * subscriber adds to it without changing the world (a request's part is only this), and the
 * event, committed with the request or not at all, carries them; `expandEvents` queues them
 * after the answer.
 */
const PLANS = new WeakMap<object, { run: object; events: HookEvent[] }>();

/** Each run's mark (a request's, or detached work's, context): small, so what an event keeps of its run is not the run's worlds. */
const RUNS = new WeakMap<object, object>();
/** The runs that committed (by their mark): their reactions stand. */
const COMMITTED = new WeakSet<object>();

/** The stored event whose subscribers run now (`reacting`). */
let reactingTo: object | undefined;

/** The family's subscribers, each told which event it reacts to while it runs (what `enqueue` keeps its hook events on). */
export function reacting<T extends Record<string, (ctx: Context<unknown>, e: never) => void | Promise<void>>>(subscribers: T): T {
  const out: Record<string, (ctx: Context<unknown>, e: StoredEvent) => void | Promise<void>> = {};
  for (const [kind, subscriber] of Object.entries(subscribers)) {
    out[kind] = (ctx, e) => {
      const before = reactingTo;
      reactingTo = e;
      try {
        // Hook events are kept while it runs at once; any kept after an await go through the world.
        return subscriber(ctx, e as never);
      } finally {
        reactingTo = before;
      }
    };
  }
  return out as unknown as T;
}

/**
 * Keeps an event for `hooks` (one record, whatever the number of hooks): on the stored event
 * whose subscriber runs, with no change to the world; outside a subscriber, in the world. The
 * request that caused it does no more; its deliveries are queued by `expandEvents` after the
 * answer, before any request that follows, in the events' order.
 */
export function enqueue(ctx: Context<unknown>, hooks: readonly Hook[], out: Outgoing): void {
  if (hooks.length === 0) return;
  const event: HookEvent = { scope: out.scope, hookIds: hooks.map((h) => h.id), createdAt: ctx.now() };
  OUTGOING.set(event, { build: out.build, instanceUrl: out.instanceUrl });
  if (reactingTo) {
    let run = RUNS.get(ctx);
    const plans = PLANS.get(reactingTo);
    if (run && plans?.run === run) {
      plans.events.push(event);
      return;
    }
    // An event kept outside a request may be handed to a run that does not commit (the world
    // moved meanwhile) and then to another: the later reaction stands, unless the earlier one
    // committed (then this run cannot).
    if (plans && COMMITTED.has(plans.run)) return;
    if (!run) {
      const mark = (run = {});
      RUNS.set(ctx, mark);
      ctx.afterCommit(() => COMMITTED.add(mark));
    }
    PLANS.set(reactingTo, { run, events: [event] });
    return;
  }
  ctx.update((draft) => {
    event.before = lastEventId(draft as State) + 1;
    (draft as State).hookEvents.push(event);
  });
}

/** The last event whose hook events may be queued: the stream's last, short of any its subscribers have not been handed yet. */
function plannedLimit(state: State): number {
  let to = lastEventId(state);
  for (const id of state.unsettled) if (id <= to) to = id - 1;
  return to;
}

/**
 * What a dispatcher found looking for events with hook events: none after `base` up to
 * `through`, whose event is `event` (so a world of another line, a restored one, is not taken
 * for this one).
 */
export interface PlanScan {
  base: number;
  through: number;
  event: object | undefined;
}

/** Whether the world holds hook events not queued yet: kept ones, or stored events past those queued that made some. */
export function unexpanded(state: State, scan: PlanScan): boolean {
  if (state.hookEvents.length > 0) return true;
  if (state.hooks.size === 0) return false;
  const to = plannedLimit(state);
  let from = state.hookPlannedThrough;
  if (scan.base <= from && scan.through > from && scan.through <= to && tget(state.events, scan.through) === scan.event) from = scan.through;
  else Object.assign(scan, { base: from, through: from, event: undefined });
  for (let id = from + 1; id <= to; id++) {
    const e = tget(state.events, id);
    if (e && PLANS.has(e)) return true;
    scan.through = id;
    scan.event = e;
  }
  return false;
}

/**
 * Queues the hook events' deliveries (WebHookService#async_execute): a record per hook that
 * still exists, in the events' order and then the hooks'; the payload and the headers are made
 * when the delivery's turn comes, as GitLab's worker makes them.
 */
export function expandEvents(draft: Draft<State>): void {
  const state = draft as State;
  // The events as the world holds them (the keys of their hook events), not drafts of them.
  const world = isDraft(draft) ? ((original(draft) as State | undefined) ?? state) : state;
  const kept = state.hookEvents.length > 0 ? state.hookEvents.map(baseOf) : [];
  if (kept.length > 0) state.hookEvents = [];
  const to = plannedLimit(world);
  let k = 0;
  for (let id = state.hookPlannedThrough + 1; id <= to; id++) {
    while (k < kept.length && kept[k]!.before! <= id) queueDeliveries(state, kept[k++]!);
    const e = tget(world.events, id);
    for (const planned of (e && PLANS.get(e)?.events) || []) queueDeliveries(state, planned);
  }
  while (k < kept.length) queueDeliveries(state, kept[k++]!);
  if (to > state.hookPlannedThrough) state.hookPlannedThrough = to;
}

/** One hook event's deliveries, queued. */
function queueDeliveries(state: State, e: HookEvent): void {
  const pending = OUTGOING.get(e);
  if (!pending) return; // a world restored without the event's payload: nothing to send
  let eventKey = 0;
  for (const hookId of e.hookIds) {
    const hook = tget(state.hooks, hookId);
    if (!hook) continue;
    const id = ids.next(state as CoreState, 'web_hook_log');
    eventKey ||= id;
    const delivery: Delivery = {
      id, hookId: hook.id, eventKey, trigger: e.scope, url: interpolatedUrl(hook), shownUrl: maskedUrl(hook), requestHeaders: [], requestBody: null,
      createdAt: e.createdAt, dueAt: e.createdAt, state: 'pending', responseStatus: null, responseHeaders: [], responseBody: null, executionDuration: null, internalError: null,
    };
    PENDING.set(delivery, pending);
    keep(state, delivery);
  }
}

/** What a delivery sends: its body and headers, made now from its event and its hook (WebHookService#build_headers). */
export async function materialize(state: State, d: Delivery, hook: Hook, repo: (projectId: number) => RepositoryObjects): Promise<{ body: string; headers: [string, string][] } | null> {
  // A resent delivery carries what was sent the first time.
  if (d.requestBody !== null && d.requestHeaders.length > 0) {
    const headers = d.requestHeaders.flatMap(([k, v]): [string, string][] => (k === 'X-Gitlab-Token' ? (hook.token ? [[k, hook.token]] : []) : [[k, v]]));
    return { body: d.requestBody, headers };
  }
  const pending = PENDING.get(d);
  if (!pending) return null;
  if (!pending.body) {
    const build = pending.build!;
    pending.build = undefined;
    pending.body = Promise.resolve(build(repo)).then((data) => JSON.stringify(data));
  }
  return requestOf(state, hook, d.trigger as HookScope, d.id, d.eventKey, pending.instanceUrl, await pending.body);
}

/** A delivery's body and headers from its payload's JSON (WebHookService#build_headers, #request_payload). */
export function requestOf(state: State, hook: Hook, trigger: HookScope, id: number, eventKey: number, instanceUrl: string, json: string): { body: string; headers: [string, string][] } {
  const seed = state.rng.seed;
  const headers: [string, string][] = [
    ['Content-Type', 'application/json'],
    ['User-Agent', `GitLab/${GITLAB_VERSION}`],
    ['Idempotency-Key', uuidFor(seed, `idempotency:${id}`)],
    ['X-Gitlab-Event', hook.kind === 'system' ? 'System Hook' : SCOPES[trigger].event],
    ['X-Gitlab-Webhook-UUID', uuidFor(seed, `webhook:${id}`)],
    ['X-Gitlab-Instance', instanceUrl],
  ];
  if (hook.token) headers.push(['X-Gitlab-Token', hook.token.replace(/[\r\n]/g, '')]);
  headers.push(['X-Gitlab-Event-UUID', uuidFor(seed, `event:${eventKey}`)]);
  for (const [k, v] of hook.customHeaders) headers.push([k, v]);
  return { body: hook.customWebhookTemplate ? renderTemplate(hook.customWebhookTemplate, JSON.parse(json)) : json, headers };
}

/** A log id taken now, for a delivery sent while its request waits (a test's); the events kept before it take theirs first. */
export function takeLogId(draft: Draft<State>): number {
  expandEvents(draft);
  return ids.next(draft as CoreState, 'web_hook_log');
}

/**
 * A test's delivery, sent while its request waited (WebHookService#execute with `force`): its
 * log, kept as any delivery's, and the hook enabled again or backed off (LogExecutionService).
 */
export function logSent(hook: Hook, trigger: HookScope, id: number, request: { body: string; headers: [string, string][] }, outcome: Outcome, startedAt: number, now: number): Change {
  return (draft) => {
    if (!tget((draft as State).hooks, hook.id)) return; // deleted while the receiver answered
    const d: Delivery = {
      id, hookId: hook.id, eventKey: id, trigger, url: interpolatedUrl(hook), shownUrl: maskedUrl(hook), requestHeaders: [], requestBody: null,
      createdAt: startedAt, dueAt: startedAt, state: 'pending', responseStatus: null, responseHeaders: [], responseBody: null, executionDuration: null, internalError: null,
    };
    keep(draft as State, d);
    recordOutcome(d, request, outcome, startedAt, now)(draft);
  };
}

function keep(draft: State, d: Delivery): void {
  tset(draft.hookDeliveries, d.id, d);
  tset(draft.hookQueue, d.id, d.id);
  pset(draft.hookLogIds, d.hookId, d.id, d.id);
  // The log loses deliveries only at its old end, so the oldest kept is a counter.
  while (draft.hookDeliveries.size > DELIVERIES_KEPT) {
    const old = tget(draft.hookDeliveries, draft.hookOldest);
    if (old) {
      tdel(draft.hookDeliveries, old.id);
      pdel(draft.hookLogIds, old.hookId, old.id);
      tdel(draft.hookQueue, old.id);
    }
    draft.hookOldest++;
  }
}

/** A hook's logs of the last seven days, newest first (WebHookLogsFinder). */
export function hookLogs(state: State, hookId: number, now: number): Delivery[] {
  const out: Delivery[] = [];
  for (const id of plist(state.hookLogIds, hookId)) {
    const d = tget(state.hookDeliveries, id);
    if (d && d.state === 'sent' && d.createdAt >= now - LOG_DAYS * DAY) out.push(d);
  }
  return out.sort((a, b) => b.id - a.id);
}

/** WebHooks::Events::ResendService: the logged request again, to the hook's URL now, as a new delivery. */
export function resendDelivery(hook: Hook, log: Delivery, now: number): Change<Delivery> {
  return (draft) => {
    // The events kept before it take their ids first.
    expandEvents(draft);
    const again: Delivery = {
      ...log, id: ids.next(draft as CoreState, 'web_hook_log'), url: interpolatedUrl(hook), shownUrl: maskedUrl(hook),
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
export function recordOutcome(sent: Delivery, request: { body: string; headers: [string, string][] }, outcome: Outcome, startedAt: number, now: number): Change<boolean> {
  return (draft) => {
    const d = tget((draft as State).hookDeliveries, sent.id);
    // The record as it was queued, not another one a restored world gave the same id.
    if (!d || baseOf(d) !== sent) return false;
    d.state = 'sent';
    d.requestBody = request.body;
    d.requestHeaders = request.headers;
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

/** A delivery whose hook went away before its turn, or whose event the world no longer tells. */
export function dropDelivery(sent: Delivery): Change {
  return (draft) => {
    const d = tget((draft as State).hookDeliveries, sent.id);
    if (!d || baseOf(d) !== sent) return;
    d.state = 'dropped';
    dequeue(draft as State, sent.id);
  };
}

const baseOf = <T extends object>(value: T): T => (isDraft(value) ? (original(value as Draft<T>) as T) : value);

function dequeue(draft: State, id: number): void {
  tdel(draft.hookQueue, id);
}
