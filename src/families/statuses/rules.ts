// Commit statuses (Ci::CreateCommitStatusService): a status of a name is updated while it is
// pending or running, else a new one replaces it; the state machine of CommitStatus decides
// which changes are allowed.
import type { Draft } from 'immer';
import { ACCESS, sequences, type Project, type User } from '../../store/state.js';
import { pget, pset } from '../../store/table.js';
import { canUseFeature, hasProjectRole } from '../../policy/access.js';
import type { State } from '../world.js';
import type { Change } from '../define.js';
import type { CommitStatus, ExternalPipeline, StatusState } from './records.js';
import { cannotTransition } from './errors.js';

export const ids = sequences(['commit_status', 'pipeline']);

export type PostedState = 'pending' | 'running' | 'success' | 'failed' | 'canceled' | 'skipped';

/** ProjectPolicy read_commit_status: whoever may read the project's CI/CD. */
export function canReadStatuses(state: State, user: User | null, project: Project, now: number): boolean {
  return canUseFeature(state, user, project, 'builds', now);
}

/** ProjectPolicy create_commit_status: developers and above. */
export function canCreateStatus(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.developer, now);
}

/** CommitStatus's state machine: the event each posted state fires, and the states it leaves from. */
const EVENTS: Record<Exclude<PostedState, 'running'>, { event: string; from: StatusState[]; to: StatusState }> = {
  pending: { event: 'enqueue', from: ['created', 'skipped'], to: 'pending' },
  success: { event: 'success', from: ['created', 'pending', 'running'], to: 'success' },
  failed: { event: 'drop', from: ['created', 'pending', 'running'], to: 'failed' },
  canceled: { event: 'cancel', from: ['created', 'pending', 'running'], to: 'canceled' },
  skipped: { event: 'skip', from: ['created', 'pending'], to: 'skipped' },
};

/** The state a status moves to, or GitLab's InvalidTransition. `running` is `enqueue` (quietly) then `run!`. */
export function transition(from: StatusState, posted: PostedState): StatusState {
  if (posted === 'running') {
    const queued = from === 'created' || from === 'skipped' ? 'pending' : from;
    if (queued !== 'pending') throw cannotTransition('run', queued);
    return 'running';
  }
  const e = EVENTS[posted];
  if (!e.from.includes(from)) throw cannotTransition(e.event, from);
  return e.to;
}

/** Statuses of a commit in a project, oldest first (by id), from the per-commit index. */
export function statusesOf(state: State, projectId: number, sha: string): CommitStatus[] {
  const list = pget(state.commitStatusesBySha, projectId, sha) ?? [];
  return list.map((id) => pget(state.commitStatuses, projectId, id)!);
}

/**
 * The newest external pipeline of a commit (for a ref, or of one id), or undefined. Every
 * pipeline was made with a status, so the commit's statuses name them all.
 */
export function matchingPipeline(state: State, projectId: number, sha: string, ref?: string, id?: number): ExternalPipeline | undefined {
  let found: ExternalPipeline | undefined;
  for (const pid of new Set(statusesOf(state, projectId, sha).map((s) => s.pipelineId))) {
    const p = pget(state.externalPipelines, projectId, pid);
    if (!p || (ref !== undefined && p.ref !== ref) || (id !== undefined && p.id !== id)) continue;
    if (!found || p.id > found.id) found = p;
  }
  return found;
}

export interface StatusInput {
  sha: string;
  ref: string;
  name: string;
  state: PostedState;
  pipelineId?: number;
  targetUrl?: string;
  description?: string;
  coverage?: number;
}

/** Posts a status: the pipeline made if needed, the running or pending status of the name updated, or a new one. */
export function postStatus(state: State, project: Project, user: User, input: StatusInput, now: number): Change<CommitStatus> {
  const pipeline = input.pipelineId !== undefined ? matchingPipeline(state, project.id, input.sha, undefined, input.pipelineId) : matchingPipeline(state, project.id, input.sha, input.ref);
  const existing = pipeline
    ? statusesOf(state, project.id, input.sha).find(
        (s) => s.pipelineId === pipeline.id && s.ref === input.ref && s.name === input.name && s.userId === user.id && (s.status === 'pending' || s.status === 'running'),
      )
    : undefined;
  const next = transition(existing?.status ?? 'created', input.state);
  return (draft: Draft<State>) => {
    const d = draft as State;
    let pipelineId = pipeline?.id;
    if (pipelineId === undefined) {
      pipelineId = ids.next(d, 'pipeline');
      pset(d.externalPipelines, project.id, pipelineId, { id: pipelineId, projectId: project.id, sha: input.sha, ref: input.ref, userId: user.id, createdAt: now });
    }
    const optional = {
      ...(input.targetUrl !== undefined ? { targetUrl: input.targetUrl } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.coverage !== undefined ? { coverage: input.coverage } : {}),
    };
    const timing = (s: { startedAt: number | null; finishedAt: number | null }) => ({
      startedAt: next === 'running' && s.startedAt === null ? now : s.startedAt,
      finishedAt: ['success', 'failed', 'canceled', 'skipped'].includes(next) ? now : s.finishedAt,
    });
    if (existing) {
      const s = pget(d.commitStatuses, project.id, existing.id)!;
      const updated: CommitStatus = { ...s, ...optional, status: next, ...timing(s) };
      pset(d.commitStatuses, project.id, s.id, updated);
      return updated;
    }
    const id = ids.next(d, 'commit_status');
    // AddJobService: an older status of the name in the pipeline is retried.
    for (const s of statusesOf(d, project.id, input.sha)) {
      if (s.pipelineId === pipelineId && s.name === input.name && !s.retried) pset(d.commitStatuses, project.id, s.id, { ...s, retried: true });
    }
    const status: CommitStatus = {
      id,
      projectId: project.id,
      sha: input.sha,
      ref: input.ref,
      status: next,
      name: input.name,
      targetUrl: null,
      description: null,
      coverage: null,
      ...optional,
      pipelineId,
      userId: user.id,
      createdAt: now,
      ...timing({ startedAt: null, finishedAt: null }),
      retried: false,
    };
    pset(d.commitStatuses, project.id, id, status);
    pset(d.commitStatusesBySha, project.id, input.sha, [...(pget(d.commitStatusesBySha, project.id, input.sha) ?? []), id]);
    return status;
  };
}
