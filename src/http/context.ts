// What a handler sees: its typed parameters, the caller, the world as of this request, and
// `update` to change it. Updates apply to a working copy that is committed only when the
// handler succeeds, so a failed request changes nothing.
import { produce, type Draft } from 'immer';
import type { Clock } from '../core/clock.js';
import type { ObjectDatabase, ObjectsTransaction } from '../git/objects.js';
import type { RateLimit, CoreState, Namespace, Project } from '../store/state.js';
import type { Caller } from './auth.js';
import type { Incoming } from './incoming.js';
import { keysetAsked, paginateKeyset, paginateOffset, type Keyset, type KeysetInput, type LinkBase } from './pagination.js';
import type { Pager } from './surface.js';

/** Services of the emulator that handlers reach through the context. */
export interface Env {
  clock: Clock;
  /** The git objects of every repository (refs are in the world); handlers see a request's view of it. */
  git: ObjectDatabase;
  /**
   * Counts one use of a rate limit that only some requests of a route hit (a large blob, say):
   * false once `limit` uses fall in one period. Settings' `rate_limits[name]` overrides the limit.
   */
  throttle(name: string, scope: string, limit: RateLimit): boolean;
}

/**
 * The services as a handler sees them: `git.repository(projectId)` gives the objects of the
 * project's repository in this request's world; what the request writes stays pending, seen by
 * its own reads only, until it commits.
 */
export type RequestEnv = Omit<Env, 'git'> & { git: ObjectsTransaction };

/** An empty body, shared (nothing can be written to no bytes). */
const NO_BYTES = new Uint8Array(0);

/** Marks a subject not resolved: a route that declares none. */
const NO_SUBJECT: unique symbol = Symbol('no subject');

/**
 * `P` is the route's parameters, `W` the world it sees, `T` its subject (`ctx.subject`), `K` the
 * rows its declared keyset pages.
 */
export class Context<P = Record<string, unknown>, W extends CoreState = CoreState, T = unknown, K = unknown> {
  #state: W;
  #changes: ((draft: Draft<W>) => unknown)[] = [];
  readonly responseHeaders: Record<string, string> = {};
  #afterCommit: (() => void)[] = [];
  #project: Project | undefined;
  #group: Namespace | undefined;
  #subject: T | typeof NO_SUBJECT = NO_SUBJECT;
  #env: RequestEnv | undefined;
  readonly #services: Env;
  /** The request's body as sent (surfaces that read it themselves: git's smart HTTP). */
  body: Uint8Array = NO_BYTES;

  readonly #request: Incoming;
  readonly #url: URL;
  readonly #raw: Record<string, unknown>;
  readonly #linkBase: LinkBase;
  #readAsSent = false;

  constructor(
    state: W,
    env: Env,
    request: Incoming,
    url: URL,
    readonly params: P,
    /** Every parameter as sent, merged (path over body over query). */
    raw: Record<string, unknown>,
    readonly caller: Caller,
    /** Base of the URLs that entities render (`web_url`): the external URL or the request's origin. */
    readonly webBase: string,
    linkBase: LinkBase,
    /** The surface's paging. */
    private readonly pager: Pager = paginateOffset,
    /** The keyset pages the route declares, for a request that asks for them. */
    private readonly keysetPaging?: Keyset<K, W>,
  ) {
    this.#state = state;
    this.initial = state;
    this.#services = env;
    this.#request = request;
    this.#url = url;
    this.#raw = raw;
    this.#linkBase = linkBase;
  }

  get request(): Incoming {
    this.#readAsSent = true;
    return this.#request;
  }

  get url(): URL {
    this.#readAsSent = true;
    return this.#url;
  }

  /** Every parameter as sent, merged (path over body over query). */
  get raw(): Record<string, unknown> {
    this.#readAsSent = true;
    return this.#raw;
  }

  get linkBase(): LinkBase {
    this.#readAsSent = true;
    return this.#linkBase;
  }

  /**
   * Whether anything read the request as sent (its URL, its headers, every parameter as sent,
   * the links a page repeats) rather than only its declared parameters, its caller and its
   * origin: an answer that did not is the same for any request with the same of those.
   */
  get readAsSent(): boolean {
    return this.#readAsSent;
  }

  /** The services, with the git objects as this request sees them (made when first asked for). */
  get env(): RequestEnv {
    if (this.#env) return this.#env;
    // The object store sees the world as opaque; its changes (where the objects are stored) are ours.
    const self = this;
    const env = this.#services;
    return (this.#env = {
      ...env,
      git: env.git.transaction({
        get state() {
          return self.state;
        },
        update: (change) => self.update(change as (draft: Draft<W>) => unknown),
        afterCommit: (fn) => self.afterCommit(fn),
      }),
    });
  }

  get state(): W {
    return this.#state;
  }

  /** The world before this request changed it (what a subscriber compares a record's new version with). */
  readonly initial: W;

  get user() {
    return this.caller.user;
  }

  /** The project of a route scoped to one (`scope: project(...)`), found and authorized. */
  get project(): Project {
    if (!this.#project) throw new Error('this route declares no project scope');
    return this.#project;
  }

  set project(project: Project) {
    this.#project = project;
  }

  /** The group of a route scoped to one (`scope: group(...)`), found and authorized. */
  get group(): Namespace {
    if (!this.#group) throw new Error('this route declares no group scope');
    return this.#group;
  }

  set group(group: Namespace) {
    this.#group = group;
  }

  /** What the route acts on within its scope (`subject: ...`), found and authorized. */
  get subject(): T {
    if (this.#subject === NO_SUBJECT) throw new Error('this route declares no subject');
    return this.#subject;
  }

  set subject(subject: T) {
    this.#subject = subject;
  }

  now(): number {
    return this.#services.clock.now();
  }

  /** Applies a change to this request's working copy of the world; returns what the recipe returns. */
  update<T>(recipe: (draft: Draft<W>) => T): T {
    this.#changes.push(recipe);
    let result!: T;
    this.#state = produce(this.#state, (draft) => {
      result = recipe(draft as Draft<W>);
    });
    return result;
  }

  /** Runs `fn` once this request's changes are committed (never for a request that failed). */
  afterCommit(fn: () => void): void {
    this.#afterCommit.push(fn);
  }

  /** Called by the pipeline when the request succeeded and its world (if it changed) is the world. */
  committed(): void {
    for (const fn of this.#afterCommit) fn();
  }

  /**
   * Whether this request's changes still apply to `world` (one that changed while the handler
   * awaited): a change that checks what it read (a branch's tip) throws its own error here.
   */
  checkOnto(world: W): void {
    this.#changes.reduce((s, change) => produce(s, (draft) => void change(draft as Draft<W>)), world);
  }

  /** Whether this request asks for the keyset pages its route declares. */
  get keyset(): boolean {
    return !!this.keysetPaging && keysetAsked(this.keysetPaging, this.params as KeysetInput);
  }

  /**
   * One page of `all`, with GitLab's pagination headers set on the response: a keyset page when
   * the route declares them and `input` (the request's parameters, or what the handler pages
   * by) asks for one, an offset page otherwise.
   */
  paginate<R extends K>(all: readonly R[], input: KeysetInput = this.params as KeysetInput): R[] {
    const keyset = this.keysetPaging as Keyset<R, W> | undefined;
    const { items, headers } =
      keyset && keysetAsked(keyset, input) ? paginateKeyset(keyset, all, input, this.linkBase, this.state) : this.pager(all, input, this.linkBase);
    Object.assign(this.responseHeaders, headers);
    return items;
  }
}

/** What the shared lookups read of a request, whatever world its context is over. */
export type RequestView = Pick<Context<unknown>, 'state' | 'caller' | 'user' | 'now' | 'request'>;
