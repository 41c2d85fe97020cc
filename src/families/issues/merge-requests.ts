// Merge requests as data (app/models/merge_request.rb, app/services/merge_requests/create_service.rb,
// lib/gitlab/closing_issue_extractor.rb, lib/api/entities/merge_request_basic.rb,
// merge_request.rb): branches and SHAs of the real repository, and the issues a merge request
// closes (`Closes #n`) or mentions, kept per issue for `closed_by` and `related_merge_requests`.
import type { Draft } from 'immer';
import { crossReference, isDraftTitle, recordMergeRequestChanges } from './system-notes.js';
import { mergeBase } from '../../git/merge-base.js';
import { mergesCleanly } from '../../git/merge-trees.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { listFiles } from '../../git/tree.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { canUseFeature, hasProjectRole } from '../../policy/access.js';
import { projectByIdOrPath } from '../../policy/paths.js';
import { pdel, pget, pset, tget, tvalues } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { canReadBuilds, headPipeline, pipelineBasic, pipelineEntity } from '../ci/index.js';
import { milestoneEntity } from '../milestones/index.js';
import { projectPaths, projectWebUrl } from '../projects/index.js';
import { branchTip, defaultBranchName, refsOf } from '../repositories/index.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';
import { messageError } from '../../core/errors.js';
import { findOrCreateLabels, labelBasic, labelById, type Label } from '../labels/index.js';
import type { Issue, MergeRequest } from './records.js';
import { addNote, dropNotes, isResolvable, noteKey, notesTable, userNotesCount } from '../../store/notes.js';
import { countMergeRequest, dropMergeRequestRecords, ids, indexOpenMergeRequest, issueByIid, openMergeRequestsOn } from './store.js';
import { countAwards, formatDuration, isSubscribed, issueMilestone, recordLabelChange, recordMilestoneChange, socialTarget, type SpentChange, taskCounts, timeStats } from '../issuables/index.js';

/** `read_merge_request`. */
export function canReadMergeRequests(state: State, user: User | null, project: Project, now: number): boolean {
  return canUseFeature(state, user, project, 'merge_requests', now);
}

export function readableMergeRequest(state: State, user: User | null, project: Project, iid: number, now: number): MergeRequest | undefined {
  return canReadMergeRequests(state, user, project, now) ? pget(state.mergeRequests, project.id, iid) : undefined;
}

/** `create_merge_request_from` in the same project: developers and above. */
export function canCreateMergeRequest(state: State, user: User | null, project: Project, now: number): boolean {
  return !project.archived && canReadMergeRequests(state, user, project, now) && hasProjectRole(state, user, project, ACCESS.developer, now);
}

/**
 * `update_merge_request` (IssuablePolicy, ProjectPolicy): Developers and above, and the merge
 * request's author and assignees who can read it; none in an archived project.
 */
export function canUpdateMergeRequest(state: State, user: User | null, project: Project, mr: MergeRequest, now: number): boolean {
  if (!user || project.archived || !canReadMergeRequests(state, user, project, now)) return false;
  return hasProjectRole(state, user, project, ACCESS.developer, now) || mr.authorId === user.id || mr.assigneeIds.includes(user.id);
}

const KEYWORD = String.raw`\b(?:[Cc]los(?:e[sd]?|ing)|[Ff]ix(?:e[sd]|ing)?|[Rr]esolv(?:e[sd]?|ing)|[Ii]mplement(?:s|ed|ing)?)`;
const REF = String.raw`(?:https?:\/\/[^\s#]+?\/-\/issues\/\d+|[\w.\/-]*#\d+)`;
const CLOSING = new RegExp(`${KEYWORD}:? +((?:(?:issues? +)?${REF}(?: *,? +and +| *,? *)?)+)`, 'g');
const ANY_REF = new RegExp(REF, 'g');

export interface IssueRef {
  projectId: number;
  iid: number;
}

/** An issue reference (`#3`, `app#3`, `group/app#3`, an issue URL) from a project, resolved. */
function resolveRef(state: State, from: Project, ref: string): IssueRef | null {
  const url = /\/([^\s]+?)\/-\/issues\/(\d+)$/.exec(ref);
  let path: string;
  let iid: number;
  if (url && ref.startsWith('http')) {
    const u = new URL(ref);
    path = u.pathname.replace(/^\//, '').replace(/\/-\/issues\/\d+$/, '');
    iid = Number(url[2]);
  } else {
    const at = ref.lastIndexOf('#');
    path = ref.slice(0, at);
    iid = Number(ref.slice(at + 1));
  }
  let project: Project | undefined = from;
  if (path !== '') {
    const { ns } = projectPaths(state, from);
    project = projectByIdOrPath(state, path.includes('/') ? path : `${ns.fullPath}/${path}`);
  }
  return project ? { projectId: project.id, iid } : null;
}

/** Gitlab::ClosingIssueExtractor over a text, and every other issue it mentions. */
export function issueReferences(state: State, from: Project, text: string): { closes: IssueRef[]; mentions: IssueRef[] } {
  const closes: IssueRef[] = [];
  const mentions: IssueRef[] = [];
  const key = (r: IssueRef) => `${r.projectId}#${r.iid}`;
  const seen = new Set<string>();
  for (const m of text.matchAll(CLOSING)) {
    for (const r of m[1]!.matchAll(ANY_REF)) {
      const ref = resolveRef(state, from, r[0]);
      if (ref && !seen.has(key(ref))) {
        seen.add(key(ref));
        closes.push(ref);
      }
    }
  }
  for (const r of text.matchAll(ANY_REF)) {
    const ref = resolveRef(state, from, r[0]);
    if (ref && !seen.has(key(ref))) {
      seen.add(key(ref));
      mentions.push(ref);
    }
  }
  return { closes, mentions };
}

/** The files that differ between two commits' trees (`changes_count`). */
export async function changedFiles(repo: RepositoryObjects, base: string, head: string): Promise<number> {
  const [a, b] = await Promise.all([repo.readCommit(base), repo.readCommit(head)]);
  if (a.tree === b.tree) return 0;
  const [fa, fb] = await Promise.all([listFiles(repo, a.tree), listFiles(repo, b.tree)]);
  let n = 0;
  for (const [path, e] of fb) if (fa.get(path)?.oid !== e.oid) n++;
  for (const path of fa.keys()) if (!fb.has(path)) n++;
  return n;
}

export interface MergeRequestInput {
  title: string;
  description?: string;
  sourceBranch: string;
  targetBranch: string;
  assigneeIds?: number[];
  reviewerIds?: number[];
  labels?: string[];
  milestoneId?: number | null;
  removeSourceBranch?: boolean;
  squash?: boolean;
  state?: MergeRequest['state'];
  createdAt?: number;
}

const unprocessable = (text: string) => messageError(422, [text]);

/**
 * MergeRequests::CreateService: both branches must exist and differ, and no other open merge
 * request may have the same source and target; the SHAs are the repository's.
 */
export async function createMergeRequest(
  state: State, repo: RepositoryObjects, project: Project, author: User, input: MergeRequestInput, now: number, record = true,
): Promise<(draft: Draft<State>) => MergeRequest> {
  const refs = refsOf(state, project.id);
  if (input.sourceBranch === input.targetBranch) throw unprocessable("You can't use same project/branch for source and target");
  const head = branchTip(refs, input.sourceBranch) ?? null;
  const target = branchTip(refs, input.targetBranch) ?? null;
  if (!head) throw unprocessable(`Source branch "${input.sourceBranch}" does not exist`);
  if (!target) throw unprocessable(`Target branch "${input.targetBranch}" does not exist`);
  if (input.title.trim() === '') throw messageError(400, { title: ["can't be blank"] });
  const open = openMergeRequestsOn(state, project.id, 'source', input.sourceBranch).find((m) => m.targetBranch === input.targetBranch);
  if (open) throw messageError(409, [`Another open merge request already exists for this source branch: !${open.iid}`]);
  const base = (await mergeBase(repo, head, [target])) ?? target;
  const mergeStatus = await checkMergeability(repo, base, target, head);
  const milestone = input.milestoneId ? issueMilestone(state, project, input.milestoneId) : undefined;
  return (draft) => {
    const labelIds = findOrCreateLabels(draft, project, input.labels ?? [], now);
    const created = input.createdAt ?? now;
    const mr: MergeRequest = {
      id: ids.next(draft as State, 'merge_request'),
      iid: ids.next(draft as State, 'merge_request_iid', `p${project.id}`),
      projectId: project.id,
      title: input.title,
      description: input.description ?? '',
      state: input.state ?? 'opened',
      createdAt: created,
      updatedAt: created,
      closedAt: input.state === 'closed' ? now : null,
      closedById: input.state === 'closed' ? author.id : null,
      mergedAt: input.state === 'merged' ? now : null,
      mergedById: input.state === 'merged' ? author.id : null,
      authorId: author.id,
      assigneeIds: input.assigneeIds ?? [],
      reviewerIds: input.reviewerIds ?? [],
      labelIds,
      milestoneId: milestone?.id ?? null,
      sourceBranch: input.sourceBranch,
      targetBranch: input.targetBranch,
      sha: head,
      baseSha: base,
      startSha: target,
      mergeStatus,
      mergeCommitSha: null,
      draft: isDraftTitle(input.title),
      squash: input.squash ?? false,
      removeSourceBranch: input.removeSourceBranch ?? false,
      timeEstimate: 0,
      totalTimeSpent: 0,
    };
    putMergeRequest(draft, project, mr, null);
    // A new merge request's milestone and labels are events, as CommonSystemNotesService records them on creation.
    if (record) {
      recordMilestoneChange(draft, { type: 'MergeRequest', id: mr.id, projectId: project.id, state: mr.state }, author.id, null, mr.milestoneId, now);
      recordLabelChange(draft, { type: 'MergeRequest', id: mr.id }, author.id, [], mr.labelIds, now);
      crossReference(draft, { type: 'MergeRequest', id: mr.id, iid: mr.iid, projectId: project.id }, `${mr.title}\n${mr.description}`, author.id, now);
    }
    return mr;
  };
}

/** Stores a merge request and the issues it closes or mentions (replacing what the earlier text named). */
export function putMergeRequest(draft: Draft<State>, project: Project, mr: MergeRequest, before: MergeRequest | null): void {
  const state = draft as State;
  if (before) for (const r of allRefs(state, project, before)) pdel(draft.closingMergeRequests, issueKey(state, r) ?? -1, before.id);
  if (before) indexOpenMergeRequest(draft, before, false);
  if (before) countMergeRequest(draft, before, -1);
  countMergeRequest(draft, mr, 1, before === null);
  pset(draft.mergeRequests, project.id, mr.iid, mr);
  if (mr.state === 'opened') indexOpenMergeRequest(draft, mr, true);
  const { closes, mentions } = issueReferences(state, project, `${mr.title}\n${mr.description}`);
  const closing = mr.targetBranch === defaultBranchName(project);
  for (const r of closes) {
    const id = issueKey(state, r);
    if (id !== undefined) pset(draft.closingMergeRequests, id, mr.id, { projectId: project.id, iid: mr.iid, closes: closing });
  }
  for (const r of mentions) {
    const id = issueKey(state, r);
    if (id !== undefined && !pget(draft.closingMergeRequests, id, mr.id)) pset(draft.closingMergeRequests, id, mr.id, { projectId: project.id, iid: mr.iid, closes: false });
  }
}

/**
 * MergeRequests::UpdateService: the merge request with `fields` changed (a new title decides
 * whether it is a draft), stored with the notes and events of what changed; the same record
 * when nothing did. Time spent (`spend_time`, already in `totalTimeSpent`) is noted even when
 * it leaves the total as it was, unless it resets a total of nothing.
 */
export function editMergeRequest(project: Project, before: MergeRequest, user: User, fields: Partial<MergeRequest>, now: number, spent?: SpentChange) {
  return (draft: Draft<State>): MergeRequest => {
    const next: MergeRequest = { ...before, ...fields, updatedAt: now };
    if (fields.title !== undefined) next.draft = isDraftTitle(fields.title);
    if (next.targetBranch !== before.targetBranch) next.mergeStatus = 'unchecked';
    const unchanged = (Object.keys(next) as (keyof MergeRequest)[]).every((k) => k === 'updatedAt' || JSON.stringify(next[k]) === JSON.stringify(before[k]));
    if (unchanged && !spent) return before;
    putMergeRequest(draft, project, next, before);
    const timeSpent = spent && !(spent.seconds === 'reset' && before.totalTimeSpent === 0) ? spent : undefined;
    recordMergeRequestChanges(draft, before, next, user.id, now, timeSpent);
    return next;
  };
}

/** `destroy_merge_request`: owners and administrators. */
export function canDestroyMergeRequest(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.owner, now);
}

/** Issuable::DestroyService: the merge request and what hangs on it (the issues it named, its notes, award emoji and events). */
export function deleteMergeRequest(project: Project, mr: MergeRequest) {
  return (draft: Draft<State>): void => {
    const state = draft as State;
    for (const r of allRefs(state, project, mr)) pdel(draft.closingMergeRequests, issueKey(state, r) ?? -1, mr.id);
    pdel(draft.mergeRequests, project.id, mr.iid);
    dropMergeRequestRecords(draft, mr);
    dropNotes(state, noteKey('MergeRequest', mr.id));
  };
}

function allRefs(state: State, project: Project, mr: MergeRequest): IssueRef[] {
  const { closes, mentions } = issueReferences(state, project, `${mr.title}\n${mr.description}`);
  return [...closes, ...mentions];
}

const issueKey = (state: State, r: IssueRef) => issueByIid(state, r.projectId, r.iid)?.id;

/** The merge requests that name an issue: all of them (`related`), or those that close it on merge. */
export function mergeRequestsOf(state: State, issue: Issue, which: 'related' | 'closing'): MergeRequest[] {
  const t = tget(state.closingMergeRequests, issue.id);
  if (!t) return [];
  const out: MergeRequest[] = [];
  for (const ref of tvalues(t)) {
    if (which === 'closing' && !ref.closes) continue;
    const mr = pget(state.mergeRequests, ref.projectId, ref.iid);
    if (mr) out.push(mr);
  }
  return out.sort((a, b) => a.id - b.id);
}

export interface MergeRequestView extends UrlBase {
  state: State;
  viewer: User | null;
  now: number;
  /** The project the request is made in, for `reference`; or the group, for `references.relative`. */
  projectId?: number;
  groupId?: number;
  withLabelsDetails?: boolean;
}

function mrLabels(state: State, mr: MergeRequest, details?: boolean) {
  const labels = mr.labelIds.map((id) => labelById(state, id)).filter((l): l is Label => !!l).sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  return details ? labels.map(labelBasic) : labels.map((l) => l.title);
}

/** Entities::MergeRequestBasic. */
/**
 * MergeRequest#mergeable_discussions_state?: true unless the project allows merging only when
 * every thread is resolved and one is not.
 */
export function discussionsResolved(state: State, project: Project, mr: MergeRequest): boolean {
  if (project.settings.only_allow_merge_if_all_discussions_are_resolved !== true) return true;
  for (const note of tvalues(notesTable(state, noteKey('MergeRequest', mr.id)))) if (isResolvable(note) && !note.resolvedAt) return false;
  return true;
}

/** `merge_status` as the API shows it (public_merge_status): the last check's, for an open merge request. */
export const mergeStatusOf = (mr: MergeRequest) => (mr.state === 'opened' ? mr.mergeStatus : 'cannot_be_merged_recheck');

/** `detailed_merge_status` (DetailedMergeStatusService): the first check that fails, in GitLab's order. */
function detailedMergeStatus(state: State, project: Project, mr: MergeRequest): string {
  if (mr.state !== 'opened') return 'not_open';
  if (mr.mergeStatus === 'unchecked') return 'unchecked';
  if (mr.draft) return 'draft_status';
  if (!discussionsResolved(state, project, mr)) return 'discussions_not_resolved';
  if (mr.mergeStatus === 'cannot_be_merged') return 'conflict';
  return 'mergeable';
}

/** MergeabilityCheckService's verdict: whether the head merges into the target from their base without a conflict. */
export async function checkMergeability(repo: RepositoryObjects, base: string, target: string, head: string): Promise<'can_be_merged' | 'cannot_be_merged'> {
  return (await mergesCleanly(repo, base, target, head)) ? 'can_be_merged' : 'cannot_be_merged';
}

/** MergeabilityCheckService on a read: an unchecked open merge request checked against its branches as they are now. */
export async function checkedMergeRequest(state: State, repo: RepositoryObjects, mr: MergeRequest): Promise<MergeRequest> {
  if (mr.state !== 'opened' || mr.mergeStatus !== 'unchecked') return mr;
  const refs = refsOf(state, mr.projectId);
  const head = branchTip(refs, mr.sourceBranch);
  const target = branchTip(refs, mr.targetBranch);
  if (!head || !target) return { ...mr, mergeStatus: 'cannot_be_merged' };
  const base = (await mergeBase(repo, head, [target])) ?? target;
  return { ...mr, mergeStatus: await checkMergeability(repo, base, target, head) };
}

export function mergeRequestBasic(v: MergeRequestView, mr: MergeRequest) {
  const { state } = v;
  const project = tget(state.projects, mr.projectId)!;
  const user = (id: number | null) => {
    const u = id === null ? undefined : tget(state.users, id);
    return u ? userBasic(u, v) : null;
  };
  const assignees = mr.assigneeIds.map(user).filter((x) => x !== null);
  const milestone = issueMilestone(state, project, mr.milestoneId);
  const { fullPath } = projectPaths(state, project);
  const short = `!${mr.iid}`;
  return {
    id: mr.id,
    iid: mr.iid,
    project_id: mr.projectId,
    title: mr.title,
    description: mr.description === '' ? null : mr.description,
    state: mr.state,
    created_at: iso(mr.createdAt),
    updated_at: iso(mr.updatedAt),
    merged_by: user(mr.mergedById),
    merge_user: user(mr.mergedById),
    merged_at: iso(mr.mergedAt),
    closed_by: user(mr.closedById),
    closed_at: iso(mr.closedAt),
    target_branch: mr.targetBranch,
    source_branch: mr.sourceBranch,
    user_notes_count: userNotesCount(v.state, noteKey('MergeRequest', mr.id)),
    upvotes: countAwards(state, { type: 'MergeRequest', id: mr.id }, 'thumbsup'),
    downvotes: countAwards(state, { type: 'MergeRequest', id: mr.id }, 'thumbsdown'),
    author: user(mr.authorId),
    assignees,
    assignee: assignees[0] ?? null,
    reviewers: mr.reviewerIds.map(user).filter((x) => x !== null),
    source_project_id: mr.projectId,
    target_project_id: mr.projectId,
    labels: mrLabels(state, mr, v.withLabelsDetails),
    draft: mr.draft,
    imported: false,
    imported_from: 'none',
    work_in_progress: mr.draft,
    milestone: milestone ? milestoneEntity(state, milestone, v, v.now) : null,
    merge_when_pipeline_succeeds: false,
    merge_status: mergeStatusOf(mr),
    detailed_merge_status: detailedMergeStatus(state, project, mr),
    merge_after: null,
    sha: mr.sha,
    merge_commit_sha: mr.mergeCommitSha,
    squash_commit_sha: null,
    discussion_locked: mr.discussionLocked ?? null,
    should_remove_source_branch: null,
    force_remove_source_branch: mr.removeSourceBranch,
    prepared_at: iso(mr.createdAt),
    // Relative to the project (or group) of the request; across groups and projects, the full path.
    reference: v.projectId === mr.projectId ? short : `${fullPath}${short}`,
    references: {
      short,
      relative: v.projectId === mr.projectId ? short : v.groupId !== undefined && project.namespaceId === v.groupId ? `${project.path}${short}` : `${fullPath}${short}`,
      full: `${fullPath}${short}`,
    },
    web_url: `${projectWebUrl(state, project, v)}/-/merge_requests/${mr.iid}`,
    time_stats: timeStats(mr),
    squash: mr.squash,
    squash_on_merge: mr.squash,
    task_completion_status: taskCounts(mr.description),
    has_conflicts: mr.state === 'opened' && mr.mergeStatus === 'cannot_be_merged',
    blocking_discussions_resolved: discussionsResolved(state, project, mr),
  };
}

/**
 * Entities::MergeRequest: the basic fields, then subscription, changes, pipelines and diff_refs.
 * As a to-do's target it is rendered without the caller and the project (Entities::Todo passes
 * neither): not subscribed, no build fields, no head pipeline, not mergeable by anyone.
 */
export function mergeRequestEntity(v: MergeRequestView, mr: MergeRequest, changesCount: number | null, asTodoTarget = false) {
  const project = tget(v.state.projects, mr.projectId)!;
  const builds = !asTodoTarget && canUseFeature(v.state, v.viewer, project, 'builds', v.now);
  // The newest pipeline of the source branch at the merge request's head (MergeRequest#head_pipeline).
  const head = builds && canReadBuilds(v.state, v.viewer, project, v.now) ? headPipeline(v.state, mr.projectId, mr.sourceBranch, mr.sha) : undefined;
  return {
    ...mergeRequestBasic(v, mr),
    subscribed: !asTodoTarget && isSubscribed(v.state, socialTarget('MergeRequest', mr), v.viewer),
    changes_count: changesCount === null ? null : String(changesCount),
    ...(builds
      ? {
          latest_build_started_at: head ? iso(head.startedAt) : null,
          latest_build_finished_at: head ? iso(head.finishedAt) : null,
          first_deployed_to_production_at: null,
          pipeline: head ? pipelineBasic(v.state, head, v) : null,
        }
      : {}),
    ...(asTodoTarget ? {} : { head_pipeline: head ? pipelineEntity(v.state, head, v, v.now) : null }),
    diff_refs: { base_sha: mr.baseSha, head_sha: mr.sha, start_sha: mr.startSha },
    merge_error: null,
    ...(asTodoTarget ? {} : { first_contribution: false }),
    user: { can_merge: !asTodoTarget && v.viewer !== null && hasProjectRole(v.state, v.viewer, project, ACCESS.developer, v.now) },
  };
}

function mrNote(draft: Draft<State>, mr: MergeRequest, authorId: number, body: string, now: number): void {
  addNote(draft as State, noteKey('MergeRequest', mr.id), {
    noteableType: 'MergeRequest', noteableId: mr.id, commitId: null, projectId: mr.projectId, authorId, body, system: true, internal: false, createdAt: now, updatedAt: now,
  });
}

/** The merge request's time estimate, with the note GitLab writes. */
export function setMergeRequestEstimate(mr: MergeRequest, user: User, seconds: number, now: number): (draft: Draft<State>) => MergeRequest {
  return (draft) => {
    if (seconds === mr.timeEstimate) return mr;
    const next = { ...mr, timeEstimate: seconds, updatedAt: now };
    mrNote(draft, next, user.id, seconds === 0 ? 'removed time estimate' : `changed time estimate to ${formatDuration(seconds)}`, now);
    pset(draft.mergeRequests, mr.projectId, mr.iid, next);
    return next;
  };
}

/** Spent time on a merge request (negative subtracts, `reset` removes it all), with its note. */
export function spendMergeRequestTime(mr: MergeRequest, user: User, seconds: number | 'reset', now: number, summary?: string): (draft: Draft<State>) => MergeRequest {
  if (seconds !== 'reset' && mr.totalTimeSpent + seconds < 0) throw messageError(400, { base: ['Time to subtract exceeds the total time spent'] });
  return (draft) => {
    if (seconds === 'reset' && mr.totalTimeSpent === 0) return mr;
    const next = { ...mr, totalTimeSpent: seconds === 'reset' ? 0 : mr.totalTimeSpent + seconds, updatedAt: now };
    let body = seconds === 'reset' ? 'removed time spent' : `${seconds > 0 ? 'added' : 'subtracted'} ${formatDuration(Math.abs(seconds))} of time spent`;
    if (summary && seconds !== 'reset') body += `\n\n${summary}`;
    mrNote(draft, next, user.id, body, now);
    pset(draft.mergeRequests, mr.projectId, mr.iid, next);
    return next;
  };
}

