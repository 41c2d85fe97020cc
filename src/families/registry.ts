// What the emulator derives from the list of families: the empty world, the routes, the seed
// phases in dependency order, and the task table. Checked once, when the module loads.
import { produce, type Draft } from 'immer';
import { EmulatorError, FixtureError } from '../core/errors.js';
import { arrayOf, bool, checkAll, merge, nullable, num, object, oneOf, opt, recordOf, str, toJsonSchema, type ObjectSchema } from '../core/schema.js';
import type { ObjectDatabase } from '../git/objects.js';
import type { RouteDef } from '../http/route.js';
import type { ControlRoute } from '../http/control-route.js';
import { tget } from '../store/table.js';
import { emptyCoreState, type Task } from '../store/state.js';
import type { Context, Family, GitPart, Host, Operations, PushRun, RefRule, SeedRun, ServedRepository, TaskContext, TaskDef } from './define.js';
import type { Command, Outcome } from '../git/transfer.js';
import { commitEvents, discardPending, emptyStream, type DomainEvent, type EventKind, type PushChange, type StoredEvent } from './stream.js';
import { FAMILIES } from './index.js';
import { refineFixture } from './fixture-checks.js';
import { readImage, WORLD_SCHEMA, type WorldImage } from './image.js';
export { exportWorld } from './image.js';
import type { FamilyHandles, Fixture, NoteableType, SeedHandles, State } from './world.js';

const families: readonly Family[] = FAMILIES;

function checkList(): void {
  const names = new Set<string>();
  for (const f of families) {
    if (names.has(f.name)) throw new EmulatorError(`two families are named '${f.name}'`);
    names.add(f.name);
  }
  const core = emptyCoreState();
  const keys = new Map<string, string>();
  for (const f of families) {
    for (const key of Object.keys(f.state?.() ?? {})) {
      if (key in core || keys.has(key)) throw new EmulatorError(`family '${f.name}' declares '${key}', which '${keys.get(key) ?? 'the core'}' has`);
      keys.set(key, f.name);
    }
    for (const after of f.seed?.after ?? []) if (!names.has(after)) throw new EmulatorError(`family '${f.name}' seeds after unknown family '${after}'`);
  }
}
checkList();

/** Notes that family `by` declares `key`: another family declaring it too is a mistake of the list (both `what`). */
function claim(owners: Map<string, string>, key: string, by: string, what: string): void {
  const other = owners.get(key);
  if (other !== undefined) throw new EmulatorError(`families '${other}' and '${by}' both ${what}`);
  owners.set(key, by);
}

/** The kinds of noteable, each declared by the one family that owns it. */
export const NOTEABLE_TYPES: readonly NoteableType[] = (() => {
  const owners = new Map<string, string>();
  for (const f of families) for (const kind of (f.noteables ?? []) as readonly string[]) claim(owners, kind, f.name, `own the noteable '${kind}'`);
  return [...owners.keys()] as NoteableType[];
})();

/** What every family loads before the first emulator serves (`load`), once. */
let loaded: Promise<unknown> | undefined;
export const loadFamilies = (): Promise<unknown> => (loaded ??= Promise.all(families.flatMap((f) => (f.load ? [f.load()] : []))));

/** An empty world: the shared records and every family's empty slice. */
export function emptyState(seed = 1): State {
  const state = Object.assign(emptyCoreState(seed), emptyStream());
  for (const f of families) Object.assign(state, f.state?.());
  return state as State;
}

/** Every family's routes, in the order of the list. */
export const ROUTES: readonly RouteDef[] = families.flatMap((f) => f.routes ?? []);
/** The routes of the REST API (under /api/v4), those of the web paths, and SCIM's (under /api/scim/v2). */
export const API_ROUTES = ROUTES.filter((r) => (r.surface ?? 'api') === 'api');
export const WEB_ROUTES = ROUTES.filter((r) => r.surface === 'web');
export const SCIM_ROUTES = ROUTES.filter((r) => r.surface === 'scim');

/** A release as GitLab names one: `17.11.2`, `18.0.0-pre`, `16.11.1-ee`. */
const GITLAB_RELEASE = /^\d{1,3}\.\d{1,3}\.\d{1,3}(?:-[0-9A-Za-z.]{1,32})?$/;

/** The core's part of a fixture: the instance. */
const INSTANCE = object({
  tier: opt(oneOf('free', 'premium', 'ultimate')),
  offering: opt(oneOf('self-managed', 'hosted')),
  version: opt(str),
  settings: opt(
    object({
      impersonation_enabled: opt(bool),
      runner_registration_restricted: opt(bool),
      require_personal_access_token_expiry: opt(bool),
      max_personal_access_token_lifetime: opt(nullable(num)),
      default_project_visibility: opt(oneOf('private', 'internal', 'public')),
      default_group_visibility: opt(oneOf('private', 'internal', 'public')),
      user_defaults_to_private_profile: opt(bool),
      default_branch_protection: opt(oneOf(0, 1, 2, 3, 4)),
      offset_pagination_limit: opt(num),
      rate_limits: opt(recordOf(object({ limit: num, period_seconds: num }))),
    }),
  ),
});

/** The parts of one kind of record (`user`, `group`, `project`, `top`) that the families describe, as one object. */
function partsOf(kind: 'top' | 'user' | 'group' | 'project'): ObjectSchema {
  const owner = new Map<string, string>();
  for (const f of families) {
    for (const key of Object.keys(f.schema?.[kind]?.props ?? {})) {
      const other = owner.get(key);
      if (other !== undefined && other !== f.name) throw new EmulatorError(`families '${other}' and '${f.name}' both describe the fixture's ${kind} key '${key}'`);
      owner.set(key, f.name);
    }
  }
  return merge(...families.flatMap((f) => (f.schema?.[kind] ? [f.schema[kind]] : [])));
}

/** The whole fixture format: the core's keys and every family's parts. */
export const FIXTURE_SCHEMA: ObjectSchema = merge(
  object({
    $schema: opt(str),
    instance: opt(INSTANCE),
    users: opt(arrayOf(partsOf('user'))),
    groups: opt(arrayOf(partsOf('group'))),
    projects: opt(arrayOf(partsOf('project'))),
    /** A whole world as an export wrote it (src/families/image.ts); the other keys add to it. */
    world: opt(WORLD_SCHEMA),
  }),
  partsOf('top'),
);

/** Keys of a project that a fixture's top level does not have: a project given where a fixture is expected. */
const PROJECT_KEYS = ['name', 'path', 'namespace', 'visibility', 'default_branch', 'repository'];

/**
 * Throws a FixtureError naming every mistake of a fixture at once, each with its path
 * (`projects[0].visibilty: unknown key; did you mean "visibility"?`).
 */
export function validateFixture(fixture: unknown): asserts fixture is Fixture {
  if (typeof fixture !== 'object' || fixture === null || Array.isArray(fixture))
    throw new FixtureError(`a fixture is an object with users, groups, projects…; got ${fixture === null ? 'null' : Array.isArray(fixture) ? 'an array' : `a ${typeof fixture}`}`);
  const mistakes = checkAll(FIXTURE_SCHEMA, fixture, { refine: refineFixture });
  if (mistakes.length === 0) return;
  const looksLikeProject = PROJECT_KEYS.filter((k) => Object.prototype.hasOwnProperty.call(fixture, k)).length >= 2 || Object.prototype.hasOwnProperty.call(fixture, 'namespace');
  throw new FixtureError(mistakes, looksLikeProject ? 'this looks like a project; a fixture is { projects: [ ... ] }' : undefined);
}

/** The fixture format as a JSON Schema: what `fixtures/fixture.schema.json` holds. */
export function fixtureJsonSchema(): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://unpkg.com/gitlab-emulator/fixtures/fixture.schema.json',
    title: 'gitlab-emulator fixture',
    description: 'A world as data: what emulator.seed(), createEmulator({ fixture }) and the CLI\'s --fixture take.',
    ...toJsonSchema(FIXTURE_SCHEMA),
  };
}

/** Families with a seed phase, each after the ones it names (and otherwise in list order). */
const SEED_ORDER: readonly Family[] = (() => {
  const out: Family[] = [];
  const visiting = new Set<string>();
  const visit = (f: Family) => {
    if (out.includes(f)) return;
    if (visiting.has(f.name)) throw new EmulatorError(`the seed phases of '${f.name}' depend on themselves`);
    visiting.add(f.name);
    for (const name of f.seed?.after ?? []) visit(families.find((x) => x.name === name)!);
    visiting.delete(f.name);
    out.push(f);
  };
  families.forEach(visit);
  return out.filter((f) => f.seed);
})();

/**
 * Runs every family's seed phase over `base`; returns the new world and the handles. Throws
 * (and so changes nothing) when the fixture is wrong.
 */
export async function seedWorld(base: State, fixture: Fixture, now: number, git: ObjectDatabase): Promise<{ state: State; handles: SeedHandles }> {
  let state = base;
  const handles: SeedHandles = { users: {}, groups: {}, projects: {} };
  const image = (fixture as { world?: WorldImage }).world;
  if (image) await readImage(base, image, { fixture, handles, now, git, get: () => state, set: (s) => void (state = s) });
  if (fixture.instance) {
    const { tier, offering, settings, version } = fixture.instance;
    if (version !== undefined && !GITLAB_RELEASE.test(version)) throw new FixtureError(`instance.version must be a GitLab release such as 17.11.2, not '${version}'`);
    state = produce(state, (draft) => {
      if (version !== undefined) draft.instance.version = version;
      if (tier) draft.instance.tier = tier;
      if (offering) draft.instance.offering = offering;
      if (settings) Object.assign(draft.instance.settings, settings);
    });
  }
  const run: SeedRun = {
    fixture,
    handles,
    now,
    git,
    get state() {
      return state;
    },
    update<T>(recipe: (draft: Draft<State>) => T): T {
      let result!: T;
      state = produce(state, (draft) => {
        result = recipe(draft);
      });
      return result;
    },
  };
  for (const f of SEED_ORDER) await f.seed!.run(run);
  if (state.pendingEvents.length > 0) state = produce(state, discardPending);
  return { state, handles };
}

const TASKS = new Map<string, TaskDef<never>>();
for (const f of families) {
  for (const t of f.tasks ?? []) {
    if (TASKS.has(t.kind)) throw new EmulatorError(`two families declare the task '${t.kind}'`);
    TASKS.set(t.kind, t);
  }
}

const FORGET: TaskContext['forget'] = (kind, id, draft) => {
  for (const f of families) f.forget?.[kind]?.(draft, id);
};

const FORGET_EVENT = families.flatMap((f) => (f.forget?.event ? [f.forget.event] : []));

type AnyReaction = (ctx: Context<unknown>, event: StoredEvent) => void | Promise<void>;

/** Each kind's subscribers, in the list's order. */
const REACTIONS = new Map<EventKind, AnyReaction[]>();
const REQUEST_REACTIONS: ((ctx: Context<unknown>) => void | Promise<void>)[] = [];
for (const f of families) {
  for (const [kind, reaction] of Object.entries(f.on ?? {})) {
    if (kind === 'request') REQUEST_REACTIONS.push(reaction as (ctx: Context<unknown>) => void);
    else {
      const list = REACTIONS.get(kind as EventKind) ?? [];
      list.push(reaction as AnyReaction);
      REACTIONS.set(kind as EventKind, list);
    }
  }
}

/** How many rounds of events causing events a request may go through: more is a subscriber that loops. */
const MAX_ROUNDS = 20;

/**
 * Settles a change that succeeded, before its world is committed: the events it emitted, each
 * kept in the log and handed to its subscribers in order, and the events those emitted, until
 * none is pending.
 */
export function settle(ctx: Context<unknown>): void | Promise<void> {
  // Most requests (every read) have nothing to hand on: no promise for them.
  if (ctx.state.unsettled.length === 0 && ctx.state.pendingEvents.length === 0) return;
  return settleEvents(ctx);
}

async function settleEvents(ctx: Context<unknown>): Promise<void> {
  // What timed work or a test handle kept since, first: it happened before this request's change.
  if (ctx.state.unsettled.length > 0) {
    const ids = ctx.state.unsettled;
    ctx.update((draft) => void (draft.unsettled = []));
    for (const id of ids) {
      const event = tget(ctx.state.events, id);
      if (event) await react(ctx, event);
    }
  }
  for (let round = 0; ctx.state.pendingEvents.length > 0; round++) {
    if (round === MAX_ROUNDS) throw new EmulatorError(`events kept causing events for ${MAX_ROUNDS} rounds: a subscriber loops`);
    const events = ctx.update((draft) => logEvents(draft, ctx.user?.id ?? null, ctx.now()));
    for (const event of events) await react(ctx, event);
  }
}

/** Hands an event to its subscribers, in the list's order. */
async function react(ctx: Context<unknown>, event: StoredEvent): Promise<void> {
  for (const reaction of REACTIONS.get(event.kind) ?? []) await reaction(ctx, event);
}

/** Whether the world holds events kept outside a request that no subscriber has been handed (`settle` hands them). */
export const hasUnsettled = (state: State): boolean => state.unsettled.length > 0;

/** What the families do when an API request was answered (a `request` subscriber: user activity), before it settles. */
export function answered(ctx: Context<unknown>, from = 0): void | Promise<void> {
  for (let i = from; i < REQUEST_REACTIONS.length; i++) {
    const done = REQUEST_REACTIONS[i]!(ctx);
    if (done instanceof Promise) return done.then(() => answered(ctx, i + 1)); // the rest after it, in order
  }
}

/** The events of the change under way not yet handed to subscribers, of one kind. */
function pendingEvents<K extends EventKind>(ctx: Context<unknown>, kind: K): DomainEvent<K>[] {
  return ctx.state.pendingEvents.filter((e) => e.kind === kind) as unknown as DomainEvent<K>[];
}

const POST_RECEIVE_HOOKS = families.flatMap((f) => (f.postReceive ? [f.postReceive] : []));

/** What the families answer a push over git with (push options acted on, links), in their order. */
export async function postReceive(ctx: Context<unknown>, options: readonly string[]): Promise<string[]> {
  const pushes: PushChange[] = pendingEvents(ctx, 'push').filter((p) => p.refType === 'branch');
  const out: string[] = [];
  for (const hook of POST_RECEIVE_HOOKS) out.push(...(await hook(ctx, pushes, options)));
  return out;
}

/** Runs one task on a draft of the world; a task no family declares is a defect of the world. */
export function runTask(draft: Draft<State>, task: Task, now: number): void {
  const def = TASKS.get(task.kind);
  if (!def) throw new EmulatorError(`the world holds a task of unknown kind '${task.kind}'`);
  def.run(draft, task.payload as never, { now, forget: FORGET });
  keepEvents(draft, now);
}

/**
 * Keeps in the log what a change made outside a request emitted (timed work, a test handle),
 * by nobody, so no later request takes it for its own; its subscribers are handed it by the
 * next settle (a request's, or the one the facade runs on its own at once).
 */
export function keepEvents(draft: Draft<State>, now: number): void {
  if (draft.pendingEvents.length > 0) draft.unsettled.push(...logEvents(draft, null, now).map((e) => e.id));
}

/** The pending events, kept in the log as `actorId`'s; what the log drops, each family forgets. */
function logEvents(draft: Draft<State>, actorId: number | null, now: number): StoredEvent[] {
  return commitEvents(draft, actorId, now, (e) => FORGET_EVENT.forEach((forget) => forget(draft, e)));
}

// ---- What the families give the facade, the control API and the doors ----

/** Every family's test handle over the facade's host, as one object of members; two families may not name one member. */
export function familyHandles(host: Host): FamilyHandles {
  const out = {};
  const owners = new Map<string, string>();
  for (const f of families) {
    if (!f.handle) continue;
    const members = Object.getOwnPropertyDescriptors(f.handle(host));
    for (const name of Object.keys(members)) claim(owners, name, f.name, `give the emulator '${name}'`);
    Object.defineProperties(out, members);
  }
  return out as FamilyHandles;
}

/** The families' endpoints of the control API over the facade's host, in the order of the list. */
export function familyControl(host: Host): { endpoints: string[]; routes: ControlRoute[] } {
  const declared = families.flatMap((f) => (f.control ? [f.control] : []));
  return { endpoints: declared.map((c) => c.endpoint), routes: declared.flatMap((c) => c.routes(host)) };
}

/** Every operation of `Operations`: the list the families' `provides` must cover, each once. */
const OPERATION_NAMES: Record<keyof Operations, true> = { objectStorage: true, signIn: true, scimToken: true, jobUser: true, deployTokenLogin: true };

/** The operations, each from the family that provides it. */
export const OPERATIONS: Operations = (() => {
  const owners = new Map<string, string>();
  const out: Partial<Operations> = {};
  for (const f of families) {
    for (const name of Object.keys(f.provides ?? {})) {
      if (!(name in OPERATION_NAMES)) throw new EmulatorError(`family '${f.name}' provides '${name}', which is no operation`);
      claim(owners, name, f.name, `provide '${name}'`);
    }
    Object.assign(out, f.provides);
  }
  for (const name of Object.keys(OPERATION_NAMES)) if (!owners.has(name)) throw new EmulatorError(`no family provides '${name}'`);
  return out as Operations;
})();

// ---- Git repositories: the git surface asks which repository a path is, who may use it, and hands it pushes ----

const GIT: readonly GitPart[] = families.flatMap((f) => (f.git ? [f.git] : []));

/** The rules of refs, longest prefix first; two families may not rule one prefix. */
const REF_RULES: readonly RefRule[] = (() => {
  const owners = new Map<string, string>();
  for (const f of families) for (const r of f.git?.refRules ?? []) claim(owners, r.prefix, f.name, `rule the refs '${r.prefix}'`);
  return families.flatMap((f) => f.git?.refRules ?? []).sort((a, b) => b.prefix.length - a.prefix.length);
})();

const refRule = (ref: string): RefRule | undefined => REF_RULES.find((r) => ref.startsWith(r.prefix));

/** A push as the git surface hands it over: the families' ref rules are the registry's to add. */
export type PushBase = Omit<PushRun, 'refRule'>;

/** A repository the git surface serves. */
export type GitRepository = Omit<ServedRepository, 'push'> & { push(run: PushBase, commands: Command[], pack: Uint8Array, atomic: boolean): Promise<Outcome> };

/** The repository a git URL's path (`<path>.git`) names, from the first family that serves it; undefined when none does. */
export function gitRepository(state: State, path: string): GitRepository | undefined {
  for (const g of GIT) {
    const found = g.repository?.(state, path);
    if (found) return { ...found, push: (run, commands, pack, atomic) => found.push({ ...run, refRule }, commands, pack, atomic) };
  }
  return undefined;
}

/** Push to create: whether a family made what a push to a path that names nothing asks for (a project). */
export function createOnPush(ctx: Context<unknown>, path: string): boolean {
  return GIT.some((g) => g.createOnPush?.(ctx, path) === true);
}
