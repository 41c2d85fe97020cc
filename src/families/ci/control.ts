// The CI family's endpoints of the control API (`/-/emulator/ci/...`): what a runner and the
// pipeline machinery would do, for tests that reach the emulator over HTTP only (`emulator.ci`
// in TypeScript). Each body is checked before anything changes.
import { bodyChecker, bool, controlError, DURATION, fields, int, mapOf, must, oneOf, text, type Check, type ControlRoute } from '../../http/control-route.js';
import type { Context } from '../../http/context.js';
import { json, noContent } from '../../http/route.js';
import type { Host } from '../define.js';
import { ciMembers, type CiArtifactsInput, type CiCdnConfig } from './handle.js';

const JOB_STATUS = oneOf('created', 'waiting_for_resource', 'preparing', 'pending', 'running', 'success', 'failed', 'canceling', 'canceled', 'skipped', 'manual', 'scheduled');
/** Artifacts to upload: path -> text, or path -> Base64 for bytes; GitLab's `expire_in` words. */
const ARTIFACT_FIELDS = {
  files: mapOf(text),
  files_base64: mapOf(must((v) => typeof v === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(v), 'Base64 text')),
  expire_in: text,
  public: bool,
};

const STRINGS = must((v) => Array.isArray(v) && v.every((t) => typeof t === 'string'), 'a list of strings');
const OUTCOME = fields({ status: oneOf('success', 'failed', 'canceled'), after: DURATION, exit_code: int(0), failure_reason: text, log: text }, ['status']);
/** A job of a planned pipeline, in the control API's words. */
const PLANNED_JOB = fields({
  name: text, stage: text, when: oneOf('on_success', 'on_failure', 'always', 'manual', 'delayed'), needs: STRINGS, allow_failure: bool,
  start_in: int(0), timeout: int(1), tags: STRINGS, script: STRINGS, interruptible: bool,
}, ['name']);

interface PlannedJobBody {
  name: string; stage?: string; when?: 'on_success' | 'on_failure' | 'always' | 'manual' | 'delayed'; needs?: string[]; allow_failure?: boolean; start_in?: number; timeout?: number; tags?: string[]; script?: string[]; interruptible?: boolean;
}
interface OutcomeBody {
  status: 'success' | 'failed' | 'canceled'; after?: string | number; exit_code?: number; failure_reason?: string; log?: string;
}
const outcome = (o: OutcomeBody) => ({ status: o.status, after: o.after, exitCode: o.exit_code, failureReason: o.failure_reason, log: o.log });

/** The body of each CI control write, by endpoint. */
const CHECKS = {
  ciPipeline: fields({ project: text, ref: text, user: text, source: text, parent_id: int(1), status: JOB_STATUS }),
  ciJob: fields({ project: text, pipeline_id: int(1), name: text, stage: text, status: JOB_STATUS, user: text, allow_failure: bool, tags: must((v) => Array.isArray(v) && v.every((t) => typeof t === 'string'), 'a list of strings'), token: text }, ['pipeline_id', 'name']),
  ciJobId: fields({ project: text, job_id: text }),
  ciLog: fields({ project: text, job_id: text, text }, ['text']),
  ciFinish: fields({ project: text, job_id: text, status: oneOf('success', 'failed', 'canceled', 'skipped'), failure_reason: text, coverage: must((v) => typeof v === 'number' && Number.isFinite(v), 'a number'), log: text, artifacts: fields(ARTIFACT_FIELDS) }, ['status']),
  ciArtifacts: fields({ project: text, job_id: text, ...ARTIFACT_FIELDS }),
  ciLock: fields({ project: text, pipeline_id: text, locked: bool }, ['locked']),
  ciCleanup: fields({ fail: int(0), lag: DURATION, retry: DURATION }),
  ciCdn: fields({ enabled: bool, ttl: DURATION }, ['enabled']),
  ciLimits: fields({ project_ci_variables: int(0), group_ci_variables: int(0), ci_instance_level_variables: int(0) }),
  ciPlan: fields({
    project: text, ref: text, user: text, source: text, stages: STRINGS,
    jobs: must((v) => Array.isArray(v) && v.length > 0 && v.every((j) => PLANNED_JOB(j, 'job') === undefined), 'a list of jobs, each with a name'),
    variables: mapOf(text),
  }, ['jobs']),
  ciOutcomes: fields({ project: text, jobs: mapOf(OUTCOME), otherwise: OUTCOME }),
} satisfies Record<string, Check>;

const checked = bodyChecker(CHECKS);

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

export function ciControlRoutes(host: Host): ControlRoute[] {
  const members = ciMembers(host);
  const ci = (ctx: Context<unknown>) => members.ci(String(ctx.raw.project));
  const jobId = (ctx: Context<unknown>) => {
    const id = Number(ctx.raw.job_id);
    if (!Number.isSafeInteger(id) || id < 1) throw controlError(400, 'job_id must be a job id');
    return id;
  };
  return [
    {
      method: 'POST',
      path: '/ci/:project/pipelines',
      handler: (ctx) => {
        const b = checked<{ ref?: string; user?: string; source?: string; parent_id?: number; status?: never }>(ctx, 'ciPipeline');
        const p = ci(ctx).pipeline({ ref: b.ref, user: b.user, source: b.source, parent: b.parent_id, status: b.status });
        return json({ id: p.id, iid: p.iid, ref: p.ref, sha: p.sha, tag: p.tag, status: p.status, source: p.source, parent_id: p.parentId }, 201);
      },
    },
    {
      method: 'POST',
      path: '/ci/:project/jobs',
      handler: (ctx) => {
        const b = checked<{ pipeline_id: number; name: string; stage?: string; status?: never; user?: string; allow_failure?: boolean; tags?: string[]; token?: string }>(ctx, 'ciJob');
        const j = ci(ctx).job(b.pipeline_id, { name: b.name, stage: b.stage, status: b.status, user: b.user, allowFailure: b.allow_failure, tags: b.tags, token: b.token });
        return json({ id: j.id, status: j.status, token: j.token }, 201);
      },
    },
    {
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/start',
      handler: (ctx) => {
        checked(ctx, 'ciJobId');
        return json(jobView(ci(ctx).start(jobId(ctx))));
      },
    },
    {
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/log',
      handler: (ctx) => {
        ci(ctx).log(jobId(ctx), checked<{ text: string }>(ctx, 'ciLog').text);
        return noContent();
      },
    },
    {
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/finish',
      handler: (ctx) => {
        const b = checked<{ status: 'success'; failure_reason?: string; coverage?: number; log?: string; artifacts?: ArtifactsBody }>(ctx, 'ciFinish');
        const j = ci(ctx).finish(jobId(ctx), {
          status: b.status, failureReason: b.failure_reason, coverage: b.coverage, log: b.log, artifacts: b.artifacts && artifactsInput(b.artifacts),
        });
        return json(jobView(j));
      },
    },
    {
      method: 'POST',
      path: '/ci/:project/jobs/:job_id/artifacts',
      handler: (ctx) => {
        const a = ci(ctx).artifacts(jobId(ctx), artifactsInput(checked<ArtifactsBody>(ctx, 'ciArtifacts')));
        return json({ job_id: a.jobId, size: a.archive.length, expire_at: a.expireAt === null ? null : new Date(a.expireAt).toISOString() }, 201);
      },
    },
    {
      method: 'POST',
      path: '/ci/:project/pipelines/:pipeline_id/lock',
      handler: (ctx) => {
        const b = checked<{ locked: boolean }>(ctx, 'ciLock');
        ci(ctx).lock(Number(ctx.raw.pipeline_id), b.locked);
        return noContent();
      },
    },
    {
      method: 'POST',
      path: '/ci/:project/plan',
      handler: (ctx) => {
        const b = checked<{ ref?: string; user?: string; source?: string; stages?: string[]; jobs: PlannedJobBody[]; variables?: Record<string, string> }>(ctx, 'ciPlan');
        const p = ci(ctx).plan({
          ref: b.ref, user: b.user, source: b.source, stages: b.stages, variables: b.variables,
          jobs: b.jobs.map((j) => ({
            name: j.name, stage: j.stage, when: j.when, needs: j.needs ?? null, allowFailure: j.allow_failure ?? j.when === 'manual', startInSeconds: j.start_in ?? null,
            timeoutSeconds: j.timeout ?? null, tags: j.tags, script: j.script, interruptible: j.interruptible,
          })),
        });
        return json({ id: p.id, iid: p.iid, ref: p.ref, sha: p.sha, status: p.status, source: p.source }, 201);
      },
    },
    {
      method: 'PUT',
      path: '/ci/:project/outcomes',
      handler: (ctx) => {
        const b = checked<{ jobs?: Record<string, OutcomeBody>; otherwise?: OutcomeBody }>(ctx, 'ciOutcomes');
        const jobs: Record<string, ReturnType<typeof outcome>> = Object.create(null) as Record<string, ReturnType<typeof outcome>>;
        for (const [name, o] of Object.entries(b.jobs ?? {})) jobs[name] = outcome(o);
        ci(ctx).outcomes({ jobs, otherwise: b.otherwise && outcome(b.otherwise) });
        return noContent();
      },
    },
    {
      method: 'DELETE',
      path: '/ci/:project/outcomes',
      handler: (ctx) => {
        ci(ctx).outcomes(null);
        return noContent();
      },
    },
    {
      method: 'POST',
      path: '/ci/cleanup',
      handler: (ctx) => {
        const b = checked<{ fail?: number; lag?: string | number; retry?: string | number }>(ctx, 'ciCleanup');
        members.ciPlanCleanup({ fail: b.fail, lag: b.lag, retry: b.retry });
        return json(host.state().artifactCleanup);
      },
    },
    {
      method: 'PUT',
      path: '/ci/cdn',
      handler: (ctx) => {
        members.ciConfigureCdn(checked<CiCdnConfig>(ctx, 'ciCdn'));
        const { enabled, ttlSeconds } = host.state().artifactCdn;
        return json({ enabled, ttl_seconds: ttlSeconds });
      },
    },
    {
      method: 'PUT',
      path: '/ci/limits',
      handler: (ctx) => {
        members.ciSetLimits(checked<Record<string, number>>(ctx, 'ciLimits'));
        return json(host.state().ciLimits);
      },
    },
  ];
}
