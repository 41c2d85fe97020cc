// The family contract. A family is one folder under src/families/ whose index.ts declares it
// with `defineFamily`; src/families/index.ts lists them, and the world's type, the fixture's
// type, the router, the seed phases and the task table are all derived from that list.
import { current, isDraft, type Draft } from 'immer';
import type { ObjectDatabase } from '../git/objects.js';
import type { Context as HttpContext } from '../http/context.js';
import { forbidden } from '../core/errors.js';
import { findGroup, findProject } from '../http/resolve.js';
import { route as declareRoute, type RouteDef, type Scope } from '../http/route.js';
import type { ParamSpec } from '../http/params.js';
import type { ObjectSchema } from '../core/schema.js';
import { coreIds, type CoreState, type Namespace, type Project, type User } from '../store/state.js';
import { addTask } from '../store/scheduler.js';
import type { Fixture, SeedHandles, State } from './world.js';
import type { EventKind, PushChange, StoredEvent } from './stream.js';

/** The parts of a fixture a family adds: top-level keys, and fields of each user, group and project. */
export interface FixtureParts {
  top?: object;
  user?: object;
  group?: object;
  project?: object;
}

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

export interface Family<S extends object = object, F extends FixtureParts = FixtureParts> {
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
  /** Its subscribers to the event stream (src/families/stream.ts), run in the list's order. */
  readonly on?: Subscribers;
  /**
   * What the family answers a push over git with, before git hears back (PostReceiveService):
   * the push options acted on (`git push -o merge_request.create`) and lines for `remote:`.
   */
  readonly postReceive?: (ctx: Context<unknown>, pushes: readonly PushChange[], options: readonly string[]) => Promise<string[]>;
  /** The description of its fixture parts, validated before any seed phase runs (src/core/schema.ts). */
  readonly schema?: { readonly [K in keyof FixtureParts]?: ObjectSchema };
  /** Type markers of the slice and of the fixture parts; never set. */
  readonly types?: { slice: S; fixture: F };
}

/**
 * Declares a family. Annotate the constant with its `Family<Slice, FixtureParts>` type: the
 * world's type is derived from the list, so an inferred one would refer to itself.
 */
export function defineFamily<S extends object = object, F extends FixtureParts = FixtureParts>(family: Family<S, F>): Family<S, F> {
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

/** Declares a route of a family: its handler sees the whole world (`ctx.state: State`). */
export function route<S extends ParamSpec>(def: RouteDef<S, State>): RouteDef {
  return declareRoute<S, State>(def);
}

/** What a family's handler sees: the http context over the whole world. */
export type Context<P = unknown> = HttpContext<P, State>;

/** A change of the world that returns what it made: what a service hands its route. */
export type Change<T = void> = (draft: Draft<State>) => T;

/** A record read from a draft, as a plain value that outlives the change (a new record is one already). */
export function plain<T>(value: T): T {
  return isDraft(value) ? (current(value as Draft<T>) as T) : value;
}

/** A rule of who may do what on a project or group (GitLab's policies): false is 403; it may throw its own error. */
export type Ability<T> = (state: State, user: User | null, subject: T, now: number) => boolean;

/** A scope: find the subject named by `:id` (GitLab's 404), check each ability (403), hand it to the handler. */
function scopeOf<T>(find: (ctx: Context, id: string) => T, put: (ctx: Context, subject: T) => void, abilities: readonly Ability<T>[]): Scope {
  // An ability imported from a family whose module has not finished loading (an import cycle) is undefined here.
  if (!abilities.every((a) => typeof a === 'function')) throw new Error('a scope names an ability that is not loaded yet: break the import cycle between families');
  return {
    param: 'id',
    resolve(c, id) {
      const ctx = c as unknown as Context;
      const subject = find(ctx, id);
      for (const can of abilities) if (!can(ctx.state, ctx.user, subject, ctx.now())) throw forbidden();
      put(ctx, subject);
    },
  };
}

/** The scope of a route that acts on the project named by `:id`: 404 when the caller cannot see it, then each ability. */
export const project = (...abilities: Ability<Project>[]): Scope => scopeOf(findProject, (ctx, p) => (ctx.project = p), abilities);

/** The scope of a route that acts on the group named by `:id`: 404 when the caller cannot see it, then each ability. */
export const group = (...abilities: Ability<Namespace>[]): Scope => scopeOf(findGroup, (ctx, g) => (ctx.group = g), abilities);
