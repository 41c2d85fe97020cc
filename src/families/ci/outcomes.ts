// Outcomes chosen ahead: for tests that do not play the runner, a project's plan says how its
// jobs end ("`test` fails with exit code 1 after 3 minutes"), and the emulator's own runner
// takes each job as it is queued and finishes it on the clock.
import type { Draft } from 'immer';
import { tget } from '../../store/table.js';
import { defineTask } from '../define.js';
import type { State } from '../world.js';
import type { Job, JobRunner } from './records.js';
import { afterJobMoved, failJob, moveJob, runJob } from './processing.js';
import { schedule } from '../define.js';

/** How one job ends. */
export interface JobOutcome {
  status: 'success' | 'failed' | 'canceled';
  /** Milliseconds after it starts. */
  afterMs: number;
  exitCode: number | null;
  failureReason: string | null;
  log: string | null;
}

/** A project's plan: the outcome of each job by name, and of any other job. */
export interface OutcomePlan {
  jobs: Record<string, JobOutcome>;
  /** What a job the plan does not name does; null leaves it pending for a runner. */
  otherwise: JobOutcome | null;
}

export interface OutcomesSlice {
  /** Project id -> how the emulator runs its jobs itself (absent: a runner takes them). */
  ciOutcomes: Record<string, OutcomePlan>;
}

/** The runner the emulator plays. */
export const EMULATOR_RUNNER: JobRunner = { id: 0, description: 'gitlab-emulator', runnerType: 'instance_type' };

/** The planned end of a job: it is finished as planned, if it still runs the run that was planned. */
export const FINISH_PLANNED = defineTask<{ jobId: number; startedAt: number }>('ci.finish_planned', (draft, p, ctx) => {
  const state = draft as State;
  const job = tget(state.jobs, p.jobId);
  if (!job || job.status !== 'running' || job.startedAt !== p.startedAt) return;
  const outcome = outcomeOf(state, job);
  if (!outcome) return;
  if (outcome.log) job.trace += outcome.log;
  if (outcome.status === 'failed') {
    failJob(state, job, outcome.failureReason ?? 'script_failure', outcome.exitCode, ctx.now);
    return;
  }
  job.exitCode = outcome.status === 'success' ? (outcome.exitCode ?? 0) : null;
  moveJob(state, job, outcome.status, ctx.now);
  afterJobMoved(state, job, ctx.now);
});

function outcomeOf(state: State, job: Job): JobOutcome | null {
  const plan = Object.hasOwn(state.ciOutcomes, String(job.projectId)) ? state.ciOutcomes[String(job.projectId)]! : undefined;
  if (!plan) return null;
  return Object.hasOwn(plan.jobs, job.name) ? plan.jobs[job.name]! : plan.otherwise;
}

/** A job just queued: when its project has a plan for it, the emulator's runner takes it and its end is scheduled. */
export function takeByPlan(draft: State, job: Draft<Job>, now: number): void {
  const outcome = outcomeOf(draft, job as Job);
  if (!outcome || job.plan?.trigger) return;
  job.runner = { ...EMULATOR_RUNNER };
  runJob(draft, job, null, now);
  schedule(draft, FINISH_PLANNED, now + outcome.afterMs, { jobId: job.id, startedAt: now });
}
