// What a handler sees: its typed parameters, the caller, the world as of this request, and
// `update` to change it. Updates apply to a working copy that is committed only when the
// handler succeeds, so a failed request changes nothing.
import { produce } from 'immer';
import type { Clock } from '../core/clock.js';
import type { ObjectDatabase } from '../git/objects.js';
import type { RateLimit, State, Task } from '../store/state.js';
import { nextId } from '../store/state.js';
import type { Recipe } from '../store/store.js';
import type { Caller } from './auth.js';
import { paginateOffset, type LinkBase, type PageInput } from './pagination.js';

/** Services of the emulator that handlers reach through the context. */
export interface Env {
  clock: Clock;
  /** The git objects of every repository (refs are in the world). */
  git: ObjectDatabase;
  /**
   * Counts one use of a rate limit that only some requests of a route hit (a large blob, say):
   * false once `limit` uses fall in one period. Settings' `rate_limits[name]` overrides the limit.
   */
  throttle(name: string, scope: string, limit: RateLimit): boolean;
}

export class Context<P = Record<string, unknown>> {
  #state: State;
  #recipes: Recipe[] = [];
  readonly responseHeaders: Record<string, string> = {};

  constructor(
    state: State,
    readonly env: Env,
    readonly request: Request,
    readonly url: URL,
    readonly params: P,
    /** Every parameter as sent, merged (path over body over query). */
    readonly raw: Record<string, unknown>,
    readonly caller: Caller,
    /** Base of the URLs that entities render (`web_url`): the external URL or the request's origin. */
    readonly webBase: string,
    readonly linkBase: LinkBase,
  ) {
    this.#state = state;
  }

  get state(): State {
    return this.#state;
  }

  get user() {
    return this.caller.user;
  }

  now(): number {
    return this.env.clock.now();
  }

  update(recipe: Recipe): State {
    this.#state = produce(this.#state, recipe);
    this.#recipes.push(recipe);
    return this.#state;
  }

  /**
   * The world to commit when `current` is the world now and `base` the one this request read.
   * A handler that awaited (git writes) may find the world changed meanwhile (a restore, a
   * seed, timed work): its updates are then applied again onto the current world, and an
   * update that no longer holds (a branch that moved) fails the request.
   */
  commitOnto(current: State, base: State): State {
    if (current === base) return this.#state;
    return this.#recipes.reduce((s, r) => produce(s, r), current);
  }

  /** Schedules timed work on the clock, as part of this request's changes. */
  schedule(draft: State, kind: string, at: number, payload: Record<string, unknown>): Task {
    const task = { id: nextId(draft, 'task'), at, kind, payload };
    draft.tasks.push(task);
    return task;
  }

  /** One page of `all`, with GitLab's pagination headers set on the response. */
  paginate<T>(all: readonly T[], input: PageInput = this.params as PageInput): T[] {
    const { items, headers } = paginateOffset(all, input, this.linkBase);
    Object.assign(this.responseHeaders, headers);
    return items;
  }
}
