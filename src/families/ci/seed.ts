// The CI part of a fixture: plan limits at the top, variables on the instance, groups and
// projects. A variable GitLab would refuse throws an EmulatorError naming the record.
import { EmulatorError } from '../../core/errors.js';
import type { Infer } from '../../core/schema.js';
import { fixtureGroupPath, fixtureProjectPath, groupWhere, projectWhere, type SeedRun } from '../define.js';
import type { State } from '../world.js';
import type { Draft } from 'immer';
import { pvalues, tget } from '../../store/table.js';
import type { Job } from './records.js';
import { ciHandle, type CiFinishInput, type CiOutcome } from './handle.js';
import { adoptJob, keepArtifacts } from './pipelines.js';
import { createVariable, type VariableOwner } from './variables.js';
import type { ciGroupSchema, ciTopSchema, pipelineJobSchema, pipelineSchema, pipelinesSchema, variableSchema } from './schema.js';

/** A variable as the API's create takes it. */
export type FixtureVariable = Infer<typeof variableSchema>;

export type FixtureCiTopPart = Infer<typeof ciTopSchema>;

export type FixtureVariablesPart = Infer<typeof ciGroupSchema>;

function seedVariables(draft: State, owner: VariableOwner, list: readonly FixtureVariable[], where: string): void {
  for (const v of list) {
    try {
      createVariable(draft, owner, v)(draft);
    } catch (err) {
      const body = (err as { body?: { message?: unknown } }).body;
      throw new EmulatorError(`${where}: variable '${v.key}' is invalid: ${JSON.stringify(body?.message ?? String(err))}`);
    }
  }
}

export function seedCiVariables(s: SeedRun): void {
  const f = s.fixture;
  s.update((draft) => {
    const state = draft as State;
    for (const [k, v] of Object.entries(f.ci_limits ?? {})) {
      if (!(k in state.ciLimits) || !Number.isInteger(v) || (v as number) < 0) throw new EmulatorError(`ci_limits.${k} is not a known limit of 0 or more`);
      (state.ciLimits as unknown as Record<string, number>)[k] = v as number;
    }
    seedVariables(state, { kind: 'instance', id: 0 }, f.instance_variables ?? [], 'instance_variables');
    if (f.runner_registration) {
      state.runnerRegistration.allowed = f.runner_registration.allowed ?? true;
      if (f.runner_registration.token !== undefined) state.runnerRegistration.instanceToken = f.runner_registration.token;
    }
    for (const g of f.groups ?? []) {
      const id = s.handles.groups[fixtureGroupPath(g)]!.id;
      seedVariables(state, { kind: 'group', id }, g.variables ?? [], groupWhere(g));
    }
    for (const p of f.projects ?? []) {
      const id = s.handles.projects[fixtureProjectPath(p)]!.id;
      seedVariables(state, { kind: 'project', id }, p.variables ?? [], projectWhere(p));
    }
  });
}

/** A job of a fixture pipeline: finished ones may carry a log and artifacts. */
export type FixturePipelineJob = Infer<typeof pipelineJobSchema>;

/** A pipeline of a fixture, for a branch or tag of its repository, with its jobs and child pipelines. */
export type FixturePipeline = Infer<typeof pipelineSchema>;

export type FixturePipelinesPart = Infer<typeof pipelinesSchema>;

const FINAL = ['success', 'failed', 'canceled', 'skipped'];

/**
 * Pipelines and jobs of a fixture, after the repositories (a pipeline's ref must exist). The
 * jobs a project's `jobs` list made get a pipeline of their ref, so every job has one.
 */
export async function seedPipelines(s: SeedRun): Promise<void> {
  for (const p of s.fixture.projects ?? []) {
    const handle = s.handles.projects[fixtureProjectPath(p)]!;
    const where = projectWhere(p);
    const host = {
      state: () => s.state,
      update: (recipe: (draft: Draft<State>) => void) => void s.update(recipe),
      now: () => s.now,
    };
    const ci = ciHandle(host, () => tget(s.state.projects, handle.id)!);
    try {
      if (p.ci_outcomes) {
        const o = p.ci_outcomes;
        const one = (x: NonNullable<typeof o.otherwise>): CiOutcome => ({ status: x.status, after: x.after, exitCode: x.exit_code, failureReason: x.failure_reason, log: x.log });
        const jobs: Record<string, CiOutcome> = Object.create(null) as Record<string, CiOutcome>;
        for (const [name, x] of Object.entries(o.jobs ?? {})) jobs[name] = one(x);
        ci.outcomes({ jobs, otherwise: o.otherwise ? one(o.otherwise) : undefined });
      }
      // A fixture's `jobs` (the projects family's) wait for a pipeline of their ref.
      const loose = [...pvalues(s.state.projectJobs, handle.id)];
      const orphans = Object.values(handle.jobs).map((j) => tget(s.state.jobs, j.id)!).filter((j) => j && j.pipelineId === null && !loose.includes(j.id));
      for (const ref of [...new Set(orphans.map((j) => j.ref))]) {
        const pipeline = ci.pipeline({ ref, user: tget(s.state.users, orphans.find((j) => j.ref === ref)!.userId)?.username });
        s.update((draft) => {
          for (const j of orphans.filter((o) => o.ref === ref)) adoptJob(draft as State, j.id, pipeline.id, handle.jobs[j.name]!.token, s.now);
        });
      }
      const make = (f: FixturePipeline, parent?: number) => {
        const pipeline = ci.pipeline({ ref: f.ref, user: f.user, source: f.source, parent, status: f.status });
        for (const j of f.jobs ?? []) {
          const final = j.status !== undefined && FINAL.includes(j.status);
          const made = ci.job(pipeline.id, { name: j.name, stage: j.stage, status: final ? 'running' : j.status, user: j.user, allowFailure: j.allow_failure, tags: j.tags, token: j.token });
          handle.jobs[j.name] = { id: made.id, token: made.token };
          if (final) {
            ci.finish(made.id, {
              status: j.status as CiFinishInput['status'], failureReason: j.failure_reason, coverage: j.coverage, log: j.log,
              artifacts: j.artifacts && { files: j.artifacts.files, expireIn: j.artifacts.expire_in, public: j.artifacts.public },
            });
          } else {
            if (j.log) ci.log(made.id, j.log);
            if (j.artifacts) ci.artifacts(made.id, { files: j.artifacts.files, expireIn: j.artifacts.expire_in, public: j.artifacts.public });
          }
          if (j.artifacts?.keep) s.update((draft) => keepArtifacts(tget(draft.jobs, made.id)! as Job)(draft));
        }
        for (const c of f.children ?? []) make(c, pipeline.id);
      };
      for (const f of p.pipelines ?? []) make(f);
    } catch (err) {
      if (err instanceof EmulatorError || err instanceof RangeError) throw new EmulatorError(`${where}: ${err.message.replace(/^\[gitlab-emulator\] /, '')}`);
      throw err;
    }
  }
}
