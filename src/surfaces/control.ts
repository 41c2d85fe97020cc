// The control API, for tests that reach the emulator only over HTTP (other languages, CI):
// under /-/emulator/, a prefix no GitLab route uses. Its routes run through the same pipeline
// as the REST API (inside the write lock), read no credentials, are not journaled, and answer
// failures as `{"message": ...}`. Documented in the README.
import { ApiError, EmulatorError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { FaultRule, Faults } from '../core/faults.js';
import type { Journal } from '../core/journal.js';
import type { Context } from '../http/context.js';
import { paginateOffset } from '../http/pagination.js';
import { json, noContent, route, type Reply, type RouteDef } from '../http/route.js';
import type { Surface } from '../http/surface.js';
import type { Instance, Settings } from '../store/state.js';
import type { Snapshot } from '../store/store.js';

export const CONTROL_PREFIX = '/-/emulator';

/** What the control API drives: the emulator facade. */
export interface ControlTarget {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly journal: Journal<Snapshot>;
  readonly faults: Faults;
  readonly state: { readonly tasks: readonly unknown[]; readonly instance: Instance };
  reset(): void;
  seed(fixture: never): Promise<unknown>;
  saveSnapshot(name: string): Snapshot;
  restoreSnapshot(name: string): boolean;
  deleteSnapshot(name: string): boolean;
  snapshotNames(): string[];
  restore(snapshot: Snapshot): void;
  runUntilIdle(): number;
  configure(instance: { tier?: Instance['tier']; offering?: Instance['offering']; settings?: Partial<Settings> }): void;
  signIn(username: string): string;
}

const ENDPOINTS = ['reset', 'seed', 'snapshots', 'clock', 'journal', 'faults', 'instance', 'sessions'];

const fail = (status: number, message: string) => new ApiError(status, { message });

/** The request's JSON body, as the pipeline parsed it into parameters. */
const bodyOf = (ctx: Context<unknown>): Record<string, unknown> => ctx.raw;

/** A control route: a mistake in what it was sent (a bad clock value, a wrong fixture) is 400. */
function control(def: { method: RouteDef['method']; path: string; handler(ctx: Context<unknown>): Reply | Promise<Reply> }): RouteDef {
  return route({
    method: def.method,
    path: def.path,
    auth: 'none',
    params: {},
    handler: async (ctx) => {
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
  return { now: new Date(e.clock.now()).toISOString(), frozen: e.clock.frozen, pending_tasks: e.state.tasks.length };
}

function controlRoutes(e: ControlTarget): RouteDef[] {
  const snapshotName = (ctx: Context<unknown>) => ctx.raw.name as string;
  return [
    control({ method: 'GET', path: '/', handler: () => json({ base_url: e.baseUrl, clock: clockState(e), endpoints: ENDPOINTS }) }),
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
          if (err instanceof EmulatorError || !(err instanceof Error)) throw err;
          throw new EmulatorError(`invalid fixture: ${err.message}`);
        }
      },
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
        const b = bodyOf(ctx);
        if (b.freeze === true) e.clock.freeze();
        if (b.freeze === false) e.clock.unfreeze();
        if (b.set !== undefined) e.clock.set(b.set as string);
        if (b.advance !== undefined) e.clock.advance(b.advance as string);
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
        const entry = e.journal.entries().find((j) => j.seq === Number(ctx.raw.seq));
        if (!entry) throw fail(404, `no journal entry ${String(ctx.raw.seq)}`);
        e.restore(ctx.url.searchParams.get('to') === 'after' ? entry.after : entry.before);
        return noContent();
      },
    }),
    control({ method: 'GET', path: '/faults', handler: () => json(e.faults.list().map((f) => ({ ...f, path: String(f.path) }))) }),
    control({
      method: 'POST',
      path: '/faults',
      handler: (ctx) => {
        const rule = bodyOf(ctx) as unknown as FaultRule;
        if (typeof rule.path !== 'string') throw fail(400, 'path is required');
        return json(e.faults.add(rule), 201);
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
          e.configure(bodyOf(ctx) as Parameters<ControlTarget['configure']>[0]);
          return json(e.state.instance);
        },
      }),
    ),
    control({ method: 'POST', path: '/sessions', handler: (ctx) => json({ cookie: e.signIn(String(bodyOf(ctx).username)) }, 201) }),
  ];
}

/** A failure as the control API answers it: `{"message": ...}`. */
function renderControlError(err: ApiError): Reply {
  const body = err.body;
  const message = typeof body === 'object' && body !== null ? (body.message ?? body.error) : body;
  return { status: err.status, body: { message: typeof message === 'string' ? message : JSON.stringify(message) } };
}

export function controlSurface(target: ControlTarget): Surface {
  return {
    name: 'control',
    prefix: CONTROL_PREFIX,
    routes: controlRoutes(target),
    paginate: paginateOffset,
    faults: false,
    runsTimedWork: false,
    journaled: false,
    notFound: (path) => fail(404, `unknown control endpoint ${CONTROL_PREFIX}${path}`),
    renderError: renderControlError,
  };
}

