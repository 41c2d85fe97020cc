// Pipeline trigger tokens (lib/api/ci/triggers.rb, app/models/ci/trigger.rb,
// app/presenters/ci/trigger_presenter.rb, app/services/ci/pipeline_trigger_service.rb): a
// project's maintainers create, list, change and delete them; anyone holding one (or a running
// job's CI_JOB_TOKEN) runs a pipeline for a ref with variables.
import { badRequest, forbidden, messageError, notFound, validationFailed } from '../../core/errors.js';
import { any, int, str } from '../../http/params.js';
import { json, noContent, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { ACCESS, randomHex, type Project, type User } from '../../store/state.js';
import { pdel, pget, pset, pvalues, tdel, tget, tset, type Partitioned, type Table } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { userBasic, type UrlBase } from '../users/index.js';
import { project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { pipelineEntity } from './job-entity.js';
import { runCreate } from './pipeline-routes.js';
import { ids } from './variables.js';

/** Ci::Trigger. */
export interface Trigger {
  id: number;
  projectId: number;
  ownerId: number;
  token: string;
  description: string;
  createdAt: number;
  updatedAt: number;
  lastUsed: number | null;
  expiresAt: number | null;
}

export interface TriggersSlice {
  /** Project id -> its trigger tokens by id. */
  pipelineTriggers: Partitioned<Trigger>;
  /** Token -> `<project id>:<trigger id>`. */
  triggerTokens: Table<string>;
}

const TOKEN_PREFIX = 'glptt-';

/** `admin_build` / `manage_trigger`: maintainers. */
export function canManageTriggers(state: State, user: User | null, p: Project, now: number): boolean {
  return hasProjectRole(state, user, p, ACCESS.maintainer, now);
}

/** Entities::Trigger through TriggerPresenter: its owner sees the token, others its first four characters. */
function triggerEntity(state: State, t: Trigger, viewer: User | null, u: UrlBase) {
  const owner = tget(state.users, t.ownerId);
  return {
    id: t.id,
    token: viewer?.id === t.ownerId ? t.token : t.token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 4),
    description: t.description,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    last_used: iso(t.lastUsed),
    expires_at: iso(t.expiresAt),
    owner: owner ? userBasic(owner, u) : null,
  };
}

function triggerOf(ctx: Context<unknown>, id: number): Trigger {
  const t = pget(ctx.state.pipelineTriggers, ctx.project.id, id);
  if (!t) throw notFound('Trigger');
  return t;
}

const MANAGE = project(canManageTriggers);

export const triggerRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/triggers',
    auth: 'user',
    scope: MANAGE,
    paginated: true,
    params: {},
    handler: (ctx): Reply => json(ctx.paginate([...pvalues(ctx.state.pipelineTriggers, ctx.project.id)].sort((a, b) => a.id - b.id)).map((t) => triggerEntity(ctx.state, t, ctx.user, ctx))),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/triggers/:trigger_id',
    auth: 'user',
    scope: MANAGE,
    params: { trigger_id: int().required() },
    handler: (ctx): Reply => json(triggerEntity(ctx.state, triggerOf(ctx, ctx.params.trigger_id), ctx.user, ctx)),
  }),
  route({
    method: 'POST',
    path: '/projects/:id/triggers',
    auth: 'user',
    scope: MANAGE,
    params: { description: str().required() },
    handler: (ctx): Reply => {
      const now = ctx.now();
      const p = ctx.project;
      const userId = ctx.user!.id;
      const t = ctx.update((draft) => {
        const trigger: Trigger = {
          id: ids.next(draft, 'ci_trigger'), projectId: p.id, ownerId: userId, token: `${TOKEN_PREFIX}${randomHex(draft, 40)}`,
          description: ctx.params.description, createdAt: now, updatedAt: now, lastUsed: null, expiresAt: null,
        };
        pset(draft.pipelineTriggers, p.id, trigger.id, trigger);
        tset(draft.triggerTokens, trigger.token, `${p.id}:${trigger.id}`);
        return trigger;
      });
      return json(triggerEntity(ctx.state, t, ctx.user, ctx), 201);
    },
  }),
  route({
    method: 'PUT',
    path: '/projects/:id/triggers/:trigger_id',
    auth: 'user',
    scope: MANAGE,
    params: { trigger_id: int().required(), description: str() },
    handler: (ctx): Reply => {
      const t = triggerOf(ctx, ctx.params.trigger_id);
      // Ci::PipelineTriggers::UpdateService: only its owner may change it.
      if (ctx.user!.id !== t.ownerId) throw forbidden('The requested user is not authorized to update the trigger');
      const now = ctx.now();
      const updated = ctx.update((draft) => {
        const d = pget((draft as State).pipelineTriggers, t.projectId, t.id)!;
        if (ctx.params.description !== undefined) d.description = ctx.params.description;
        d.updatedAt = now;
        return { ...d };
      });
      return json(triggerEntity(ctx.state, updated, ctx.user, ctx));
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/triggers/:trigger_id',
    auth: 'user',
    scope: MANAGE,
    params: { trigger_id: int().required() },
    handler: (ctx): Reply => {
      const t = triggerOf(ctx, ctx.params.trigger_id);
      ctx.update((draft) => {
        pdel(draft.pipelineTriggers, t.projectId, t.id);
        tdel(draft.triggerTokens, t.token);
      });
      return noContent();
    },
  }),
  ...['/projects/:id/trigger/pipeline', '/projects/:id/ref/:ref{.+}/trigger/pipeline'].map((path) =>
    route({
      method: 'POST',
      path,
      auth: 'none',
      params: { id: str().required(), ref: str().required(), token: str().required(), variables: any() },
      handler: async (ctx): Promise<Reply> => {
        if (ctx.request.headers.get('x-gitlab-event') === 'Pipeline Hook') throw forbidden();
        if (ctx.params.ref === '') throw badRequest('ref is empty');
        const raw = ctx.params.variables ?? {};
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !Object.values(raw).every((v) => typeof v === 'string')) {
          throw messageError(400, 'variables needs to be a map of key-valued strings');
        }
        const p = projectByIdOrPath(ctx.state, ctx.params.id);
        if (!p || p.pendingDelete) throw notFound('Project');
        ctx.project = p;
        const variables = Object.entries(raw as Record<string, string>).map(([key, value]) => ({ key, value, variableType: 'env_var' as const }));
        // Ci::PipelineTriggerService: a trigger token of the project, else a running job's token (a multi-project pipeline).
        const trigger = triggerByToken(ctx.state, p.id, ctx.params.token);
        let userId: number;
        let source: 'trigger' | 'pipeline';
        if (trigger) {
          userId = trigger.ownerId;
          source = 'trigger';
        } else {
          const token = tget(ctx.state.tokens, ctx.params.token);
          const job = token?.kind === 'job' && token.jobId !== undefined ? tget(ctx.state.jobs, token.jobId) : undefined;
          if (!job || job.status !== 'running') throw notFound();
          userId = job.userId;
          source = 'pipeline';
        }
        const now = ctx.now();
        const made = await runCreate(ctx, { project: p, userId, source, ref: ctx.params.ref, variables, triggerId: trigger?.id ?? null });
        if (!made.pipeline) throw validationFailed({ base: made.errors });
        if (trigger) {
          ctx.update((draft) => {
            const d = pget((draft as State).pipelineTriggers, p.id, trigger.id);
            if (d) d.lastUsed = now;
          });
        }
        return json(pipelineEntity(ctx.state, made.pipeline, ctx, now), 201);
      },
    }),
  ),
];

function triggerByToken(state: State, projectId: number, token: string): Trigger | undefined {
  const at = tget(state.triggerTokens, token);
  if (!at) return undefined;
  const [pid, id] = at.split(':').map(Number);
  return pid === projectId ? pget(state.pipelineTriggers, pid!, id!) : undefined;
}

/** A deleted project's triggers go with it. */
export function forgetTriggers(draft: State, projectId: number): void {
  for (const t of pvalues(draft.pipelineTriggers, projectId)) tdel(draft.triggerTokens, t.token);
  tdel(draft.pipelineTriggers, projectId);
}
