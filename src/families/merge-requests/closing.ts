// The issues a merge request closes (MergeRequest#closes_issues, MergeRequestsClosingIssues and
// #visible_closing_issues_for): what `Closes #n` in its title and description names while it is
// open and targets the default branch; once merged, the list it had at the merge
// (cache_merge_request_closes_issues! leaves a merged request's alone), kept on its record.
import type { Draft } from 'immer';
import type { Project, User } from '../../store/state.js';
import { pset, tget } from '../../store/table.js';
import { issueById, issueByIid, issueReferences, readableIssue, type Issue, type IssueRef } from '../issues/index.js';
import { defaultBranchName } from '../repositories/index.js';
import type { State } from '../world.js';
import type { MergeRequest } from './records.js';

/** Gitlab::ClosingIssueExtractor over the title and description, when the request targets the default branch. */
export function closingRefs(state: State, project: Project, mr: MergeRequest): IssueRef[] {
  return mr.targetBranch === defaultBranchName(project) ? issueReferences(state, project, `${mr.title}\n${mr.description}`).closes : [];
}

/** The ids of the issues it closes: those kept at its merge, else those its text names that exist. */
export function closingIssueIds(state: State, project: Project, mr: MergeRequest): number[] {
  if (mr.closesIssueIds) return mr.closesIssueIds;
  const out: number[] = [];
  for (const r of closingRefs(state, project, mr)) {
    const issue = issueByIid(state, r.projectId, r.iid);
    if (issue) out.push(issue.id);
  }
  return out;
}

/**
 * A request just merged, stored with the issues it closes as they are now: they are what it
 * closes from then on. Bookkeeping, as GitLab's cache is: no hook reports it.
 */
export function keepClosingIssues(draft: Draft<State>, project: Project, merged: MergeRequest): MergeRequest {
  const kept: MergeRequest = { ...merged, closesIssueIds: closingIssueIds(draft as State, project, { ...merged, closesIssueIds: undefined }) };
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
