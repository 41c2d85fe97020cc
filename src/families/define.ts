// The family contract. A family is one folder under src/families/ whose index.ts declares it
// with `defineFamily` and adds its slice and fixture parts to the world's open interfaces
// (world.ts); src/families/index.ts lists them, and the router, the seed phases and the task
// table are derived from that list.
import { current, isDraft, type Draft } from 'immer';
import type { ObjectDatabase, RepositoryObjects, StorageBinding } from '../git/objects.js';
import type { Advertised, Command, Outcome, PushObjects } from '../git/transfer.js';
import type { Caller, GitCredentials } from '../http/auth.js';
import { projectByIdOrPath } from '../policy/paths.js';
import type { Context as HttpContext } from '../http/context.js';
import { EmulatorError, forbidden } from '../core/errors.js';
import { findGroup, findProject } from '../http/resolve.js';
import { route as declareRoute, type Resolver, type RouteDef, type Scope } from '../http/route.js';
import type { ParamSpec } from '../http/params.js';
import type { ControlRoute } from '../http/control-route.js';
import type { ObjectSchema, Typed } from '../core/schema.js';
import { coreIds, type CoreState, type Namespace, type Project, type Token, type User } from '../store/state.js';
import { addTask } from '../store/scheduler.js';
import type { FamilyHandles, Fixture, FixtureGroup, FixtureProject, FixtureUser, NoteableType, SeedHandles, State } from './world.js';
import type { EventKind, PushChange, StoredEvent } from './stream.js';

/**
 * The description of the fields a family adds to one kind of a fixture's records: what it accepts
 * must be part of that record's type, so a description fits the part the family declared.
 */
type PartSchema<R> = ObjectSchema & Typed<Partial<R>>;

/** What a seed phase sees: the fixture, the handles made so far, and the world being built. */
export interface SeedRun {
  readonly fixture: Fixture;
  readonly handles: SeedHandles;
  readonly now: number;
  readonly git: ObjectDatabase;
  /** The world as the phases before this one left it. */
  readonly state: State;
  /** Applies a change at once; a later phase sees it. Nothing is kept if any phase throws. */
  update<T>(recipe: (draft: Draft<State>) => T): T;
}

/** What timed work sees besides the world: the time, and a way to let every family forget an owner. */
export interface TaskContext {
  now: number;
  /** Every family drops what it keeps for a deleted project or group (`forget`). */
  forget(kind: 'project' | 'group', id: number, draft: Draft<State>): void;
}

/** One kind of timed work, with its payload's type. Tasks are data in the world; this is their behaviour. */
export interface TaskDef<P> {
  readonly kind: string;
  run(draft: Draft<State>, payload: P, ctx: TaskContext): void;
}

export function defineTask<P>(kind: string, run: (draft: Draft<State>, payload: P, ctx: TaskContext) => void): TaskDef<P> {
  return { kind, run };
}

/** Schedules timed work as part of a change of the world. */
export function schedule<P>(draft: Draft<CoreState>, task: TaskDef<P>, at: number, payload: P): void {
  addTask(draft as CoreState, { id: coreIds.next(draft as CoreState, 'task'), at, kind: task.kind, payload });
}

/**
 * What a family does when an event of the stream happens, inside the transaction of the request
 * that caused it: it may read and change the world (`ctx.update`) and emit further events.
 */
export type Reaction<K extends EventKind> = (ctx: Context<unknown>, event: StoredEvent<K>) => void | Promise<void>;

/** A family's subscribers, by kind; `request` is the answered request itself (2xx, any surface that settles), which the stream does not keep. */
export type Subscribers = { readonly [K in EventKind]?: Reaction<K> } & { readonly request?: (ctx: Context<unknown>) => void | Promise<void> };

export interface Family<S extends object = object> {
  /** As the spec names the family. */
  readonly name: string;
  /** Its slice of the world, empty: top-level keys no other family uses. */
  readonly state?: () => S;
  /** Its seed phase: runs after the phases of the families named in `after`. */
  readonly seed?: { after?: readonly string[]; run(s: SeedRun): void | Promise<void> };
  readonly routes?: readonly RouteDef[];
  readonly tasks?: readonly TaskDef<never>[];
  /** Drops what the family keeps for a project or group that is being deleted. */
  readonly forget?: {
    project?(draft: Draft<State>, id: number): void;
    group?(draft: Draft<State>, id: number): void;
    /** An event the stream's log drops (its oldest, past the log's limit): what the family keeps of it goes too. */
    event?(draft: Draft<State>, event: StoredEvent): void;
  };
  /** What it loads before the first emulator serves (a library too costly for the package's import); `createEmulator` awaits it. */
  readonly load?: () => Promise<void>;
  /** Its subscribers to the event stream (src/families/stream.ts), run in the list's order. */
  readonly on?: Subscribers;
  /**
   * What the family answers a push over git with, before git hears back (PostReceiveService):
   * the push options acted on (`git push -o merge_request.create`) and lines for `remote:`.
   */
  readonly postReceive?: (ctx: Context<unknown>, pushes: readonly PushChange[], options: readonly string[]) => Promise<string[]>;
  /** The description of its fixture parts, validated before any seed phase runs (src/core/schema.ts). */
  readonly schema?: {
    readonly top?: PartSchema<Fixture>;
    readonly user?: PartSchema<FixtureUser>;
    readonly group?: PartSchema<FixtureGroup>;
    readonly project?: PartSchema<FixtureProject>;
  };
  // ---- What the family gives the facade, the control API and the doors (see the block below) ----
  /**
   * Its test handle: members the emulator gains (`emulator.ci(project)`, `emulator.moves`), made
   * once per emulator over the facade's host. The family adds their types to `FamilyHandles`,
   * which the `Emulator` type extends.
   */
  readonly handle?: (host: Host) => Partial<FamilyHandles>;
  /**
   * Its endpoints of the control API (`/-/emulator/<endpoint>...`), over the facade's host: the
   * control surface mounts them (its token, JSON bodies and errors apply) and lists `endpoint`.
   */
  readonly control?: { readonly endpoint: string; routes(host: Host): readonly ControlRoute[] };
  /** The operations of `Operations` it answers for the facade and the doors: each is one family's. */
  readonly provides?: Partial<Operations>;
  /**
   * The kinds of record it owns that notes hang on (`Issue`, `Snippet`): the notes' tables
   * (store/notes.ts) are shared, the kinds are the families' (each adds its own to `Noteables`).
   */
  readonly noteables?: readonly NoteableType[];
  /** The git repositories it serves over git's smart HTTP, and its rules for the refs it owns in a project's. */
  readonly git?: GitPart;
  /**
   * What an exported world (`emulator.exportFixture()`, the fixture's `world`) holds of the
   * family besides its slice, which the registry writes for every family: the git objects of
   * the repositories, say.
   */
  readonly image?: ImagePart;
  /**
   * Keys of the world the family kept in an earlier release: an exported world that holds one is
   * still read, its value (decoded) moved into the world as the family keeps it now.
   */
  readonly retired?: Readonly<Record<string, (draft: Draft<State>, value: unknown) => void>>;
}

/** A family's part of an exported world beyond its slice (see `Family.image`). */
export interface ImagePart {
  /**
   * Its part, as JSON data, and a change of the copy of the world that is written beside it:
   * what is the process's rather than the world's (a storage id) is renumbered there.
   */
  write(state: State, git: ObjectDatabase): { part: unknown; change?: Change };
  /** Seeding: makes what `part` describes again, in the world the image was read into. */
  read(part: unknown, s: SeedRun): void | Promise<void>;
}

/**
 * Declares a family. A family with a slice annotates the constant with it (`Family<WikisSlice>`),
 * so `state()` is checked to build the whole slice it added to `Slices` (and its empty tables
 * get their types); its types for the world are declared by merging (world.ts), not here.
 */
export function defineFamily<S extends object = object>(family: Family<S>): Family<S> {
  return family;
}

/** The full path of a fixture group (`parent/path`), as seed handles key it. */
export const fixtureGroupPath = (g: { path: string; parent?: string }) => (g.parent ? `${g.parent}/${g.path}` : g.path);
/** The full path of a fixture project (`namespace/path`), as seed handles key it. */
export const fixtureProjectPath = (p: { path: string; namespace: string }) => `${p.namespace}/${p.path}`;
/** `group 'acme/tools'`: how a seed's errors name a fixture's group. */
export const groupWhere = (g: { path: string; parent?: string }) => `group '${fixtureGroupPath(g)}'`;
/** `project 'acme/app'`: how a seed's errors name a fixture's project. */
export const projectWhere = (p: { path: string; namespace: string }) => `project '${fixtureProjectPath(p)}'`;

/** Declares a route of a family: its handler sees the whole world (`ctx.state: State`), and its subject typed. */
export function route<S extends ParamSpec, T = unknown, K = unknown>(def: RouteDef<S, State, T, K>): RouteDef {
  return declareRoute<S, State, T, K>(def);
}

/** What a family's handler sees: the http context over the whole world (with the route's subject, `T`). */
export type Context<P = unknown, T = unknown> = HttpContext<P, State, T>;

/** A change of the world that returns what it made: what a service hands its route. */
export type Change<T = void> = (draft: Draft<State>) => T;

/**
 * What a service that writes git objects is handed, besides its input: the world it checks
 * against, who acts, when, and the objects of a repository by key (a request's: what it writes
 * stays pending until the request commits). It returns its `Change`, as every service does.
 */
export interface GitWork {
  readonly state: State;
  readonly user: User;
  readonly now: number;
  git(key: number): RepositoryObjects;
}

/** A request's `GitWork`, for a route that hands one to a service: its world, its (signed-in) caller, its clock, its objects. */
export const gitWork = (ctx: Context<unknown>): GitWork => ({ state: ctx.state, user: ctx.user!, now: ctx.now(), git: (key) => ctx.env.git.repository(key) });

/** A record read from a draft, as a plain value that outlives the change (a new record is one already). */
export function plain<T>(value: T): T {
  return isDraft(value) ? (current(value as Draft<T>) as T) : value;
}

/** A rule of who may do what on a project or group (GitLab's policies): false is 403; it may throw its own error. */
export type Ability<T> = (state: State, user: User | null, subject: T, now: number) => boolean;

/** Checks each ability on what was found (403 when one refuses); throws at load when one is not loaded yet. */
function authorizer<T>(abilities: readonly Ability<T>[]): (ctx: Context, found: T) => T {
  // An ability imported from a family whose module has not finished loading (an import cycle) is undefined here.
  if (!abilities.every((a) => typeof a === 'function')) throw new Error('a scope or subject names an ability that is not loaded yet: break the import cycle between families');
  return (ctx, found) => {
    for (const can of abilities) if (!can(ctx.state, ctx.user, found, ctx.now())) throw forbidden();
    return found;
  };
}

/** A scope: find the subject named by `:id` (GitLab's 404), check each ability (403), hand it to the handler. */
function scopeOf<T>(find: (ctx: Context, id: string) => T, put: (ctx: Context, subject: T) => void, abilities: readonly Ability<T>[]): Scope {
  const authorize = authorizer(abilities);
  return {
    param: 'id',
    resolve(c, id) {
      const ctx = c as unknown as Context;
      put(ctx, authorize(ctx, find(ctx, id)));
    },
  };
}

/** The scope of a route that acts on the project named by `:id`: 404 when the caller cannot see it, then each ability. */
export const project = (...abilities: Ability<Project>[]): Scope => scopeOf(findProject, (ctx, p) => (ctx.project = p), abilities);

/** The scope of a route that acts on the group named by `:id`: 404 when the caller cannot see it, then each ability. */
export const group = (...abilities: Ability<Namespace>[]): Scope => scopeOf(findGroup, (ctx, g) => (ctx.group = g), abilities);

/**
 * What a route acts on within its scope (a user, a merge request, a snippet), as `subject:`
 * declares it: `find` reads the parameters `P` it names (which the route must declare) and
 * throws GitLab's 404 (and whatever GitLab checks before it, `authenticated_as_admin!`); then
 * each ability is checked (403, or the ability's own error). The handler reads `ctx.subject: T`.
 */
export function subject<T, P = unknown>(find: (ctx: Context<P>) => T, ...abilities: Ability<T>[]): Resolver<T, P, State> {
  const authorize = authorizer(abilities);
  return { resolve: (ctx) => authorize(ctx, find(ctx)) };
}

// ---- Beyond the world and the API: what a family gives the facade, the control API and the doors ----

/**
 * What the facade gives a family's test handle, control routes and operations: the world, its
 * clock, the git objects and the emulator's URL. A change through `update` applies at once,
 * outside any request.
 */
export interface Host {
  /** The world as it is now. */
  state(): State;
  /** Changes the world at once; returns what the recipe returns. */
  update<T>(recipe: (draft: Draft<State>) => T): T;
  /** The emulator's clock, in epoch milliseconds. */
  now(): number;
  /** The git objects of every repository. */
  readonly objects: ObjectDatabase;
  /** Where the emulator believes it lives: its external URL, else its base URL. */
  url(): string;
  /**
   * Changes the world in a transaction of its own under the write lock: after any request under
   * way, before any that follows (work that finished outside a request, such as a delivery).
   */
  transact<T>(recipe: (draft: Draft<State>) => T): Promise<T>;
  /**
   * Calls `listener` after each committed change of the world (a request's, timed work's, a
   * handle's) and each move of the clock: work kept in the world can start once it is due.
   */
  watch(listener: () => void): void;
}

/**
 * What the facade and the doors ask of the families without knowing which one answers: each
 * operation is provided by exactly one family (`provides`), as the registry checks at load.
 */
export interface Operations {
  /** Where the object database finds a repository's storage in a world. */
  objectStorage: StorageBinding;
  /** A session cookie (`_gitlab_session`) for a user, as if signed in on the web: a sign-in on the clock (`emulator.signIn`). */
  signIn(host: Host, username: string): string;
  /** A new SCIM token for a group named by full path, which configures its SCIM (`emulator.scimToken`). */
  scimToken(host: Host, groupPath: string): string;
  /** The user a CI job token acts as while its job runs; undefined otherwise (authentication's `Credentials`). */
  jobUser(state: CoreState, token: Token): User | undefined;
  /** A deploy token git may log in with for a project (git's `GitCredentials`). */
  deployTokenLogin: GitCredentials['deployTokenLogin'];
}

/**
 * The project a test names (an id or a full path) for a handle, found again at each call so the
 * handle follows the world; throws when there is none (now, or at the first call).
 */
export function namedProject(host: Pick<Host, 'state'>, project: number | string): () => Project {
  const find = (): Project => {
    const p = projectByIdOrPath(host.state(), project);
    if (!p) throw new EmulatorError(`no project '${project}'`);
    return p;
  };
  find();
  return find;
}

// ---- Git repositories a family serves: the git surface speaks the protocol, the families decide ----

/** What a family declares of git: the repositories it serves, push to create, the rules of the refs it owns. */
export interface GitPart {
  /**
   * The repository a git URL's path (`<path>.git`) names, when it is one this family serves
   * (Gitlab::RepoPath); the families are asked in the list's order, the first to answer wins.
   */
  repository?(state: State, path: string): ServedRepository | undefined;
  /**
   * Push to create: a push to a path that names no repository makes one (a project), if the
   * caller may; true when it made one (the path then names it).
   */
  createOnPush?(ctx: Context<unknown>, path: string): boolean;
  /** Its rules of the refs it owns in a project's repository (GitLab's pre-receive checks and how each ref moves). */
  refRules?: readonly RefRule[];
}

/** A repository a git URL named, as its family serves it. */
export interface ServedRepository {
  /** Where its objects are: the key of `ctx.env.git.repository(key)`. */
  readonly key: number;
  /** The project whose LFS tokens open it (an LFS token is a project's); none for the others. */
  readonly tokenProject?: number;
  /** `http_download_allowed?`: whether a guest may clone it. */
  anonymousDownload(state: State, now: number): boolean;
  /** Gitlab::GitAccess#check of one command (`git-upload-pack`, `git-receive-pack`, or another asked for): throws GitLab's plain-text 403 or 404. */
  check(state: State, caller: Caller, command: string | null, now: number): void;
  /** Its refs as git lists them. */
  refs(state: State): Advertised;
  /** Applies a push's commands and pack: git's checks, GitLab's pre-receive checks, then the refs in one change. */
  push(run: PushRun, commands: Command[], pack: Uint8Array, atomic: boolean): Promise<Outcome>;
  /** Its Git LFS objects, when it keeps them. */
  readonly lfs?: LfsObjects;
}

/** A repository's Git LFS objects, as the LFS API reaches them (LfsRequest, LfsApiController). */
export interface LfsObjects {
  /** The project whose LFS objects they are (the LFS tokens handed out name it). */
  readonly project: number;
  /** Its full path, for the transfers' URLs (`<web>/<path>.git/gitlab-lfs/...`). */
  readonly path: string;
  /** LfsRequest#lfs_check_access! for an operation: `allowed`; `forbidden` (403) to whoever may see the repository; `hidden` (404) to anyone else. */
  access(state: State, caller: Caller, operation: unknown, now: number): 'allowed' | 'forbidden' | 'hidden';
  /** The blob holding an LFS object it owns. */
  object(state: State, oid: string): string | undefined;
  /** Throws GitLab's plain-text 403 while the repository takes no writes (a storage move). */
  assertWritable(state: State): void;
  /** The change that records an uploaded object as its own. */
  link(oid: string, blob: string): Change;
}

/** What a push sees: the repository's objects in this request, the world before the push, the pusher, and how to change the world. */
export interface PushRun {
  repo: RepositoryObjects;
  state: State;
  user: User;
  now: number;
  /** The URL the web app lives at, for the messages that name it. */
  webBase: string;
  update(change: (draft: Draft<State>) => unknown): unknown;
  /** The push options (`git push -o ...`), as git sent them. */
  pushOptions: readonly string[];
  /** What the families answer the push with, once its refs moved (PostReceiveService): lines for side-band 2. */
  postReceive?: (options: readonly string[]) => Promise<string[]>;
  /** The rule of the ref in a project's repository: the one whose prefix is the longest that matches. */
  refRule(ref: string): RefRule | undefined;
}

/** A push to a project's repository, as a ref rule sees it. */
export type ProjectPush = PushRun & { project: Project };

/**
 * How the refs under `prefix` of a project's repository take a push (Gitlab::Checks::TagCheck
 * for `refs/tags/`): GitLab's check of each command against the repository before the push,
 * and the change that moves an accepted one (all of a push's in one change of the world).
 */
export interface RefRule {
  readonly prefix: string;
  /** GitLab's message refusing the command, or null. */
  check(push: ProjectPush, cmd: Command, objects: PushObjects): Promise<string | null> | string | null;
  /** The change that moves the ref, with what it needs of the pushed objects read first. */
  update(push: ProjectPush, cmd: Command, objects: PushObjects): Promise<Change> | Change;
}
