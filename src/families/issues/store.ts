// Where the family keeps its records, and the indexes that answer the narrowest filters. An
// issue lives in its project's partition under its iid; each project keeps one set of iids per
// facet (state, label, assignee, author, milestone, confidentiality), so a list starts from
// the smallest set its filters name instead of walking every issue of the project. Issues,
// facet sets and the id index are blocked tables (a table of tables of 4,096 keys each), so a
// write copies a few small chunk indexes whatever the size of the project.
import type { Draft } from 'immer';
import { isWithin } from '../../policy/access.js';
import { emptyTable, tdel, tentries, tget, tset, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { sequences } from '../../store/state.js';
import type { State } from '../world.js';
import { dropAwards, dropEvents, emitIssuableChange } from '../issuables/index.js';
import type { Issue, IssueLink, IssueLocation } from './records.js';

export const ids = sequences(['issue_link', 'issue', 'issue_iid']);

const BLOCK = 4096;

/** Keys split into blocks of 4,096 (each a table): a write touches one block's small index, never one that grows with the whole. */
export type Blocked<T> = Table<Table<T>>;

const blockOf = (key: number) => Math.floor(key / BLOCK);

export function bget<T>(b: Blocked<T>, key: number): T | undefined {
  const t = tget(b, blockOf(key));
  return t === undefined ? undefined : tget(t, key);
}

export function bset<T>(b: Blocked<T>, key: number, value: T): void {
  let t = tget(b, blockOf(key));
  if (t === undefined) {
    tset(b, blockOf(key), emptyTable<T>());
    t = tget(b, blockOf(key))!;
  }
  tset(t, key, value);
}

export function bdel<T>(b: Blocked<T>, key: number): boolean {
  const t = tget(b, blockOf(key));
  if (t === undefined || !tdel(t, key)) return false;
  if (t.size === 0) tdel(b, blockOf(key));
  return true;
}

/** Values in ascending key order. */
export function* bvalues<T>(b: Blocked<T>): IterableIterator<T> {
  for (const t of tvalues(b)) yield* tvalues(t);
}

export function bsize<T>(b: Blocked<T>): number {
  let n = 0;
  for (const t of tvalues(b)) n += t.size;
  return n;
}

export interface IssuesSlice {
  /** Project id -> its issues by iid. */
  issues: Table<Blocked<Issue>>;
  /** Issue id -> where it lives. */
  issueLocations: Blocked<IssueLocation>;
  /** `<project id>|<facet>` -> the iids of that project's issues with the facet. */
  issueIndex: Table<Blocked<number>>;
  /** Issue id -> the user agent and address of the request that made it (UserAgentDetail). */
  userAgentDetails: Blocked<{ userAgent: string; ipAddress: string }>;
  /** Issue link id -> the link. */
  issueLinks: Blocked<IssueLink>;
  /** Issue id -> the ids of its links (either end). */
  issueLinkIds: Partitioned<number>;
  /** Issue id -> merge request id -> where it is, and whether it closes the issue on merge (`Closes #n`); the merge requests family writes it (references.ts). */
  closingMergeRequests: Partitioned<IssueLocation & { closes: boolean }>;
  /** `<issue id>|<Issue|MergeRequest>:<id>` -> the issue has its `mentioned in` note for that mentioner. */
  crossReferences: Table<true>;
}

export function emptyIssuesSlice(): IssuesSlice {
  return {
    issues: emptyTable(), issueLocations: emptyTable(), issueIndex: emptyTable(),
    closingMergeRequests: emptyTable(), userAgentDetails: emptyTable(), issueLinks: emptyTable(), issueLinkIds: emptyTable(),
    crossReferences: emptyTable(),
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
export function facetSet(state: State, projectId: number, facet: string): Blocked<number> {
  return tget(state.issueIndex, indexKey(projectId, facet)) ?? EMPTY;
}
const EMPTY: Blocked<number> = emptyTable();

function unindex(draft: Draft<State>, projectId: number, facet: string, iid: number): void {
  const set = tget(draft.issueIndex, indexKey(projectId, facet));
  if (set && bdel(set, iid) && set.size === 0) tdel(draft.issueIndex, indexKey(projectId, facet));
}

function index(draft: Draft<State>, projectId: number, facet: string, iid: number): void {
  let set = tget(draft.issueIndex, indexKey(projectId, facet));
  if (!set) {
    tset(draft.issueIndex, indexKey(projectId, facet), emptyTable<Table<number>>());
    set = tget(draft.issueIndex, indexKey(projectId, facet))!;
  }
  bset(set, iid, iid);
}

function projectBlock(draft: Draft<State>, projectId: number): Blocked<Issue> {
  let t = tget(draft.issues, projectId);
  if (!t) {
    tset(draft.issues, projectId, emptyTable<Table<Issue>>());
    t = tget(draft.issues, projectId)!;
  }
  return t as Blocked<Issue>;
}

/** Stores an issue (new or changed) and moves it between the index's sets as its facets changed. */
export function putIssue(draft: Draft<State>, issue: Issue): void {
  const before = issueByIid(draft as State, issue.projectId, issue.iid);
  const old = before ? new Set(facets(before)) : new Set<string>();
  const now = new Set(facets(issue));
  for (const f of old) if (!now.has(f)) unindex(draft, issue.projectId, f, issue.iid);
  for (const f of now) if (!old.has(f)) index(draft, issue.projectId, f, issue.iid);
  bset(projectBlock(draft, issue.projectId), issue.iid, issue);
  emitIssuableChange(draft, 'issue', before, issue);
  if (!before) bset(draft.issueLocations as Blocked<IssueLocation>, issue.id, { projectId: issue.projectId, iid: issue.iid });
}

/** Removes an issue and its index entries (its iid is never handed out again). */
export function dropIssue(draft: Draft<State>, issue: Issue): void {
  for (const f of facets(issue)) unindex(draft, issue.projectId, f, issue.iid);
  const t = tget(draft.issues, issue.projectId);
  if (t) bdel(t as Blocked<Issue>, issue.iid);
  bdel(draft.issueLocations as Blocked<IssueLocation>, issue.id);
  bdel(draft.userAgentDetails as Blocked<{ userAgent: string; ipAddress: string }>, issue.id);
  dropEvents(draft, 'Issue', issue.id);
}

export function issueByIid(state: State, projectId: number, iid: number): Issue | undefined {
  const t = tget(state.issues, projectId);
  return t ? bget(t, iid) : undefined;
}

export function issueById(state: State, id: number): Issue | undefined {
  const at = bget(state.issueLocations, id);
  return at ? issueByIid(state, at.projectId, at.iid) : undefined;
}

export function projectIssueCount(state: State, projectId: number): number {
  const t = tget(state.issues, projectId);
  return t ? bsize(t) : 0;
}

/** The project ids that hold issues. */
export function* projectsWithIssues(state: State): IterableIterator<number> {
  for (const [k] of tentries(state.issues)) yield Number(k);
}

/** Every issue of a project, by iid. */
export function* projectIssues(state: State, projectId: number): IterableIterator<Issue> {
  const t = tget(state.issues, projectId);
  if (t) yield* bvalues(t);
}

/** Forgets everything kept for a deleted project's issues. */
export function forgetProjectIssues(draft: Draft<State>, projectId: number): void {
  for (const issue of [...projectIssues(draft as State, projectId)]) {
    dropIssue(draft, issue as Issue);
    dropAwards(draft, { type: 'Issue', id: issue.id });
  }
  tdel(draft.issues, projectId);
}

/**
 * MilestoneWithStats#issue_stats from the indexes: a project milestone's issues are its project's
 * with its facet; a group milestone's, those of the projects in the group and its subgroups.
 */
export function milestoneIssueStats(state: State, milestone: { id: number; projectId: number | null; groupId: number | null }): { total: number; closed: number } {
  const projectIds: number[] = [];
  if (milestone.projectId !== null) projectIds.push(milestone.projectId);
  else if (milestone.groupId !== null) for (const pid of projectsWithIssues(state)) {
    const p = tget(state.projects, pid);
    if (p && isWithin(state, p.namespaceId, milestone.groupId)) projectIds.push(pid);
  }
  let total = 0;
  let closed = 0;
  for (const pid of projectIds) {
    const of = facetSet(state, pid, `m:${milestone.id}`);
    const closedSet = facetSet(state, pid, 's:closed');
    for (const iid of bvalues(of)) {
      total++;
      if (bget(closedSet, iid) !== undefined) closed++;
    }
  }
  return { total, closed };
}
