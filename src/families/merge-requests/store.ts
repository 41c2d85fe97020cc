// Where the merge requests family keeps its records: each project's merge requests by iid, the
// open ones by branch (what a push refreshes), each project's counts, and approvals.
import type { Draft } from 'immer';
import { sequences } from '../../store/state.js';
import { emptyTable, pget, tdel, tentries, tget, tset, tvalues, type Partitioned, type Table } from '../../store/table.js';
import { dropAwards, dropEvents } from '../issuables/index.js';
import type { State } from '../world.js';
import type { ApprovalRule, ApprovalSettings, MergeRequest } from './records.js';

export const ids = sequences(['merge_request', 'merge_request_iid', 'merge_request_diff', 'approval_project_rule', 'approval_merge_request_rule']);

/**
 * A project's merge requests in numbers: how many are in each state, and whether they were
 * created in iid order (each no earlier than the one before; a fixture may backdate one), when
 * iid order is creation order and a list in that order can stop at its page.
 */
export interface MergeRequestFacts {
  states: Record<MergeRequest['state'], number>;
  /** The newest creation time yet; null before the first. */
  lastCreatedAt: number | null;
  createdInOrder: boolean;
}

export interface MergeRequestsSlice {
  /** Project id -> its merge requests by iid. */
  mergeRequests: Partitioned<MergeRequest>;
  /** `<project id>|<s or t>:<branch>` -> the iids of the open merge requests from (s) or into (t) the branch: what a push refreshes. */
  openMergeRequestBranches: Table<Table<true>>;
  /** Project id -> what its merge request lists can tell without reading them all (see MergeRequestFacts). */
  mergeRequestFacts: Table<MergeRequestFacts>;
  /** Merge request id -> user id -> when they approved it. */
  mergeRequestApprovals: Table<Table<number>>;
  /** Project id -> its approval rules by id: the project's own and its merge requests'. */
  approvalRules: Partitioned<ApprovalRule>;
  /** Project id -> its approval settings (`/projects/:id/approvals`), when changed from GitLab's defaults. */
  approvalSettings: Table<ApprovalSettings>;
}

export function emptyMergeRequestsSlice(): MergeRequestsSlice {
  return {
    mergeRequests: emptyTable(), openMergeRequestBranches: emptyTable(), mergeRequestFacts: emptyTable(), mergeRequestApprovals: emptyTable(),
    approvalRules: emptyTable(), approvalSettings: emptyTable(),
  };
}

const branchKeys = (mr: MergeRequest) => [`${mr.projectId}|s:${mr.sourceBranch}`, `${mr.projectId}|t:${mr.targetBranch}`];

/** Puts an open merge request in (or takes it out of) the index of its branches. */
export function indexOpenMergeRequest(draft: Draft<State>, mr: MergeRequest, open: boolean): void {
  for (const key of branchKeys(mr)) {
    let t = tget(draft.openMergeRequestBranches, key);
    if (open) {
      if (!t) {
        tset(draft.openMergeRequestBranches, key, emptyTable<true>());
        t = tget(draft.openMergeRequestBranches, key)!;
      }
      tset(t, mr.iid, true);
    } else if (t && tdel(t, mr.iid) && t.size === 0) tdel(draft.openMergeRequestBranches, key);
  }
}

/** The project's open merge requests from (`source`) or into (`target`) a branch. */
export function openMergeRequestsOn(state: State, projectId: number, side: 'source' | 'target', branch: string): MergeRequest[] {
  const t = tget(state.openMergeRequestBranches, `${projectId}|${side === 'source' ? 's' : 't'}:${branch}`);
  if (!t) return [];
  return [...tentries(t)].flatMap(([iid]) => {
    const mr = pget(state.mergeRequests, projectId, Number(iid));
    return mr ? [mr] : [];
  }).sort((a, b) => a.iid - b.iid);
}

/** Counts a merge request in (or out of) its project's facts; `created` checks that it comes no earlier than the last. */
export function countMergeRequest(draft: Draft<State>, mr: MergeRequest, delta: 1 | -1, created = false): void {
  const before = tget(draft.mergeRequestFacts, mr.projectId) ?? { states: { opened: 0, closed: 0, merged: 0, locked: 0 }, lastCreatedAt: null, createdInOrder: true };
  const facts: MergeRequestFacts = { ...before, states: { ...before.states, [mr.state]: before.states[mr.state] + delta } };
  if (created) {
    facts.createdInOrder = before.createdInOrder && (before.lastCreatedAt === null || mr.createdAt >= before.lastCreatedAt);
    facts.lastCreatedAt = before.lastCreatedAt === null ? mr.createdAt : Math.max(before.lastCreatedAt, mr.createdAt);
  }
  tset(draft.mergeRequestFacts, mr.projectId, facts);
}

/** Forgets what is kept beside a deleted merge request: its place in the branch index, its count, approvals, events and award emoji. */
export function dropMergeRequestRecords(draft: Draft<State>, mr: MergeRequest): void {
  indexOpenMergeRequest(draft, mr, false);
  countMergeRequest(draft, mr, -1);
  tdel(draft.mergeRequestApprovals, mr.id);
  const rules = tget(draft.approvalRules, mr.projectId);
  if (rules) for (const r of [...tvalues(rules)]) if (r.mergeRequestId === mr.id) tdel(rules, r.id);
  dropEvents(draft, 'MergeRequest', mr.id);
  dropAwards(draft, { type: 'MergeRequest', id: mr.id });
}

/** Forgets a deleted project's merge requests and what is kept beside them. */
export function forgetProjectMergeRequests(draft: Draft<State>, projectId: number): void {
  const mrs = tget(draft.mergeRequests, projectId);
  if (mrs) for (const mr of tvalues(mrs)) dropMergeRequestRecords(draft, mr);
  tdel(draft.mergeRequests, projectId);
  tdel(draft.mergeRequestFacts, projectId);
  tdel(draft.approvalRules, projectId);
  tdel(draft.approvalSettings, projectId);
}
