// MergeRequests::RefreshService, as GitLab's post-receive runs it for each branch a request
// moved (a commit through the API, a merge, a push over git): the open merge requests from the
// branch take its new head and merge base and note the commits it added
// (SystemNotes::CommitService#add_commits); those into the branch whose head the push brought
// in are merged by it and close the issues they name (post_merge_manually_merged); those from a deleted branch are closed
// (close_upon_missing_source_branch_ref); a draft commit makes it a draft
// (mark_mr_as_draft_from_commits).
import type { Draft } from 'immer';
import { commitsBetween, mergeBase } from '../../git/merge-base.js';
import type { RepositoryObjects } from '../../git/objects.js';
import { projectFullPath } from '../../policy/paths.js';
import type { Project, User } from '../../store/state.js';
import { pget, tget } from '../../store/table.js';
import { ids, openMergeRequestsOn } from './store.js';
import type { Context } from '../define.js';
import type { PushChange, StoredEvent } from '../stream.js';
import { branchTip, objectsOf, refsOf } from '../repositories/index.js';
import type { State } from '../world.js';
import { closeIssuesOnMerge } from './merge.js';
import { commitClosingRefs, keepClosingIssues, withClosingIssues } from './closing.js';
import type { IssueRef } from '../issues/index.js';
import { checkMergeability, putMergeRequest } from './rules.js';
import type { MergeRequest } from './records.js';
import { draftlessTitle, recordMergeRequestChanges } from './system-notes.js';
import { systemNote } from '../issuables/index.js';
import { abortAutoMerge } from './auto-merge.js';
import { approvalRulesAvailable, approvalSettingsOf, approverIds } from './approval-state.js';
import { resetApprovals } from './approval-rules.js';

/** Commit#draft?: a title that starts as a draft's (Gitlab::Regex.merge_request_draft), or a fixup or squash commit. */
const isDraftCommit = (title: string) => /^\s*(?:\[draft\]|\(draft\)|draft:)/i.test(title) || /(?:fixup!|squash!)\s/.test(title);
/** Commit#short_id: the first 8 characters (Commit::MIN_SHA_LENGTH + 1). */
const short = (sha: string) => sha.slice(0, 8);
/** What Rails' content_tag escapes in text that is not marked safe. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&${({ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' })[c]};`);

interface Reload {
  mr: MergeRequest;
  head: string;
  base: string;
  start: string;
  mergeStatus: MergeRequest['mergeStatus'];
  /** The merge request's commits after the push (its diff's), to tell new commits from existing ones. */
  commits: ReadonlySet<string>;
  /** What `Closes #n` in those commits' messages names (closing.ts). */
  closingRefs: IssueRef[];
}

/** MergeRequests::RefreshService for a pushed branch (a subscriber of `push`). */
export async function refreshMergeRequests(ctx: Context<unknown>, push: StoredEvent<'push'>): Promise<void> {
  const user = ctx.user;
  if (!user || push.refType !== 'branch') return;
  await refresh(ctx, user, push);
}

async function refresh(ctx: Context<unknown>, user: User, push: PushChange): Promise<void> {
  const project = tget(ctx.state.projects, push.projectId);
  if (!project) return;
  // One already at the pushed head (made by this push's options) has nothing to take.
  const from = openMergeRequestsOn(ctx.state, project.id, 'source', push.ref).filter((mr) => mr.sha !== push.after);
  const into = openMergeRequestsOn(ctx.state, project.id, 'target', push.ref);
  if (from.length === 0 && into.length === 0) return;
  const now = ctx.now();
  if (push.after === null) {
    ctx.update((draft) => {
      for (const mr of from) changeState(draft, project, mr, { ...mr, state: 'closed', closedAt: now, closedById: user.id, updatedAt: now }, user.id, now);
    });
    return;
  }
  const repo = objectsOf(ctx, project);
  const commits = await newCommits(repo, push.before, push.after, from[0]);
  const pushed = new Set(commits);
  const merged = into.filter((mr) => pushed.has(mr.sha));
  const refs = refsOf(ctx.state, project.id);
  const reloads: Reload[] = [];
  for (const mr of from) {
    const reload = await diffAt(ctx.state, repo, project, mr, push.after, branchTip(refs, mr.targetBranch));
    if (reload) reloads.push(reload);
  }
  const titles = new Map<string, string>();
  if (reloads.length > 0) for (const sha of commits) titles.set(sha, (await repo.readCommit(sha)).message.split('\n')[0]!);
  const path = projectFullPath(ctx.state, project);
  const draftCommit = commits.find((c) => isDraftCommit(titles.get(c) ?? ''));
  ctx.update((draft) => {
    for (const mr of merged) {
      const done: MergeRequest = { ...mr, state: 'merged', mergedAt: now, mergedById: user.id, updatedAt: now };
      changeState(draft, project, mr, done, user.id, now);
      closeIssuesOnMerge(draft, project, keepClosingIssues(draft, project, done), user, now);
    }
    // The target moved under the others: their mergeability is checked again when read (mark_as_unchecked).
    for (const mr of into) {
      if (merged.includes(mr) || mr.mergeStatus === 'unchecked') continue;
      const current = pget(draft.mergeRequests, project.id, mr.iid) as MergeRequest;
      putMergeRequest(draft, project, { ...current, mergeStatus: 'unchecked' }, current);
    }
    for (const r of reloads) {
      const reloaded: MergeRequest = { ...r.mr, ...newDiff(draft, r), updatedAt: now };
      const diffId = reloaded.diffVersion!.id;
      // cache_merge_requests_closing_issues: worked out again over the new commits, as the pusher reads them.
      putMergeRequest(draft, project, withClosingIssues(draft as State, project, reloaded, user, now), r.mr);
      if (commits.length > 0) systemNote(draft, 'MergeRequest', r.mr, user.id, addedCommits(r, commits, titles, push.before, `/${path}/-/merge_requests/${r.mr.iid}/diffs?diff_id=${diffId}&start_sha=${push.before ?? ''}`), now);
      // abort_auto_merges: auto-merge was set for another head.
      if (r.mr.autoMerge && r.mr.autoMerge.sha !== r.head) abortAutoMerge(draft, project, r.mr, 'source branch was updated', user.id, now);
      // reset_approvals_if_approvers_changed / ResetApprovalsService, where the project resets approvals on push.
      if (commits.length > 0) resetApprovalsOnPush(draft, project, r.mr, user.id, now);
      // mark_mr_as_draft_from_commits: a draft commit makes the merge request a draft.
      if (draftCommit && !r.mr.draft) {
        const current = pget(draft.mergeRequests, project.id, r.mr.iid) as MergeRequest;
        putMergeRequest(draft, project, { ...current, title: `Draft: ${draftlessTitle(current.title)}`, draft: true }, current);
        systemNote(draft, 'MergeRequest', r.mr, user.id, `marked this merge request as **draft** from ${draftCommit}`, now);
      }
    }
  });
}

/**
 * The diff of a merge request at `head` over its target branch's tip `start` (none without the
 * target): their merge base, mergeability, the merge request's commits and what their messages close.
 */
async function diffAt(state: State, repo: RepositoryObjects, project: Project, mr: MergeRequest, head: string, start: string | undefined): Promise<Reload | null> {
  if (!start) return null;
  const base = (await mergeBase(repo, head, [start])) ?? start;
  const mergeStatus = await checkMergeability(repo, base, start, head);
  const shas = await commitsBetween(repo, start, head);
  return { mr, head, base, start, mergeStatus, commits: new Set(shas), closingRefs: await commitClosingRefs(state, repo, project, shas) };
}

/** A new version of the diff (merge_request_diffs): the fields of a merge request that takes it. */
function newDiff(draft: Draft<State>, r: Reload): Pick<MergeRequest, 'sha' | 'baseSha' | 'startSha' | 'diffVersion' | 'mergeStatus' | 'commitClosingRefs'> {
  const diffVersion = { id: ids.next(draft as State, 'merge_request_diff'), count: (r.mr.diffVersion?.count ?? 1) + 1 };
  return { sha: r.head, baseSha: r.base, startSha: r.start, diffVersion, mergeStatus: r.mergeStatus, commitClosingRefs: r.closingRefs };
}

/**
 * MergeRequest#reload_diff (MergeRequests::ReloadDiffsService), as a reopened merge request takes
 * it: a new version of its diff from its source and target branches as they are now, as the
 * fields to save with the reopening (marked unchecked, as ReopenService's mark_as_unchecked);
 * null where a branch is gone (the diff stays as it was).
 */
export async function reloadDiff(state: State, repo: RepositoryObjects, project: Project, mr: MergeRequest): Promise<((draft: Draft<State>) => Partial<MergeRequest>) | null> {
  const refs = refsOf(state, project.id);
  const head = branchTip(refs, mr.sourceBranch);
  const r = head ? await diffAt(state, repo, project, mr, head, branchTip(refs, mr.targetBranch)) : null;
  return r ? (draft) => ({ ...newDiff(draft, r), mergeStatus: 'unchecked' }) : null;
}

/**
 * find_new_commits: what a push to a branch brought (`git rev-list before..after`, oldest
 * first); for a branch pushed anew, what it holds beyond its merge request's last head.
 */
async function newCommits(repo: RepositoryObjects, before: string | null, after: string, mr: MergeRequest | undefined): Promise<string[]> {
  if (before !== null) return commitsBetween(repo, before, after);
  if (!mr) return [];
  const common = await mergeBase(repo, mr.sha, [after]).catch(() => null);
  return common ? commitsBetween(repo, common, after) : [];
}

function changeState(draft: Draft<State>, project: Project, before: MergeRequest, after: MergeRequest, userId: number, now: number): void {
  putMergeRequest(draft, project, after, before);
  recordMergeRequestChanges(draft, before, after, userId, now);
}

/** SystemNotes::CommitService#add_commits: the count, the list (what came from the target branch first), the link to compare. */
function addedCommits(r: Reload, commits: readonly string[], titles: ReadonlyMap<string, string>, oldrev: string | null, compare: string): string {
  const fresh = commits.filter((c) => r.commits.has(c));
  const existing = commits.filter((c) => !r.commits.has(c));
  const count = (n: number) => `${n} commit${n === 1 ? '' : 's'}`;
  let summary = '';
  if (existing.length > 0) {
    const last = short(existing[existing.length - 1]!);
    const range = existing.length === 1 ? short(existing[0]!) : oldrev !== null ? `${short(oldrev)}...${last}` : `${short(existing[0]!)}..${last}`;
    summary = `<li>${range} - ${count(existing.length)} from branch <code>${escapeHtml(r.mr.targetBranch)}</code></li>`;
  }
  const list = fresh.map((c) => `<li>${short(c)} - ${escapeHtml(titles.get(c) ?? '')}</li>`).join('');
  return [`added ${count(commits.length)}`, `<ul>${summary}${list}</ul>`, `[Compare with previous version](${compare})`].join('\n\n');
}

/** Array#to_sentence. */
function toSentence(items: string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** MergeRequests::ResetApprovalsService on a push of new commits, where the project's `reset_approvals_on_push` says so. */
function resetApprovalsOnPush(draft: Draft<State>, project: Project, mr: MergeRequest, userId: number, now: number): void {
  const state = draft as State;
  if (!approvalRulesAvailable(state) || !approvalSettingsOf(state, project.id).resetApprovalsOnPush) return;
  const approvers = approverIds(state, mr).flatMap((id) => tget(state.users, id)?.username ?? []);
  if (approvers.length === 0) return;
  resetApprovals(mr)(draft);
  systemNote(draft, 'MergeRequest', mr, userId, `reset approvals from ${toSentence(approvers.map((u) => `@${u}`))} by pushing to the branch`, now);
}
