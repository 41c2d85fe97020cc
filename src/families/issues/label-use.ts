// What issues are to labels: the label routes' issue counts, and a deleted label taken off every
// issue that carries it (registered with the labels family).
import { isWithin } from '../../policy/access.js';
import { tget } from '../../store/table.js';
import type { LabelUse } from '../labels/index.js';
import type { MilestoneUse } from '../milestones/index.js';
import type { State } from '../world.js';
import { bvalues, facetSet, issueByIid, projectsWithIssues, putIssue } from './store.js';

export const issueLabels: LabelUse = {
  counts(state, label) {
    let open = 0;
    let closed = 0;
    const projects = label.projectId !== null ? [label.projectId] : [...projectsWithIssues(state)].filter((id) => {
      const p = tget(state.projects, id);
      return p && isWithin(state, p.namespaceId, label.groupId!);
    });
    for (const pid of projects) {
      const set = facetSet(state, pid, `l:${label.id}`);
      for (const iid of bvalues(set)) {
        const issue = issueByIid(state, pid, iid);
        if (issue?.state === 'opened') open++;
        else if (issue) closed++;
      }
    }
    return { open_issues_count: open, closed_issues_count: closed };
  },
  unlabel(draft, label) {
    const projects = label.projectId !== null ? [label.projectId] : [...projectsWithIssues(draft as State)];
    for (const pid of projects) {
      const iids = [...bvalues(facetSet(draft as State, pid, `l:${label.id}`))];
      for (const iid of iids) {
        const issue = issueByIid(draft as State, pid, iid)!;
        putIssue(draft, { ...issue, labelIds: issue.labelIds.filter((id) => id !== label.id) });
      }
    }
  },
  relabel(draft, from, to) {
    if (from.projectId === null) return;
    for (const iid of [...bvalues(facetSet(draft as State, from.projectId, `l:${from.id}`))]) {
      const issue = issueByIid(draft as State, from.projectId, iid)!;
      const ids = issue.labelIds.filter((id) => id !== from.id && id !== to.id);
      putIssue(draft, { ...issue, labelIds: [...ids, to.id] });
    }
  },
};

/** A promoted milestone's merge: the project's issues in one of `from` move to `to`. */
export const issueMilestones: MilestoneUse = {
  move(draft, projectId, from, to) {
    for (const id of from) {
      for (const iid of [...bvalues(facetSet(draft as State, projectId, `m:${id}`))]) {
        const issue = issueByIid(draft as State, projectId, iid)!;
        putIssue(draft, { ...issue, milestoneId: to });
      }
    }
  },
};
