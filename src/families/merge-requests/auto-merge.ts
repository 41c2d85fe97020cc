// Auto-merge with the merge_when_pipeline_succeeds strategy (app/services/auto_merge_service.rb,
// auto_merge/base_service.rb, auto_merge/merge_when_pipeline_succeeds_service.rb): set while the
// head pipeline runs, the merge made when that pipeline succeeds (a subscriber of
// `pipeline.status`), left set when it fails (a retried job may still succeed), cancelled by
// the caller, aborted by a push of another head or by closing the merge request.
import type { Draft } from 'immer';
import { ApiError } from '../../core/errors.js';
import { pget, pset, tget, tvalues } from '../../store/table.js';
import type { Project, User } from '../../store/state.js';
import type { Change, Context } from '../define.js';
import { systemNote } from '../issuables/index.js';
import { objectsOf } from '../repositories/index.js';
import { emit, type StoredEvent } from '../stream.js';
import type { State } from '../world.js';
import { acceptMergeRequest } from './merge.js';
import { diffHeadPipeline, failedMergeCheck } from './mergeability.js';
import type { AutoMerge, MergeRequest } from './records.js';
import { checkedMergeRequest } from './rules.js';

export interface AutoMergeInput {
  commitMessage?: string;
  squashCommitMessage?: string;
  removeSourceBranch?: boolean;
}

/**
 * The merge request with bookkeeping fields changed (auto-merge, merge error, merge ref, rebase):
 * none of its indexes moves and no hook reports them, so it is stored as it is.
 */
export function save(draft: Draft<State>, project: Project, mr: MergeRequest, fields: Partial<MergeRequest>): MergeRequest {
  const current = (pget(draft.mergeRequests, project.id, mr.iid) as MergeRequest | undefined) ?? mr;
  const next = { ...current, ...fields };
  pset(draft.mergeRequests, project.id, mr.iid, next);
  return next;
}

/** AutoMerge::MergeWhenPipelineSucceedsService#execute: set for the head as it is, with its note. */
export function setAutoMerge(project: Project, mr: MergeRequest, user: User, input: AutoMergeInput, now: number): Change<MergeRequest> {
  const autoMerge: AutoMerge = { strategy: 'merge_when_pipeline_succeeds', userId: user.id, sha: mr.sha, ...input };
  return (draft) => {
    if (mr.autoMerge) return save(draft, project, mr, { autoMerge });
    const next = save(draft, project, mr, { autoMerge, mergeError: null, updatedAt: now });
    systemNote(draft, 'MergeRequest', mr, user.id, `enabled an automatic merge when the pipeline for ${mr.sha} succeeds`, now);
    return next;
  };
}

/** AutoMerge::BaseService#cancel: no longer set, with its note. */
export function cancelAutoMerge(project: Project, mr: MergeRequest, user: User, now: number): Change<MergeRequest> {
  return (draft) => {
    const next = save(draft, project, mr, { autoMerge: null, updatedAt: now });
    systemNote(draft, 'MergeRequest', mr, user.id, 'canceled the automatic merge', now);
    return next;
  };
}

/** Each strategy's abort note (SystemNoteService's abort_merge_when_pipeline_succeeds, abort_merge_train, abort_add_to_merge_train_when_pipeline_succeeds). */
const ABORTED: Record<AutoMerge['strategy'], string> = {
  merge_when_pipeline_succeeds: 'aborted the automatic merge because',
  merge_train: 'removed this merge request from the merge train because',
  add_to_merge_train_when_checks_pass: 'aborted automatic add to merge train because',
};

/** AutoMerge::BaseService#abort (and its merge train strategies'): no longer set, with the note that says why. */
export function abortAutoMerge(draft: Draft<State>, project: Project, mr: MergeRequest, reason: string, userId: number, now: number): MergeRequest {
  const strategy = mr.autoMerge?.strategy ?? 'merge_when_pipeline_succeeds';
  const next = save(draft, project, mr, { autoMerge: null });
  systemNote(draft, 'MergeRequest', mr, userId, `${ABORTED[strategy]} ${reason}`, now);
  return next;
}

/**
 * The merge train strategies (AutoMerge::MergeTrainService, AddToMergeTrainWhenChecksPassService),
 * which the merge trains family gives: AutoMergeService#preferred_strategy asks them first.
 */
export interface TrainStrategies {
  /** AutoMergeService#preferred_strategy where trains are on: `merge_train` with a complete head pipeline, `add_to_merge_train_when_checks_pass` while it runs; null when neither is available. */
  preferred(state: State, mr: MergeRequest, user: User, now: number): TrainStrategy | null;
  /** `PUT .../merge` asking for auto-merge: the merge request set to a merge train strategy, or null when none is available (a `sha` other than the head is 409). */
  execute(ctx: Context<unknown>, mr: MergeRequest, user: User, input: AutoMergeInput & { squash?: boolean; sha?: string }): Promise<MergeRequest | null>;
  /** AutoMergeService#cancel of a merge train strategy: off the train (or no longer waiting), with its note. */
  cancel(ctx: Context<unknown>, mr: MergeRequest, user: User): Promise<void>;
  /** A merge made at once with `skip_merge_train` (EE MergeService#skipping_active_merge_train?): the train records it, from the target's tip before. */
  skipped(ctx: Context<unknown>, mr: MergeRequest, user: User, before: string): void;
}

export type TrainStrategy = Exclude<AutoMerge['strategy'], 'merge_when_pipeline_succeeds'>;

let trains: TrainStrategies | null = null;

/** Gives the merge train strategies (one family does). */
export function registerTrainStrategies(strategies: TrainStrategies): void {
  trains = strategies;
}

export const trainStrategies = (): TrainStrategies | null => trains;

declare module '../stream.js' {
  interface DomainEvents {
    /** A `/merge` quick action whose merge takes a merge train strategy, once its note is saved; `sha` is the head it was asked for. */
    'merge_request.train_merge_requested': { projectId: number; iid: number; sha: string };
  }
}

/**
 * MergeRequests::UpdateService#merge_from_quick_action where a merge train strategy is preferred:
 * said on the draft of the note's change, run when that change is saved (the train's notes come
 * after the comment that asked), as the commenter.
 */
export function requestTrainMerge(draft: Draft<State>, mr: MergeRequest, user: User, sha: string): void {
  emit(draft, { kind: 'merge_request.train_merge_requested', projectId: mr.projectId, iid: mr.iid, sha, actorId: user.id });
}

/**
 * MergeOrchestrationService#execute for `/merge`: the merge trains' strategy set as `PUT .../merge`
 * with auto-merge sets it, for the head the command named; a merge request that moved on, or that no
 * strategy takes any more, is left as it is (as a failed asynchronous merge leaves it).
 */
export async function runTrainMerge(ctx: Context<unknown>, event: StoredEvent<'merge_request.train_merge_requested'>): Promise<void> {
  const strategies = trains;
  const mr = pget(ctx.state.mergeRequests, event.projectId, event.iid) as MergeRequest | undefined;
  const user = event.actorId === null ? undefined : tget(ctx.state.users, event.actorId);
  if (!strategies || !mr || !user || mr.sha !== event.sha) return;
  try {
    await strategies.execute(ctx, mr, user, { sha: event.sha });
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
  }
}

/**
 * AutoMergeProcessWorker on a pipeline's success: each open merge request set to merge whose head
 * pipeline this is merges as the user who set it, when it may; one that may not stays set, the
 * reason in its `merge_error` when the merge itself failed.
 */
export async function processAutoMerges(ctx: Context<unknown>, event: StoredEvent<'pipeline.status'>): Promise<void> {
  if (event.status !== 'success') return;
  const project = tget(ctx.state.projects, event.projectId);
  const all = tget(ctx.state.mergeRequests, event.projectId);
  if (!project || !all) return;
  const waiting = [...tvalues(all)].filter((mr) => mr.state === 'opened' && mr.autoMerge?.strategy === 'merge_when_pipeline_succeeds');
  for (const candidate of waiting) {
    const mr = pget(ctx.state.mergeRequests, project.id, candidate.iid)!;
    const head = diffHeadPipeline(ctx.state, mr);
    // A merge train's strategies are the merge trains family's to run.
    if (mr.autoMerge?.strategy !== 'merge_when_pipeline_succeeds' || head?.id !== event.pipelineId || head.status !== 'success') continue;
    const user = tget(ctx.state.users, mr.autoMerge.userId);
    if (!user) continue;
    const repo = objectsOf(ctx, project);
    const checked = await checkedMergeRequest(ctx.state, repo, mr);
    if (failedMergeCheck(ctx.state, project, checked, false) !== null) continue;
    const now = ctx.now();
    try {
      const recipe = await acceptMergeRequest(ctx.state, repo, project, checked, user, {
        webBase: ctx.webBase, sha: mr.autoMerge.sha, mergeCommitMessage: mr.autoMerge.commitMessage, squashCommitMessage: mr.autoMerge.squashCommitMessage,
        removeSourceBranch: mr.autoMerge.removeSourceBranch,
      }, now);
      // What the merge emits is the merge user's doing, whoever's request settled the pipeline.
      ctx.update((draft) => {
        const from = draft.pendingEvents.length;
        recipe(draft);
        for (const e of draft.pendingEvents.slice(from)) if (e.actorId === undefined) e.actorId = user.id;
      });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const reason = typeof e.body === 'object' && e.body !== null && 'message' in e.body ? String((e.body as { message: unknown }).message) : 'Merge failed';
      ctx.update((draft) => void save(draft, project, mr, { mergeError: reason }));
    }
  }
}
