// The control API, for tests that reach the emulator only over HTTP (other languages, CI):
// under /-/emulator/, a prefix no GitLab route uses. Its routes run through the same pipeline
// as the REST API (inside the write lock), read no GitLab credentials, are not journaled, and
// answer failures as `{"message": ...}`. Documented in docs/control-api.md.
//
// Every input is checked before anything changes (the surface's own endpoints against CHECKS,
// control-checks.ts; a family's with its routes): a mistake is a 400 naming the field. The
// families' endpoints (ci, moves...) are declared by the families and mounted here. A control write reads JSON only (any other body is 415, so a web page
// cannot send one without a CORS preflight), and with a control token every request needs it
// (401). The node door adds what only it can know: the Host and Origin checks
// (src/transports/local-only.ts).
import { ApiError, EmulatorError, FixtureError } from '../core/errors.js';
import { MAX_TIME, parseDuration, toEpoch, type Clock } from '../core/clock.js';
import type { FaultRule, Faults } from '../core/faults.js';
import { CHECKS } from './control-checks.js';
import { bodyChecker, CONTROL_PREFIX, controlError, type ControlRoute } from '../http/control-route.js';
import type { Journal } from '../core/journal.js';
import type { Context } from '../http/context.js';
import type { Incoming } from '../http/incoming.js';
import { paginateOffset } from '../http/pagination.js';
import { json, noContent, route, type Reply, type RouteDef } from '../http/route.js';
import type { Surface } from '../http/surface.js';
import type { Instance, Settings } from '../store/state.js';
import type { State } from '../families/world.js';
import type { Host } from '../families/define.js';
import { familyControl } from '../families/registry.js';
import type { RepositoryObjects } from '../git/objects.js';
import { listFiles } from '../git/tree.js';
import { INSPECTOR_PAGE, wantsHtml, worldDiff, worldSummary } from './inspector.js';
import type { Snapshot } from '../store/store.js';
import { worldsControl, type WorldsControl } from './worlds.js';

export { CONTROL_PREFIX };

/** What the control API drives: the emulator facade. */
export interface ControlTarget {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly journal: Journal<Snapshot>;
  readonly faults: Faults;
  readonly state: State;
  reset(): void;
  seed(fixture: never): Promise<unknown>;
  exportFixture(): Promise<unknown>;
  saveSnapshot(name: string): Snapshot;
  restoreSnapshot(name: string): boolean;
  deleteSnapshot(name: string): boolean;
  snapshotNames(): string[];
  restore(snapshot: Snapshot): void;
  runUntilIdle(): number;
  configure(instance: { tier?: Instance['tier']; offering?: Instance['offering']; settings?: Partial<Settings> }): void;
  signIn(username: string): string;
  /** Every route served (the REST API's and the web paths'), for `GET /-/emulator`. */
  routes(): readonly { method: string; path: string; tier?: string; offering?: string }[];
  /** A project's repository, for the inspector. */
  git(project: number): {
    refs(): { head: string; branches: Record<string, string>; tags: Record<string, { target: string }> };
    log(revision?: string): Promise<{ sha: string; commit: { message: string; author: { name: string; email: string; timestamp: number } } }[]>;
    readonly objects: RepositoryObjects;
  };
  scimToken(groupPath: string): string;
  /** The worlds it serves under `/-/worlds/NAME`; none inside a world. */
  readonly worlds?: WorldsControl;
}

/** The surface's own endpoints; the families' follow. */
const ENDPOINTS = ['reset', 'seed', 'fixture', 'snapshots', 'clock', 'journal', 'faults', 'instance', 'sessions', 'scim_tokens', 'worlds'];

/** How the control API is guarded, from the emulator's options. */
export interface ControlAccess {
  /** When set, every control request needs `Authorization: Bearer <token>` or `X-Emulator-Token: <token>`. */
  token?: string;
}

const fail = controlError;

/** The request's JSON body, as the pipeline parsed it into parameters. */
const bodyOf = (ctx: Context<unknown>): Record<string, unknown> => ctx.raw;

/** The body checked against its endpoint's table: a 400 naming the field, before anything changes. */
const checked = bodyChecker(CHECKS);

// ---- Who may use the control API ----

/** Whether `given` is `secret`, in time that does not tell how much of it matched. */
function sameSecret(given: string, secret: string): boolean {
  let diff = given.length ^ secret.length;
  for (let i = 0; i < secret.length; i++) diff |= (given.charCodeAt(i) | 0) ^ secret.charCodeAt(i);
  return diff === 0;
}

/** The token (401) and, for a write, a JSON body or none (415): before any check or change. */
function admit(request: Incoming, access: ControlAccess): void {
  if (access.token !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1];
    const given = bearer ?? request.headers.get('x-emulator-token') ?? '';
    if (!sameSecret(given, access.token)) {
      throw fail(401, 'the control API needs its token: Authorization: Bearer <token> or X-Emulator-Token: <token>', {
        'WWW-Authenticate': 'Bearer realm="gitlab-emulator control API"',
      });
    }
  }
  if (request.method === 'GET' || request.method === 'HEAD') return;
  const type = request.headers.get('content-type');
  const mediaType = type?.split(';')[0]!.trim().toLowerCase();
  const isJson = mediaType === 'application/json' || mediaType?.endsWith('+json');
  if (type !== null ? !isJson : hasBody(request)) {
    throw fail(415, `the control API reads JSON bodies only (Content-Type: application/json), not ${type === null ? 'a body without a Content-Type' : `'${type}'`}`);
  }
}

/** Whether a body came over the wire (HTTP/1.1 frames every body with one of these headers). */
function hasBody(request: Incoming): boolean {
  const length = request.headers.get('content-length');
  return (length !== null && length.trim() !== '0') || request.headers.has('transfer-encoding');
}

/** A control route: admitted first; a mistake in what it was sent (a bad clock value, a wrong fixture) is 400. */
function controlRoute(access: ControlAccess, def: ControlRoute): RouteDef {
  return route({
    method: def.method,
    path: def.path,
    auth: 'none',
    params: {},
    handler: async (ctx) => {
      admit(ctx.request, access);
      try {
        return await def.handler(ctx as Context<unknown>);
      } catch (err) {
        if (err instanceof EmulatorError || err instanceof SyntaxError || err instanceof RangeError) throw fail(400, err.message.replace(/^\[gitlab-emulator\] /, ''));
        throw err;
      }
    },
  });
}

function clockState(e: ControlTarget) {
  return { now: new Date(e.clock.now()).toISOString(), frozen: e.clock.frozen, pending_tasks: e.state.tasks.size };
}

function controlRoutes(e: ControlTarget, access: ControlAccess, families: ReturnType<typeof familyControl>): RouteDef[] {
  const control = (def: ControlRoute) => controlRoute(access, def);
  const snapshotName = (ctx: Context<unknown>) => ctx.raw.name as string;
  return [
    // The inspector page for a browser (it holds no data, so it needs no token); JSON otherwise.
    route({
      method: 'GET',
      path: '/',
      auth: 'none',
      params: {},
      handler: (ctx) => {
        if (wantsHtml(ctx.request)) return { status: 200, raw: INSPECTOR_PAGE, contentType: 'text/html; charset=utf-8' };
        admit(ctx.request, access);
        return json({ base_url: e.baseUrl, clock: clockState(e), endpoints: [...ENDPOINTS.filter((n) => n !== 'worlds' || e.worlds !== undefined), ...families.endpoints], instance: { tier: e.state.instance.tier, offering: e.state.instance.offering }, emulated: e.routes() });
      },
    }),
    control({ method: 'GET', path: '/world', handler: () => json(worldSummary(e.state)) }),
    control({
      method: 'GET',
      path: '/projects/:id/repository',
      handler: async (ctx) => {
        const id = Number(ctx.raw.id);
        const project = Number.isInteger(id) ? worldSummary(e.state).projects.find((p) => p.id === id) : undefined;
        if (!project) throw fail(404, `no project ${String(ctx.raw.id)}`);
        const repo = e.git(id);
        const refs = repo.refs();
        const empty = Object.keys(refs.branches).length === 0;
        const log = empty ? [] : await repo.log(refs.head);
        return json({
          id,
          path_with_namespace: project.path_with_namespace,
          empty,
          head: refs.head,
          branches: refs.branches,
          tags: Object.fromEntries(Object.entries(refs.tags).map(([name, t]) => [name, { target: t.target }])),
          // Paths only, the first 1,000: a tree is listed without reading a blob.
          tree: empty || !refs.branches[refs.head] ? [] : [...(await listFiles(repo.objects, (await repo.objects.readCommit(refs.branches[refs.head]!)).tree)).keys()].sort().slice(0, 1000),
          commits: log.slice(0, 50).map((c) => ({
            id: c.sha,
            title: c.commit.message.split('\n')[0],
            author: `${c.commit.author.name} <${c.commit.author.email}>`,
            date: new Date(c.commit.author.timestamp * 1000).toISOString(),
          })),
          commit_count: log.length,
        });
      },
    }),
    control({
      method: 'POST',
      path: '/reset',
      handler: () => {
        e.reset();
        e.journal.clear();
        e.faults.clear();
        return noContent();
      },
    }),
    control({
      method: 'POST',
      path: '/seed',
      // A fixture of the wrong shape is the caller's mistake, a 400.
      handler: async (ctx) => {
        try {
          return json(await e.seed(bodyOf(ctx) as never), 201);
        } catch (err) {
          if (err instanceof FixtureError) throw new EmulatorError(`invalid fixture: ${err.text}`);
          if (err instanceof EmulatorError || !(err instanceof Error)) throw err;
          throw new EmulatorError(`invalid fixture: ${err.message}`);
        }
      },
    }),
    // The whole world as a fixture file: `--fixture` of it serves the same answers.
    control({
      method: 'GET',
      path: '/fixture',
      handler: async () => ({ ...json(await e.exportFixture()), headers: { 'Content-Disposition': 'attachment; filename="fixture.json"' } }),
    }),
    control({ method: 'GET', path: '/snapshots', handler: () => json(e.snapshotNames()) }),
    ...(['POST', 'PUT'] as const).map((method) =>
      control({
        method,
        path: '/snapshots/:name',
        handler: (ctx) => {
          e.saveSnapshot(snapshotName(ctx));
          return json({ name: snapshotName(ctx) }, 201);
        },
      }),
    ),
    control({
      method: 'POST',
      path: '/snapshots/:name/restore',
      handler: (ctx) => {
        if (!e.restoreSnapshot(snapshotName(ctx))) throw fail(404, `no snapshot '${snapshotName(ctx)}'`);
        return noContent();
      },
    }),
    control({
      method: 'DELETE',
      path: '/snapshots/:name',
      handler: (ctx) => {
        if (!e.deleteSnapshot(snapshotName(ctx))) throw fail(404, `no snapshot '${snapshotName(ctx)}'`);
        return noContent();
      },
    }),
    control({ method: 'GET', path: '/clock', handler: () => json(clockState(e)) }),
    control({
      method: 'POST',
      path: '/clock',
      handler: (ctx) => {
        const b = checked<{ freeze?: boolean; set?: string | number; advance?: string | number }>(ctx, 'clock');
        // Where the clock would end, checked before it moves: a set and an advance together stay in range.
        const to = b.set === undefined ? undefined : toEpoch(b.set);
        const by = b.advance === undefined ? 0 : parseDuration(b.advance);
        if ((to ?? e.clock.now()) + by > MAX_TIME) throw fail(400, `clock.advance must not move the clock past ${new Date(MAX_TIME).toISOString()}`);
        if (b.freeze === true) e.clock.freeze();
        if (b.freeze === false) e.clock.unfreeze();
        if (to !== undefined) e.clock.set(to);
        if (b.advance !== undefined) e.clock.advance(by);
        return json(clockState(e));
      },
    }),
    control({ method: 'POST', path: '/clock/run-until-idle', handler: () => json({ ran: e.runUntilIdle(), ...clockState(e) }) }),
    control({
      method: 'GET',
      path: '/journal',
      handler: (ctx) => {
        const asked = Number(ctx.url.searchParams.get('limit') ?? e.journal.limit);
        const limit = Number.isFinite(asked) && asked > 0 ? asked : e.journal.limit;
        return json(e.journal.entries().slice(-limit).map(({ before: _b, after: _a, ...rest }) => rest));
      },
    }),
    // One request with the change it made to the world: the records it added, removed or changed.
    control({
      method: 'GET',
      path: '/journal/:seq',
      handler: (ctx) => {
        const entry = e.journal.entries().find((j) => j.seq === Number(ctx.raw.seq));
        if (!entry) throw fail(404, `no journal entry ${String(ctx.raw.seq)}`);
        const { before, after, ...rest } = entry;
        return json({ ...rest, ...worldDiff(before.state, after.state) });
      },
    }),
    control({
      method: 'DELETE',
      path: '/journal',
      handler: () => {
        e.journal.clear();
        return noContent();
      },
    }),
    // Step back (or forward) to the world just before or after a journaled request.
    control({
      method: 'POST',
      path: '/journal/:seq/restore',
      handler: (ctx) => {
        const { seq, to } = checked<{ seq: string; to?: 'before' | 'after' }>(ctx, 'journal');
        const entry = e.journal.entries().find((j) => j.seq === Number(seq));
        if (!entry) throw fail(404, `no journal entry ${seq}`);
        e.restore(to === 'after' ? entry.after : entry.before);
        return noContent();
      },
    }),
    control({ method: 'GET', path: '/faults', handler: () => json(e.faults.list().map((f) => ({ ...f, path: String(f.path) }))) }),
    control({
      method: 'POST',
      path: '/faults',
      handler: (ctx) => {
        // Only the table's fields are left: any other was refused.
        return json(e.faults.add({ ...checked<FaultRule>(ctx, 'faults') }), 201);
      },
    }),
    control({
      method: 'DELETE',
      path: '/faults',
      handler: () => {
        e.faults.clear();
        return noContent();
      },
    }),
    control({
      method: 'DELETE',
      path: '/faults/:id',
      handler: (ctx) => {
        if (!e.faults.remove(Number(ctx.raw.id))) throw fail(404, `no fault ${String(ctx.raw.id)}`);
        return noContent();
      },
    }),
    control({ method: 'GET', path: '/instance', handler: () => json(e.state.instance) }),
    ...(['PUT', 'POST'] as const).map((method) =>
      control({
        method,
        path: '/instance',
        handler: (ctx) => {
          e.configure(checked<Parameters<ControlTarget['configure']>[0]>(ctx, 'instance'));
          return json(e.state.instance);
        },
      }),
    ),
    control({ method: 'POST', path: '/sessions', handler: (ctx) => json({ cookie: e.signIn(checked<{ username: string }>(ctx, 'sessions').username) }, 201) }),
    control({ method: 'POST', path: '/scim_tokens', handler: (ctx) => json({ token: e.scimToken(checked<{ group: string }>(ctx, 'scim_tokens').group) }, 201) }),
    ...worldsControl(e.worlds).map(control),
    ...families.routes.map(control),
  ];
}

/** A failure as the control API answers it: `{"message": ...}`. */
function renderControlError(err: ApiError): Reply {
  const body = err.body;
  const message = typeof body === 'object' && body !== null ? (body.message ?? body.error) : body;
  return { status: err.status, body: { message: typeof message === 'string' ? message : JSON.stringify(message) }, headers: err.headers };
}

/** The control API over the facade (`target`) and, for the families' endpoints, the host the facade gives them. */
export function controlSurface(target: ControlTarget, host: Host, access: ControlAccess = {}): Surface {
  return {
    name: 'control',
    prefix: CONTROL_PREFIX,
    routes: controlRoutes(target, access, familyControl(host)),
    paginate: paginateOffset,
    faults: false,
    runsTimedWork: false,
    journaled: false,
    notFound: (path) => fail(404, `unknown control endpoint ${CONTROL_PREFIX}${path}`),
    renderError: renderControlError,
  };
}

