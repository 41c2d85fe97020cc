// WebHook's model (app/models/hooks/web_hook.rb and its kinds): defaults, validations, the
// branch filter (ActiveHookFilter), URL variables, and auto-disabling (WebHooks::AutoDisabling).
import { tdel, tget, tset, pdel, pset, plist, tvalues } from '../../store/table.js';
import { sequences, type CoreState } from '../../store/state.js';
import { plain, type Change } from '../define.js';
import type { State } from '../world.js';
import { branchFilterInvalid, customHeadersInvalid, hookInvalid, urlInvalid } from './errors.js';
import { EVENT_FLAGS, type BranchFilterStrategy, type EventFlag, type Hook, type HookKind } from './records.js';

const ids = sequences(['web_hook']);

/** What a caller sets; absent fields keep what is there (or take the model's defaults). */
export interface HookInput {
  url?: string;
  name?: string;
  description?: string;
  token?: string;
  events?: Partial<Record<EventFlag, boolean>>;
  enableSslVerification?: boolean;
  pushEventsBranchFilter?: string;
  branchFilterStrategy?: BranchFilterStrategy;
  customWebhookTemplate?: string;
  customHeaders?: [string, string][];
  urlVariables?: [string, string][];
}

/** The hooks of one owner, oldest first. */
export function hooksOf(state: State, kind: HookKind, ownerId: number | null): Hook[] {
  const ids = kind === 'system' ? [...tvalues(state.systemHookIds)] : plist(kind === 'project' ? state.projectHookIds : state.groupHookIds, ownerId!);
  return ids.flatMap((id) => tget(state.hooks, id) ?? []).sort((a, b) => a.id - b.id);
}

/** A hook of that owner, by id (`hooks.find`). */
export function hookOf(state: State, kind: HookKind, ownerId: number | null, id: number): Hook | undefined {
  const hook = tget(state.hooks, id);
  return hook && hook.kind === kind && hook.ownerId === ownerId ? hook : undefined;
}

/** The column defaults: push events on for project and group hooks, repository updates for system hooks. */
function defaultEvents(kind: HookKind): Record<EventFlag, boolean> {
  const events = Object.fromEntries(EVENT_FLAGS.map((f) => [f, false])) as Record<EventFlag, boolean>;
  if (kind === 'system') events.repository_update_events = true;
  else events.push_events = true;
  return events;
}

const PLACEHOLDER = /\{([A-Za-z0-9_]+)\}/g;
const VARIABLE_KEY = /^[A-Za-z0-9_]{1,100}$/;
/** A header name as HTTP allows it (a token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,255}$/;

/** WebHook#interpolated_url: the URL with its variables put in. */
export function interpolatedUrl(hook: Pick<Hook, 'url' | 'urlVariables'>): string {
  const vars = new Map(hook.urlVariables);
  return hook.url.replace(PLACEHOLDER, (whole, key: string) => vars.get(key) ?? whole);
}

/** The URL as logs show it: each variable's value masked. */
export function maskedUrl(hook: Pick<Hook, 'url' | 'urlVariables'>): string {
  const vars = new Map(hook.urlVariables);
  return hook.url.replace(PLACEHOLDER, (whole, key: string) => (vars.has(key) ? '{' + key + '}' : whole));
}

/** Whether a host is this machine or a private network's (Gitlab::HTTP_V2::UrlBlocker's local and private checks). */
export function isLocalHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '0.0.0.0' || h === '::' || h === '::1') return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(h);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  return /^f[cd][0-9a-f]{2}:/.test(h) || /^fe80:/.test(h) || h.startsWith('::ffff:127.');
}

/** Why GitLab's URL blocker refuses a URL, or null: its messages, as a hook's log shows them. */
export function blockedReason(url: string, allowLocal: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'Url is blocked: URI is invalid';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'Url is blocked: Only allowed schemes are http, https';
  if (allowLocal) return null;
  const h = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\./.test(h) || h === '0.0.0.0') return 'Url is blocked: Requests to localhost are not allowed';
  if (isLocalHost(h)) return 'Url is blocked: Requests to the local network are not allowed';
  return null;
}

/** Gitlab::GitRefValidator.validate, for a branch filter with its wildcards made letters. */
function validRefName(name: string): boolean {
  if (name === '' || name === '@' || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.') || name.endsWith('.lock')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20\x7f~^:?*[\\]|\.\.|\/\/|@\{/.test(name)) return false;
  return name.split('/').every((part) => !part.startsWith('.'));
}

/** RE2 refuses what JavaScript takes too, mostly; lookarounds and backreferences it refuses outright. */
function validUntrustedRegexp(source: string): boolean {
  if (/\(\?<?[=!]|\\[1-9]/.test(source)) return false;
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

/** The hook's validations, in the order the API reports them (url, branch filter, custom headers, then the rest). */
function validate(hook: Hook, allowLocal: boolean, creating: boolean): void {
  const url = hook.url.trim();
  const keys = new Set(hook.urlVariables.map(([k]) => k));
  const missing = [...url.matchAll(PLACEHOLDER)].map((m) => m[1]!).filter((k) => !keys.has(k));
  const target = interpolatedUrl(hook);
  // A URL with variables is checked as a URL only; without, also as a public one (PublicUrlValidator).
  const local = allowLocal || hook.urlVariables.length > 0;
  if (url === '' || missing.length > 0 || blockedReason(target, local) !== null || /\s/.test(target)) throw urlInvalid();
  if (hook.branchFilterStrategy === 'wildcard' && hook.pushEventsBranchFilter && !validRefName(hook.pushEventsBranchFilter.replaceAll('*', 'x'))) throw branchFilterInvalid();
  if (hook.branchFilterStrategy === 'regex' && hook.pushEventsBranchFilter && !validUntrustedRegexp(hook.pushEventsBranchFilter)) throw branchFilterInvalid();
  if (hook.customHeaders.some(([k, v]) => !HEADER_NAME.test(k) || v.length > 2048 || /[\r\n\0]/.test(v)) || hook.customHeaders.length > 20) throw customHeadersInvalid(creating);
  const errors: Record<string, string[]> = {};
  if (hook.urlVariables.some(([k, v]) => !VARIABLE_KEY.test(k) || v.length < 1 || v.length > 2048) || hook.urlVariables.length > 20) errors.url_variables = ['must be a valid json schema'];
  if ((hook.name?.length ?? 0) > 255) errors.name = ['is too long (maximum is 255 characters)'];
  if ((hook.description?.length ?? 0) > 2048) errors.description = ['is too long (maximum is 2048 characters)'];
  if (hook.customWebhookTemplate !== null && hook.customWebhookTemplate.length > 4096) errors.custom_webhook_template = ['is too long (maximum is 4096 characters)'];
  if (Object.keys(errors).length) throw hookInvalid(errors, creating);
}

/** Pairs with later ones of the same name replacing earlier ones (`to_h`). */
function pairs(list: readonly [string, string][]): [string, string][] {
  const out = new Map<string, string>();
  for (const [k, v] of list) out.set(k, v);
  return [...out];
}

function applyInput(hook: Hook, input: HookInput): Hook {
  const next: Hook = { ...hook, events: { ...hook.events } };
  if (input.url !== undefined) next.url = input.url;
  if (input.name !== undefined) next.name = input.name;
  if (input.description !== undefined) next.description = input.description;
  if (input.token !== undefined) next.token = input.token === '' ? null : input.token;
  for (const [flag, on] of Object.entries(input.events ?? {})) if (on !== undefined) next.events[flag as EventFlag] = on;
  if (input.enableSslVerification !== undefined) next.enableSslVerification = input.enableSslVerification;
  if (input.pushEventsBranchFilter !== undefined) next.pushEventsBranchFilter = input.pushEventsBranchFilter;
  if (input.branchFilterStrategy !== undefined) next.branchFilterStrategy = input.branchFilterStrategy;
  if (input.customWebhookTemplate !== undefined) next.customWebhookTemplate = input.customWebhookTemplate;
  if (input.customHeaders !== undefined) next.customHeaders = pairs(input.customHeaders);
  if (input.urlVariables !== undefined) next.urlVariables = pairs(input.urlVariables);
  // set_branch_filter_nil: the all-branches strategy keeps no filter.
  if (next.branchFilterStrategy === 'all_branches') next.pushEventsBranchFilter = null;
  return next;
}

/** Whether the instance lets hooks of this kind reach local addresses. */
export function allowsLocal(state: State, kind: HookKind): boolean {
  return kind === 'system' ? state.hookSettings.allowLocalSystemHooks : state.hookSettings.allowLocalWebHooks;
}

/** `relation.new(params).save` (WebHooks::CreateService). */
export function createHook(state: State, kind: HookKind, ownerId: number | null, input: HookInput, now: number): Change<Hook> {
  const base: Hook = {
    id: 0, kind, ownerId, url: '', name: null, description: null, token: null, createdAt: now, events: defaultEvents(kind), enableSslVerification: true,
    pushEventsBranchFilter: null, branchFilterStrategy: 'wildcard', customWebhookTemplate: null, customHeaders: [], urlVariables: [],
    recentFailures: 0, backoffCount: 0, disabledUntil: null,
  };
  const fields = applyInput(base, input);
  validate(fields, allowsLocal(state, kind), true);
  return (draft) => {
    const made: Hook = { ...fields, id: ids.next(draft as CoreState, 'web_hook') };
    tset((draft as State).hooks, made.id, made);
    index(draft as State, made, true);
    return made;
  };
}

function index(draft: State, hook: Hook, on: boolean): void {
  if (hook.kind === 'system') {
    if (on) tset(draft.systemHookIds, hook.id, hook.id);
    else tdel(draft.systemHookIds, hook.id);
    return;
  }
  const table = hook.kind === 'project' ? draft.projectHookIds : draft.groupHookIds;
  if (on) pset(table, hook.ownerId!, hook.id, hook.id);
  else pdel(table, hook.ownerId!, hook.id);
}

/**
 * `hook.assign_attributes(params); hook.save`: a new URL resets the token, the URL variables and
 * the custom headers not given with it (reset_token, reset_url_variables, reset_custom_headers).
 */
export function updateHook(state: State, hook: Hook, input: HookInput): Change<Hook> {
  let next = applyInput(hook, input);
  if (input.url !== undefined && input.url !== hook.url) {
    if (input.token === undefined) next = { ...next, token: null };
    if (input.urlVariables === undefined) next = { ...next, urlVariables: [] };
    if (input.customHeaders === undefined) next = { ...next, customHeaders: [] };
  }
  validate(next, allowsLocal(state, hook.kind), false);
  return (draft) => {
    tset((draft as State).hooks, hook.id, next);
    return plain(next);
  };
}

/** WebHooks::DestroyService: the hook and its logs. */
export function deleteHook(hook: Hook): Change {
  return (draft) => dropHook(draft as State, hook);
}

export function dropHook(draft: State, hook: Hook): void {
  tdel(draft.hooks, hook.id);
  index(draft, hook, false);
  for (const id of plist(draft.hookLogIds, hook.id)) {
    tdel(draft.hookDeliveries, id);
    tdel(draft.hookQueue, id);
  }
  tdel(draft.hookLogIds, hook.id);
}

// ---- ActiveHookFilter: which pushes a hook takes ----

/** RefMatcher for a wildcard pattern: `*` is any run of characters, anchored at both ends. */
function wildcardMatches(pattern: string, name: string): boolean {
  const source = pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?');
  return new RegExp(`^${source}$`).test(name);
}

/** Whether a push to `branch` goes to the hook (its branch filter by its strategy). */
export function branchMatches(hook: Pick<Hook, 'branchFilterStrategy' | 'pushEventsBranchFilter'>, branch: string): boolean {
  const filter = hook.pushEventsBranchFilter;
  if (hook.branchFilterStrategy === 'all_branches' || !filter) return true;
  if (hook.branchFilterStrategy === 'regex') {
    try {
      return new RegExp(filter).test(branch);
    } catch {
      return false;
    }
  }
  return filter.includes('*') ? wildcardMatches(filter, branch) : filter === branch;
}

// ---- WebHooks::AutoDisabling: project and group hooks back off, then stop ----

const FAILURE_THRESHOLD = 3;
const PERMANENTLY_DISABLED_FAILURE_THRESHOLD = 39;
const INITIAL_BACKOFF = 60_000;
const MAX_BACKOFF = 86_400_000;

const autoDisables = (hook: Hook) => hook.kind !== 'system';

export function temporarilyDisabled(hook: Hook, now: number): boolean {
  return autoDisables(hook) && hook.disabledUntil !== null && hook.disabledUntil >= now;
}

export function permanentlyDisabled(hook: Hook): boolean {
  return autoDisables(hook) && hook.recentFailures > PERMANENTLY_DISABLED_FAILURE_THRESHOLD;
}

/** WebHook#executable?: neither backing off nor disabled. */
export const executable = (hook: Hook, now: number): boolean => !temporarilyDisabled(hook, now) && !permanentlyDisabled(hook);

export function alertStatus(hook: Hook, now: number): 'executable' | 'temporarily_disabled' | 'disabled' {
  if (temporarilyDisabled(hook, now)) return 'temporarily_disabled';
  return permanentlyDisabled(hook) ? 'disabled' : 'executable';
}

/** WebHook#enable!: a success forgets the failures. */
export function enabled(hook: Hook): Hook {
  return hook.recentFailures === 0 && hook.disabledUntil === null && hook.backoffCount === 0 ? hook : { ...hook, recentFailures: 0, backoffCount: 0, disabledUntil: null };
}

/**
 * WebHook#backoff!: a failure counts; past three in a row the hook is disabled for a minute,
 * doubling with each further failure up to a day; past forty it is disabled until enabled again.
 */
export function backedOff(hook: Hook, now: number): Hook {
  if (!autoDisables(hook) || permanentlyDisabled(hook)) return hook;
  const failures = hook.recentFailures + 1;
  if (failures > PERMANENTLY_DISABLED_FAILURE_THRESHOLD) return { ...hook, recentFailures: failures, disabledUntil: null, backoffCount: 0 };
  if (failures > FAILURE_THRESHOLD) {
    const backoff = hook.backoffCount >= 8 ? MAX_BACKOFF : Math.min(MAX_BACKOFF, INITIAL_BACKOFF * 2 ** hook.backoffCount);
    return { ...hook, recentFailures: failures, backoffCount: hook.backoffCount + 1, disabledUntil: now + backoff };
  }
  return { ...hook, recentFailures: failures };
}
