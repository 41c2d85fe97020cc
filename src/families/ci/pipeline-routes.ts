// Creating pipelines (lib/api/ci/pipelines.rb's POST /projects/:id/pipeline, lib/api/merge_requests.rb's
// merge request pipelines, app/services/merge_requests/create_pipeline_service.rb), and the
// pipelines GitLab makes by itself: on a push of a branch or tag (`[ci skip]`, `-o ci.skip`), and
// for a merge request when it is opened or its source branch moves.
import { forbidden, notAllowed, notFound, validationFailed } from '../../core/errors.js';
import { arr, hash, int, str } from '../../http/params.js';
import { json, type Reply } from '../../http/route.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { hasProjectRole, canUseFeature } from '../../policy/access.js';
import { pget, tentries, tget } from '../../store/table.js';
import { readableMergeRequest, type MergeRequest } from '../merge-requests/index.js';
import type { PushChange, StoredEvent } from '../stream.js';
import { plain, project, route, type Context } from '../define.js';
import type { State } from '../world.js';
import { pipelineBasic, pipelineEntity } from './job-entity.js';
import { canReadBuilds, projectPipelines } from './pipelines.js';
import { preparePipeline, type PipelineRequest } from './create-service.js';
import type { Pipeline, PipelineVariable } from './records.js';

/** `create_pipeline`: developers and above, where CI/CD is enabled. */
export function canCreatePipeline(state: State, user: User | null, p: Project, now: number): boolean {
  return hasProjectRole(state, user, p, ACCESS.developer, now) && canUseFeature(state, user, p, 'builds', now);
}

/** Works out and stores a pipeline in a request; GitLab's errors when there is none. */
export async function runCreate(ctx: Context<unknown>, req: PipelineRequest): Promise<{ pipeline?: Pipeline; errors: string[] }> {
  const outcome = await preparePipeline({ state: ctx.state, now: ctx.now(), webBase: ctx.webBase, repo: ctx.env.git.repository(req.project.id) }, req);
  const pipeline = outcome.change ? ctx.update((draft) => plain(outcome.change!(draft))) : undefined;
  return { pipeline, errors: outcome.ok ? [] : outcome.errors };
}

const VARIABLE_TYPES = ['env_var', 'file'] as const;

/** `variables` as the API takes them (key, value, variable_type). */
export function pipelineVariables(list: { key?: string; value?: string; variable_type?: 'env_var' | 'file' }[] | undefined): PipelineVariable[] {
  return (list ?? []).filter((v) => v.key !== undefined && v.key !== '').map((v) => ({ key: v.key!, value: v.value ?? '', variableType: v.variable_type ?? 'env_var' }));
}

/** render_validation_error! of a pipeline: 400 with its errors under `base`. */
const refused = (errors: string[]) => validationFailed({ base: errors });

/** MergeRequest#all_pipelines: its own pipelines and its source branch's. */
function mergeRequestPipelines(state: State, mr: MergeRequest) {
  return [...projectPipelines(state, mr.projectId)].filter((p) => p.mergeRequestIid === mr.iid || (p.ref === mr.sourceBranch && !p.tag && p.mergeRequestIid === null && p.parentId === null));
}

/** A merge request pipeline request (detached: the source branch's head, `refs/merge-requests/:iid/head`). */
const mergeRequestRequest = (p: Project, mr: MergeRequest, userId: number): PipelineRequest => ({
  project: p, userId, source: 'merge_request_event', ref: `refs/merge-requests/${mr.iid}/head`, sha: mr.sha, mergeRequestIid: mr.iid,
});

export const pipelineCreationRoutes = [
  route({
    method: 'POST',
    path: '/projects/:id/pipeline',
    auth: 'user',
    scope: project(canReadBuilds),
    params: {
      ref: str().required(),
      variables: arr(hash({ key: str(), value: str(), variable_type: str().values(VARIABLE_TYPES).default('env_var') })),
      inputs: hash(),
    },
    handler: async (ctx): Promise<Reply> => {
      if (!canCreatePipeline(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      const made = await runCreate(ctx, {
        project: ctx.project, userId: ctx.user!.id, source: 'api', ref: ctx.params.ref, variables: pipelineVariables(ctx.params.variables), inputs: ctx.params.inputs,
      });
      if (!made.pipeline) throw refused(made.errors);
      return json(pipelineEntity(ctx.state, made.pipeline, ctx, ctx.now()), 201);
    },
  }),
  route({
    method: 'GET',
    path: '/projects/:id/merge_requests/:merge_request_iid/pipelines',
    auth: 'public',
    scope: project(),
    paginated: true,
    params: { merge_request_iid: int().required() },
    handler: (ctx): Reply => {
      const mr = readableMergeRequest(ctx.state, ctx.user, ctx.project, ctx.params.merge_request_iid, ctx.now());
      if (!mr) throw notFound();
      if (!canReadBuilds(ctx.state, ctx.user, ctx.project, ctx.now())) throw forbidden();
      return json(ctx.paginate(mergeRequestPipelines(ctx.state, mr)).map((p) => pipelineBasic(ctx.state, p, ctx)));
    },
  }),
  route({
    method: 'POST',
    path: '/projects/:id/merge_requests/:merge_request_iid/pipelines',
    auth: 'user',
    scope: project(),
    params: { merge_request_iid: int().required() },
    handler: async (ctx): Promise<Reply> => {
      const mr = readableMergeRequest(ctx.state, ctx.user, ctx.project, ctx.params.merge_request_iid, ctx.now());
      if (!mr) throw notFound();
      // MergeRequests::CreatePipelineService#can_create_pipeline_for?: else nil, and the API's 405.
      if (!canCreatePipeline(ctx.state, ctx.user, ctx.project, ctx.now()) || mr.state !== 'opened') throw notAllowed();
      const made = await runCreate(ctx, mergeRequestRequest(ctx.project, mr, ctx.user!.id));
      if (!made.pipeline) throw refused(made.errors);
      return json(pipelineEntity(ctx.state, made.pipeline, ctx, ctx.now()), 200);
    },
  }),
];

/** The open merge requests from a branch (the merge request family's index of them). */
function openFrom(state: State, projectId: number, branch: string): MergeRequest[] {
  const iids = tget(state.openMergeRequestBranches, `${projectId}|s:${branch}`);
  if (!iids) return [];
  return [...tentries(iids)].map(([iid]) => pget(state.mergeRequests, projectId, Number(iid))).filter((m): m is MergeRequest => !!m && m.state === 'opened');
}

/** What a push's options asked of its pipelines (`-o ci.skip`, `-o ci.variable="K=V"`), by `<project>:<ref>:<sha>`, until the push settles. */
const pushAsked = new WeakMap<object, Map<string, { skip: boolean; variables: PipelineVariable[] }>>();

/**
 * Gitlab::PushOptions' `ci` namespace as `Git::BaseHooksService#pipeline_options` reads it:
 * `ci.skip` (PostReceive also takes `ci-skip`), and each distinct `ci.variable=KEY=VALUE` (split
 * at the first `=`; one without a key or without `=` is dropped; a later one of a key wins).
 */
export function ciPushOptions(options: readonly string[]): { skip: boolean; variables: PipelineVariable[] } {
  let skip = false;
  const variables = new Map<string, string>();
  for (const option of options) {
    if (option === 'ci-skip') skip = true;
    const m = /^([^.]+)\.([^=]+)=?(.*)$/s.exec(option);
    if (!m || m[1]!.trim() !== 'ci') continue;
    const key = m[2]!.trim();
    const value = m[3]!.trim();
    if (key === 'skip') skip = true;
    if (key !== 'variable' || value === '') continue;
    const at = value.indexOf('=');
    if (at < 0) continue;
    const name = value.slice(0, at);
    if (name.trim() === '') continue;
    variables.set(name, value.slice(at + 1));
  }
  return { skip, variables: [...variables].map(([key, value]) => ({ key, value, variableType: 'env_var' as const })) };
}

/** PostReceiveService: what the `ci` push options ask of the pushed refs' pipelines. */
export async function ciPostReceive(ctx: Context<unknown>, pushes: readonly PushChange[], options: readonly string[]): Promise<string[]> {
  const asked = ciPushOptions(options);
  if (asked.skip || asked.variables.length) {
    const map = pushAsked.get(ctx) ?? new Map<string, { skip: boolean; variables: PipelineVariable[] }>();
    for (const p of pushes) map.set(`${p.projectId}:${p.ref}:${p.after}`, asked);
    pushAsked.set(ctx, map);
  }
  return [];
}

/**
 * Ci::CreatePipelineService for a push (CreatePipelineWorker): a branch's or tag's new tip gets
 * its pipeline (the push options' variables its own), and open merge requests from the branch
 * theirs (MergeRequests::RefreshService; MergeRequests::CreatePipelineService hands them the push
 * options, so `ci.skip` makes them skipped too, but not its variables).
 */
export async function pipelineOnPush(ctx: Context<unknown>, push: StoredEvent<'push'>): Promise<void> {
  if (push.after === null) return;
  const p = tget(ctx.state.projects, push.projectId);
  const userId = push.actorId ?? ctx.user?.id;
  if (!p || userId === undefined || userId === null || p.features.builds === 'disabled') return;
  const asked = push.pushOptions ? ciPushOptions(push.pushOptions) : pushAsked.get(ctx)?.get(`${push.projectId}:${push.ref}:${push.after}`);
  await runCreate(ctx, { project: p, userId, source: 'push', ref: push.ref, beforeSha: push.before ?? undefined, push: true, skip: asked?.skip ?? false, variables: asked?.variables });
  if (push.refType !== 'branch') return;
  for (const mr of openFrom(ctx.state, p.id, push.ref)) await runCreate(ctx, { ...mergeRequestRequest(p, mr, userId), sha: push.after, skip: asked?.skip ?? false });
}

/** A merge request opened: its pipeline, when the file has jobs for merge request events. */
export async function pipelineOnMergeRequest(ctx: Context<unknown>, e: StoredEvent<'merge_request.opened'>): Promise<void> {
  const p = tget(ctx.state.projects, e.projectId);
  const mr = p ? pget(ctx.state.mergeRequests, p.id, e.iid) : undefined;
  const userId = e.actorId ?? ctx.user?.id;
  if (!p || !mr || userId === undefined || userId === null || p.features.builds === 'disabled') return;
  await runCreate(ctx, mergeRequestRequest(p, mr, userId));
}
