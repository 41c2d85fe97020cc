// CI/CD: variables of projects, groups and the instance; pipelines and jobs as data, their
// artifacts expiring on the clock; job tokens.
import { ciGroupSchema, ciProjectSchema, ciTopSchema } from './schema.js';
import type { Draft } from 'immer';
import { emptyTable, pvalues, tdel, tget } from '../../store/table.js';
import type { CoreState, Token, User } from '../../store/state.js';
import { defineFamily, type Family, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import { artifactRoutes } from './artifact-routes.js';
import { jobRoutes } from './job-routes.js';
import { lintRoutes } from './lint-routes.js';
import { cdnRoutes } from './cdn.js';
import { runnerApiRoutes } from './runner-api.js';
import { forgetTriggers, triggerRoutes, type TriggersSlice } from './triggers.js';
import { resourceGroupRoutes, type ResourceGroupsSlice } from './resource-groups.js';
import { emptyRunnerRegistration, runnerRegistrationRoutes, type RunnerRegistrationSlice } from './runner-registration.js';
import { AUTO_STOP, environmentRoutes, type EnvironmentsSlice } from './environments.js';
import { RUN_SCHEDULE, scheduleDue, scheduleRoutes, type SchedulesSlice } from './schedules.js';
import { ciPostReceive, pipelineCreationRoutes, pipelineOnMergeRequest, pipelineOnPush } from './pipeline-routes.js';
import { CLEANUP_ARTIFACTS, DEFAULT_CLEANUP, type PipelinesSlice } from './pipelines.js';
import { DEFAULT_CI_LIMITS } from './records.js';
import { seedCiVariables, seedPipelines, type FixtureCiTopPart, type FixturePipelinesPart, type FixtureVariablesPart } from './seed.js';
import { variableRoutes } from './variable-routes.js';
import { ciMembers, type CiMembers } from './handle.js';
import { ciControlRoutes } from './control.js';
import type { VariablesSlice } from './variables.js';
import { downstreamOnBridge } from './downstream.js';
import { ENQUEUE_SCHEDULED, JOB_TIMEOUT } from './processing.js';
import { FINISH_PLANNED, type OutcomesSlice } from './outcomes.js';

export type CiSlice = VariablesSlice & PipelinesSlice & OutcomesSlice & TriggersSlice & SchedulesSlice & EnvironmentsSlice & ResourceGroupsSlice & RunnerRegistrationSlice;

async function seedCi(s: SeedRun): Promise<void> {
  seedCiVariables(s);
  await seedPipelines(s);
}

function forgetProject(draft: Draft<State>, id: number): void {
  const state = draft as State;
  for (const p of pvalues(state.pipelines, id)) tdel(state.pipelineJobs, p.id);
  for (const jobId of pvalues(state.projectJobs, id)) tdel(state.ciJobTokens, jobId), tdel(state.pendingJobs, jobId);
  const tables: { size: number; chunks: object }[] = [state.projectVariables, state.projectVariableKeys, state.pipelines, state.projectJobs, state.latestSuccessful, state.headPipelines, state.jobArtifacts, state.artifactExpiries];
  for (const t of tables) tdel(t as State['projectJobs'], id);
  delete state.ciOutcomes[String(id)];
  forgetTriggers(state, id);
  tdel(state.pipelineSchedules, id);
  tdel(state.environments, id);
  tdel(state.deployments, id);
  tdel(state.resourceGroups, id);
}

/** Who a job token acts as: its job's user, while the job runs. */
function jobUser(state: CoreState, token: Token): User | undefined {
  const job = token.jobId !== undefined ? tget((state as State).jobs, token.jobId) : undefined;
  return job?.status === 'running' ? tget(state.users, job.userId) : undefined;
}

declare module '../world.js' {
  interface Slices extends CiSlice {}
  interface FixtureTopParts extends FixtureCiTopPart {}
  interface FixtureGroupParts extends FixtureVariablesPart {}
  interface FixtureProjectParts extends FixtureVariablesPart, FixturePipelinesPart {}
  interface FamilyHandles extends CiMembers {}
}

export const ci: Family<CiSlice> = defineFamily({
  name: 'ci',
  schema: { top: ciTopSchema, group: ciGroupSchema, project: ciProjectSchema },
  state: () => ({
    jobs: emptyTable(),
    projectVariables: emptyTable(),
    projectVariableKeys: emptyTable(),
    groupVariables: emptyTable(),
    groupVariableKeys: emptyTable(),
    instanceVariables: emptyTable(),
    instanceVariableKeys: emptyTable(),
    ciLimits: { ...DEFAULT_CI_LIMITS },
    pipelines: emptyTable(),
    projectJobs: emptyTable(),
    pipelineJobs: emptyTable(),
    latestSuccessful: emptyTable(),
    headPipelines: emptyTable(),
    jobArtifacts: emptyTable(),
    artifactExpiries: emptyTable(),
    ciJobTokens: emptyTable(),
    artifactCleanup: { ...DEFAULT_CLEANUP },
    artifactCdn: { enabled: false, ttlSeconds: 300, secret: '' },
    ciOutcomes: {},
    pendingJobs: emptyTable(),
    pipelineTriggers: emptyTable(),
    triggerTokens: emptyTable(),
    pipelineSchedules: emptyTable(),
    environments: emptyTable(),
    deployments: emptyTable(),
    upstreamBridges: emptyTable(),
    resourceGroups: emptyTable(),
    runnerRegistration: emptyRunnerRegistration(),
    runnerQueueTick: 0,
  }),
  seed: { after: ['groups', 'projects', 'repositories'], run: seedCi },
  // The artifact routes first: `jobs/artifacts/:ref/...` before `jobs/:job_id`, `artifacts/tree` before `artifacts/*path`.
  routes: [...variableRoutes, ...artifactRoutes, ...jobRoutes, ...cdnRoutes, ...lintRoutes, ...runnerApiRoutes, ...pipelineCreationRoutes, ...triggerRoutes, ...scheduleRoutes, ...environmentRoutes, ...resourceGroupRoutes, ...runnerRegistrationRoutes],
  on: { push: pipelineOnPush, 'merge_request.opened': pipelineOnMergeRequest, 'pipeline_schedule.due': scheduleDue, 'job.status': downstreamOnBridge },
  postReceive: ciPostReceive,
  tasks: [CLEANUP_ARTIFACTS, ENQUEUE_SCHEDULED, JOB_TIMEOUT, FINISH_PLANNED, RUN_SCHEDULE, AUTO_STOP],
  handle: ciMembers,
  control: { endpoint: 'ci', routes: ciControlRoutes },
  provides: { jobUser },
  forget: {
    project: forgetProject,
    group: (draft, id) => void (tdel(draft.groupVariables, id), tdel(draft.groupVariableKeys, id)),
  },
});

export type { CiVariable, CiLimits, Pipeline, JobArtifacts, ArtifactEntry, CleanupPlan, Job, JobStatus, JobRunner } from './records.js';
export type { FixtureVariable, FixturePipeline, FixturePipelineJob } from './seed.js';
export { canReadBuilds, createJob, headPipeline } from './pipelines.js';
export { runCreate } from './pipeline-routes.js';
export { pipelineBasic, pipelineEntity } from './job-entity.js';
export { commitPipelineFields } from './commit-pipeline.js';
export { type CiMembers, type CiCdnConfig, type CiHandle, type CiPipelineInput, type CiJobInput, type CiFinishInput, type CiArtifactsInput, type CiCleanupPlan } from './handle.js';
export { pipelineJobs, projectPipelines } from './pipelines.js';
export { canUpdateBuilds, cancelPipeline, retryPipeline } from './pipelines.js';
export { canAdminProjectVariables, variablesOf } from './variables.js';
