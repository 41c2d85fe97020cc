// Merge requests as data (lib/api/merge_requests.rb): list, get, create and edit in a project;
// an issue's related_merge_requests and closed_by; and the merge requests of a milestone
// (lib/api/milestone_responses.rb), which the milestones family cannot see.
import { recordNotFound, forbidden, unauthorized } from '../../core/errors.js';
import { ACCESS } from '../../store/state.js';
import { arr, bool, int, str, type Constraint } from '../../http/params.js';
import { checkUnmodifiedSince } from '../../http/conditional.js';
import { created, json, noContent, type Reply } from '../../http/route.js';
import { offsetHeaders, pageRequest, type PageInput } from '../../http/pagination.js';
import { pget, tentries, tget, tvalues } from '../../store/table.js';
import type { Namespace, Project } from '../../store/state.js';
import { canReadProjectMilestones, findMilestone, type Milestone } from '../milestones/index.js';
import { projectsIn } from '../projects/index.js';
import { branchTip, objectsOf, refsOf } from '../repositories/index.js';
import { commitsBetween, mergeBase } from '../../git/merge-base.js';
import { group, project, route, type Ability, type Context } from '../define.js';
import type { State } from '../world.js';
import { canReadIssues, issueByIid, issueVisible, seesConfidential } from '../issues/index.js';
import { findOrCreateLabels } from '../labels/index.js';
import { mergeRequestBasic, mergeRequestEntity, type MergeRequestView } from './entity.js';
import {
  canCreateMergeRequest, canDestroyMergeRequest, checkedMergeRequest, canReadMergeRequests, deleteMergeRequest, editMergeRequest, changedFiles, createMergeRequest, mergeRequestsOf,
  canSetMergeRequestMetadata, filterUsers, reopens, setMergeRequestEstimate, spendMergeRequestTime, type MergeRequestInput,
} from './rules.js';
import { createCommands, editCommands } from './note-commands.js';
import type { MergeRequest } from './records.js';
import { ids } from './store.js';
import { mergeRequestPage, type Lookup, type OrderBy, type PageAsk } from './list-index.js';
import { acceptMergeRequest, mergeWay } from './merge.js';
import { abortAutoMerge, save, setAutoMerge, trainStrategies } from './auto-merge.js';
import { checkAsync } from './mergeability.js';
import { reloadDiff } from './refresh.js';
import { canReadProject, hasProjectRole, isWithin } from '../../policy/access.js';
import { mergeRequest } from './resolvers.js';
import { badEstimate, milestoneOf, parseDuration, spentInvalid, timeStats } from '../issuables/index.js';

const mrView = (ctx: Context<unknown>, projectId?: number, withLabelsDetails?: boolean): MergeRequestView => ({
  state: ctx.state, viewer: ctx.user, now: ctx.now(), webBase: ctx.webBase, projectId, withLabelsDetails,
});

function projectMergeRequests(state: State, projectId: number): MergeRequest[] {
  const t = tget(state.mergeRequests, projectId);
  return t ? [...tvalues(t)] : [];
}

/** `changes_count`: the files the merge request changes, from its repository (null when that cannot be read). */
export async function changesCountOf(ctx: Context<unknown>, mr: MergeRequest): Promise<number | null> {
  try {
    return await changedFiles(objectsOf(ctx, { id: mr.projectId }), mr.baseSha, mr.sha);
  } catch {
    return null;
  }
}

/**
 * Entities::MergeRequest as the single merge request routes answer it. Its `merge_status` runs
 * check_mergeability(async: true) for who may update the merge request: an unchecked one is
 * answered `checking` while its check worker is due.
 */
export async function fullEntity(ctx: Context<unknown>, mr: MergeRequest, projectId?: number, extra: Pick<MergeRequestView, 'withRebaseInProgress' | 'divergedCommitsCount'> = {}) {
  let shown = mr;
  if (mr.state === 'opened' && mr.mergeStatus === 'unchecked' && canUpdateMergeRequest(ctx.state, ctx.user, mr, ctx.now())) {
    const verdict = (await checkedMergeRequest(ctx.state, objectsOf(ctx, { id: mr.projectId }), mr)).mergeStatus;
    shown = ctx.update(checkAsync(mr, verdict, ctx.now()));
  }
  return mergeRequestEntity({ ...mrView(ctx, projectId), ...extra }, shown, await changesCountOf(ctx, shown));
}

/** MergeRequest#diverged_commits_count: the target branch's commits since the merge base (0 when a branch is gone). */
async function divergedCommits(ctx: Context<unknown>, mr: MergeRequest): Promise<number> {
  const refs = refsOf(ctx.state, mr.projectId);
  const head = branchTip(refs, mr.sourceBranch);
  const target = branchTip(refs, mr.targetBranch);
  if (mr.state !== 'opened' || !head || !target) return 0;
  const repo = objectsOf(ctx, { id: mr.projectId });
  const base = await mergeBase(repo, head, [target]);
  return base === null ? 0 : (await commitsBetween(repo, base, target)).length;
}

const MR_LIST = {
  state: str().values(['opened', 'closed', 'locked', 'merged', 'all'] as const).default('all'),
  order_by: str().values(['created_at', 'updated_at', 'title', 'merged_at'] as const).default('created_at'),
  sort: str().values(['asc', 'desc'] as const).default('desc'),
  labels: arr(str(), { commaSeparated: true }),
  milestone: str(),
  author_id: int(),
  author_username: str(),
  assignee_id: str().where((v) => ['none', 'any'].includes(v.toLowerCase()) || /^\d+$/.test(v)),
  source_branch: str(),
  target_branch: str(),
  search: str(),
  iids: arr(int(), { commaSeparated: true }),
  scope: str().values(['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'] as const),
  wip: str().values(['yes', 'no'] as const),
  with_labels_details: bool().default(false),
};
const MR_CONSTRAINTS: Constraint[] = [{ kind: 'mutually_exclusive', names: ['author_id', 'author_username'] }];

/**
 * MergeRequestsFinder's filters as one test, the parameters read once for the whole list (label
 * titles and milestone titles remembered as they are met) instead of once per merge request.
 */
function mrFilter(state: State, p: Record<string, unknown>, userId: number | null): (project: Project, mr: MergeRequest) => boolean {
  const wantedState = p.state !== 'all' && p.state !== undefined ? p.state : null;
  const scope = (p.scope as string | undefined)?.replace(/-/g, '_') ?? 'all';
  const names = ((p.labels as string[] | undefined) ?? []).map((l) => l.trim());
  const lower = names.map((n) => n.toLowerCase());
  const labels = names.length === 0 ? null : lower.includes('none') ? 'none' : lower.includes('any') ? 'any' : 'all';
  const labelTitles = new Map<number, string | undefined>();
  const labelTitle = (id: number) => {
    if (!labelTitles.has(id)) labelTitles.set(id, tget(state.labels, id)?.title);
    return labelTitles.get(id);
  };
  const milestone = typeof p.milestone === 'string' && p.milestone !== '' ? p.milestone : null;
  const milestoneTitles = new Map<string, string | null>();
  const milestoneTitle = (project: Project, id: number) => {
    const key = `${project.id}:${id}`;
    if (!milestoneTitles.has(key)) milestoneTitles.set(key, findMilestoneTitle(state, project, id));
    return milestoneTitles.get(key)!;
  };
  const assignee = typeof p.assignee_id === 'string' ? p.assignee_id.toLowerCase() : null;
  const words = typeof p.search === 'string' && p.search !== '' ? p.search.toLowerCase().split(/\s+/).filter(Boolean) : null;
  const iids = (p.iids as number[] | undefined)?.length ? new Set(p.iids as number[]) : null;
  return (project, mr) => {
    if (wantedState !== null && mr.state !== wantedState) return false;
    if (scope === 'created_by_me' && mr.authorId !== userId) return false;
    if (scope === 'assigned_to_me' && (userId === null || !mr.assigneeIds.includes(userId))) return false;
    if (labels === 'none' && mr.labelIds.length) return false;
    if (labels === 'any' && !mr.labelIds.length) return false;
    if (labels === 'all' && !names.every((n) => mr.labelIds.some((id) => labelTitle(id) === n))) return false;
    if (milestone !== null) {
      const m = milestone.toLowerCase();
      const title = mr.milestoneId === null ? null : milestoneTitle(project, mr.milestoneId);
      if (m === 'none' ? title !== null : m === 'any' ? title === null : title !== milestone) return false;
    }
    if (p.author_id !== undefined && mr.authorId !== p.author_id) return false;
    if (p.author_username !== undefined && tget(state.users, mr.authorId)?.username !== p.author_username) return false;
    if (assignee !== null && (assignee === 'none' ? mr.assigneeIds.length > 0 : assignee === 'any' ? mr.assigneeIds.length === 0 : !mr.assigneeIds.includes(Number(assignee)))) return false;
    if (p.source_branch !== undefined && mr.sourceBranch !== p.source_branch) return false;
    if (p.target_branch !== undefined && mr.targetBranch !== p.target_branch) return false;
    if (words !== null) {
      const text = `${mr.title}\n${mr.description}`.toLowerCase();
      if (!words.every((w) => text.includes(w))) return false;
    }
    if (iids !== null && !iids.has(mr.iid)) return false;
    if (p.wip === 'yes' && !mr.draft) return false;
    if (p.wip === 'no' && mr.draft) return false;
    return true;
  };
}

function findMilestoneTitle(state: State, project: Project, id: number): string | null {
  const ns = tget(state.namespaces, project.namespaceId);
  const owners: ({ projectId: number } | { groupId: number })[] = [{ projectId: project.id }];
  for (let g = ns && ns.kind === 'group' ? ns : undefined; g; g = g.parentId !== null ? tget(state.namespaces, g.parentId) : undefined) owners.push({ groupId: g.id });
  for (const o of owners) {
    const m = findMilestone(state, o, id);
    if (m) return m.title;
  }
  return null;
}

const LIST_FILTERS = ['labels', 'milestone', 'author_id', 'author_username', 'assignee_id', 'source_branch', 'target_branch', 'search', 'iids', 'wip'] as const;

/**
 * A page of the project's merge requests in creation order, by state at most, read without
 * reading the rest: when they were created in iid order, iid order is creation order (ties are
 * newest id first either way, as ids follow iids), so the walk stops at the page's end and the
 * state counts give the total. Null when the list asks for more (then every one is read).
 */
function pageInCreationOrder(ctx: Context<unknown>, project: Project, params: { order_by: string; sort: 'asc' | 'desc'; state: MergeRequest['state'] | 'all'; scope?: string }): MergeRequest[] | null {
  const p = params as typeof params & Record<string, unknown>;
  const facts = tget(ctx.state.mergeRequestFacts, project.id);
  if (p.order_by !== 'created_at' || (p.scope ?? 'all') !== 'all' || LIST_FILTERS.some((k) => p[k] !== undefined)) return null;
  if (facts && !facts.createdInOrder) return null;
  const counts = facts?.states ?? { opened: 0, closed: 0, merged: 0, locked: 0 };
  const total = p.state === 'all' ? counts.opened + counts.closed + counts.merged + counts.locked : counts[p.state];
  const { page, perPage } = pageRequest(p as PageInput);
  const from = (page - 1) * perPage;
  const to = Math.min(page * perPage, total);
  const out: MergeRequest[] = [];
  const last = ids.peek(ctx.state, 'merge_request_iid', `p${project.id}`) - 1;
  const at = (iid: number) => {
    const mr = pget(ctx.state.mergeRequests, project.id, iid);
    return mr && (p.state === 'all' || mr.state === p.state) ? mr : undefined;
  };
  let seen = 0;
  if (p.sort === 'desc') {
    for (let iid = last; iid >= 1 && seen < to; iid--) {
      const mr = at(iid);
      if (mr && seen++ >= from) out.push(mr);
    }
  } else {
    // Oldest first, but each run of one creation time newest id first.
    let run: MergeRequest[] = [];
    const flush = () => {
      for (const mr of run.reverse()) if (seen < to && seen++ >= from) out.push(mr);
      run = [];
    };
    for (let iid = 1; iid <= last && seen < to; iid++) {
      const mr = at(iid);
      if (!mr) continue;
      if (run.length && run[0]!.createdAt !== mr.createdAt) flush();
      run.push(mr);
    }
    flush();
  }
  Object.assign(ctx.responseHeaders, offsetHeaders(total, p as PageInput, ctx.linkBase));
  return out;
}

/**
 * What the per-chunk index (list-index.ts) answers of a list's parameters: the state, label
 * titles, author (`author_id`, or `scope=created_by_me`), assignee (`scope=assigned_to_me`) and
 * milestone title, in any order. Null when the list asks for more (then every one is read).
 */
function indexedAsk(p: Record<string, unknown>, scope: string, userId: number | null, from: number, to: number): PageAsk | null {
  if (LIST_FILTERS.some((k) => k !== 'labels' && k !== 'milestone' && k !== 'author_id' && p[k] !== undefined)) return null;
  const names = [...new Set(((p.labels as string[] | undefined) ?? []).map((l) => l.trim()))];
  if (names.some((n) => ['none', 'any'].includes(n.toLowerCase()))) return null;
  const milestone = typeof p.milestone === 'string' && p.milestone !== '' ? p.milestone : undefined;
  if (milestone !== undefined && ['none', 'any'].includes(milestone.toLowerCase())) return null;
  let authorId = p.author_id as number | undefined;
  let assigneeId: number | undefined;
  if (scope === 'created_by_me' || scope === 'assigned_to_me') {
    if (userId === null) return null;
    if (scope === 'assigned_to_me') assigneeId = userId;
    else if (authorId !== undefined && authorId !== userId) return null;
    else authorId = userId;
  } else if (scope !== 'all') return null;
  return { orderBy: p.order_by as OrderBy, sort: p.sort as 'asc' | 'desc', state: p.state as PageAsk['state'], labels: names, milestone, authorId, assigneeId, from, to };
}

/** Label and milestone titles for the index, each read once a request. */
function titleLookup(state: State): Lookup {
  const labels = new Map<number, string | undefined>();
  const milestones = new Map<string, string | null>();
  return {
    labelTitle: (id) => {
      if (!labels.has(id)) labels.set(id, tget(state.labels, id)?.title);
      return labels.get(id);
    },
    milestoneTitle: (projectId, id) => {
      const key = `${projectId}:${id}`;
      if (!milestones.has(key)) {
        const project = tget(state.projects, projectId);
        milestones.set(key, project ? findMilestoneTitle(state, project, id) : null);
      }
      return milestones.get(key)!;
    },
  };
}

/**
 * A page of the merge requests of the projects given from the per-chunk index (see
 * list-index.ts), its pagination headers set: the page's cost follows the page and the projects'
 * chunks, not their merge requests. Null when the list asks for more than the index answers.
 */
function indexedPage(ctx: Context<unknown>, projectIds: Iterable<number>, p: Record<string, unknown>, scope: string): MergeRequest[] | null {
  const { page, perPage } = pageRequest(p as PageInput);
  const ask = indexedAsk(p, scope.replace(/-/g, '_'), ctx.user?.id ?? null, (page - 1) * perPage, page * perPage);
  if (!ask) return null;
  const tables = [...projectIds].map((id) => tget(ctx.state.mergeRequests, id));
  const found = mergeRequestPage(tables, ask, titleLookup(ctx.state));
  Object.assign(ctx.responseHeaders, offsetHeaders(found.total, p as PageInput, ctx.linkBase));
  return found.page;
}

/** The order asked, nulls last, ties newest id first (Issuable.sort_by_attribute's with_order_id_desc); each key read once. */
function sortMergeRequests(list: MergeRequest[], orderBy: string | undefined, sort: string | undefined): MergeRequest[] {
  const dir = sort === 'asc' ? 1 : -1;
  const key = (m: MergeRequest): number | string | null =>
    orderBy === 'updated_at' ? m.updatedAt : orderBy === 'title' ? m.title.toLowerCase() : orderBy === 'merged_at' ? m.mergedAt : m.createdAt;
  const keyed = list.map((mr) => ({ mr, k: key(mr) }));
  keyed.sort((a, b) => {
    if (a.k !== b.k) {
      if (a.k === null) return 1;
      if (b.k === null) return -1;
      return (a.k < b.k ? -1 : 1) * dir;
    }
    return b.mr.id - a.mr.id;
  });
  return keyed.map((x) => x.mr);
}

const labelIds = (ctx: Context<unknown>, project: Project, titles: string[]): number[] => ctx.update((draft) => findOrCreateLabels(draft, project, titles, ctx.now()));

function milestoneMergeRequests(ctx: Context<{ milestone_id: number }>, m: Milestone, projects: Project[]): Reply {
  const readable = projects.filter((p) => canReadMergeRequests(ctx.state, ctx.user, p, ctx.now()));
  const page = indexedPage(ctx, readable.map((p) => p.id), { ...(ctx.params as unknown as Record<string, unknown>), order_by: 'created_at', sort: 'desc', state: 'all', milestone: m.title }, 'all')!;
  const v = mrView(ctx, projects.length === 1 ? projects[0]!.id : undefined);
  return json(page.map((mr) => mergeRequestBasic(v, mr)));
}

const MR_EDIT = {
  merge_request_iid: int().required(),
  title: str(), description: str(), state_event: str().values(['close', 'reopen'] as const), target_branch: str(),
  labels: arr(str(), { commaSeparated: true }), add_labels: arr(str(), { commaSeparated: true }), remove_labels: arr(str(), { commaSeparated: true }),
  assignee_ids: arr(int(), { commaSeparated: true }), assignee_id: int(), reviewer_ids: arr(int(), { commaSeparated: true }), milestone_id: int(),
  remove_source_branch: bool(), squash: bool(), discussion_locked: bool(), allow_collaboration: bool(),
};
const MR_EDIT_ONE: Constraint[] = [{
  kind: 'at_least_one_of',
  names: ['assignee_id', 'assignee_ids', 'reviewer_ids', 'description', 'labels', 'add_labels', 'remove_labels', 'milestone_id', 'remove_source_branch', 'allow_collaboration', 'state_event', 'target_branch', 'title', 'discussion_locked', 'squash'],
}];

/** Merge requests of every project the caller may read them in (the group's and its subgroups', or all). */
function crossProjectMergeRequests(ctx: Context<unknown>, p: Record<string, unknown>, within: Namespace | null, defaultScope: string): Reply {
  const scope = (p.scope as string | undefined) ?? defaultScope;
  const projectIds: number[] = [];
  for (const [key] of tentries(ctx.state.mergeRequests)) {
    const project = tget(ctx.state.projects, Number(key));
    if (!project || project.pendingDelete || (within && !isWithin(ctx.state, project.namespaceId, within.id))) continue;
    if (!canReadProject(ctx.state, ctx.user, project, ctx.now()) || !canReadMergeRequests(ctx.state, ctx.user, project, ctx.now())) continue;
    projectIds.push(project.id);
  }
  const v = { ...mrView(ctx, undefined, p.with_labels_details === true), groupId: within?.id };
  const quick = indexedPage(ctx, projectIds, p, scope);
  if (quick) return json(quick.map((mr) => mergeRequestBasic(v, mr)));
  const matches = mrFilter(ctx.state, { ...p, scope }, ctx.user?.id ?? null);
  const out: MergeRequest[] = [];
  for (const id of projectIds) {
    const project = tget(ctx.state.projects, id)!;
    for (const mr of projectMergeRequests(ctx.state, id)) if (matches(project, mr)) out.push(mr);
  }
  return json(ctx.paginate(sortMergeRequests(out, p.order_by as string, p.sort as string)).map((mr) => mergeRequestBasic(v, mr)));
}

const projectOf = (state: State, mr: MergeRequest): Project => tget(state.projects, mr.projectId)!;

/** `update_merge_request`: who may create merge requests in its project, or its author. */
const canUpdateMergeRequest: Ability<MergeRequest> = (state, user, mr, now) => canCreateMergeRequest(state, user, projectOf(state, mr), now) || mr.authorId === user?.id;

/** `destroy_merge_request` in its project. */
const canDeleteMergeRequest: Ability<MergeRequest> = (state, user, mr, now) => canDestroyMergeRequest(state, user, projectOf(state, mr), now);

/** `admin_merge_request`: developers and above. */
const canAdminMergeRequest: Ability<MergeRequest> = (state, user, mr, now) => {
  const project = projectOf(state, mr);
  return canReadMergeRequests(state, user, project, now) && hasProjectRole(state, user, project, ACCESS.developer, now);
};

/** TimeTrackingEndpoints for merge requests: the issue routes' behaviour, with `admin_merge_request`. */
const mergeRequestTimeRoutes = [
  ['time_estimate', 'POST'], ['reset_time_estimate', 'POST'], ['add_spent_time', 'POST'], ['reset_spent_time', 'POST'], ['time_stats', 'GET'],
].map(([name, method]) =>
  route({
    method: method as 'GET' | 'POST', path: `/projects/:id/merge_requests/:merge_request_iid/${name}`, auth: method === 'GET' ? 'public' : 'user', cacheable: method === 'GET',
    scope: project(canReadMergeRequests),
    params: { merge_request_iid: int().required(), ...(name === 'time_estimate' || name === 'add_spent_time' ? { duration: str().required() } : {}), ...(name === 'add_spent_time' ? { summary: str() } : {}) },
    subject: name === 'time_stats' ? mergeRequest() : mergeRequest(canAdminMergeRequest),
    handler: (ctx): Reply => {
      const mr = ctx.subject;
      if (name === 'time_stats') return json(timeStats(mr));
      const user = ctx.user!;
      const p = ctx.params as { duration?: string; summary?: string };
      const now = ctx.now();
      if (name === 'time_estimate') {
        const seconds = parseDuration(p.duration ?? '', true);
        if (seconds === null || seconds < 0) throw badEstimate();
        return json(timeStats(ctx.update(setMergeRequestEstimate(mr, user, seconds, now))));
      }
      if (name === 'reset_time_estimate') return json(timeStats(ctx.update(setMergeRequestEstimate(mr, user, 0, now))));
      if (name === 'reset_spent_time') return json(timeStats(ctx.update(spendMergeRequestTime(mr, user, 'reset', now))));
      const seconds = parseDuration(p.duration ?? '');
      if (seconds === null) throw spentInvalid();
      return created(timeStats(ctx.update(spendMergeRequestTime(mr, user, seconds, now, p.summary))));
    },
  }),
);

/** Assignee or reviewer ids as sent, as the services filter them (`filterUsers`); undefined where none were sent or none may read the merge request. */
const usersSent = (ctx: Context<unknown>, ids: readonly number[] | undefined) => (ids === undefined ? undefined : filterUsers(ctx.state, ctx.project, ids, ctx.now()));

export const mergeRequestRoutes = [
  ...mergeRequestTimeRoutes,
  route({
    method: 'GET', path: '/merge_requests', cacheable: true, paginated: true, params: MR_LIST, constraints: MR_CONSTRAINTS,
    handler: (ctx): Reply => {
      // authenticate! unless scope=all; the scope is created_by_me by default.
      if (!ctx.user && ctx.params.scope !== 'all') throw unauthorized();
      return crossProjectMergeRequests(ctx, ctx.params as unknown as Record<string, unknown>, null, 'created_by_me');
    },
  }),
  route({
    method: 'GET', path: '/groups/:id/merge_requests', cacheable: true, scope: group(), paginated: true, params: MR_LIST, constraints: MR_CONSTRAINTS,
    handler: (ctx): Reply => crossProjectMergeRequests(ctx, ctx.params as unknown as Record<string, unknown>, ctx.group, 'all'),
  }),
  route({
    method: 'GET', path: '/projects/:id/merge_requests', cacheable: true, scope: project(canReadMergeRequests), paginated: true, params: MR_LIST, constraints: MR_CONSTRAINTS,
    handler: (ctx): Reply => {
      const p = ctx.params as unknown as Record<string, unknown>;
      const v = mrView(ctx, ctx.project.id, ctx.params.with_labels_details);
      const quick = pageInCreationOrder(ctx, ctx.project, ctx.params) ?? indexedPage(ctx, [ctx.project.id], p, (p.scope as string | undefined) ?? 'all');
      if (quick) return json(quick.map((mr) => mergeRequestBasic(v, mr)));
      const matches = mrFilter(ctx.state, p, ctx.user?.id ?? null);
      const list = projectMergeRequests(ctx.state, ctx.project.id).filter((mr) => matches(ctx.project, mr));
      return json(ctx.paginate(sortMergeRequests(list, ctx.params.order_by, ctx.params.sort)).map((mr) => mergeRequestBasic(v, mr)));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/merge_requests/:merge_request_iid', cacheable: true, scope: project(canReadMergeRequests),
    params: { merge_request_iid: int().required(), include_rebase_in_progress: bool(), include_diverged_commits_count: bool() },
    subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => json(await fullEntity(ctx, ctx.subject, ctx.project.id, {
      withRebaseInProgress: ctx.params.include_rebase_in_progress === true,
      divergedCommitsCount: ctx.params.include_diverged_commits_count === true ? await divergedCommits(ctx, ctx.subject) : undefined,
    })),
  }),
  route({
    method: 'POST', path: '/projects/:id/merge_requests', auth: 'user', scope: project(canCreateMergeRequest),
    params: {
      source_branch: str().required(), target_branch: str().required(), title: str().required(), description: str(),
      assignee_id: int(), assignee_ids: arr(int(), { commaSeparated: true }), reviewer_ids: arr(int(), { commaSeparated: true }),
      labels: arr(str(), { commaSeparated: true }), milestone_id: int(), remove_source_branch: bool(), squash: bool(), target_project_id: int(),
      allow_collaboration: bool(),
    },
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      if (p.target_project_id !== undefined && p.target_project_id !== ctx.project.id) throw forbidden();
      const input: MergeRequestInput = {
        title: p.title, description: p.description, sourceBranch: p.source_branch, targetBranch: p.target_branch,
        assigneeIds: usersSent(ctx, p.assignee_ids ?? (p.assignee_id !== undefined ? [p.assignee_id] : undefined)), reviewerIds: usersSent(ctx, p.reviewer_ids), labels: p.labels,
        milestoneId: p.milestone_id, removeSourceBranch: p.remove_source_branch, squash: p.squash,
      };
      const commands = createCommands(ctx.state, ctx.project, ctx.user!, input, ctx.now(), ctx.webBase);
      const made = ctx.update(await createMergeRequest(ctx.state, objectsOf(ctx, ctx.project), ctx.project, ctx.user!, commands?.input ?? input, ctx.now()));
      const mr = commands ? ctx.update(commands.after(made)) : made;
      return { ...json(await fullEntity(ctx, mr, ctx.project.id)), status: 201 };
    },
  }),
  route({
    method: 'DELETE', path: '/projects/:id/merge_requests/:merge_request_iid', auth: 'user', scope: project(canReadMergeRequests), params: { merge_request_iid: int().required() },
    subject: mergeRequest(canDeleteMergeRequest),
    handler: (ctx): Reply => {
      const mr = ctx.subject;
      checkUnmodifiedSince(ctx, mr.updatedAt);
      ctx.update(deleteMergeRequest(ctx.project, mr));
      return noContent();
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid', auth: 'user', scope: project(canReadMergeRequests), params: MR_EDIT, constraints: MR_EDIT_ONE,
    subject: mergeRequest(canUpdateMergeRequest),
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const mr = ctx.subject;
      const now = ctx.now();
      let ids = p.labels !== undefined ? labelIds(ctx, ctx.project, p.labels) : mr.labelIds;
      if (p.add_labels) ids = [...new Set([...ids, ...labelIds(ctx, ctx.project, p.add_labels)])];
      if (p.remove_labels) {
        const drop = new Set(p.remove_labels.map((t) => t.trim()));
        ids = ids.filter((id) => !drop.has(tget(ctx.state.labels, id)?.title ?? ''));
      }
      const commands = p.description === undefined ? null : editCommands(ctx.state, ctx.project, ctx.user!, mr, p.description, now, ctx.webBase);
      const metadata = canSetMergeRequestMetadata(ctx.state, ctx.user, ctx.project, now);
      const fields: Partial<MergeRequest> = {
        ...(p.title !== undefined ? { title: p.title } : {}),
        description: commands?.content ?? p.description ?? mr.description,
        targetBranch: p.target_branch ?? mr.targetBranch,
        labelIds: ids,
        assigneeIds: (metadata ? usersSent(ctx, p.assignee_ids ?? (p.assignee_id !== undefined ? [p.assignee_id] : undefined)) : undefined) ?? mr.assigneeIds,
        reviewerIds: (metadata ? usersSent(ctx, p.reviewer_ids) : undefined) ?? mr.reviewerIds,
        milestoneId: p.milestone_id !== undefined ? (p.milestone_id === 0 ? null : p.milestone_id) : mr.milestoneId,
        removeSourceBranch: p.remove_source_branch ?? mr.removeSourceBranch,
        squash: p.squash ?? mr.squash,
        ...(p.discussion_locked !== undefined && metadata ? { discussionLocked: p.discussion_locked } : {}),
      };
      if (p.state_event === 'close' && mr.state === 'opened') Object.assign(fields, { state: 'closed', closedAt: now, closedById: ctx.user!.id });
      if (p.state_event === 'reopen' && reopens(ctx.state, mr)) Object.assign(fields, { state: 'opened', closedAt: null, closedById: null });
      // The commands' params over the caller's (params.merge!), from the merge request as those leave it.
      const ran = commands?.fields({ ...mr, ...fields });
      // Reopened, it reloads its diff from its branches as they are now (reload_diff).
      const reopened = mr.state === 'closed' && (ran?.fields.state ?? fields.state) === 'opened';
      const reload = reopened ? await reloadDiff(ctx.state, objectsOf(ctx, ctx.project), ctx.project, mr) : null;
      if (commands) ctx.update(commands.beside);
      let saved = ctx.update((draft) => editMergeRequest(ctx.project, mr, ctx.user!, { ...fields, ...ran?.fields, ...reload?.(draft) }, now, ran?.spent)(draft));
      // CloseService#abort_auto_merge.
      if (saved.state === 'closed' && saved.autoMerge) saved = ctx.update((draft) => abortAutoMerge(draft, ctx.project, saved, 'merge request was closed', ctx.user!.id, now));
      return json(await fullEntity(ctx, saved, ctx.project.id));
    },
  }),
  route({
    method: 'PUT', path: '/projects/:id/merge_requests/:merge_request_iid/merge', auth: 'user', scope: project(canReadMergeRequests),
    params: {
      merge_request_iid: int().required(), merge_commit_message: str(), squash_commit_message: str(), squash: bool(), should_remove_source_branch: bool(),
      merge_when_pipeline_succeeds: bool(), auto_merge: bool(), auto_merge_strategy: str(), sha: str(), skip_merge_train: bool(),
    },
    subject: mergeRequest(),
    handler: async (ctx): Promise<Reply> => {
      const p = ctx.params;
      const repo = objectsOf(ctx, ctx.project);
      const mr = await checkedMergeRequest(ctx.state, repo, ctx.subject);
      const user = ctx.user!;
      const now = ctx.now();
      // AutoMergeService#preferred_strategy: where merge trains are on, the train's strategies come first.
      const trains = trainStrategies();
      if ((p.merge_when_pipeline_succeeds === true || p.auto_merge === true) && trains) {
        const set = await trains.execute(ctx, mr, user, { sha: p.sha, commitMessage: p.merge_commit_message, squashCommitMessage: p.squash_commit_message, removeSourceBranch: p.should_remove_source_branch, squash: p.squash });
        if (set) return json(await fullEntity(ctx, set, ctx.project.id));
      }
      const how = mergeWay(ctx.state, ctx.project, mr, user, p.merge_when_pipeline_succeeds === true || p.auto_merge === true, p.sha, now);
      if (how === 'auto') {
        // `merge_request.update(squash: true)` before the automatic merge is set: it squashes when it runs.
        const asked = p.squash === true && !mr.squash ? ctx.update((draft) => save(draft, ctx.project, mr, { squash: true })) : mr;
        const set = ctx.update(setAutoMerge(ctx.project, asked, user, {
          commitMessage: p.merge_commit_message, squashCommitMessage: p.squash_commit_message, removeSourceBranch: p.should_remove_source_branch,
        }, now));
        return json(await fullEntity(ctx, set, ctx.project.id));
      }
      const recipe = await acceptMergeRequest(ctx.state, repo, ctx.project, mr, user, {
        webBase: ctx.webBase, sha: p.sha, mergeCommitMessage: p.merge_commit_message, squash: p.squash, squashCommitMessage: p.squash_commit_message,
        removeSourceBranch: p.should_remove_source_branch,
      }, now);
      const before = branchTip(refsOf(ctx.state, ctx.project.id), mr.targetBranch);
      const merged = ctx.update(recipe);
      if (p.skip_merge_train === true && trains && before) trains.skipped(ctx, merged, user, before);
      return json(await fullEntity(ctx, merged, ctx.project.id));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/issues/:issue_iid/related_merge_requests', cacheable: true, scope: project(canReadIssues), paginated: true, params: { issue_iid: int().required() },
    handler: async (ctx): Promise<Reply> => {
      const issue = issueByIid(ctx.state, ctx.project.id, ctx.params.issue_iid);
      if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw recordNotFound();
      const list = mergeRequestsOf(ctx.state, issue, 'related').filter((mr) => {
        const p = tget(ctx.state.projects, mr.projectId);
        return p && !p.pendingDelete && canReadMergeRequests(ctx.state, ctx.user, p, ctx.now());
      });
      const page = ctx.paginate(list);
      return json(await Promise.all(page.map((mr) => fullEntity(ctx, mr, ctx.project.id))));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/issues/:issue_iid/closed_by', cacheable: true, scope: project(canReadIssues), paginated: true, params: { issue_iid: int().required() },
    handler: (ctx): Reply => {
      const issue = issueByIid(ctx.state, ctx.project.id, ctx.params.issue_iid);
      if (!issue || !issueVisible(ctx.state, ctx.user, issue, seesConfidential(ctx.state, ctx.user, ctx.project, ctx.now()))) throw recordNotFound();
      const readable = canReadMergeRequests(ctx.state, ctx.user, ctx.project, ctx.now());
      const list = readable ? mergeRequestsOf(ctx.state, issue, 'closing').filter((mr) => mr.projectId === ctx.project.id) : [];
      return json(ctx.paginate(list).map((mr) => mergeRequestBasic(mrView(ctx, ctx.project.id), mr)));
    },
  }),
  route({
    method: 'GET', path: '/projects/:id/milestones/:milestone_id/merge_requests', auth: 'user', cacheable: true, scope: project(canReadProjectMilestones), paginated: true,
    params: { milestone_id: int().required() },
    handler: (ctx): Reply => milestoneMergeRequests(ctx, milestoneOf(ctx, { projectId: ctx.project.id }), [ctx.project]),
  }),
  route({
    method: 'GET', path: '/groups/:id/milestones/:milestone_id/merge_requests', auth: 'user', cacheable: true, scope: group(), paginated: true,
    params: { milestone_id: int().required() },
    handler: (ctx): Reply => {
      const m = milestoneOf(ctx, { groupId: ctx.group.id });
      const projects = projectsIn(ctx.state, ctx.group.id);
      return milestoneMergeRequests(ctx, m, projects);
    },
  }),
];
