// Merge trains (Premium; ee/lib/api/merge_trains.rb, MergeTrains::Car, MergeTrains::AddMergeRequestService,
// MergeTrains::RefreshService): a project with merge pipelines and merge trains on queues the
// merge requests to a target branch as cars. Each car has a train pipeline of
// `refs/merge-requests/:iid/train`, whose commit is its merge request merged onto the target and
// the cars ahead; the first car is merged when its pipeline succeeds (a car behind that
// succeeded waits for it), a car whose pipeline fails leaves the train, and the cars behind get
// new pipelines on what is ahead of them now.
import { ApiError, badRequest, forbidden, messageError, notFound, unauthorized } from '../../core/errors.js';
import { mergeBase } from '../../git/merge-base.js';
import { mergeTrees } from '../../git/merge-trees.js';
import { bool, int, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { hasProjectRole } from '../../policy/access.js';
import { iso } from '../../render/time.js';
import { ACCESS, sequences, type Project } from '../../store/state.js';
import { emptyTable, pdel, pget, plist, pset, tdel, tget, type Partitioned } from '../../store/table.js';
import { cancelPipeline, headPipeline, pipelineBasic, runCreate } from '../ci/index.js';
import { acceptMergeRequest, canMerge, checkedMergeRequest, readableMergeRequest, type MergeRequest } from '../merge-requests/index.js';
import { projectWebUrl } from '../projects/index.js';
import { branchTip, objectsOf, refsOf, registerAdvertisedRefs } from '../repositories/index.js';
import type { StoredEvent } from '../stream.js';
import { userBasic } from '../users/index.js';
import { defineFamily, project, route, type Context, type Family } from '../define.js';
import type { State } from '../world.js';

/** MergeTrains::Car's statuses; idle, stale, fresh and merging are on the train, merged and skip_merged done. */
export type CarStatus = 'idle' | 'stale' | 'fresh' | 'merging' | 'merged' | 'skip_merged';
const ACTIVE: readonly CarStatus[] = ['idle', 'stale', 'fresh', 'merging'];

export interface MergeTrainCar {
  id: number;
  projectId: number;
  mergeRequestIid: number;
  userId: number;
  targetBranch: string;
  status: CarStatus;
  pipelineId: number | null;
  /** The train commit: the merge request merged onto the target and the cars ahead. */
  trainSha: string | null;
  /** The target's tip once this car was merged (its train commit's content, as the merge made it). */
  landedSha: string | null;
  squash: boolean;
  createdAt: number;
  updatedAt: number;
  mergedAt: number | null;
}

/** A merge request to add to its train once its head pipeline succeeds (add_to_merge_train_when_checks_pass). */
export interface WaitingAdd {
  projectId: number;
  iid: number;
  userId: number;
  /** The head it was asked for; another head (a push) drops it. */
  sha: string;
  squash: boolean;
}

export interface MergeTrainsSlice {
  /** Project id -> its merge train cars, by id. */
  mergeTrainCars: Partitioned<MergeTrainCar>;
  /** Project id -> the merge requests waiting for their head pipeline to join a train, by iid. */
  mergeTrainWaiting: Partitioned<WaitingAdd>;
}

declare module '../world.js' {
  interface Slices extends MergeTrainsSlice {}
}

const ids = sequences(['merge_train_car']);
const isActive = (c: MergeTrainCar) => ACTIVE.includes(c.status);

/** Project#merge_trains_enabled?: the licensed feature, merge pipelines and merge trains on. */
function available(state: State, p: Project): boolean {
  return state.instance.tier !== 'free' && p.settings.merge_pipelines_enabled === true && p.settings.merge_trains_enabled === true;
}

/** authorize!(:read_merge_train) and friends: Developer, where merge trains are available. */
function authorize(ctx: Context<unknown>): void {
  if (!available(ctx.state, ctx.project) || !hasProjectRole(ctx.state, ctx.user, ctx.project, ACCESS.developer, ctx.now())) throw forbidden();
}

/** The active cars of a target branch, first to last. */
function trainOf(state: State, projectId: number, branch: string): MergeTrainCar[] {
  return plist(state.mergeTrainCars, projectId).filter((c) => c.targetBranch === branch && isActive(c)).sort((a, b) => a.id - b.id);
}

/** The car of a merge request: its active one, else its latest. */
function carOf(state: State, projectId: number, iid: number): MergeTrainCar | undefined {
  const all = plist(state.mergeTrainCars, projectId).filter((c) => c.mergeRequestIid === iid).sort((a, b) => b.id - a.id);
  return all.find(isActive) ?? all[0];
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
    duration: car.mergedAt === null ? null : Math.round((car.mergedAt - car.createdAt) / 1000),
  };
}

function putCar(ctx: Context<unknown>, car: MergeTrainCar, extra?: (draft: State) => void): MergeTrainCar {
  return ctx.update((draft) => {
    pset((draft as State).mergeTrainCars, car.projectId, car.id, car);
    extra?.(draft as State);
    return car;
  });
}

function dropCar(ctx: Context<unknown>, car: MergeTrainCar): void {
  ctx.update((draft) => void pdel((draft as State).mergeTrainCars, car.projectId, car.id));
}

/** The merge request's source head merged onto `base`; null on a conflict or a missing branch. */
async function trainCommit(ctx: Context<unknown>, p: Project, mr: MergeRequest, base: string): Promise<string | null> {
  const repo = objectsOf(ctx, p);
  const head = branchTip(refsOf(ctx.state, p.id), mr.sourceBranch);
  if (!head) return null;
  const mb = await mergeBase(repo, head, [base]);
  const tree = mb === null ? null : await mergeTrees(repo, mb, base, head);
  if (tree === null) return null;
  const user = tget(ctx.state.users, mr.authorId);
  const who = { name: user?.name ?? 'GitLab', email: user?.email ?? 'noreply@gitlab.example.com', timestamp: Math.floor(ctx.now() / 1000), offset: 0 };
  const message = `Merge branch '${mr.sourceBranch}' into '${mr.targetBranch}'\n\n${mr.title}\n\nSee merge request !${mr.iid}`;
  return repo.writeCommit({ tree, parents: [base, head], author: who, committer: who, message });
}

/** MergeRequest#diff_head_pipeline: the newer of its source branch's and its own pipelines of the head. */
function diffHeadPipeline(state: State, mr: MergeRequest) {
  const branch = headPipeline(state, mr.projectId, mr.sourceBranch, mr.sha);
  const detached = headPipeline(state, mr.projectId, `refs/merge-requests/${mr.iid}/head`, mr.sha);
  if (!branch || !detached) return branch ?? detached;
  return detached.id > branch.id ? detached : branch;
}

const IN_PROGRESS = ['created', 'waiting_for_resource', 'preparing', 'waiting_for_callback', 'pending', 'running', 'canceling'];

/** A new car at the end of the merge request's train (its pipeline made by the refresh that follows). */
function addCar(ctx: Context<unknown>, mr: MergeRequest, userId: number, squash: boolean): MergeTrainCar {
  const now = ctx.now();
  return ctx.update((draft) => {
    const car: MergeTrainCar = {
      id: ids.next(draft, 'merge_train_car'), projectId: mr.projectId, mergeRequestIid: mr.iid, userId, targetBranch: mr.targetBranch,
      status: 'idle', pipelineId: null, trainSha: null, landedSha: null, squash, createdAt: now, updatedAt: now, mergedAt: null,
    };
    pset((draft as State).mergeTrainCars, car.projectId, car.id, car);
    return car;
  });
}

/** Whether a car's train commit still stands on `base` (or on a merged car's train commit that landed as `base`). */
async function standsOn(ctx: Context<unknown>, car: MergeTrainCar, base: string): Promise<boolean> {
  if (car.trainSha === null || car.pipelineId === null) return false;
  const parent = (await objectsOf(ctx, { id: car.projectId }).readCommit(car.trainSha)).parents[0];
  if (parent === base) return true;
  return plist(ctx.state.mergeTrainCars, car.projectId).some((c) => c.status === 'merged' && c.trainSha === parent && c.landedSha === base);
}

/**
 * MergeTrains::RefreshService: from the target's tip, each car whose train commit no longer
 * stands on what is ahead of it gets a new one and a new pipeline (the old one canceled); a car
 * whose merge request is no longer open, or cannot be merged onto the train, leaves it.
 */
async function refreshTrain(ctx: Context<unknown>, p: Project, branch: string): Promise<void> {
  let base = branchTip(refsOf(ctx.state, p.id), branch);
  for (const stale of trainOf(ctx.state, p.id, branch)) {
    const car = pget(ctx.state.mergeTrainCars, p.id, stale.id)!;
    const mr = pget(ctx.state.mergeRequests, p.id, car.mergeRequestIid) as MergeRequest | undefined;
    if (!base || !mr || mr.state !== 'opened') {
      dropCar(ctx, car);
      continue;
    }
    if (await standsOn(ctx, car, base)) {
      base = car.trainSha!;
      continue;
    }
    const sha = await trainCommit(ctx, p, mr, base);
    const made = sha === null ? undefined : (await runCreate(ctx, {
      project: p, userId: car.userId, source: 'merge_request_event', ref: `refs/merge-requests/${mr.iid}/train`, sha, mergeRequestIid: mr.iid,
    })).pipeline;
    if (!made || sha === null) {
      dropCar(ctx, car);
      continue;
    }
    const old = car.pipelineId === null ? undefined : pget(ctx.state.pipelines, p.id, car.pipelineId);
    const now = ctx.now();
    putCar(ctx, { ...car, trainSha: sha, pipelineId: made.id, status: 'fresh', updatedAt: now }, (draft) => {
      if (old && !['success', 'failed', 'canceled', 'skipped'].includes(old.status)) cancelPipeline(old, now)(draft);
    });
    base = sha;
  }
}

/** The first cars whose pipelines succeeded are merged, in order, as the users who added them. */
async function advanceTrain(ctx: Context<unknown>, p: Project, branch: string): Promise<void> {
  for (;;) {
    const first = trainOf(ctx.state, p.id, branch)[0];
    const pipeline = first?.pipelineId == null ? undefined : pget(ctx.state.pipelines, p.id, first.pipelineId);
    if (!first || pipeline?.status !== 'success') break;
    // Still on the target as it is now (a push to the target since makes a new pipeline instead).
    const tip = branchTip(refsOf(ctx.state, p.id), branch);
    if (!tip || !(await standsOn(ctx, first, tip))) break;
    const mr = pget(ctx.state.mergeRequests, p.id, first.mergeRequestIid) as MergeRequest | undefined;
    const user = tget(ctx.state.users, first.userId);
    if (!mr || !user) {
      dropCar(ctx, first);
      continue;
    }
    const now = ctx.now();
    try {
      const checked = await checkedMergeRequest(ctx.state, objectsOf(ctx, p), mr);
      const recipe = await acceptMergeRequest(ctx.state, objectsOf(ctx, p), p, checked, user, {}, now);
      ctx.update((draft) => {
        const from = draft.pendingEvents.length;
        const merged = recipe(draft);
        for (const e of draft.pendingEvents.slice(from)) if (e.actorId === undefined) e.actorId = user.id;
        const landed = branchTip(refsOf(draft as State, p.id), branch) ?? null;
        pset((draft as State).mergeTrainCars, p.id, first.id, { ...first, status: 'merged', mergedAt: merged.mergedAt ?? now, landedSha: landed, updatedAt: now });
      });
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      dropCar(ctx, first);
    }
  }
  await refreshTrain(ctx, p, branch);
}

/** A train pipeline's end: success moves the train on; a pipeline that did not succeed takes its car off the train. */
async function onPipelineStatus(ctx: Context<unknown>, event: StoredEvent<'pipeline.status'>): Promise<void> {
  if (event.status === 'success') await addWaiting(ctx, event);
  const car = plist(ctx.state.mergeTrainCars, event.projectId).find((c) => c.pipelineId === event.pipelineId && isActive(c));
  const p = tget(ctx.state.projects, event.projectId);
  if (!car || !p) return;
  if (event.status === 'success') return advanceTrain(ctx, p, car.targetBranch);
  if (!['failed', 'canceled', 'skipped'].includes(event.status)) return;
  dropCar(ctx, car);
  await advanceTrain(ctx, p, car.targetBranch);
}

/** The merge requests waiting for this pipeline, their head's, join their trains. */
async function addWaiting(ctx: Context<unknown>, event: StoredEvent<'pipeline.status'>): Promise<void> {
  const p = tget(ctx.state.projects, event.projectId);
  if (!p) return;
  for (const w of plist(ctx.state.mergeTrainWaiting, p.id)) {
    const mr = pget(ctx.state.mergeRequests, p.id, w.iid) as MergeRequest | undefined;
    if (!mr || diffHeadPipeline(ctx.state, mr)?.id !== event.pipelineId) continue;
    ctx.update((draft) => void pdel((draft as State).mergeTrainWaiting, p.id, w.iid));
    if (mr.state !== 'opened' || mr.sha !== w.sha || !available(ctx.state, p)) continue;
    addCar(ctx, mr, w.userId, w.squash);
    await refreshTrain(ctx, p, mr.targetBranch);
  }
}

/** Waiting adds of a merge request dropped (a push of another head, the merge request closed). */
function dropWaiting(ctx: Context<unknown>, projectId: number, keep: (w: WaitingAdd) => boolean): void {
  const gone = plist(ctx.state.mergeTrainWaiting, projectId).filter((w) => !keep(w));
  if (gone.length) ctx.update((draft) => { for (const w of gone) pdel((draft as State).mergeTrainWaiting, projectId, w.iid); });
}

/**
 * A push: a car whose source branch moved leaves the train (its train commit no longer has the
 * merge request's head), and a train whose target moved is rebuilt on the new tip.
 */
async function onPush(ctx: Context<unknown>, push: StoredEvent<'push'>): Promise<void> {
  const p = tget(ctx.state.projects, push.projectId);
  if (!p || push.refType !== 'branch') return;
  dropWaiting(ctx, p.id, (w) => (pget(ctx.state.mergeRequests, p.id, w.iid) as MergeRequest | undefined)?.sourceBranch !== push.ref || push.after === w.sha);
  const cars = plist(ctx.state.mergeTrainCars, p.id).filter(isActive);
  if (cars.length === 0) return;
  const branches = new Set<string>();
  for (const car of cars) {
    const mr = pget(ctx.state.mergeRequests, p.id, car.mergeRequestIid) as MergeRequest | undefined;
    if (car.targetBranch === push.ref) branches.add(car.targetBranch);
    if (mr?.sourceBranch === push.ref) {
      dropCar(ctx, car);
      branches.add(car.targetBranch);
    }
  }
  for (const branch of branches) await refreshTrain(ctx, p, branch);
}

/** A merge request closed while on a train leaves it (AutoMerge's abort), and the cars behind it are rebuilt. */
async function onClosed(ctx: Context<unknown>, e: StoredEvent<'merge_request.closed'>): Promise<void> {
  const p = tget(ctx.state.projects, e.projectId);
  dropWaiting(ctx, e.projectId, (w) => w.iid !== e.iid);
  const car = plist(ctx.state.mergeTrainCars, e.projectId).find((c) => c.mergeRequestIid === e.iid && isActive(c));
  if (!p || !car) return;
  dropCar(ctx, car);
  await refreshTrain(ctx, p, car.targetBranch);
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
        const squash = ctx.params.squash ?? false;
        const train = () => plist(ctx.state.mergeTrainCars, ctx.project.id).filter((c) => c.targetBranch === mr.targetBranch).sort((a, b) => b.id - a.id);
        // add_to_merge_train_when_checks_pass: asked to wait, while the head pipeline runs; 202 and the train as it is.
        const head = diffHeadPipeline(ctx.state, mr);
        if ((ctx.params.auto_merge || ctx.params.when_pipeline_succeeds) && head && IN_PROGRESS.includes(head.status)) {
          ctx.update((draft) => void pset((draft as State).mergeTrainWaiting, ctx.project.id, mr.iid, { projectId: ctx.project.id, iid: mr.iid, userId: ctx.user!.id, sha: mr.sha, squash }));
          return json(ctx.paginate(train()).map((c) => carEntity(ctx, c)), 202);
        }
        const stored = addCar(ctx, mr, ctx.user!.id, squash);
        await refreshTrain(ctx, ctx.project, mr.targetBranch);
        const made = pget(ctx.state.mergeTrainCars, ctx.project.id, stored.id);
        if (!made) throw badRequest('Failed to merge');
        // The whole train of the target branch, as the cars finder lists it.
        return json(ctx.paginate(train()).map((c) => carEntity(ctx, c)), 201);
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
  on: { 'pipeline.status': onPipelineStatus, push: onPush, 'merge_request.closed': onClosed },
  forget: {
    project: (draft, id) => {
      tdel((draft as State).mergeTrainCars, id);
      tdel((draft as State).mergeTrainWaiting, id);
    },
  },
});

// refs/merge-requests/<iid>/train: the train commit of each car on a train.
registerAdvertisedRefs(function* (state, projectId) {
  for (const car of plist(state.mergeTrainCars, projectId)) {
    if (isActive(car) && car.trainSha) yield { name: `refs/merge-requests/${car.mergeRequestIid}/train`, oid: car.trainSha };
  }
});
