// The dispatcher: one per emulator, it sends the deliveries the world holds once they are due,
// after the answer of the request that queued them, through the global `fetch` (so an MSW
// handler at a hook's URL receives them in process, and a real receiver over the network). One
// delivery at a time per hook, in order; hooks do not wait for each other. What came back is
// written to the world in a transaction of its own.
import { tget, tvalues } from '../../store/table.js';
import type { Host } from '../define.js';
import type { State } from '../world.js';
import type { Delivery } from './records.js';
import { allowsLocal, blockedReason } from './rules.js';
import { dropDelivery, expandEvents, materialize, recordOutcome, SCOPES, unexpanded, type HookScope, type Outcome, type PlanScan } from './queue.js';

/** Gitlab::WebHooks::WebHookService's timeout (webhook_timeout: 10 seconds). */
const TIMEOUT_MS = 10_000;
/** A timer that a test's fake timers do not hold up. */
const later: (fn: () => void) => void = ((t) => (fn: () => void) => void t(fn, 0))(globalThis.setTimeout.bind(globalThis));

export interface DeliveryFilter {
  hookId?: number;
  /** `X-Gitlab-Event`: `Push Hook`, `Issue Hook`... */
  event?: string;
  /** GitLab's scope: `push_hooks`, `issue_hooks`... */
  trigger?: string;
  url?: string;
  state?: Delivery['state'];
}

/** A delivery as the test handle shows it. */
export interface DeliveryView {
  id: number;
  hookId: number;
  event: string;
  trigger: string;
  url: string;
  state: Delivery['state'];
  headers: Record<string, string>;
  /** The body as sent, and parsed (null until its turn). */
  body: string | null;
  payload: unknown;
  createdAt: string;
  responseStatus: string | null;
  responseBody: string | null;
}

export interface HooksMembers {
  hooks: {
    /** What was queued and sent (oldest first), and what the receivers answered. */
    deliveries(filter?: DeliveryFilter): DeliveryView[];
    /** Resolves once every due delivery has been sent and its answer recorded. */
    settled(): Promise<void>;
    /**
     * `allow_local_requests_from_web_hooks_and_services` and `allow_local_requests_from_system_hooks`:
     * on in the emulator's world; off, a hook to a local address is refused and its deliveries blocked.
     */
    allowLocalRequests(settings: { webHooks?: boolean; systemHooks?: boolean }): void;
    /** Holds deliveries back (they stay queued) until `resume()`. */
    pause(): void;
    resume(): void;
    readonly paused: boolean;
  };
}

function view(d: Delivery, system: boolean): DeliveryView {
  let payload: unknown = null;
  try {
    if (d.requestBody !== null) payload = JSON.parse(d.requestBody);
  } catch {
    payload = d.requestBody;
  }
  const headers = Object.fromEntries(d.requestHeaders);
  return {
    id: d.id, hookId: d.hookId, event: headers['X-Gitlab-Event'] ?? (system ? 'System Hook' : SCOPES[d.trigger as HookScope].event), trigger: d.trigger, url: d.url, state: d.state, headers, body: d.requestBody, payload,
    createdAt: new Date(d.createdAt).toISOString(), responseStatus: d.responseStatus, responseBody: d.responseBody,
  };
}

/**
 * The timeout of a request sent now (GitLab's 10 seconds): requests sent within the same
 * millisecond share one signal, as one event's deliveries to many hooks go out together, so ten
 * hooks make one timer, not ten.
 */
let shared: { signal: AbortSignal; at: number } | undefined;
function timeoutSignal(): AbortSignal | undefined {
  if (typeof AbortSignal.timeout !== 'function') return undefined;
  const at = performance.now();
  if (!shared || at - shared.at >= 1) shared = { signal: AbortSignal.timeout(TIMEOUT_MS), at };
  return shared.signal;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may not hold (a ByteString without NUL, CR or LF). */
const UNSENDABLE = /[\0\r\n]|[^\0-\xff]/;

/**
 * A delivery's headers as `fetch` takes them: the list itself when every header can be sent as
 * it is (fetch builds its own Headers from it), a value that cannot be sent percent-encoded; an invalid
 * name goes through a Headers object, which refuses it.
 */
function sendable(list: [string, string][]): [string, string][] | Headers {
  let out = list;
  for (let i = 0; i < list.length; i++) {
    const [k, v] = list[i]!;
    if (!TOKEN.test(k)) return headersOf(list);
    if (UNSENDABLE.test(v)) {
      if (out === list) out = list.slice();
      out[i] = [k, encodeURIComponent(v)];
    }
  }
  return out;
}

function headersOf(list: [string, string][]): Headers {
  const headers = new Headers();
  for (const [k, v] of list) {
    try {
      headers.append(k, v);
    } catch {
      headers.append(k, encodeURIComponent(v));
    }
  }
  return headers;
}

/** Response header names as the log shows them (`Content-Type`), kept once made: receivers send the same few. */
const SHOWN = new Map<string, string>();
function shownName(key: string): string {
  let shown = SHOWN.get(key);
  if (shown === undefined) {
    shown = key.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
    if (SHOWN.size < 512) SHOWN.set(key, shown);
  }
  return shown;
}

/** Sends one request; never throws: a failure is an outcome with its message. */
export async function deliver(url: string, d: { body: string; headers: [string, string][] }, allowLocal: boolean): Promise<Outcome> {
  const blocked = blockedReason(url, allowLocal);
  if (blocked) return { status: null, headers: [], body: '', error: blocked };
  const headers = sendable(d.headers);
  try {
    const res = await globalThis.fetch(url, { method: 'POST', headers, body: d.body, redirect: 'manual', signal: timeoutSignal() });
    const body = await res.text();
    const responseHeaders: [string, string][] = [];
    res.headers.forEach((value, key) => responseHeaders.push([shownName(key), value]));
    return { status: res.status, headers: responseHeaders, body, error: null };
  } catch (e) {
    const cause = (e as { cause?: { message?: string } }).cause?.message;
    return { status: null, headers: [], body: '', error: cause ?? (e as Error).message ?? String(e) };
  }
}

export function hooksHandle(host: Host): HooksMembers {
  /** Hooks with a delivery under way. */
  const busy = new Set<number>();
  let paused = false;
  let scheduled = false;
  /** Whether the kept events' deliveries are being queued (a transaction after the answer). */
  let expanding = false;
  let waiters: (() => void)[] = [];
  /** How far this dispatcher has found the stream's events without hook events. */
  const scan: PlanScan = { base: 0, through: 0, event: undefined };

  const due = (state: State): Delivery[] => {
    const now = host.now();
    const out: Delivery[] = [];
    for (const id of tvalues(state.hookQueue)) {
      const d = tget(state.hookDeliveries, id);
      if (d && d.state === 'pending' && d.dueAt <= now) out.push(d);
    }
    return out.sort((a, b) => a.id - b.id);
  };

  const idle = () => busy.size === 0 && !expanding && !unexpanded(host.state(), scan) && (paused || due(host.state()).every((d) => busy.has(d.hookId)));

  const wake = () => {
    // The events a request kept become deliveries after its answer, before any request that follows.
    // A timer, so none of it runs before the answer is handed back; the events keep their order
    // whatever comes first (the ids are taken in the events' order), and the handle's reads queue them at once.
    if (!expanding && unexpanded(host.state(), scan)) {
      expanding = true;
      later(() => {
        void host
          .transact(expandEvents)
          .catch((e: Error) => console.error(`[gitlab-emulator] webhook deliveries could not be queued: ${e.message}`))
          .finally(() => {
            expanding = false;
            wake();
          });
      });
    }
    if (scheduled || paused || host.state().hookQueue.size === 0) return checkWaiters();
    scheduled = true;
    later(pump);
  };

  const checkWaiters = () => {
    if (waiters.length === 0 || !idle()) return;
    const ready = waiters;
    waiters = [];
    for (const w of ready) w();
  };

  function pump(): void {
    scheduled = false;
    if (!paused) {
      const state = host.state();
      for (const d of due(state)) {
        if (busy.has(d.hookId)) continue;
        busy.add(d.hookId);
        void run(d, state);
      }
    }
    checkWaiters();
  }

  async function run(d: Delivery, state: State): Promise<void> {
    try {
      const hook = tget(state.hooks, d.hookId);
      const request = hook ? await materialize(state, d, hook, (projectId) => host.objects.repositoryIn(host.state(), projectId)) : null;
      if (!hook || !request) {
        await host.transact(dropDelivery(d));
        return;
      }
      const started = host.now();
      const outcome = await deliver(d.url, request, allowsLocal(state, hook.kind));
      await record(recordOutcome(d, request, outcome, started, host.now()));
    } catch (e) {
      console.error(`[gitlab-emulator] a webhook delivery failed: ${(e as Error).message}`);
      await host.transact(dropDelivery(d)).catch(() => {});
    } finally {
      busy.delete(d.hookId);
      wake();
    }
  }

  /** Outcomes that came back, written together in one transaction (receivers often answer at once). */
  let outcomes: { change: ReturnType<typeof recordOutcome>; done: () => void }[] = [];
  function record(change: ReturnType<typeof recordOutcome>): Promise<void> {
    return new Promise<void>((done) => {
      outcomes.push({ change, done });
      if (outcomes.length > 1) return;
      later(() => {
        const batch = outcomes;
        outcomes = [];
        void host
          .transact((draft) => batch.forEach((o) => o.change(draft)))
          .finally(() => batch.forEach((o) => o.done()));
      });
    });
  }

  host.watch(wake);

  return {
    hooks: {
      deliveries(filter = {}) {
        // What the requests answered so far queued, though the work after their answers has not run yet.
        if (unexpanded(host.state(), scan)) host.update(expandEvents);
        const out: DeliveryView[] = [];
        const state = host.state();
        for (const d of [...tvalues(state.hookDeliveries)].sort((a, b) => a.id - b.id)) {
          if (filter.hookId !== undefined && d.hookId !== filter.hookId) continue;
          if (filter.trigger !== undefined && d.trigger !== filter.trigger) continue;
          if (filter.url !== undefined && d.url !== filter.url) continue;
          if (filter.state !== undefined && d.state !== filter.state) continue;
          const v = view(d, tget(state.hooks, d.hookId)?.kind === 'system' || d.trigger === 'system_hooks');
          if (filter.event !== undefined && v.event !== filter.event) continue;
          out.push(v);
        }
        return out;
      },
      async settled() {
        // What timed work kept (a clock moved) reaches the subscribers first, in a transaction of its own.
        await host.transact(() => undefined);
        return new Promise<void>((resolve) => {
          waiters.push(resolve);
          wake();
          checkWaiters();
        });
      },
      allowLocalRequests(settings) {
        host.update((draft) => {
          if (settings.webHooks !== undefined) draft.hookSettings.allowLocalWebHooks = settings.webHooks;
          if (settings.systemHooks !== undefined) draft.hookSettings.allowLocalSystemHooks = settings.systemHooks;
        });
      },
      pause() {
        paused = true;
      },
      resume() {
        paused = false;
        wake();
      },
      get paused() {
        return paused;
      },
    },
  };
}

