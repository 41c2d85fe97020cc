// The facade: one world, its clock, the router of every family, and the doors onto them.
// The list of families, for its types too: each family adds its part of the world's, the
// fixture's and the emulator's types from its own folder (declaration merging), which a program
// sees only if it reads that folder; every entry's declarations reach this file.
import './families/index.js';
import { Clock, type ClockOptions } from './core/clock.js';
import defaultWorld from '../fixtures/default.json' with { type: 'json' };
import { EmulatorError } from './core/errors.js';
import { Faults } from './core/faults.js';
import { Journal } from './core/journal.js';
import { API_ROUTES, emptyState, exportWorld, familyHandles, hasUnsettled, keepEvents, loadFamilies, OPERATIONS, settle, runTask, SCIM_ROUTES, seedWorld, validateFixture, WEB_ROUTES } from './families/registry.js';
import type { Context, Host } from './families/define.js';
import type { FamilyHandles, Fixture, SeedHandles, State } from './families/world.js';
import { ObjectDatabase } from './git/objects.js';
import { loadVolumes } from './git/volume.js';
import { loadFflate } from './git/fflate.js';
import { loadLazyModules } from './core/lazy.js';
import { Pipeline, type RequestEvent, type UnknownRoutePolicy } from './http/pipeline.js';
import { formatRequest } from './http/request-log.js';
import type { RouteDef } from './http/route.js';
import { RateLimiter } from './http/rate-limit.js';
import { Scheduler } from './store/scheduler.js';
import { apiV4Surface } from './surfaces/api-v4.js';
import { CONTROL_PREFIX, controlSurface } from './surfaces/control.js';
import { scimSurface } from './surfaces/scim.js';
import { webSurface } from './surfaces/web.js';
import { healthSurface } from './surfaces/health.js';
import { WORLDS_PATH, Worlds, worldOf } from './surfaces/worlds.js';
import { fromRequest, toResponse, type Incoming, type Rendered } from './http/incoming.js';
import { gitSurface } from './surfaces/git/index.js';
import { startServer, type ListenOptions, type Server } from './transports/listen.js';
import type { Instance, Settings } from './store/state.js';
import { Store, type Snapshot } from './store/store.js';
import type { DataDirHandle } from './persist/data-dir.js';

export const DEFAULT_BASE_URL = 'https://gitlab.example.com';
export const DEFAULT_FIXTURE = defaultWorld as Fixture;

export interface EmulatorOptions {
  /** The world to start from; the default world when absent, an empty one with `{}`. */
  fixture?: Fixture;
  /** Where the MSW handlers answer; default `https://gitlab.example.com`. */
  baseUrl?: string;
  /**
   * The URL GitLab believes it lives at, for `web_url` and pagination links. Without it,
   * URLs start at the origin each request used.
   */
  externalUrl?: string;
  /** Seed of the generator behind tokens and generated ids. */
  seed?: number;
  clock?: ClockOptions;
  /** How many requests the journal keeps; 1000 by default, 0 for none. */
  journalLimit?: number;
  /** The largest request body accepted, in bytes; larger ones answer 413. 250 MiB by default, as Omnibus GitLab's nginx. */
  maxBodySize?: number;
  /**
   * A secret the control API (`/-/emulator/...`) then asks of every request, through every door:
   * `Authorization: Bearer <token>` or `X-Emulator-Token: <token>`. Without it, the control API
   * is open to this process and, over `listen()`, to this machine's own clients.
   */
  controlToken?: string;
  /**
   * A request log: one line per request (method, path, status, acting user, milliseconds; a path
   * that is not emulated; a token that matches no user). `true` writes to `console.log`, coloured
   * on a terminal; a function gets each line and its event. Off by default.
   */
  log?: boolean | ((line: string, event: RequestEvent) => void);
  /**
   * A request to a path no route of the emulator matches is answered GitLab's 404 with the header
   * `X-Gitlab-Emulator: no-route` and marked in the journal. `'warn'` also warns on the console;
   * `'error'` makes `handle` reject (MSW then answers 500 and the test fails), as MSW's
   * `onUnhandledRequest: 'error'` does. `'ignore'` by default.
   */
  onUnknownRoute?: UnknownRoutePolicy;
  /**
   * Node only: a directory the world and its git objects live in (docs/data-dir.md). Every write
   * is on disk before it is answered; a new directory is seeded with `fixture`, an existing one
   * serves the world it kept. `close()` writes its snapshot and releases it.
   */
  dataDir?: string;
}

/** One route the emulator serves, as `GET /-/emulator` lists it. */
export interface EmulatedRoute {
  method: string;
  /** The full path pattern, e.g. `/api/v4/projects/:id`. */
  path: string;
  /** The lowest tier that has it, when not every tier does. */
  tier?: string;
  /** The only offering that has it, when not both do. */
  offering?: string;
}

/** The registry's settle over the pipeline's context (the pipeline knows the world only as CoreState). */
const settleOver = (ctx: object) => settle(ctx as Context<unknown>);

/** Omnibus GitLab's `nginx['client_max_body_size']`. */
export const DEFAULT_MAX_BODY_SIZE = 250 * 1024 * 1024;

export type { ListenOptions, Server, RequestEvent, UnknownRoutePolicy };

function logger(log: EmulatorOptions['log'], root = ''): ((event: RequestEvent) => void) | undefined {
  if (!log) return undefined;
  // A world's requests are logged with their whole path.
  if (root) {
    const inner = logger(log);
    return inner && ((event) => inner({ ...event, path: root + event.path }));
  }
  if (typeof log === 'function') return (event) => log(formatRequest(event), event);
  const tty = (globalThis as { process?: { stdout?: { isTTY?: boolean }; env?: Record<string, string | undefined> } }).process;
  const colour = tty?.stdout?.isTTY === true && !tty.env?.NO_COLOR;
  return (event) => console.log(formatRequest(event, { colour }));
}

const listed = (prefix: string, routes: readonly RouteDef[]): EmulatedRoute[] =>
  routes.map((r) => ({ method: r.method, path: `${prefix}${r.path}`, ...(r.tier ? { tier: r.tier } : {}), ...(r.offering ? { offering: r.offering } : {}) }));

const API = apiV4Surface(API_ROUTES);
const WEB = webSurface(WEB_ROUTES);
const SCIM = scimSurface(SCIM_ROUTES);
/** Git's smart HTTP under the web's paths; listed before the web surface, which takes every path no other claims. */
const GIT = gitSurface();
/** GitLab's health endpoints (`/-/health`, `/-/readiness`, `/-/liveness`); before the web surface too. */
const HEALTH = healthSurface();

/**
 * The emulator. Besides the members below, each family's test handle adds its own (see
 * `FamilyHandles`): `git(project)` a repository, `ci(project)` CI, `moves` storage moves...
 */
// A class and an interface of one name merge: the handles' members are the emulator's too.
export interface Emulator extends FamilyHandles {}

export class Emulator {
  readonly clock: Clock;
  readonly journal: Journal<Snapshot>;
  readonly faults = new Faults();
  readonly baseUrl: string;
  readonly externalUrl: string | undefined;
  readonly store: Store<State>;
  /** Git objects of every repository; shared with forks, since objects are never rewritten. */
  readonly objects: ObjectDatabase;
  #seeded: Snapshot;
  #named = new Map<string, Snapshot>();
  #pipeline: Pipeline;
  #scheduler: Scheduler<State>;
  #limits = new RateLimiter();
  #options: EmulatorOptions;
  /** What the families' handles and operations see of this emulator. */
  #host: Host;
  #dataDir: DataDirHandle | undefined;
  /** Told of each committed change and each move of the clock (`Host.watch`). */
  #watchers: (() => void)[] = [];
  /**
   * The worlds this emulator serves under `/-/worlds/NAME` (`POST /-/emulator/worlds`), each an
   * emulator of its own; undefined in a world, which holds none.
   */
  readonly worlds: Worlds<Emulator> | undefined;

  /** Use `createEmulator`. */
  constructor(options: EmulatorOptions, initial?: State, objects?: ObjectDatabase, root?: string) {
    if (options.controlToken !== undefined && (typeof options.controlToken !== 'string' || options.controlToken === '')) {
      throw new EmulatorError('controlToken must be a non-empty string');
    }
    this.#options = options;
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.externalUrl = options.externalUrl?.replace(/\/+$/, '');
    this.clock = new Clock(options.clock);
    this.journal = new Journal<Snapshot>(options.journalLimit ?? 1000);
    this.store = new Store(initial ?? emptyState(options.seed ?? 1));
    this.objects = objects ?? new ObjectDatabase(OPERATIONS.objectStorage);
    this.#seeded = this.store.snapshot();
    this.worlds = root === undefined ? new Worlds((name, fixture) => this.#makeWorld(name, fixture), (world) => world.objects.release()) : undefined;
    this.#scheduler = new Scheduler(this.store, this.clock, runTask);
    const limits = this.#limits;
    const store = this.store;
    const clock = this.clock;
    const host: Host = (this.#host = {
      state: () => this.store.state,
      update: (recipe) => {
        let out!: ReturnType<typeof recipe>;
        this.store.update((draft) => {
          out = recipe(draft);
          keepEvents(draft, clock.now());
        });
        this.#settleSoon();
        this.#changed();
        return out;
      },
      now: () => clock.now(),
      objects: this.objects,
      url: () => this.externalUrl ?? this.baseUrl,
      transact: (recipe) => {
        let out!: ReturnType<typeof recipe>;
        return this.#pipeline.detach(async (ctx) => void (out = (ctx as unknown as Context<unknown>).update(recipe))).then(() => out);
      },
      watch: (listener) => void this.#watchers.push(listener),
    });
    this.#pipeline = new Pipeline({
      store,
      clock,
      surfaces: [API, GIT, HEALTH, WEB, SCIM, controlSurface(this, host, { token: options.controlToken })],
      journal: this.journal,
      faults: this.faults,
      limits,
      env: {
        clock,
        git: this.objects,
        // A limit the handler counts itself; the settings' `rate_limits[name]` overrides it.
        throttle: (name, scope, fallback) =>
          limits.take(`${name}|${scope}`, store.state.instance.settings.rate_limits[name] ?? fallback, clock.now()).ok,
      },
      externalUrl: this.externalUrl,
      root,
      // A settled change commits with its request (or detached work): then the watchers hear of it.
      settle: this.#settle,
      runDue: () => this.#scheduler.runDue(),
      maxBodySize: options.maxBodySize ?? DEFAULT_MAX_BODY_SIZE,
      observe: logger(options.log, root),
      onUnknownRoute: options.onUnknownRoute,
    });
    // Timed work the clock ran (the scheduler listens first) may have kept events for subscribers.
    this.clock.onChange(() => {
      this.#settleSoon();
      this.#changed();
    });
    const members = Object.getOwnPropertyDescriptors(familyHandles(host));
    for (const name of Object.keys(members)) if (name in this) throw new EmulatorError(`a family's handle gives the emulator '${name}', which it has`);
    Object.defineProperties(this, members);
  }

  /**
   * Hands what timed work or a test handle kept to its subscribers, in a transaction of its own,
   * at once: every request that follows waits for it.
   */
  #settleSoon(): void {
    if (hasUnsettled(this.store.state)) void this.#pipeline.detach(this.#settle);
  }

  /** Settles a change (a request's, or what work outside requests kept); the watchers hear of it once it commits. */
  #settle = (ctx: object): void | Promise<void> => {
    (ctx as Context<unknown>).afterCommit(() => this.#changed());
    return settleOver(ctx);
  };

  /** Tells the watchers the world or the clock changed. */
  #changed(): void {
    for (const watcher of this.#watchers) watcher();
  }

  /** Resolves once what happened outside requests (timed work, test handles) has reached its subscribers. */
  settled(): Promise<void> {
    return this.#pipeline.detach(async () => {});
  }

  /** The world as it is now (read-only). */
  get state(): State {
    return this.store.state;
  }

  /**
   * Serves one request: the GitLab API (`/api/v4/...`), its web downloads, the control API
   * (`/-/emulator/...`), or a world's (`/-/worlds/NAME/...`).
   */
  handle = async (request: Request): Promise<Response> => toResponse(await this.#answer(fromRequest(request)));

  /** The world a path is under (`/-/worlds/NAME/...`) and the path within it; undefined for this emulator's own paths. */
  #worldAt(pathname: string): { world: Emulator; rest: string } | undefined {
    if (this.worlds === undefined || this.worlds.size === 0) return undefined;
    const at = worldOf(pathname);
    const world = at && this.worlds.get(at.name);
    return world ? { world, rest: at!.rest } : undefined;
  }

  /** One request, to this emulator or to the world its path is under (its path then without the world's prefix). */
  #answer(request: Incoming): Promise<Rendered> {
    if (this.worlds === undefined || this.worlds.size === 0 || !request.url.includes(WORLDS_PATH)) return this.#pipeline.answer(request);
    const url = request.parsedUrl ?? new URL(request.url);
    const at = this.#worldAt(url.pathname);
    if (!at) return this.#pipeline.answer(request);
    const inner = new URL(url.href);
    inner.pathname = at.rest;
    return at.world.#pipeline.answer({ method: request.method, url: inner.href, parsedUrl: inner, headers: request.headers, body: request.body, doorKey: request.doorKey });
  }

  /** The world a door's key names (its target is under `/-/worlds/NAME`), or this emulator. */
  #atOnce(method: string, doorKey: string, guarded: string | undefined): Rendered | undefined {
    const start = doorKey.indexOf(' ', doorKey.indexOf(' ') + 1) + 1;
    if (this.worlds !== undefined && this.worlds.size > 0 && doorKey.startsWith(WORLDS_PATH, start)) {
      const end = doorKey.indexOf('\n', start);
      const at = this.#worldAt(doorKey.slice(start, end < 0 ? undefined : end).split('?')[0]!);
      return at ? at.world.#pipeline.answerAtOnce(method, doorKey, guarded) : undefined;
    }
    return this.#pipeline.answerAtOnce(method, doorKey, guarded);
  }

  /**
   * A new world served under `/-/worlds/NAME`: the world as this emulator was seeded (the same
   * immutable state, the same content-addressed objects, nothing copied; what it writes goes to
   * storages of its own), or `fixture` seeded on an empty one. Its clock starts as this
   * emulator's did; its journal, snapshots, faults and ids are its own.
   */
  async #makeWorld(name: string, fixture: unknown): Promise<Emulator> {
    const root = `${WORLDS_PATH}${name}`;
    const options: EmulatorOptions = {
      ...this.#options,
      baseUrl: `${this.baseUrl}${root}`,
      externalUrl: this.externalUrl === undefined ? undefined : `${this.externalUrl}${root}`,
    };
    if (fixture === undefined) {
      // Its objects: a layer over this emulator's, which its deletion releases.
      const world = new Emulator(options, this.#seeded.state as State, this.objects.layer(), root);
      world.#seeded = this.#seeded;
      return world;
    }
    // A world of its own objects, released with it.
    const world = new Emulator(options, undefined, undefined, root);
    await world.seed(fixture as Fixture);
    world.markSeeded();
    return world;
  }

  /** Whether a request to this URL is the emulator's to answer (any path under /api/v4, the git paths, /-/emulator, the web app's few routes). */
  serves(method: string, url: string | URL): boolean {
    const pathname = (typeof url === 'string' ? new URL(url) : url).pathname;
    const at = this.#worldAt(pathname);
    return at ? at.world.serves(method, `http://w${at.rest}`) : this.#pipeline.serves(method, pathname);
  }

  /** Adds a fixture's records to the world: all of them, or none when the fixture is wrong. */
  async seed(fixture: Fixture): Promise<SeedHandles> {
    validateFixture(fixture);
    const base = this.store.state;
    const { state, handles } = await seedWorld(base, fixture, this.clock.now(), this.objects);
    if (this.store.state !== base) throw new EmulatorError('the world changed while a fixture was being seeded; await seed() first');
    this.store.state = state;
    return handles;
  }

  /**
   * The whole world as a fixture (records, ids, timestamps, repositories' objects): an emulator
   * created with it (`createEmulator({ fixture })`, `--fixture`) answers every read as this one.
   * What timed work or a test handle left for subscribers is settled first.
   */
  async exportFixture(): Promise<Fixture> {
    await this.settled();
    return exportWorld(this.store.state, this.objects);
  }

  snapshot(): Snapshot {
    return this.store.snapshot();
  }

  restore(snapshot: Snapshot): void {
    this.store.restore(snapshot);
    this.#changed();
  }

  /**
   * Back to the world as it was seeded at creation and the clock as it was created (a frozen
   * clock at its start time, a running one running as if never moved); forgets rate-limit windows.
   */
  reset(): void {
    this.store.restore(this.#seeded);
    this.#limits.clear();
    this.clock.reset();
  }

  /** Marks the current world as the one `reset()` returns to. */
  markSeeded(): void {
    this.#seeded = this.store.snapshot();
    this.#dataDir?.seeded();
  }

  /** With a `dataDir`: writes its snapshot and releases it (use the emulator no more). Without one, nothing. */
  async close(): Promise<void> {
    await this.#dataDir?.close();
  }

  /** @internal Keeps the world in a data directory from now on (`createEmulator`'s `dataDir`). */
  static keepIn(emulator: Emulator, handle: DataDirHandle): Emulator {
    emulator.#dataDir = handle;
    return emulator;
  }

  /** Named snapshots, for tests that reach the emulator only over HTTP. */
  saveSnapshot(name: string): Snapshot {
    const snap = this.snapshot();
    this.#named.set(name, snap);
    return snap;
  }

  restoreSnapshot(name: string): boolean {
    const snap = this.#named.get(name);
    if (snap) this.restore(snap);
    return snap !== undefined;
  }

  snapshotNames(): string[] {
    return [...this.#named.keys()];
  }

  deleteSnapshot(name: string): boolean {
    return this.#named.delete(name);
  }

  /** An independent emulator starting from this one's current world. */
  fork(): Emulator {
    const other = new Emulator({ ...this.#options, clock: { now: this.clock.now(), frozen: this.clock.frozen } }, this.state, this.objects);
    other.#seeded = this.#seeded;
    return other;
  }

  /** Tier, offering and settings of the instance. */
  configure(instance: { tier?: Instance['tier']; offering?: Instance['offering']; settings?: Partial<Settings> }): void {
    this.store.update((draft) => {
      if (instance.tier) draft.instance.tier = instance.tier;
      if (instance.offering) draft.instance.offering = instance.offering;
      if (instance.settings) Object.assign(draft.instance.settings, instance.settings);
    });
  }

  /** A session cookie value (`_gitlab_session`) for a user, as if signed in on the web (a sign-in on the clock). */
  signIn(username: string): string {
    return OPERATIONS.signIn(this.#host, username);
  }

  /** Every route the emulator serves: the REST API's, the web paths' and SCIM's. */
  routes(): EmulatedRoute[] {
    return [...listed(API.prefix, API.routes), ...listed(WEB.prefix, WEB.routes), ...listed(SCIM.prefix, SCIM.routes)];
  }

  /** A new SCIM token for a group (by full path), which configures its SCIM as GitLab's group settings would. */
  scimToken(groupPath: string): string {
    return OPERATIONS.scimToken(this.#host, groupPath);
  }

  /** Runs every scheduled task, moving the clock forward to each one's time. Returns how many ran. */
  runUntilIdle(): number {
    const ran = this.#scheduler.runUntilIdle();
    this.#settleSoon();
    return ran;
  }

  /**
   * Starts a `node:http` server on this emulator (default host 127.0.0.1, port 0 picks a free one).
   * Its control API answers only this machine's own clients: the door refuses a foreign `Host`
   * or `Origin` (the URLs this emulator was told it lives at count as its own). With a
   * `controlToken` the token is the check and any `Host` may ask.
   */
  listen(options: ListenOptions = {}): Promise<Server> {
    const urls = [this.#options.baseUrl, this.#options.externalUrl].filter((u): u is string => u !== undefined);
    return startServer((request) => this.#answer(request), options, { prefix: CONTROL_PREFIX, urls, tokenGuarded: this.#options.controlToken !== undefined }, (method, key, guarded) => this.#atOnce(method, key, guarded));
  }
}

/** Creates an emulator on the default world, or on `options.fixture`. */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  await Promise.all([loadVolumes(), loadFflate(), loadLazyModules(), loadFamilies()]);
  if (options.dataDir !== undefined) {
    const { openDataDir } = await import('./persist/data-dir.js');
    const { emulator, handle } = await openDataDir(options.dataDir, options.fixture ?? DEFAULT_FIXTURE, (clock) => new Emulator({ ...options, ...(clock ? { clock } : {}) }));
    return Emulator.keepIn(emulator, handle);
  }
  const emulator = new Emulator(options);
  await emulator.seed(options.fixture ?? DEFAULT_FIXTURE);
  emulator.markSeeded();
  return emulator;
}

