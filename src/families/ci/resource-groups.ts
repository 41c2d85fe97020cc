// Resource groups (app/models/ci/resource_group.rb, Ci::ResourceGroups::AssignResourceFromResourceGroupService,
// lib/api/ci/resource_groups.rb): a project's group is made with the first pipeline whose job
// names it, holds one resource, and hands it to its upcoming jobs in its process mode:
// `unordered` (any waiting job), `oldest_first` and `newest_first` (by pipeline, counting jobs
// not yet ready: created, manual and scheduled ones take their turn and hold the others back),
// `newest_ready_first` (the newest pipeline's waiting job).
import { forbidden, recordNotFound } from '../../core/errors.js';
import { str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { pget, pset, pvalues, tget, type Partitioned } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { jobEntity } from './job-entity.js';
import { canReadBuilds } from './pipelines.js';
import type { Job } from './records.js';
import { ids } from './variables.js';

export const PROCESS_MODES = ['unordered', 'oldest_first', 'newest_first', 'newest_ready_first'] as const;
export type ProcessMode = (typeof PROCESS_MODES)[number];

/** Ci::ResourceGroup. */
export interface ResourceGroup {
  id: number;
  projectId: number;
  key: string;
  processMode: ProcessMode;
  createdAt: number;
  updatedAt: number;
}

export interface ResourceGroupsSlice {
  /** Project id -> its resource groups by key. */
  resourceGroups: Partitioned<ResourceGroup>;
}

/** `project.resource_groups.safe_find_or_create_by(key:)`, as Seed::Build does for a job that names one. */
export function ensureResourceGroup(draft: State, projectId: number, key: string, now: number): void {
  if (pget(draft.resourceGroups, projectId, key)) return;
  pset(draft.resourceGroups, projectId, key, { id: ids.next(draft, 'ci_resource_group'), projectId, key, processMode: 'unordered', createdAt: now, updatedAt: now });
}

const modeOf = (state: State, projectId: number, key: string): ProcessMode => pget(state.resourceGroups, projectId, key)?.processMode ?? 'unordered';

function* groupJobs(state: State, projectId: number, key: string): IterableIterator<Job> {
  for (const id of pvalues(state.projectJobs, projectId)) {
    const j = tget(state.jobs, id);
    if (j && !j.retried && j.plan?.resourceGroup === key) yield j;
  }
}

/** The job holding the group's one resource (Ci::ResourceGroup#current_processable): pending or running. */
export function resourceHolder(state: State, projectId: number, key: string, except?: number): Job | undefined {
  for (const j of groupJobs(state, projectId, key)) if (j.id !== except && (j.status === 'pending' || j.status === 'running' || j.status === 'canceling')) return j;
  return undefined;
}

const UPCOMING: readonly string[] = ['created', 'manual', 'scheduled', 'waiting_for_resource'];

/**
 * Ci::ResourceGroup#upcoming_processables, in its order; `asking` counts as waiting (a job about
 * to wait). Within a pipeline, waiting jobs first, then by id.
 */
export function upcomingJobs(state: State, projectId: number, key: string, asking?: Job): Job[] {
  const mode = modeOf(state, projectId, key);
  const waiting = (j: Job) => j.id === asking?.id || j.status === 'waiting_for_resource';
  const list = [...groupJobs(state, projectId, key)].filter((j) => j.id !== asking?.id && (mode === 'unordered' || mode === 'newest_ready_first' ? waiting(j) : UPCOMING.includes(j.status)));
  // The asking job (a retried job's copy asks in its place).
  if (asking) list.push(asking);
  const pipeline = (j: Job) => j.pipelineId ?? 0;
  return list.sort((a, b) => {
    if (mode === 'oldest_first' && pipeline(a) !== pipeline(b)) return pipeline(a) - pipeline(b);
    if ((mode === 'newest_first' || mode === 'newest_ready_first') && pipeline(a) !== pipeline(b)) return pipeline(b) - pipeline(a);
    if (mode !== 'unordered' && waiting(a) !== waiting(b)) return waiting(a) ? -1 : 1;
    return a.id - b.id;
  });
}

/** Whether a job asking for its group's resource gets it now: it is free, and the job is first of the upcoming ones. */
export function mayTakeResource(state: State, job: Job): boolean {
  const key = job.plan?.resourceGroup;
  if (!key) return true;
  if (resourceHolder(state, job.projectId, key, job.id)) return false;
  return upcomingJobs(state, job.projectId, key, job)[0]?.id === job.id;
}

/**
 * AssignResourceFromResourceGroupService: the free resource goes to the first upcoming job, if it
 * is waiting (an upcoming job not yet ready keeps it free for itself). The job to queue, or none.
 */
export function nextForResource(state: State, projectId: number, key: string): Job | undefined {
  if (resourceHolder(state, projectId, key)) return undefined;
  const first = upcomingJobs(state, projectId, key)[0];
  return first?.status === 'waiting_for_resource' ? first : undefined;
}

/** Entities::Ci::ResourceGroup. */
const entity = (g: ResourceGroup) => ({ id: g.id, key: g.key, process_mode: g.processMode, created_at: iso(g.createdAt), updated_at: iso(g.updatedAt) });

/** `read_resource_group` and `update_resource_group`: developers and above. */
const canUseResourceGroups = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.developer, now);

function groupOf(ctx: Context<{ key: string }>): ResourceGroup {
  if (!canUseResourceGroups(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
  const g = pget(ctx.state.resourceGroups, ctx.project.id, ctx.params.key);
  if (!g) throw recordNotFound();
  return g;
}

/** Entities::Ci::JobBasic: the job entity without its artifacts, runner and tags. */
async function jobBasic(ctx: Context<unknown>, job: Job) {
  const { artifacts_file: _file, artifacts: _artifacts, runner: _runner, runner_manager: _manager, artifacts_expire_at: _expire, archived: _archived, tag_list: _tags, ...basic } =
    await jobEntity(ctx.state, job, ctx, ctx.now(), ctx.env.git.repository(job.projectId));
  return basic;
}

const KEY = { key: str().required() };

export const resourceGroupRoutes = [
  route({
    method: 'GET', path: '/projects/:id/resource_groups', auth: 'user', scope: project(), paginated: true, params: {},
    handler: (ctx): Reply => {
      if (!canUseResourceGroups(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      const all = [...pvalues(ctx.state.resourceGroups, ctx.project.id)].sort((a, b) => a.id - b.id);
      return json(ctx.paginate(all).map(entity));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/resource_groups/:key', auth: 'user', scope: project(), params: KEY,
    handler: (ctx): Reply => json(entity(groupOf(ctx))),
  }),
  route({
    method: 'GET', path: '/projects/:id/resource_groups/:key/current_job', auth: 'user', scope: project(), params: KEY,
    handler: async (ctx): Promise<Reply> => {
      const g = groupOf(ctx);
      if (!canReadBuilds(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      const holder = resourceHolder(ctx.state, ctx.project.id, g.key);
      return json(holder ? await jobBasic(ctx, holder) : null);
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/resource_groups/:key/upcoming_jobs', auth: 'user', scope: project(), paginated: true, params: KEY,
    handler: async (ctx): Promise<Reply> => {
      const g = groupOf(ctx);
      if (!canReadBuilds(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      const page = ctx.paginate(upcomingJobs(ctx.state, ctx.project.id, g.key));
      return json(await Promise.all(page.map((j) => jobBasic(ctx, j))));
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/resource_groups/:key', auth: 'user', scope: project(), params: { ...KEY, process_mode: str().values(PROCESS_MODES) },
    handler: (ctx): Reply => {
      const g = groupOf(ctx);
      const mode = ctx.params.process_mode;
      if (mode === undefined || mode === g.processMode) return json(entity(g));
      const now = ctx.now();
      const next = ctx.update((draft) => {
        const fresh = { ...g, processMode: mode, updatedAt: now };
        pset(draft.resourceGroups, g.projectId, g.key, fresh);
        return fresh;
      });
      return json(entity(next));
    },
  }),
];
