// The control API, for tests that reach the emulator only over HTTP (other languages, CI):
// under /-/emulator/, a prefix no GitLab route uses. Its routes run through the same pipeline
// as the REST API (inside the write lock), read no GitLab credentials, are not journaled, and
// answer failures as `{"message": ...}`. Documented in the README.
//
// Every input is checked against one table (CHECKS, control-checks.ts) before anything changes: a mistake is a
// 400 naming the field. A control write reads JSON only (any other body is 415, so a web page
// cannot send one without a CORS preflight), and with a control token every request needs it
// (401). The node door adds what only it can know: the Host and Origin checks
// (src/transports/local-only.ts).
import { ApiError, EmulatorError, FixtureError } from '../core/errors.js';
import { MAX_TIME, parseDuration, toEpoch, type Clock } from '../core/clock.js';
import type { FaultRule, Faults } from '../core/faults.js';
import { CHECKS } from './control-checks.js';
import type { Journal } from '../core/journal.js';
import type { Context } from '../http/context.js';
import type { Incoming } from '../http/incoming.js';
import { paginateOffset } from '../http/pagination.js';
import { json, noContent, route, type Reply, type RouteDef } from '../http/route.js';
import type { Surface } from '../http/surface.js';
import type { CoreState, Instance, Settings } from '../store/state.js';
import type { State } from '../families/world.js';
import type { RepositoryObjects } from '../git/objects.js';
import { listFiles } from '../git/tree.js';
import { INSPECTOR_PAGE, wantsHtml, worldDiff, worldSummary } from './inspector.js';
import type { Snapshot } from '../store/store.js';
import type { ContainerType, MoveFailure, MovesControl, StorageMove } from '../families/storage-moves/index.js';
import type { CiArtifactsInput, CiCdnConfig, CiCleanupPlan, CiHandle, CiLimits } from '../families/ci/index.js';

export const CONTROL_PREFIX = '/-/emulator';

/** What the control API drives: the emulator facade. */
export interface ControlTarget {
  readonly baseUrl: string;
  readonly clock: Clock;
  readonly journal: Journal<Snapshot>;
  readonly faults: Faults;
  readonly state: State;
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
  /** Every route served (the REST API's and the web paths'), for `GET /-/emulator`. */
  routes(): readonly { method: string; path: string; tier?: string; offering?: string }[];
  /** A project's repository, for the inspector. */
  git(project: number): {
    refs(): { head: string; branches: Record<string, string>; tags: Record<string, { target: string }> };
    log(revision?: string): Promise<{ sha: string; commit: { message: string; author: { name: string; email: string; timestamp: number } } }[]>;
    readonly objects: RepositoryObjects;
  };
  scimToken(groupPath: string): string;
  readonly moves: MovesControl;
  ci(project: string): CiHandle;
  ciPlanCleanup(plan: CiCleanupPlan): void;
  ciSetLimits(limits: Partial<CiLimits>): void;
  ciConfigureCdn(config: CiCdnConfig): void;
}

const ENDPOINTS = ['reset', 'seed', 'snapshots', 'clock', 'journal', 'faults', 'instance', 'sessions', 'scim_tokens', 'moves', 'ci'];

/** A storage move as the control API shows it (more than the REST API: the chosen failure, the last change). */
const moveJson = (m: StorageMove) => ({
  type: m.type, id: m.id, container_id: m.containerId, state: m.state, source_storage_name: m.sourceStorage, destination_storage_name: m.destinationStorage,
  error_message: m.errorMessage, failure: m.failure, created_at: new Date(m.createdAt).toISOString(), updated_at: new Date(m.updatedAt).toISOString(),
});

/** How the control API is guarded, from the emulator's options. */
export interface ControlAccess {
  /** When set, every control request needs `Authorization: Bearer <token>` or `X-Emulator-Token: <token>`. */
  token?: string;
}

const fail = (status: number, message: string, headers?: Record<string, string>) => new ApiError(status, { message }, headers);

/** The request's JSON body, as the pipeline parsed it into parameters. */
const bodyOf = (ctx: Context<unknown>): Record<string, unknown> => ctx.raw;

/** The body checked against its endpoint's table: a 400 naming the field, before anything changes. */
function checked<T>(ctx: Context<unknown>, endpoint: keyof typeof CHECKS): T {
  const wrong = CHECKS[endpoint](ctx.raw, endpoint);
  if (wrong) throw fail(400, wrong);
  return ctx.raw as T;
}

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
function controlRoute(
  access: ControlAccess,
  def: { method: RouteDef['method']; path: string; handler(ctx: Context<unknown>): Reply | Promise<Reply> },
): RouteDef {
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

function controlRoutes(e: ControlTarget, access: ControlAccess): RouteDef[] {
  const control = (def: Parameters<typeof controlRoute>[1]) => controlRoute(access, def);
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
        return json({ base_url: e.baseUrl, clock: clockState(e), endpoints: ENDPOINTS, instance: { tier: e.state.instance.tier, offering: e.state.instance.offering }, emulated: e.routes() });
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
    control({ method: 'GET', path: '/moves', handler: () => json({ step_ms: e.moves.stepTime, shards: e.moves.shards(), moves: e.moves.list().map(moveJson) }) }),
    control({
      method: 'POST',
      path: '/moves/failures',
      handler: (ctx) => {
        const b = checked<{ type: ContainerType; container: string | number; failure: MoveFailure | null }>(ctx, 'move_failures');
        e.moves.failNext(b.type, b.container, b.failure);
        return noContent();
      },
    }),
    control({
      method: 'POST',
      path: '/moves/:type/:id/fail',
      handler: (ctx) => {
        const type = ctx.raw.type as ContainerType;
        const id = Number(ctx.raw.id);
        if (!['project', 'snippet', 'group'].includes(type) || !Number.isSafeInteger(id)) throw fail(404, `unknown control endpoint ${CONTROL_PREFIX}/moves/${String(ctx.raw.type)}/${String(ctx.raw.id)}/fail`);
        // The body alone (the path's own parameters are merged into what was sent).
        const body = Object.fromEntries(Object.entries(ctx.raw).filter(([k]) => k !== 'type' && k !== 'id'));
        const wrong = CHECKS.move_fail(body, 'move_fail');
        if (wrong) throw fail(400, wrong);
        e.moves.fail(type, id, body.failure as MoveFailure);
        return json(moveJson(e.moves.get(type, id)!));
      },
    }),
    control({
      method: 'POST',
      path: '/moves/step',
      handler: (ctx) => {
        e.moves.setStepTime(checked<{ step: string | number }>(ctx, 'move_step').step);
        return json({ step_ms: e.moves.stepTime });
      },
    }),
    control({ method: 'POST', path: '/sessions', handler: (ctx) => json({ cookie: e.signIn(checked<{ username: string }>(ctx, 'sessions').username) }, 201) }),
    control({ method: 'POST', path: '/scim_tokens', handler: (ctx) => json({ token: e.scimToken(checked<{ group: string }>(ctx, 'scim_tokens').group) }, 201) }),
    ...ciRoutes(e, control),
  ];
}

// ---- CI: what a runner and the pipeline machinery would do (emulator.ci in TypeScript) ----

interface ArtifactsBody {
  files?: Record<string, string>;
  files_base64?: Record<string, string>;
  expire_in?: string;
  public?: boolean;
}

function artifactsInput(b: ArtifactsBody): CiArtifactsInput {
  const files: Record<string, string | Uint8Array> = Object.create(null) as Record<string, string | Uint8Array>;
  for (const [k, v] of Object.entries(b.files ?? {})) files[k] = v;
  for (const [k, v] of Object.entries(b.files_base64 ?? {})) files[k] = Uint8Array.from(atob(v), (c) => c.charCodeAt(0));
  return { files, expireIn: b.expire_in, public: b.public };
}

const jobView = (j: { id: number; name: string; status: string; pipelineId: number | null }) => ({ id: j.id, name: j.name, status: j.status, pipeline_id: j.pipelineId });

function ciRoutes(e: ControlTarget, control: (def: Parameters<typeof controlRoute>[1]) => RouteDef): RouteDef[] {
  const ci = (ctx: Context<unknown>) => e.ci(String(ctx.raw.project));
  const jobId = (ctx: Context<unknown>) => {
    const id = Number(ctx.raw.job_id);
    if (!Number.isSafeInteger(id) || id < 1) throw fail(400, 'job_id must be a job id');
    return id;
  };
  return [
    control({
      method: 'POST',
      path: '/ci/:project/pipelines',
      handler: (ctx) => {
        const b = checked<{ ref?: string; user?: string; source?: string; parent_id?: number; status?: never }>(ctx, 'ciPipeline');
        const p = ci(ctx).pipeline({ ref: b.ref, user: b.user, source: b.source, parent: b.parent_id, status: b.status });
        return json({ id: p.id, iid: p.iid, ref: p.ref, sha: p.sha, tag: p.tag, status: p.status, source: p.source, parent_id: p.parentId }, 201);
      },
    }),
    control({
      method: 'POST',
      path: '/ci/:project/jobs',
      handler: (ctx) => {
        const b = checked<{ pipeline_id: number; name: string; stage?: string; status?: never; user?: string; allow_failure?: boolean; tags?: string[]; token?: string }>(ctx, 'ciJob');
        const j = ci(ctx).job(b.pipeline_id, { name: b.name, stage: b.stage, status: b.status, user: b.user, allowFailure: b.allow_failure, tags: b.tags, token: b.token });
        return json({ id: j.id, status: j.status, token: j.token }, 201);
      },
    }),
    control({
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/start',
      handler: (ctx) => {
        checked(ctx, 'ciJobId');
        return json(jobView(ci(ctx).start(jobId(ctx))));
      },
    }),
    control({
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/log',
      handler: (ctx) => {
        ci(ctx).log(jobId(ctx), checked<{ text: string }>(ctx, 'ciLog').text);
        return noContent();
      },
    }),
    control({
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/finish',
      handler: (ctx) => {
        const b = checked<{ status: 'success'; failure_reason?: string; coverage?: number; log?: string; artifacts?: ArtifactsBody }>(ctx, 'ciFinish');
        const j = ci(ctx).finish(jobId(ctx), {
          status: b.status, failureReason: b.failure_reason, coverage: b.coverage, log: b.log, artifacts: b.artifacts && artifactsInput(b.artifacts),
        });
        return json(jobView(j));
      },
    }),
    control({
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/artifacts',
      handler: (ctx) => {
        const a = ci(ctx).artifacts(jobId(ctx), artifactsInput(checked<ArtifactsBody>(ctx, 'ciArtifacts')));
        return json({ job_id: a.jobId, size: a.archive.length, expire_at: a.expireAt === null ? null : new Date(a.expireAt).toISOString() }, 201);
      },
    }),
    control({
      method: 'POST',
      path: '/ci/:project/pipelines/:pipeline_id/lock',
      handler: (ctx) => {
        const b = checked<{ locked: boolean }>(ctx, 'ciLock');
        ci(ctx).lock(Number(ctx.raw.pipeline_id), b.locked);
        return noContent();
      },
    }),
    control({
      method: 'POST',
      path: '/ci/cleanup',
      handler: (ctx) => {
        const b = checked<{ fail?: number; lag?: string | number; retry?: string | number }>(ctx, 'ciCleanup');
        e.ciPlanCleanup({ fail: b.fail, lag: b.lag, retry: b.retry });
        return json(e.state.artifactCleanup);
      },
    }),
    control({
      method: 'PUT',
      path: '/ci/cdn',
      handler: (ctx) => {
        e.ciConfigureCdn(checked<CiCdnConfig>(ctx, 'ciCdn'));
        const { enabled, ttlSeconds } = e.state.artifactCdn as { enabled: boolean; ttlSeconds: number };
        return json({ enabled, ttl_seconds: ttlSeconds });
      },
    }),
    control({
      method: 'PUT',
      path: '/ci/limits',
      handler: (ctx) => {
        e.ciSetLimits(checked<Record<string, number>>(ctx, 'ciLimits'));
        return json(e.state.ciLimits);
      },
    }),
  ];
}

/** A failure as the control API answers it: `{"message": ...}`. */
function renderControlError(err: ApiError): Reply {
  const body = err.body;
  const message = typeof body === 'object' && body !== null ? (body.message ?? body.error) : body;
  return { status: err.status, body: { message: typeof message === 'string' ? message : JSON.stringify(message) }, headers: err.headers };
}

export function controlSurface(target: ControlTarget, access: ControlAccess = {}): Surface {
  return {
    name: 'control',
    prefix: CONTROL_PREFIX,
    routes: controlRoutes(target, access),
    paginate: paginateOffset,
    faults: false,
    runsTimedWork: false,
    journaled: false,
    notFound: (path) => fail(404, `unknown control endpoint ${CONTROL_PREFIX}${path}`),
    renderError: renderControlError,
  };
}

