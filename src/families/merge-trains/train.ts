// The train of a target branch (MergeTrains::Train, RefreshService, RefreshMergeRequestService,
// AutoMerge::MergeTrainService and AddToMergeTrainWhenChecksPassService): cars added with their
// notes, rebuilt when what is ahead of them moved (the car behind goes `stale` and a refresh is
// due, as GitLab's RefreshWorker), merged in order when the first car's pipeline succeeds
// (`merging`, then `merged`), dropped with the note that says why.
import { ApiError } from '../../core/errors.js';
import { mergeBase } from '../../git/merge-base.js';
import { mergeTrees } from '../../git/merge-trees.js';
import type { Project, User } from '../../store/state.js';
import { pdel, pget, plist, pset, tget } from '../../store/table.js';
import { cancelPipeline, headPipeline, runCreate } from '../ci/index.js';
import { defineTask, schedule, type Context } from '../define.js';
import { systemNote } from '../issuables/index.js';
import {
  acceptMergeRequest, checkedMergeRequest, defaultMergeCommitMessage, rebaseCommits, saveMergeRequestFields, squashCommit, type MergeRequest,
} from '../merge-requests/index.js';
import { branchTip, objectsOf, refsOf } from '../repositories/index.js';
import { emit } from '../stream.js';
import type { State } from '../world.js';
import { fire, isActive, type MergeTrainCar } from './car.js';
import { ids, type WaitingAdd } from './store.js';

/** Project#merge_trains_enabled?: the licensed feature, merge pipelines and merge trains on. */
export function trainsAvailable(state: State, p: Project): boolean {
  return state.instance.tier !== 'free' && p.settings.merge_pipelines_enabled === true && p.settings.merge_trains_enabled === true;
}

/** The active cars of a target branch, first to last. */
export function trainOf(state: State, projectId: number, branch: string): MergeTrainCar[] {
  return plist(state.mergeTrainCars, projectId).filter((c) => c.targetBranch === branch && isActive(c)).sort((a, b) => a.id - b.id);
}

/** The car of a merge request: its active one, else its latest. */
export function carOf(state: State, projectId: number, iid: number): MergeTrainCar | undefined {
  const all = plist(state.mergeTrainCars, projectId).filter((c) => c.mergeRequestIid === iid).sort((a, b) => b.id - a.id);
  return all.find(isActive) ?? all[0];
}

/** MergeRequest#diff_head_pipeline: the newer of its source branch's and its own pipelines of the head. */
export function diffHeadPipeline(state: State, mr: MergeRequest) {
  const branch = headPipeline(state, mr.projectId, mr.sourceBranch, mr.sha);
  const detached = headPipeline(state, mr.projectId, `refs/merge-requests/${mr.iid}/head`, mr.sha);
  if (!branch || !detached) return branch ?? detached;
  return detached.id > branch.id ? detached : branch;
}

export const IN_PROGRESS = ['created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'canceling'];
const DONE = ['success', 'failed', 'canceled', 'skipped'];

/**
 * MergeTrainService#availability_details: a head pipeline that is complete; where pipelines need
 * not succeed, a canceling or blocked (manual) one too.
 */
export function mergeTrainAvailable(p: Project, head: { status: string } | undefined): boolean {
  if (!head) return false;
  if (DONE.includes(head.status)) return true;
  return p.settings.only_allow_merge_if_pipeline_succeeds !== true && (head.status === 'canceling' || head.status === 'manual');
}

/** AddToMergeTrainWhenChecksPassService#availability_details, as the emulator sees it: the head pipeline still runs. */
export const addWhenChecksPassAvailable = (head: { status: string } | undefined): boolean => !!head && IN_PROGRESS.includes(head.status);

const mergeRequestOf = (state: State, projectId: number, iid: number) => pget(state.mergeRequests, projectId, iid) as MergeRequest | undefined;

function putCar(ctx: Context<unknown>, car: MergeTrainCar, extra?: (draft: State) => void): MergeTrainCar {
  return ctx.update((draft) => {
    pset((draft as State).mergeTrainCars, car.projectId, car.id, car);
    extra?.(draft as State);
    return car;
  });
}

/** The RefreshWorker: the train of a target branch refreshed as soon as the world's clock lets timed work run. */
export const REFRESH_TRAIN = defineTask<{ projectId: number; targetBranch: string }>('merge_train.refresh', (draft, p) => {
  emit(draft, { kind: 'merge_train.refresh', projectId: p.projectId, targetBranch: p.targetBranch, actorId: null });
});

declare module '../stream.js' {
  interface DomainEvents {
    /** A merge train's refresh came due (timed work); the train is rebuilt in the transaction that hands it on. */
    'merge_train.refresh': { projectId: number; targetBranch: string };
  }
}

function refreshSoon(ctx: Context<unknown>, projectId: number, branch: string): void {
  const now = ctx.now();
  ctx.update((draft) => schedule(draft, REFRESH_TRAIN, now, { projectId, targetBranch: branch }));
}

/** Car#outdate_pipeline: a fresh car's pipeline no longer runs on what is ahead of it; the train's refresh is due. */
function outdate(ctx: Context<unknown>, car: MergeTrainCar | undefined, branch: string, projectId: number): void {
  if (car) {
    const next = fire(car, 'outdate_pipeline', ctx.now());
    if (next !== car) putCar(ctx, next);
  }
  refreshSoon(ctx, projectId, branch);
}

/** The car behind one (Car#next), before it leaves. */
const nextOf = (state: State, car: MergeTrainCar) => trainOf(state, car.projectId, car.targetBranch).find((c) => c.id > car.id);

/** A car leaves (its row destroyed): its pipeline canceled if it still runs, its merge request no longer set to the train. */
function destroyCar(draft: State, p: Project, car: MergeTrainCar, now: number): void {
  pdel(draft.mergeTrainCars, car.projectId, car.id);
  const pipeline = car.pipelineId === null ? undefined : pget(draft.pipelines, car.projectId, car.pipelineId);
  if (pipeline && !DONE.includes(pipeline.status)) cancelPipeline(pipeline, now)(draft);
  const mr = mergeRequestOf(draft, car.projectId, car.mergeRequestIid);
  if (mr?.autoMerge?.strategy === 'merge_train') saveMergeRequestFields(draft, p, mr, { autoMerge: null });
}

/**
 * AutoMerge::MergeTrainService#abort: the car leaves with `removed this merge request from the
 * merge train because ...` (when its merge request was still set to the train and there is a
 * reason to give), and the car behind is outdated.
 */
export function abortCar(ctx: Context<unknown>, p: Project, car: MergeTrainCar, reason: string | null, userId: number): void {
  const next = nextOf(ctx.state, car);
  const now = ctx.now();
  ctx.update((draft) => {
    const mr = mergeRequestOf(draft as State, car.projectId, car.mergeRequestIid);
    if (reason !== null && mr?.autoMerge?.strategy === 'merge_train') systemNote(draft, 'MergeRequest', mr, userId, `removed this merge request from the merge train because ${reason}`, now);
    destroyCar(draft as State, p, car, now);
  });
  outdate(ctx, next, car.targetBranch, p.id);
}

/** AutoMerge::MergeTrainService#cancel: the car leaves with its note, the car behind is outdated. */
export function cancelCar(ctx: Context<unknown>, p: Project, car: MergeTrainCar, user: User): void {
  const next = nextOf(ctx.state, car);
  const now = ctx.now();
  ctx.update((draft) => {
    const mr = mergeRequestOf(draft as State, car.projectId, car.mergeRequestIid);
    if (mr) systemNote(draft, 'MergeRequest', mr, user.id, 'removed this merge request from the merge train', now);
    destroyCar(draft as State, p, car, now);
  });
  outdate(ctx, next, car.targetBranch, p.id);
}

/**
 * AutoMerge::MergeTrainService#execute: a new car at the end of the merge request's train
 * (`idle`, its pipeline made by the refresh), the merge request set to the train, and the note
 * (`started a merge train` for the first car, else its position).
 */
export function addCar(ctx: Context<unknown>, p: Project, mr: MergeRequest, user: User, squash: boolean, input: { commitMessage?: string; squashCommitMessage?: string; removeSourceBranch?: boolean } = {}): MergeTrainCar {
  const now = ctx.now();
  const position = trainOf(ctx.state, p.id, mr.targetBranch).length;
  return ctx.update((draft) => {
    const car: MergeTrainCar = {
      id: ids.next(draft, 'merge_train_car'), projectId: mr.projectId, mergeRequestIid: mr.iid, userId: user.id, targetBranch: mr.targetBranch,
      status: 'idle', pipelineId: null, trainSha: null, landedSha: null, squash, createdAt: now, updatedAt: now, mergedAt: null,
    };
    pset((draft as State).mergeTrainCars, car.projectId, car.id, car);
    saveMergeRequestFields(draft, p, mr, { autoMerge: { strategy: 'merge_train', userId: user.id, sha: mr.sha, ...input }, mergeError: null, updatedAt: now });
    systemNote(draft, 'MergeRequest', mr, user.id, position === 0 ? 'started a merge train' : `added this merge request to the merge train at position ${position + 1}`, now);
    return car;
  });
}

/** AddToMergeTrainWhenChecksPassService#execute: the merge request waits for its head pipeline, with its note. */
export function addWhenChecksPass(ctx: Context<unknown>, p: Project, mr: MergeRequest, user: User, squash: boolean, input: { commitMessage?: string; squashCommitMessage?: string; removeSourceBranch?: boolean } = {}): MergeRequest {
  const now = ctx.now();
  return ctx.update((draft) => {
    pset((draft as State).mergeTrainWaiting, p.id, mr.iid, { projectId: p.id, iid: mr.iid, userId: user.id, sha: mr.sha, squash });
    systemNote(draft, 'MergeRequest', mr, user.id, `enabled automatic add to merge train when the pipeline for ${mr.sha} succeeds`, now);
    return saveMergeRequestFields(draft, p, mr, { autoMerge: { strategy: 'add_to_merge_train_when_checks_pass', userId: user.id, sha: mr.sha, ...input }, mergeError: null, updatedAt: now });
  });
}

/** A waiting add dropped: with `cancelled automatic add to merge train` (a user) or `aborted ... because <reason>`. */
export function dropWaiting(ctx: Context<unknown>, p: Project, w: WaitingAdd, userId: number, reason: string | null): void {
  const now = ctx.now();
  ctx.update((draft) => {
    pdel((draft as State).mergeTrainWaiting, p.id, w.iid);
    const mr = mergeRequestOf(draft as State, p.id, w.iid);
    if (mr?.autoMerge?.strategy !== 'add_to_merge_train_when_checks_pass') return;
    saveMergeRequestFields(draft, p, mr, { autoMerge: null });
    systemNote(draft, 'MergeRequest', mr, userId, reason === null ? 'cancelled automatic add to merge train' : `aborted automatic add to merge train because ${reason}`, now);
  });
}

/**
 * MergeRequests::CreateRefService for a train ref: the merge request's head (squashed into one
 * commit on its merge base when the car squashes), rebased onto `base` where merges must be
 * fast-forwards (maybe_rebase!: fast-forward and semi-linear projects), then merged onto `base`
 * unless the project merges by fast-forward only (maybe_merge!); a reason when it cannot be.
 */
async function trainCommit(ctx: Context<unknown>, p: Project, car: MergeTrainCar, mr: MergeRequest, base: string): Promise<{ sha: string } | { error: string }> {
  const repo = objectsOf(ctx, p);
  const head = branchTip(refsOf(ctx.state, p.id), mr.sourceBranch);
  if (!head) return { error: 'the source branch is missing' };
  const fail = { error: `the merge train pipeline could not be prepared: Failed to create merge commit for source_sha ${head} and target_sha ${base}` };
  const mb = await mergeBase(repo, head, [base]);
  if (mb === null) return fail;
  const tree = await mergeTrees(repo, mb, base, head);
  if (tree === null) return fail;
  const user = tget(ctx.state.users, car.userId) ?? tget(ctx.state.users, mr.authorId);
  if (!user) return fail;
  const squashed = car.squash ? await squashCommit(ctx.state, repo, mr, head, mb, user, mr.autoMerge?.squashCommitMessage, ctx.now(), ctx.webBase) : head;
  const method = p.settings.merge_method;
  const merging = method === 'ff' || method === 'rebase_merge' ? await rebaseCommits(repo, squashed, base, user, ctx.now()) : squashed;
  if (merging === null) return fail;
  if (method === 'ff') return { sha: merging };
  const who = { name: user.name, email: user.email, timestamp: Math.floor(ctx.now() / 1000), offset: 0 };
  // CreateRefService#merge_commit_message: the one asked for with the auto-merge, else the merge request's default.
  const message = mr.autoMerge?.commitMessage || (await defaultMergeCommitMessage({ state: ctx.state, repo, project: p, mr, user, webBase: ctx.webBase, now: ctx.now() }));
  return { sha: await repo.writeCommit({ tree, parents: [base, merging], author: who, committer: who, message }) };
}

/** Whether a car's train commit still stands on `base` (or on a merged or skipped car's commit that landed as `base`). */
async function standsOn(ctx: Context<unknown>, car: MergeTrainCar, base: string): Promise<boolean> {
  if (car.trainSha === null || car.pipelineId === null) return false;
  const parent = car.baseSha ?? (await objectsOf(ctx, { id: car.projectId }).readCommit(car.trainSha)).parents[0];
  if (parent === base) return true;
  return plist(ctx.state.mergeTrainCars, car.projectId).some((c) => (c.status === 'merged' || c.status === 'skip_merged') && c.trainSha === parent && c.landedSha === base);
}

/**
 * MergeTrains::RefreshService: from the target's tip, each car that is not fresh on what is
 * ahead of it gets a new train commit and pipeline (Car#refresh_pipeline, its old pipeline
 * canceled); a car whose pipeline did not succeed, whose merge request is no longer open, or that
 * cannot be merged onto the train leaves it.
 */
async function refreshTrain(ctx: Context<unknown>, p: Project, branch: string): Promise<void> {
  let base = branchTip(refsOf(ctx.state, p.id), branch);
  for (const listed of trainOf(ctx.state, p.id, branch)) {
    const car = pget(ctx.state.mergeTrainCars, p.id, listed.id);
    if (!car || !isActive(car)) continue;
    const mr = mergeRequestOf(ctx.state, p.id, car.mergeRequestIid);
    if (!base || !mr || mr.state !== 'opened') {
      // Merged past the train (merge immediately), it just leaves; closed, it says so.
      abortCar(ctx, p, car, mr?.state === 'merged' ? null : 'merge request was closed', car.userId);
      continue;
    }
    const pipeline = car.pipelineId === null ? undefined : pget(ctx.state.pipelines, p.id, car.pipelineId);
    if (car.status === 'fresh' && pipeline && ['failed', 'canceled', 'skipped'].includes(pipeline.status)) {
      abortCar(ctx, p, car, 'pipeline did not succeed', car.userId);
      continue;
    }
    if (car.status === 'fresh' && (await standsOn(ctx, car, base))) {
      base = car.trainSha!;
      continue;
    }
    const made = await trainCommit(ctx, p, car, mr, base);
    if ('error' in made) {
      abortCar(ctx, p, car, made.error, car.userId);
      continue;
    }
    const created = await runCreate(ctx, { project: p, userId: car.userId, source: 'merge_request_event', ref: `refs/merge-requests/${mr.iid}/train`, sha: made.sha, mergeRequestIid: mr.iid });
    if (!created.pipeline) {
      abortCar(ctx, p, pget(ctx.state.mergeTrainCars, p.id, car.id) ?? car, created.errors[0] ?? 'the merge train pipeline could not be created', car.userId);
      continue;
    }
    const now = ctx.now();
    const old = pipeline;
    putCar(ctx, fire(pget(ctx.state.mergeTrainCars, p.id, car.id) ?? car, 'refresh_pipeline', now, { trainSha: made.sha, pipelineId: created.pipeline.id, baseSha: base }), (draft) => {
      if (old && !DONE.includes(old.status)) cancelPipeline(old, now)(draft);
    });
    base = made.sha;
  }
}

/**
 * RefreshMergeRequestService#merge!: the first fresh car whose pipeline succeeded, still on the
 * target as it is, is merged as the user who added it (start_merge, the merge, finish_merge),
 * then the next; a merge that fails takes the car off the train.
 */
async function mergeFirstCars(ctx: Context<unknown>, p: Project, branch: string): Promise<void> {
  for (;;) {
    const first = trainOf(ctx.state, p.id, branch)[0];
    const pipeline = first?.pipelineId == null ? undefined : pget(ctx.state.pipelines, p.id, first.pipelineId);
    if (!first || first.status !== 'fresh' || pipeline?.status !== 'success') return;
    const tip = branchTip(refsOf(ctx.state, p.id), branch);
    if (!tip || !(await standsOn(ctx, first, tip))) return;
    const mr = mergeRequestOf(ctx.state, p.id, first.mergeRequestIid);
    const user = tget(ctx.state.users, first.userId);
    if (!mr || !user) {
      abortCar(ctx, p, first, 'merge request was closed', first.userId);
      continue;
    }
    const now = ctx.now();
    const merging = putCar(ctx, fire(first, 'start_merge', now));
    try {
      const checked = await checkedMergeRequest(ctx.state, objectsOf(ctx, p), mr);
      const recipe = await acceptMergeRequest(ctx.state, objectsOf(ctx, p), p, checked, user, {
        webBase: ctx.webBase, squash: first.squash, squashCommitMessage: mr.autoMerge?.squashCommitMessage, mergeCommitMessage: mr.autoMerge?.commitMessage, removeSourceBranch: mr.autoMerge?.removeSourceBranch,
        // MergeStrategies::FromTrainRef: the target moves to the train commit itself.
        ...(first.trainSha ? { fastForwardTo: first.trainSha } : {}),
      }, now);
      ctx.update((draft) => {
        const from = draft.pendingEvents.length;
        const merged = recipe(draft);
        for (const e of draft.pendingEvents.slice(from)) if (e.actorId === undefined) e.actorId = user.id;
        const landed = branchTip(refsOf(draft as State, p.id), branch) ?? null;
        pset((draft as State).mergeTrainCars, p.id, first.id, { ...fire(merging, 'finish_merge', now, { landedSha: landed }), mergedAt: merged.mergedAt ?? now });
      });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      const message = typeof e.body === 'object' && e.body !== null && 'message' in e.body ? String((e.body as { message: unknown }).message) : 'Merge failed';
      abortCar(ctx, p, { ...merging }, `the merge could not be completed. ${message}`, first.userId);
    }
  }
}

/** The train of a target branch brought up to date: merges what may merge, rebuilds what is behind. */
export async function processTrain(ctx: Context<unknown>, p: Project, branch: string): Promise<void> {
  if (!trainsAvailable(ctx.state, p)) return;
  await mergeFirstCars(ctx, p, branch);
  await refreshTrain(ctx, p, branch);
  await mergeFirstCars(ctx, p, branch);
}

/** MergeTrains::CheckStatusService: the target moved outside the train; its first car is outdated and the refresh is due. */
export function targetMoved(ctx: Context<unknown>, p: Project, branch: string): void {
  const first = trainOf(ctx.state, p.id, branch)[0];
  if (first) outdate(ctx, first, branch, p.id);
}

/**
 * MergeTrains::Car.insert_skip_merged_car_for: a merge request merged at once past the train is
 * kept in its history as a `skip_merged` car, so the merge that moved the target outdates nothing.
 */
export function insertSkipMergedCar(ctx: Context<unknown>, p: Project, mr: MergeRequest, user: User, before: string): void {
  const now = ctx.now();
  const landed = branchTip(refsOf(ctx.state, p.id), mr.targetBranch) ?? null;
  ctx.update((draft) => {
    const car: MergeTrainCar = {
      id: ids.next(draft, 'merge_train_car'), projectId: p.id, mergeRequestIid: mr.iid, userId: user.id, targetBranch: mr.targetBranch,
      status: 'skip_merged', pipelineId: null, trainSha: before, landedSha: landed, squash: false, createdAt: now, updatedAt: now, mergedAt: now,
    };
    pset((draft as State).mergeTrainCars, p.id, car.id, car);
  });
}
