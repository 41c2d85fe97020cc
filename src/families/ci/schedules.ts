// Pipeline schedules (lib/api/ci/pipeline_schedules.rb, app/models/ci/pipeline_schedule.rb,
// lib/api/entities/ci/pipeline_schedule*.rb): CRUD, take ownership, play, variables; each active
// schedule runs a pipeline of its ref as its owner when the clock passes its cron's next time
// in its time zone.
import { forbidden, notFound, validationFailed } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { json, noContent, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { pget, pset, pdel, pvalues, tget, type Partitioned } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { userBasic } from '../users/index.js';
import { defineTask, plain, project, route, schedule, type Context } from '../define.js';
import { emit, type StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { nextRun, parseCron, validTimeZone } from './cron.js';
import { pipelineBasic } from './job-entity.js';
import { canReadBuilds, projectPipelines } from './pipelines.js';
import { runCreate } from './pipeline-routes.js';
import type { PipelineVariable, VariableType } from './records.js';
import { ids } from './variables.js';

declare module '../stream.js' {
  interface DomainEvents {
    /** A pipeline schedule's time came (timed work); its pipeline is made in the transaction that hands it on. */
    'pipeline_schedule.due': { projectId: number; scheduleId: number };
  }
}

/** Ci::PipelineSchedule. */
export interface PipelineSchedule {
  id: number;
  projectId: number;
  description: string;
  ref: string;
  cron: string;
  cronTimezone: string;
  nextRunAt: number | null;
  active: boolean;
  ownerId: number;
  createdAt: number;
  updatedAt: number;
  variables: PipelineVariable[];
  lastPipelineId: number | null;
}

export interface SchedulesSlice {
  /** Project id -> its pipeline schedules by id. */
  pipelineSchedules: Partitioned<PipelineSchedule>;
}

/** A schedule's time: it runs (if still active and due then), and its next time is set. */
export const RUN_SCHEDULE = defineTask<{ projectId: number; scheduleId: number; at: number }>('ci.pipeline_schedule', (draft, p, ctx) => {
  const state = draft as State;
  const s = pget(state.pipelineSchedules, p.projectId, p.scheduleId);
  if (!s || s.nextRunAt !== p.at) return;
  planNext(state, s, ctx.now);
  if (s.active) emit(state, { kind: 'pipeline_schedule.due', projectId: s.projectId, scheduleId: s.id, actorId: s.ownerId });
});

function planNext(draft: State, s: PipelineSchedule, now: number): void {
  const cron = parseCron(s.cron);
  s.nextRunAt = cron ? nextRun(cron, s.cronTimezone, now) : null;
  if (s.nextRunAt !== null) schedule(draft, RUN_SCHEDULE, s.nextRunAt, { projectId: s.projectId, scheduleId: s.id, at: s.nextRunAt });
}

const branchOf = (ref: string) => ref.replace(/^refs\/(heads|tags)\//, '');

/** RunPipelineScheduleWorker: the schedule's pipeline, as its owner. */
async function runSchedule(ctx: Context<unknown>, s: PipelineSchedule): Promise<number | null> {
  const p = tget(ctx.state.projects, s.projectId);
  if (!p) return null;
  const made = await runCreate(ctx, { project: p, userId: s.ownerId, source: 'schedule', ref: branchOf(s.ref), variables: s.variables, scheduleId: s.id });
  if (made.pipeline) {
    const id = made.pipeline.id;
    ctx.update((draft) => {
      const d = pget((draft as State).pipelineSchedules, s.projectId, s.id);
      if (d) d.lastPipelineId = id;
    });
    return id;
  }
  return null;
}

export async function scheduleDue(ctx: Context<unknown>, e: StoredEvent<'pipeline_schedule.due'>): Promise<void> {
  const s = pget(ctx.state.pipelineSchedules, e.projectId, e.scheduleId);
  if (s?.active) await runSchedule(ctx, s);
}

// ---- Policies (ProjectPolicy, Ci::PipelineSchedulePolicy) ----

const canReadSchedules = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.developer, now);
const isMaintainer = (state: State, user: User | null, p: Project, now: number) => hasProjectRole(state, user, p, ACCESS.maintainer, now);

// ---- Entities ----

function scheduleEntity(ctx: Context<unknown>, s: PipelineSchedule) {
  const owner = tget(ctx.state.users, s.ownerId);
  return {
    id: s.id, description: s.description, ref: s.ref, cron: s.cron, cron_timezone: s.cronTimezone, next_run_at: iso(s.nextRunAt), active: s.active,
    created_at: iso(s.createdAt), updated_at: iso(s.updatedAt), owner: owner ? userBasic(owner, ctx) : null,
  };
}

const scheduleVariable = (v: PipelineVariable) => ({ variable_type: v.variableType, key: v.key, value: v.value, raw: false });

function scheduleDetails(ctx: Context<unknown>, s: PipelineSchedule) {
  const last = s.lastPipelineId === null ? undefined : pget(ctx.state.pipelines, s.projectId, s.lastPipelineId);
  return { ...scheduleEntity(ctx, s), last_pipeline: last ? pipelineBasic(ctx.state, last, ctx) : null, variables: s.variables.map(scheduleVariable) };
}

function scheduleOf(ctx: Context<unknown>, id: number): PipelineSchedule {
  const s = pget(ctx.state.pipelineSchedules, ctx.project.id, id);
  if (!s) throw notFound('Pipeline Schedule');
  return s;
}

/** Ci::PipelineSchedule's validations: cron and time zone. */
function checkSchedule(input: { cron?: string; cron_timezone?: string; ref?: string; description?: string }): void {
  const errors: Record<string, string[]> = {};
  if (input.cron !== undefined && !parseCron(input.cron)) errors.cron = [' is invalid syntax'];
  if (input.cron_timezone !== undefined && !validTimeZone(input.cron_timezone)) errors.cron_timezone = [' is invalid syntax'];
  if (input.ref !== undefined && input.ref.trim() === '') errors.ref = ["can't be blank"];
  if (Object.keys(errors).length) throw validationFailed(errors);
}

const ID = { pipeline_schedule_id: int().required() };

/** Changes a schedule in a request and renders it. */
function changeSchedule(ctx: Context<unknown>, s: PipelineSchedule, edit: (d: PipelineSchedule, draft: State) => void): Reply {
  const now = ctx.now();
  const updated = ctx.update((draft) => {
    const d = pget((draft as State).pipelineSchedules, s.projectId, s.id)!;
    edit(d as PipelineSchedule, draft as State);
    d.updatedAt = now;
    return plain(d) as PipelineSchedule;
  });
  return json(scheduleDetails(ctx, updated));
}

const VARIABLE_TYPES = ['env_var', 'file'] as const;

export const scheduleRoutes = [
  route({
    method: 'GET',
    path: '/projects/:id/pipeline_schedules',
    auth: 'user',
    scope: project(canReadSchedules),
    paginated: true,
    params: { scope: str().values(['active', 'inactive'] as const) },
    handler: (ctx): Reply => {
      const list = [...pvalues(ctx.state.pipelineSchedules, ctx.project.id)]
        .filter((s) => !ctx.params.scope || s.active === (ctx.params.scope === 'active'))
        .sort((a, b) => a.id - b.id);
      return json(ctx.paginate(list).map((s) => scheduleEntity(ctx, s)));
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id',
    auth: 'user',
    scope: project(canReadSchedules),
    params: ID,
    handler: (ctx): Reply => json(scheduleDetails(ctx, scheduleOf(ctx, ctx.params.pipeline_schedule_id))),
  }),
  route({
    method: 'GET',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id/pipelines',
    auth: 'user',
    scope: project(canReadSchedules, canReadBuilds),
    paginated: true,
    params: { ...ID, sort: str().values(['asc', 'desc'] as const).default('asc') },
    handler: (ctx): Reply => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      const list = [...projectPipelines(ctx.state, ctx.project.id)].filter((p) => p.scheduleId === s.id);
      if (ctx.params.sort === 'asc') list.reverse();
      return json(ctx.paginate(list).map((p) => pipelineBasic(ctx.state, p, ctx)));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipeline_schedules',
    auth: 'user',
    scope: project(canReadSchedules),
    params: { description: str().required(), ref: str().required(), cron: str().required(), cron_timezone: str().default('UTC'), active: bool().default(true) },
    handler: (ctx): Reply => {
      const p = ctx.params;
      checkSchedule(p);
      const now = ctx.now();
      const project = ctx.project;
      const ownerId = ctx.user!.id;
      const made = ctx.update((draft) => {
        const s: PipelineSchedule = {
          id: ids.next(draft, 'ci_schedule'), projectId: project.id, description: p.description, ref: p.ref, cron: p.cron, cronTimezone: p.cron_timezone,
          nextRunAt: null, active: p.active, ownerId, createdAt: now, updatedAt: now, variables: [], lastPipelineId: null,
        };
        pset((draft as State).pipelineSchedules, project.id, s.id, s);
        planNext(draft as State, s, now);
        return plain(s);
      });
      return json(scheduleDetails(ctx, made), 201);
    },
  }),
  route({
    method: 'PUT',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id',
    auth: 'user',
    scope: project(canReadSchedules),
    params: { ...ID, description: str(), ref: str(), cron: str(), cron_timezone: str(), active: bool() },
    handler: (ctx): Reply => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      if (s.ownerId !== ctx.user!.id) throw forbidden();
      const p = ctx.params;
      checkSchedule(p);
      const now = ctx.now();
      return changeSchedule(ctx, s, (d, draft) => {
        if (p.description !== undefined) d.description = p.description;
        if (p.ref !== undefined) d.ref = p.ref;
        if (p.active !== undefined) d.active = p.active;
        if (p.cron !== undefined) d.cron = p.cron;
        if (p.cron_timezone !== undefined) d.cronTimezone = p.cron_timezone;
        if (p.cron !== undefined || p.cron_timezone !== undefined) planNext(draft, d, now);
      });
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id/take_ownership',
    auth: 'user',
    scope: project(canReadSchedules),
    params: ID,
    handler: (ctx): Reply => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      if (s.ownerId !== ctx.user!.id && !isMaintainer(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      const userId = ctx.user!.id;
      const reply = changeSchedule(ctx, s, (d) => void (d.ownerId = userId));
      return { ...reply, status: 201 };
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id',
    auth: 'user',
    scope: project(canReadSchedules),
    params: ID,
    handler: (ctx): Reply => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      if (s.ownerId !== ctx.user!.id && !isMaintainer(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      ctx.update((draft) => void pdel((draft as State).pipelineSchedules, s.projectId, s.id));
      return noContent();
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id/play',
    auth: 'user',
    scope: project(canReadSchedules),
    params: ID,
    handler: async (ctx): Promise<Reply> => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      await runSchedule(ctx, s);
      return json({ message: '201 Created' }, 201);
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables',
    auth: 'user',
    scope: project(canReadSchedules),
    params: { ...ID, key: str().required(), value: str().required(), variable_type: str().values(VARIABLE_TYPES).default('env_var') },
    handler: (ctx): Reply => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      if (s.ownerId !== ctx.user!.id) throw forbidden();
      const { key, value, variable_type } = ctx.params;
      if (!/^[a-zA-Z0-9_]+$/.test(key)) throw validationFailed({ key: ['can contain only letters, digits and \'_\'.'] });
      if (s.variables.some((v) => v.key === key)) throw validationFailed({ key: ['has already been taken'] });
      const v = { key, value, variableType: variable_type as VariableType };
      changeSchedule(ctx, s, (d) => void d.variables.push(v));
      return json(scheduleVariable(v), 201);
    },
  }),
  route({
    method: 'PUT',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    auth: 'user',
    scope: project(canReadSchedules),
    params: { ...ID, key: str().required(), value: str(), variable_type: str().values(VARIABLE_TYPES) },
    handler: (ctx): Reply => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      if (s.ownerId !== ctx.user!.id) throw forbidden();
      const i = s.variables.findIndex((v) => v.key === ctx.params.key);
      if (i < 0) throw notFound('Variable');
      const v = { ...s.variables[i]!, ...(ctx.params.value !== undefined ? { value: ctx.params.value } : {}), ...(ctx.params.variable_type ? { variableType: ctx.params.variable_type as VariableType } : {}) };
      changeSchedule(ctx, s, (d) => void (d.variables[i] = v));
      return json(scheduleVariable(v));
    },
  }),
  route({
    method: 'DELETE',
    path: '/projects/:id/pipeline_schedules/:pipeline_schedule_id/variables/:key',
    auth: 'user',
    scope: project(canReadSchedules),
    params: { ...ID, key: str().required() },
    handler: (ctx): Reply => {
      const s = scheduleOf(ctx, ctx.params.pipeline_schedule_id);
      if (s.ownerId !== ctx.user!.id) throw forbidden();
      const v = s.variables.find((x) => x.key === ctx.params.key);
      if (!v) throw notFound('Variable');
      changeSchedule(ctx, s, (d) => void (d.variables = d.variables.filter((x) => x.key !== v.key)));
      return json(scheduleVariable(v), 202);
    },
  }),
];
