// Merge trains (Premium; ee/lib/api/merge_trains.rb, MergeTrains::Car, MergeTrains::AddMergeRequestService,
// MergeTrains::RefreshService, AutoMerge::MergeTrainService): a project with merge pipelines and
// merge trains on queues the merge requests to a target branch as cars. Each car has a train
// pipeline of `refs/merge-requests/:iid/train`, whose commit is its merge request (squashed when
// the car squashes) merged onto the target and the cars ahead; the first car is merged when its
// pipeline succeeds, a car whose pipeline fails leaves the train, and the cars behind are rebuilt
// on what is ahead of them now. The merge request API sees the train as an auto-merge strategy:
// set by `PUT .../merge` with auto-merge, cancelled by `cancel_merge_when_pipeline_succeeds`.
import { badRequest, forbidden, messageError, notFound, unauthorized } from '../../core/errors.js';
import { bool, int, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { iso } from '../../render/time.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { emptyTable, pdel, pget, plist, tdel, tget } from '../../store/table.js';
import { pipelineBasic } from '../ci/index.js';
import {
  canMerge, readableMergeRequest, registerTrainStrategies, saveMergeRequestFields, squashOnMerge, type MergeRequest, type TrainStrategy,
} from '../merge-requests/index.js';
import { projectWebUrl } from '../projects/index.js';
import { registerAdvertisedRefs } from '../repositories/index.js';
import type { StoredEvent } from '../stream.js';
import { userBasic } from '../users/index.js';
import { defineFamily, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';
import { isActive, type MergeTrainCar } from './car.js';
import type { MergeTrainsSlice } from './store.js';
import {
  abortCar, addCar, addWhenChecksPass, addWhenChecksPassAvailable, cancelCar, carOf, diffHeadPipeline, dropWaiting, insertSkipMergedCar, mergeTrainAvailable, processTrain,
  REFRESH_TRAIN, targetMoved, trainsAvailable,
} from './train.js';

export type { CarStatus, MergeTrainCar } from './car.js';
export type { MergeTrainsSlice, WaitingAdd } from './store.js';

/** authorize!(:read_merge_train) and friends: Developer, where merge trains are available. */
function authorize(ctx: Context<unknown>): void {
  if (!trainsAvailable(ctx.state, ctx.project) || !hasProjectRole(ctx.state, ctx.user, ctx.project, ACCESS.developer, ctx.now())) throw forbidden();
}

/** API::Entities::MergeTrains::Car. */
function carEntity(ctx: Context<unknown>, car: MergeTrainCar) {
  const state = ctx.state;
  const p = tget(state.projects, car.projectId)!;
  const mr = pget(state.mergeRequests, car.projectId, car.mergeRequestIid) as MergeRequest;
  const user = tget(state.users, car.userId);
  const pipeline = car.pipelineId === null ? undefined : pget(state.pipelines, car.projectId, car.pipelineId);
  return {
    id: car.id,
    merge_request: {
      id: mr.id, iid: mr.iid, project_id: mr.projectId, title: mr.title, description: mr.description, state: mr.state,
      created_at: iso(mr.createdAt), updated_at: iso(mr.updatedAt), web_url: `${projectWebUrl(state, p, ctx)}/-/merge_requests/${mr.iid}`,
    },
    user: user ? userBasic(user, ctx) : null,
    pipeline: pipeline ? pipelineBasic(state, pipeline, ctx) : null,
    created_at: iso(car.createdAt),
    updated_at: iso(car.updatedAt),
    target_branch: car.targetBranch,
    status: car.status,
    merged_at: iso(car.mergedAt),
    // Set on reaching `merged` (a skip_merged car is recorded merged, with none).
    duration: car.status !== 'merged' || car.mergedAt === null ? null : Math.round((car.mergedAt - car.createdAt) / 1000),
  };
}


/** A train pipeline's end: success moves the train on; a pipeline that did not succeed takes its car off the train. */
async function onPipelineStatus(ctx: Context<unknown>, event: StoredEvent<'pipeline.status'>): Promise<void> {
  if (event.status === 'success') await addWaiting(ctx, event);
  const car = plist(ctx.state.mergeTrainCars, event.projectId).find((c) => c.pipelineId === event.pipelineId && isActive(c));
  const p = tget(ctx.state.projects, event.projectId);
  if (!car || !p) return;
  if (event.status === 'success') return processTrain(ctx, p, car.targetBranch);
  if (['failed', 'canceled', 'skipped'].includes(event.status) && car.status === 'fresh') abortCar(ctx, p, car, 'pipeline did not succeed', car.userId);
}

/** AddToMergeTrainWhenChecksPassService#process: the merge requests waiting for this pipeline, their head's, join their trains. */
async function addWaiting(ctx: Context<unknown>, event: StoredEvent<'pipeline.status'>): Promise<void> {
  const p = tget(ctx.state.projects, event.projectId);
  if (!p) return;
  for (const w of plist(ctx.state.mergeTrainWaiting, p.id)) {
    const mr = pget(ctx.state.mergeRequests, p.id, w.iid) as MergeRequest | undefined;
    const user = tget(ctx.state.users, w.userId);
    if (!mr || diffHeadPipeline(ctx.state, mr)?.id !== event.pipelineId) continue;
    ctx.update((draft) => void pdel((draft as State).mergeTrainWaiting, p.id, w.iid));
    if (!user || mr.state !== 'opened' || mr.sha !== w.sha || !trainsAvailable(ctx.state, p)) continue;
    const auto = mr.autoMerge;
    addCar(ctx, p, mr, user, w.squash, { commitMessage: auto?.commitMessage, squashCommitMessage: auto?.squashCommitMessage, removeSourceBranch: auto?.removeSourceBranch });
    await processTrain(ctx, p, mr.targetBranch);
  }
}

/**
 * A push: a car whose source branch moved leaves the train (`source branch was updated`), as does
 * a waiting add; a push to a target branch that no merge of its train made (CheckStatusService)
 * outdates its first car, and the train's refresh is due.
 */
async function onPush(ctx: Context<unknown>, push: StoredEvent<'push'>): Promise<void> {
  const p = tget(ctx.state.projects, push.projectId);
  if (!p || push.refType !== 'branch') return;
  const pusher = push.actorId;
  for (const w of plist(ctx.state.mergeTrainWaiting, p.id)) {
    const mr = pget(ctx.state.mergeRequests, p.id, w.iid) as MergeRequest | undefined;
    if (mr?.sourceBranch === push.ref && push.after !== w.sha) dropWaiting(ctx, p, w, pusher ?? w.userId, 'source branch was updated');
  }
  for (const listed of plist(ctx.state.mergeTrainCars, p.id).filter(isActive)) {
    const car = pget(ctx.state.mergeTrainCars, p.id, listed.id);
    const mr = car ? (pget(ctx.state.mergeRequests, p.id, car.mergeRequestIid) as MergeRequest | undefined) : undefined;
    if (car && isActive(car) && mr?.sourceBranch === push.ref) abortCar(ctx, p, car, 'source branch was updated', pusher ?? car.userId);
  }
  const own = plist(ctx.state.mergeTrainCars, p.id).some((c) => c.targetBranch === push.ref && (c.status === 'merged' || c.status === 'skip_merged') && c.landedSha === push.after);
  if (!own && trainsAvailable(ctx.state, p)) targetMoved(ctx, p, push.ref);
}

/** A merge request closed while on a train, or waiting for one, leaves it (AutoMergeService#abort); the car behind is outdated. */
function onClosed(ctx: Context<unknown>, e: StoredEvent<'merge_request.closed'>): void {
  const p = tget(ctx.state.projects, e.projectId);
  if (!p) return;
  const w = pget(ctx.state.mergeTrainWaiting, e.projectId, e.iid);
  if (w) dropWaiting(ctx, p, w, e.actorId ?? w.userId, 'merge request was closed');
  const car = plist(ctx.state.mergeTrainCars, e.projectId).find((c) => c.mergeRequestIid === e.iid && isActive(c));
  if (car) abortCar(ctx, p, car, 'merge request was closed', e.actorId ?? car.userId);
}

/** The RefreshWorker's turn: the train brought up to date. */
async function onRefresh(ctx: Context<unknown>, e: StoredEvent<'merge_train.refresh'>): Promise<void> {
  const p = tget(ctx.state.projects, e.projectId);
  if (p) await processTrain(ctx, p, e.targetBranch);
}

interface AddInput {
  squash?: boolean;
  commitMessage?: string;
  squashCommitMessage?: string;
  removeSourceBranch?: boolean;
}

/**
 * MergeTrains::AddMergeRequestService#select_strategy: asked to wait (`auto_merge`) while the head
 * pipeline runs, the merge request waits for it (add_to_merge_train_when_checks_pass); with a
 * complete head pipeline it joins the train (merge_train) and the train is refreshed; else no
 * strategy is available.
 */
async function addToTrain(ctx: Context<unknown>, p: Project, mr: MergeRequest, user: User, input: AddInput, autoMerge: boolean): Promise<{ kind: 'waiting' | 'added' | 'failed' | 'unavailable'; answer: MergeTrainCar[] }> {
  const squash = squashOnMerge(p, input.squash ?? mr.squash);
  const head = diffHeadPipeline(ctx.state, mr);
  const rest = { commitMessage: input.commitMessage, squashCommitMessage: input.squashCommitMessage, removeSourceBranch: input.removeSourceBranch };
  // The cars of the target branch as the answer lists them (MergeTrains::CarsFinder), newest first.
  const cars = () => plist(ctx.state.mergeTrainCars, p.id).filter((c) => c.targetBranch === mr.targetBranch).sort((a, b) => b.id - a.id);
  // `squash: true` is kept on the merge request (AddMergeRequestService#execute).
  const keepSquash = () => {
    if (input.squash === true && !mr.squash) ctx.update((draft) => void saveMergeRequestFields(draft, p, mr, { squash: true }));
  };
  if (autoMerge && addWhenChecksPassAvailable(head)) {
    keepSquash();
    addWhenChecksPass(ctx, p, mr, user, squash, rest);
    return { kind: 'waiting', answer: cars() };
  }
  if (!mergeTrainAvailable(p, head)) return { kind: 'unavailable', answer: [] };
  keepSquash();
  const car = addCar(ctx, p, mr, user, squash, rest);
  // As the answer shows them: the new car `idle`, before the refresh that makes its pipeline.
  const answer = cars();
  await processTrain(ctx, p, mr.targetBranch);
  return { kind: pget(ctx.state.mergeTrainCars, p.id, car.id) ? 'added' : 'failed', answer };
}

const LIST = { scope: str().values(['active', 'complete']), sort: str().values(['asc', 'desc']).default('desc') };
const IID = { merge_request_iid: int().required() };

function listed(ctx: Context<unknown>, cars: MergeTrainCar[], scope: string | undefined, sort: string): Reply {
  const picked = cars
    .filter((c) => scope === undefined || (scope === 'active' ? isActive(c) : !isActive(c)))
    .sort((a, b) => (sort === 'asc' ? a.id - b.id : b.id - a.id));
  return json(ctx.paginate(picked).map((c) => carEntity(ctx, c)));
}

function foundMergeRequest(ctx: Context<unknown>, iid: number): MergeRequest {
  const mr = readableMergeRequest(ctx.state, ctx.user, ctx.project, iid, ctx.now());
  if (!mr) throw notFound('Merge Request');
  return mr;
}

export const mergeTrains: Family<MergeTrainsSlice> = defineFamily({
  name: 'merge-trains',
  state: () => ({ mergeTrainCars: emptyTable(), mergeTrainWaiting: emptyTable() }),
  tasks: [REFRESH_TRAIN],
  routes: [
    route({
      method: 'GET', path: '/projects/:id/merge_trains', auth: 'user', tier: 'premium', scope: project(), paginated: true, params: LIST,
      handler: (ctx): Reply => {
        authorize(ctx);
        return listed(ctx, plist(ctx.state.mergeTrainCars, ctx.project.id), ctx.params.scope, ctx.params.sort);
      },
    }),
    route({
      method: 'GET', path: '/projects/:id/merge_trains/merge_requests/:merge_request_iid', auth: 'user', tier: 'premium', scope: project(), params: IID,
      handler: (ctx): Reply => {
        authorize(ctx);
        const mr = foundMergeRequest(ctx, ctx.params.merge_request_iid);
        const car = carOf(ctx.state, ctx.project.id, mr.iid);
        if (!car) throw notFound('Merge Train Merge Request');
        return json(carEntity(ctx, car));
      },
    }),
    route({
      method: 'POST', path: '/projects/:id/merge_trains/merge_requests/:merge_request_iid', auth: 'user', tier: 'premium', scope: project(),
      params: { ...IID, auto_merge: bool(), sha: str(), squash: bool(), when_pipeline_succeeds: bool() },
      handler: async (ctx): Promise<Reply> => {
        authorize(ctx);
        const mr = foundMergeRequest(ctx, ctx.params.merge_request_iid);
        // check_sha_param!, then MergeTrains::AddMergeRequestService: who may merge it, not set to merge already
        // (a merge request on a train is), and a merge train strategy its state allows.
        if (ctx.params.sha !== undefined && ctx.params.sha !== mr.sha) throw messageError(409, `SHA does not match HEAD of source branch: ${mr.sha}`);
        if (!canMerge(ctx.state, ctx.user, ctx.project, mr.targetBranch, ctx.now())) throw unauthorized();
        const existing = carOf(ctx.state, ctx.project.id, mr.iid);
        const waiting = pget(ctx.state.mergeTrainWaiting, ctx.project.id, mr.iid);
        if (mr.autoMerge || waiting || (existing && isActive(existing))) throw badRequest('Merge request is already set to Auto-Merge');
        if (mr.state !== 'opened' || mr.draft) throw badRequest('No available merge train strategy');
        const wait = ctx.params.auto_merge === true || ctx.params.when_pipeline_succeeds === true;
        const made = await addToTrain(ctx, ctx.project, mr, ctx.user!, { squash: ctx.params.squash }, wait);
        const page = ctx.paginate(made.answer).map((c) => carEntity(ctx, c));
        // 202 and the train as it is while the head pipeline runs.
        if (made.kind === 'waiting') return json(page, 202);
        if (made.kind === 'unavailable') throw badRequest('No available merge train strategy');
        // No train pipeline could be made (no CI file, no job for it, a conflict): nothing of the add is kept.
        if (made.kind === 'failed') throw badRequest('Failed to merge');
        return json(page, 201);
      },
    }),
    route({
      method: 'GET', path: '/projects/:id/merge_trains/:target_branch', auth: 'user', tier: 'premium', scope: project(), paginated: true,
      params: { target_branch: str().required(), ...LIST },
      handler: (ctx): Reply => {
        authorize(ctx);
        const cars = plist(ctx.state.mergeTrainCars, ctx.project.id).filter((c) => c.targetBranch === ctx.params.target_branch);
        return listed(ctx, cars, ctx.params.scope, ctx.params.sort);
      },
    }),
  ],
  on: { 'pipeline.status': onPipelineStatus, push: onPush, 'merge_request.closed': onClosed, 'merge_train.refresh': onRefresh },
  forget: {
    project: (draft, id) => {
      tdel((draft as State).mergeTrainCars, id);
      tdel((draft as State).mergeTrainWaiting, id);
    },
  },
});

/** AutoMergeService#preferred_strategy among the merge train strategies (EE's STRATEGIES): the train once the head pipeline is complete, the wait while it runs. */
function preferredStrategy(state: State, mr: MergeRequest, user: User, now: number): TrainStrategy | null {
  const p = tget(state.projects, mr.projectId);
  if (!p || !trainsAvailable(state, p) || mr.state !== 'opened' || mr.draft || !canMerge(state, user, p, mr.targetBranch, now)) return null;
  const head = diffHeadPipeline(state, mr);
  if (mergeTrainAvailable(p, head)) return 'merge_train';
  return addWhenChecksPassAvailable(head) ? 'add_to_merge_train_when_checks_pass' : null;
}

// The merge request API's auto-merge, where a project's merge trains are on.
registerTrainStrategies({
  preferred: preferredStrategy,
  async execute(ctx, mr, user, input) {
    const p = tget(ctx.state.projects, mr.projectId);
    if (!p || !trainsAvailable(ctx.state, p) || mr.state !== 'opened' || mr.draft || !canMerge(ctx.state, user, p, mr.targetBranch, ctx.now())) return null;
    const strategy = preferredStrategy(ctx.state, mr, user, ctx.now());
    if (!mr.autoMerge && strategy === null) return null;
    if (input.sha !== undefined && input.sha !== mr.sha) throw messageError(409, `SHA does not match HEAD of source branch: ${mr.sha}`);
    // Set already: left as it is (AutoMergeService#update).
    if (mr.autoMerge) return mr;
    await addToTrain(ctx, p, mr, user, input, strategy === 'add_to_merge_train_when_checks_pass');
    return pget(ctx.state.mergeRequests, p.id, mr.iid) as MergeRequest;
  },
  async cancel(ctx, mr, user) {
    const p = tget(ctx.state.projects, mr.projectId)!;
    const w = pget(ctx.state.mergeTrainWaiting, p.id, mr.iid);
    if (w) dropWaiting(ctx, p, w, user.id, null);
    const car = plist(ctx.state.mergeTrainCars, p.id).find((c) => c.mergeRequestIid === mr.iid && isActive(c));
    if (car) cancelCar(ctx, p, car, user);
  },
  skipped(ctx, mr, user, before) {
    const p = tget(ctx.state.projects, mr.projectId);
    if (!p || !trainsAvailable(ctx.state, p) || p.settings.merge_trains_skip_train_allowed !== true) return;
    // Its own car, if it had one, is off the train (merged past it): the car behind is rebuilt.
    const own = plist(ctx.state.mergeTrainCars, p.id).find((c) => c.mergeRequestIid === mr.iid && isActive(c));
    if (own) abortCar(ctx, p, own, null, user.id);
    insertSkipMergedCar(ctx, p, mr, user, before);
  },
});

// refs/merge-requests/<iid>/train: the train commit of each car on a train.
registerAdvertisedRefs(function* (state, projectId) {
  for (const car of plist(state.mergeTrainCars, projectId)) {
    if (isActive(car) && car.trainSha) yield { name: `refs/merge-requests/${car.mergeRequestIid}/train`, oid: car.trainSha };
  }
});
