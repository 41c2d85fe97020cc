// The issues a merge request closes (MergeRequest#closes_issues, #cache_merge_request_closes_issues!,
// MergeRequestsClosingIssues and #visible_closing_issues_for): what `Closes #n` names in its
// title, its description and the messages of its commits (all of its latest diff's), when it
// targets the default branch, as the user who made, edited, reopened or pushed to it can read
// them. GitLab keeps that list (the cache) when the merge request is made, edited while open
// (not while it is set to merge automatically), reopened, or refreshed by a push to its source
// branch, and leaves a closed or merged one's alone: `closes_issues`, the issue's `closed_by`
// and the merge read the list kept. The commits' references are kept beside it (read when the
// commits are: at creation and at a push), so an edit works the list out again without
// reading the repository.
import type { Draft } from 'immer';
import type { RepositoryObjects } from '../../git/objects.js';
import type { Project, User } from '../../store/state.js';
import { pset, tget } from '../../store/table.js';
import { issueById, issueByIid, issueReferences, readableIssue, type Issue, type IssueRef } from '../issues/index.js';
import { defaultBranchName } from '../repositories/index.js';
import type { State } from '../world.js';
import type { MergeRequest } from './records.js';

/**
 * What `Closes #n` names in the messages of a merge request's commits (oldest first, as
 * commitsBetween lists them), read newest first as MergeRequest#commits gives them.
 */
export async function commitClosingRefs(state: State, repo: RepositoryObjects, project: Project, shas: readonly string[]): Promise<IssueRef[]> {
  if (shas.length === 0) return [];
  const messages: string[] = [];
  for (let i = shas.length - 1; i >= 0; i--) messages.push((await repo.readCommit(shas[i]!)).message);
  return issueReferences(state, project, messages.join('\n')).closes;
}

/** Gitlab::ClosingIssueExtractor over the title, the description and the commits' messages, when the request targets the default branch. */
function closingRefs(state: State, project: Project, mr: MergeRequest): IssueRef[] {
  if (mr.targetBranch !== defaultBranchName(project)) return [];
  const refs = [...issueReferences(state, project, `${mr.title}\n${mr.description}`).closes];
  const seen = new Set(refs.map((r) => `${r.projectId}#${r.iid}`));
  for (const r of mr.commitClosingRefs ?? []) {
    const key = `${r.projectId}#${r.iid}`;
    if (!seen.has(key)) {
      seen.add(key);
      refs.push({ projectId: r.projectId, iid: r.iid });
    }
  }
  return refs;
}

/**
 * MergeRequest#closes_issues(current_user): the ids of the issues it names as closing that
 * exist and `user` can read (null: every one that exists, for a record kept without a list).
 */
function closesIssues(state: State, project: Project, mr: MergeRequest, user: User | null, now: number): number[] {
  const out: number[] = [];
  for (const r of closingRefs(state, project, mr)) {
    const home = tget(state.projects, r.projectId);
    const issue = !home ? undefined : user ? readableIssue(state, user, home, r.iid, now) : issueByIid(state, r.projectId, r.iid);
    if (issue && !out.includes(issue.id)) out.push(issue.id);
  }
  return out;
}

/**
 * cache_merge_request_closes_issues!: `mr` with the list worked out again by `user`, while it is
 * open; a closed or merged one as it is.
 */
export function withClosingIssues(state: State, project: Project, mr: MergeRequest, user: User, now: number): MergeRequest {
  if (mr.state !== 'opened') return mr;
  return { ...mr, closesIssueIds: closesIssues(state, project, mr, user, now) };
}

/** The ids of the issues it closes: the list kept, else (a record kept without one) those it names that exist. */
export function closingIssueIds(state: State, project: Project, mr: MergeRequest): number[] {
  return mr.closesIssueIds ?? closesIssues(state, project, mr, null, 0);
}

/**
 * A request just merged: it closes the list kept while it was open (a record kept without one
 * is given the one it names now). Bookkeeping, as GitLab's cache is: no hook reports it.
 */
export function keepClosingIssues(draft: Draft<State>, project: Project, merged: MergeRequest): MergeRequest {
  if (merged.closesIssueIds) return merged;
  const kept: MergeRequest = { ...merged, closesIssueIds: closingIssueIds(draft as State, project, merged) };
  pset(draft.mergeRequests, project.id, merged.iid, kept);
  return kept;
}

/** Issue#autoclose_by_merged_closing_merge_request?: its project closes the issues merges name (`autoclose_referenced_issues`). */
function autocloses(state: State, issue: Issue): boolean {
  return tget(state.projects, issue.projectId)?.settings.autoclose_referenced_issues !== false;
}

/**
 * MergeRequest#visible_closing_issues_for: the issues it closes that `viewer` may read (the
 * author, for its commit messages), leaving out those whose project does not close them.
 */
export function visibleClosingIssues(state: State, project: Project, mr: MergeRequest, viewer: User | null, now: number): Issue[] {
  const out: Issue[] = [];
  for (const id of closingIssueIds(state, project, mr)) {
    const issue = issueById(state, id);
    const home = issue ? tget(state.projects, issue.projectId) : undefined;
    if (issue && home && !home.pendingDelete && readableIssue(state, viewer, home, issue.iid, now) && autocloses(state, issue)) out.push(issue);
  }
  return out;
}
