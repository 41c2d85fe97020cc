// Where the family keeps its records, and the indexes that answer the narrowest filters. An
// issue lives in its project's partition under its iid; each project keeps one set of iids per
// facet (state, label, assignee, author, milestone, confidentiality), so a list starts from
// the smallest set its filters name instead of walking every issue of the project.
import type { Draft } from 'immer';
import { emptyTable, pget, pset, tdel, tget, tset, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { sequences } from '../../store/state.js';
import type { State } from '../world.js';
import type { AwardEmoji, Issue, IssueLocation, Label, MergeRequest, SystemNote, Todo } from './records.js';

export const ids = sequences(['issue', 'issue_iid', 'label', 'issue_note', 'todo', 'award_emoji', 'merge_request', 'merge_request_iid']);

export interface IssuesSlice {
  /** Label id -> label. */
  labels: Table<Label>;
  /** `p<project id>` or `g<group id>` -> its labels' titles -> label id (titles are unique per owner). */
  labelTitles: Table<Table<number>>;
  /** Project id -> its issues by iid. */
  issues: Partitioned<Issue>;
  /** Issue id -> where it lives. */
  issueLocations: Table<IssueLocation>;
  /** `<project id>|<facet>` -> the iids of that project's issues with the facet. */
  issueIndex: Table<Table<number>>;
  /** Issue id -> the system notes written on it, by note id. */
  issueNotes: Partitioned<SystemNote>;
  /** `<issue id>:<user id>` -> an explicit subscription (true) or unsubscription (false). */
  issueSubscriptions: Table<boolean>;
  /** User id -> their to-dos by id. */
  todos: Partitioned<Todo>;
  /** `<user id>:<issue id>` -> the pending to-do's id. */
  pendingTodos: Table<number>;
  /** Issue id -> its award emoji by id. */
  awardEmoji: Partitioned<AwardEmoji>;
  /** `<issue id>:<user id>:<name>` -> award id. */
  awardKeys: Table<number>;
  /** Project id -> its merge requests by iid. */
  mergeRequests: Partitioned<MergeRequest>;
  /** Issue id -> merge request id -> where it is, and whether it closes the issue on merge (`Closes #n`). */
  closingMergeRequests: Partitioned<IssueLocation & { closes: boolean }>;
}

export function emptyIssuesSlice(): IssuesSlice {
  return {
    labels: emptyTable(), labelTitles: emptyTable(), issues: emptyTable(), issueLocations: emptyTable(), issueIndex: emptyTable(),
    issueNotes: emptyTable(), issueSubscriptions: emptyTable(), todos: emptyTable(), pendingTodos: emptyTable(), awardEmoji: emptyTable(),
    awardKeys: emptyTable(), mergeRequests: emptyTable(), closingMergeRequests: emptyTable(),
  };
}

/** The facets an issue is indexed under. */
export function facets(issue: Issue): string[] {
  const out = [`s:${issue.state}`, `u:${issue.authorId}`, `c:${issue.confidential ? 1 : 0}`, `m:${issue.milestoneId ?? 'none'}`];
  if (issue.labelIds.length === 0) out.push('l:none');
  for (const id of issue.labelIds) out.push(`l:${id}`);
  if (issue.assigneeIds.length === 0) out.push('a:none');
  for (const id of issue.assigneeIds) out.push(`a:${id}`);
  return out;
}

const indexKey = (projectId: number, facet: string) => `${projectId}|${facet}`;

/** The iids of a project's issues with the facet (empty when none has it). */
export function facetSet(state: State, projectId: number, facet: string): Table<number> {
  return tget(state.issueIndex, indexKey(projectId, facet)) ?? EMPTY;
}
const EMPTY: Table<number> = emptyTable();

/** Stores an issue (new or changed) and moves it between the index's sets as its facets changed. */
export function putIssue(draft: Draft<State>, issue: Issue): void {
  const before = pget(draft.issues, issue.projectId, issue.iid) as Issue | undefined;
  const old = before ? new Set(facets(before)) : new Set<string>();
  const now = new Set(facets(issue));
  for (const f of old) {
    if (now.has(f)) continue;
    const set = tget(draft.issueIndex, indexKey(issue.projectId, f));
    if (set) {
      tdel(set, issue.iid);
      if (set.size === 0) tdel(draft.issueIndex, indexKey(issue.projectId, f));
    }
  }
  for (const f of now) {
    if (old.has(f)) continue;
    let set = tget(draft.issueIndex, indexKey(issue.projectId, f));
    if (!set) {
      tset(draft.issueIndex, indexKey(issue.projectId, f), emptyTable<number>());
      set = tget(draft.issueIndex, indexKey(issue.projectId, f))!;
    }
    tset(set, issue.iid, issue.iid);
  }
  pset(draft.issues, issue.projectId, issue.iid, issue);
  tset(draft.issueLocations, issue.id, { projectId: issue.projectId, iid: issue.iid });
}

/** Removes an issue and its index entries (its iid is never handed out again). */
export function dropIssue(draft: Draft<State>, issue: Issue): void {
  for (const f of facets(issue)) {
    const set = tget(draft.issueIndex, indexKey(issue.projectId, f));
    if (set) {
      tdel(set, issue.iid);
      if (set.size === 0) tdel(draft.issueIndex, indexKey(issue.projectId, f));
    }
  }
  const t = tget(draft.issues, issue.projectId);
  if (t) tdel(t, issue.iid);
  tdel(draft.issueLocations, issue.id);
}

export function issueByIid(state: State, projectId: number, iid: number): Issue | undefined {
  return pget(state.issues, projectId, iid);
}

export function issueById(state: State, id: number): Issue | undefined {
  const at = tget(state.issueLocations, id);
  return at ? pget(state.issues, at.projectId, at.iid) : undefined;
}

export function projectIssueCount(state: State, projectId: number): number {
  return tget(state.issues, projectId)?.size ?? 0;
}

/** The project ids that hold issues. */
export function* projectsWithIssues(state: State): IterableIterator<number> {
  for (const chunk of Object.values(state.issues.chunks)) for (const k of chunk.keys()) yield Number(k);
}

/** Every issue of a project. */
export function* projectIssues(state: State, projectId: number): IterableIterator<Issue> {
  const t = tget(state.issues, projectId);
  if (t) yield* tvalues(t);
}

/** Forgets everything kept for a deleted project's issues. */
export function forgetProjectIssues(draft: Draft<State>, projectId: number): void {
  for (const issue of [...projectIssues(draft as State, projectId)]) dropIssue(draft, issue as Issue);
  tdel(draft.issues, projectId);
  tdel(draft.mergeRequests, projectId);
  const owner = tget(draft.labelTitles, `p${projectId}`);
  if (owner) for (const id of tvalues(owner)) tdel(draft.labels, id);
  tdel(draft.labelTitles, `p${projectId}`);
}

export function forgetGroupLabels(draft: Draft<State>, groupId: number): void {
  const owner = tget(draft.labelTitles, `g${groupId}`);
  if (owner) for (const id of tvalues(owner)) tdel(draft.labels, id);
  tdel(draft.labelTitles, `g${groupId}`);
}

/** The system notes of an issue, oldest first. */
export function issueNotes(state: State, issueId: number): SystemNote[] {
  const t = tget(state.issueNotes, issueId);
  return t ? [...tvalues(t)] : [];
}
