// Merge requests' services and policies (app/models/merge_request.rb, MergeRequestPolicy,
// app/services/merge_requests/create_service.rb, update_service.rb, MergeabilityCheckService):
// branches and SHAs of the real repository, and the issues a merge request closes (`Closes #n`)
// or mentions, recorded on those issues for `closed_by` and `related_merge_requests`.
import type { Draft } from 'immer';
import { messageError } from '../../core/errors.js';
import { commitsBetween, mergeBase } from '../../git/merge-base.js';
import { mergesCleanly } from '../../git/merge-trees.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { listFiles } from '../../git/tree.js';
import { canUseFeature, hasProjectRole } from '../../policy/access.js';
import { addNote, dropNotes, isResolvable, noteKey, notesTable } from '../../store/notes.js';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { pdel, pget, pset, tget, tvalues } from '../../store/table.js';
import { emitIssuableChange, formatDuration, issueMilestone, recordLabelChange, recordMilestoneChange, type SpentChange } from '../issuables/index.js';
import { crossReference, issueByIid, issueReferences, namingMergeRequest, namingMergeRequests, setNamingMergeRequest, type Issue, type IssueRef } from '../issues/index.js';
import { findOrCreateLabels } from '../labels/index.js';
import { branchTip, defaultBranchName, refsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import type { MergeRequest } from './records.js';
import { savedReviewerStates } from './reviewers.js';
import { countMergeRequest, dropMergeRequestRecords, ids, indexOpenMergeRequest, openMergeRequestsOn } from './store.js';
import { isDraftTitle, recordMergeRequestChanges } from './system-notes.js';
import { commitClosingRefs, withClosingIssues } from './closing.js';

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

/**
 * `set_merge_request_metadata` (`admin_merge_request`): Developers and above, in a project that is
 * not archived. Without it, MergeRequests::UpdateService drops the assignees, reviewers and lock
 * a caller sends (IssuableBaseService#filter_params, filter_reviewer): an author who is no member
 * edits the title and description only.
 */
export function canSetMergeRequestMetadata(state: State, user: User | null, project: Project, now: number): boolean {
  return !project.archived && hasProjectRole(state, user, project, ACCESS.developer, now);
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
  /** Labels by id besides those by title (what a description's `/label` names). */
  labelIds?: number[];
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
  const commitRefs = await commitClosingRefs(state, repo, project, await commitsBetween(repo, base, head));
  const milestone = input.milestoneId ? issueMilestone(state, project, input.milestoneId) : undefined;
  return (draft) => {
    const labelIds = [...new Set([...findOrCreateLabels(draft, project, input.labels ?? [], now), ...(input.labelIds ?? [])])];
    const created = input.createdAt ?? now;
    const made: MergeRequest = {
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
      commitClosingRefs: commitRefs,
    };
    // after_create: cache_merge_request_closes_issues! (a seeded closed or merged one was open once, when it was kept).
    const mr: MergeRequest = { ...made, closesIssueIds: withClosingIssues(draft as State, project, { ...made, state: 'opened' }, author, now).closesIssueIds! };
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

/**
 * Stores a merge request and the issues it closes or mentions (replacing what the earlier text
 * named). A merged one closes the issues kept at its merge, whatever its text names since.
 */
export function putMergeRequest(draft: Draft<State>, project: Project, mr: MergeRequest, before: MergeRequest | null): void {
  const state = draft as State;
  if (before) for (const r of allRefs(state, project, before)) setNamingMergeRequest(draft, issueKey(state, r) ?? -1, before.id, null);
  if (before?.closesIssueIds) for (const id of before.closesIssueIds) setNamingMergeRequest(draft, id, before.id, null);
  if (before) indexOpenMergeRequest(draft, before, false);
  if (before) countMergeRequest(draft, before, -1);
  countMergeRequest(draft, mr, 1, before === null);
  mr.reviewerStates = savedReviewerStates(before, mr);
  pset(draft.mergeRequests, project.id, mr.iid, mr);
  emitIssuableChange(draft, 'merge_request', before, mr);
  if (mr.state === 'opened') indexOpenMergeRequest(draft, mr, true);
  const { closes, mentions } = issueReferences(state, project, `${mr.title}\n${mr.description}`);
  const closing = mr.targetBranch === defaultBranchName(project);
  const at = (closes: boolean) => ({ projectId: project.id, iid: mr.iid, closes });
  if (mr.closesIssueIds) {
    for (const id of mr.closesIssueIds) setNamingMergeRequest(draft, id, mr.id, at(true));
  } else {
    for (const r of closes) {
      const id = issueKey(state, r);
      if (id !== undefined) setNamingMergeRequest(draft, id, mr.id, at(closing));
    }
  }
  for (const r of mr.closesIssueIds ? [...closes, ...mentions] : mentions) {
    const id = issueKey(state, r);
    if (id !== undefined && !namingMergeRequest(state, id, mr.id)) setNamingMergeRequest(draft, id, mr.id, at(false));
  }
}

/**
 * MergeRequests::UpdateService: the merge request with `fields` changed (a new title decides
 * whether it is a draft), stored with the notes and events of what changed; the same record
 * when nothing did. Time spent (`spend_time`, already in `totalTimeSpent`) is noted even when
 * it leaves the total as it was, unless it resets a total of nothing.
 */
/**
 * IssuableBaseService#filter_assignees and MergeRequests::BaseService#filter_reviewer on ids a
 * caller sent: the first only unless several are allowed (Premium), and of those the users who
 * can read the merge request; `[]` when none is asked (`0` alone), undefined (no change) when
 * none of them can read it.
 */
export function filterUsers(state: State, project: Project, ids: readonly number[], now: number): number[] | undefined {
  if (ids.length === 0 || (ids.length === 1 && ids[0] === 0)) return [];
  const kept = state.instance.tier !== 'free' ? ids : ids.slice(0, 1);
  const readable = [...new Set(kept)].filter((id) => canReadMergeRequests(state, tget(state.users, id) ?? null, project, now));
  return readable.length ? readable : undefined;
}

export function editMergeRequest(project: Project, before: MergeRequest, user: User, fields: Partial<MergeRequest>, now: number, spent?: SpentChange) {
  return (draft: Draft<State>): MergeRequest => {
    let next: MergeRequest = { ...before, ...fields, updatedAt: now };
    if (fields.title !== undefined) next.draft = isDraftTitle(fields.title);
    if (next.targetBranch !== before.targetBranch) next.mergeStatus = 'unchecked';
    // after_update: the issues it closes worked out again, unless it is set to merge automatically (and while open).
    if (!next.autoMerge) next = withClosingIssues(draft as State, project, next, user, now);
    const same = (k: keyof MergeRequest) => JSON.stringify(next[k]) === JSON.stringify(before[k]);
    const unchanged = (Object.keys(next) as (keyof MergeRequest)[]).every((k) => k === 'updatedAt' || k === 'closesIssueIds' || same(k));
    if (unchanged && !spent) {
      if (same('closesIssueIds')) return before;
      // Only the list changed (an issue it names was made since): kept quietly, as the cache is.
      const kept: MergeRequest = { ...before, closesIssueIds: next.closesIssueIds };
      putMergeRequest(draft, project, kept, before);
      return kept;
    }
    putMergeRequest(draft, project, next, before);
    const timeSpent = spent && !(spent.seconds === 'reset' && before.totalTimeSpent === 0) ? spent : undefined;
    recordMergeRequestChanges(draft, before, next, user.id, now, timeSpent);
    return next;
  };
}

/**
 * Whether MergeRequests::ReopenService reopens a closed merge request: not while its discussion
 * is locked (MergeRequestPolicy's `locked` prevents reopen_merge_request), nor while another open
 * one has its source and target branches (validate_branches fails the transition); refused, it
 * stays closed, and the update answers as if nothing was asked.
 */
export function reopens(state: State, mr: MergeRequest): boolean {
  if (mr.state !== 'closed' || mr.discussionLocked) return false;
  return !openMergeRequestsOn(state, mr.projectId, 'source', mr.sourceBranch).some((m) => m.iid !== mr.iid && m.targetBranch === mr.targetBranch);
}

/** `destroy_merge_request`: owners and administrators. */
export function canDestroyMergeRequest(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.owner, now);
}

/** Issuable::DestroyService: the merge request and what hangs on it (the issues it named, its notes, award emoji and events). */
export function deleteMergeRequest(project: Project, mr: MergeRequest) {
  return (draft: Draft<State>): void => {
    const state = draft as State;
    for (const r of allRefs(state, project, mr)) setNamingMergeRequest(draft, issueKey(state, r) ?? -1, mr.id, null);
    for (const id of mr.closesIssueIds ?? []) setNamingMergeRequest(draft, id, mr.id, null);
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
  const t = namingMergeRequests(state, issue.id);
  if (!t) return [];
  const out: MergeRequest[] = [];
  for (const ref of tvalues(t)) {
    if (which === 'closing' && !ref.closes) continue;
    const mr = pget(state.mergeRequests, ref.projectId, ref.iid);
    if (mr) out.push(mr);
  }
  return out.sort((a, b) => a.id - b.id);
}

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

/** MergeabilityCheckService's verdict: whether the head merges into the target from their base without a conflict. */
export async function checkMergeability(repo: RepositoryObjects, base: string, target: string, head: string): Promise<'can_be_merged' | 'cannot_be_merged'> {
  return (await mergesCleanly(repo, base, target, head)) ? 'can_be_merged' : 'cannot_be_merged';
}

/** MergeabilityCheckService on a read: an unchecked open merge request checked against its branches as they are now. */
export async function checkedMergeRequest(state: State, repo: RepositoryObjects, mr: MergeRequest): Promise<MergeRequest> {
  if (mr.state !== 'opened' || (mr.mergeStatus !== 'unchecked' && mr.mergeStatus !== 'checking')) return mr;
  const refs = refsOf(state, mr.projectId);
  const head = branchTip(refs, mr.sourceBranch);
  const target = branchTip(refs, mr.targetBranch);
  if (!head || !target) return { ...mr, mergeStatus: 'cannot_be_merged', pendingMergeStatus: null };
  const base = (await mergeBase(repo, head, [target])) ?? target;
  return { ...mr, mergeStatus: await checkMergeability(repo, base, target, head), pendingMergeStatus: null };
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

/** MergeRequest#squash_on_merge?: the project's squash option first (always, never), else the merge request's. */
export function squashOnMerge(project: Project, squash: boolean): boolean {
  const option = project.settings.squash_option;
  return option === 'always' ? true : option === 'never' ? false : squash;
}
