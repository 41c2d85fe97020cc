// System notes and resource events of a change to an issue, as GitLab writes them
// (app/services/system_notes/issuables_service.rb, time_tracking_service.rb,
// Issuable::CommonSystemNotesService, Issues::UpdateService#handle_changes): title, description,
// due date, time tracking, discussion lock, assignees and confidentiality are notes; state,
// labels, milestone, weight and iteration are resource events, never notes.
import type { Draft } from 'immer';
import { tget } from '../../store/table.js';
import {
  assigneesBody, dueDateBody, estimateBody, recordEvent, recordLabelChange, recordMilestoneChange, systemNote, timeSpentBody, titleChangeBody, type SpentChange,
} from '../issuables/index.js';
import { epicById } from '../epics/index.js';
import type { State } from '../world.js';
import type { Issue } from './records.js';
import { crossReference } from './references.js';

/**
 * What an issue's update records, in GitLab's order: the state event (change_state runs
 * first), then Issuable::CommonSystemNotesService (title, description, time tracking, lock;
 * then due date, milestone and label events), then the update service's assignees and
 * confidentiality, and EE's weight and iteration events. `created`: the issue is new, so only
 * what CommonSystemNotesService records on creation (due date, milestone, labels).
 */
export function recordIssueChanges(draft: Draft<State>, before: Issue, after: Issue, userId: number, now: number, spent?: SpentChange, created = false): void {
  const on = { type: 'Issue' as const, id: after.id };
  const note = (body: string) => systemNote(draft, 'Issue', after, userId, body, now);
  if (!created) {
    if (before.state !== after.state) recordEvent(draft, 'state', on, userId, now, { state: after.state === 'closed' ? 'closed' : 'reopened', sourceCommit: null, sourceMergeRequestId: null });
    if (before.title !== after.title) note(titleChangeBody(before.title, after.title));
    if (before.description !== after.description) note('changed the description');
    if (before.timeEstimate !== after.timeEstimate) note(estimateBody(after.timeEstimate));
    if (spent) note(timeSpentBody(spent.seconds, spent.spentAt, spent.today));
    if ((before.discussionLocked ?? false) !== (after.discussionLocked ?? false)) note(`${after.discussionLocked ? 'locked' : 'unlocked'} the discussion in this issue`);
  }
  const due = dueDateBody(before.dueDate, after.dueDate);
  if (due) note(due);
  recordMilestoneChange(draft, { ...on, projectId: after.projectId, state: after.state }, userId, before.milestoneId, after.milestoneId, now);
  recordLabelChange(draft, on, userId, before.labelIds, after.labelIds, now);
  if (created || before.title !== after.title || before.description !== after.description) {
    crossReference(draft, { type: 'Issue', id: after.id, iid: after.iid, projectId: after.projectId }, `${after.title}\n${after.description}`, userId, now);
  }
  if (created) return;
  const assignees = assigneesBody(draft as State, before.assigneeIds, after.assigneeIds);
  if (assignees) note(assignees);
  if (before.confidential !== after.confidential) note(after.confidential ? 'made the issue confidential' : 'made the issue visible to everyone');
  if (before.epicId !== after.epicId) epicNotes(draft, after, before.epicId, after.epicId, userId, now);
  if (before.weight !== after.weight) recordEvent(draft, 'weight', on, userId, now, { weight: after.weight });
  if (before.iterationId !== after.iterationId) {
    if (after.iterationId !== null) recordEvent(draft, 'iteration', on, userId, now, { iterationId: after.iterationId, action: 'add' });
    else recordEvent(draft, 'iteration', on, userId, now, { iterationId: before.iterationId!, action: 'remove' });
  }
}

/** EE's SystemNotes::EpicsService: `added to epic &1` / `removed from epic &1` / `changed epic to &2` on the issue, `added issue acme/app#1` / `removed issue ...` on the epics. */
function epicNotes(draft: Draft<State>, issue: Issue, from: number | null, to: number | null, userId: number, now: number): void {
  const project = tget(draft.projects, issue.projectId);
  const epicRef = (e: { groupId: number; iid: number }) => (project && project.namespaceId === e.groupId ? `&${e.iid}` : `${tget(draft.namespaces, e.groupId)?.fullPath ?? ''}&${e.iid}`);
  const issueRef = `${project ? `${tget(draft.namespaces, project.namespaceId)?.fullPath ?? ''}/${project.path}` : ''}#${issue.iid}`;
  const onEpic = (e: { id: number }, body: string) => systemNote(draft, 'Epic', { id: e.id, projectId: null }, userId, body, now);
  const old = from === null ? undefined : epicById(draft as State, from);
  const next = to === null ? undefined : epicById(draft as State, to);
  if (old && next) systemNote(draft, 'Issue', issue, userId, `changed epic to ${epicRef(next)}`, now);
  else if (next) systemNote(draft, 'Issue', issue, userId, `added to epic ${epicRef(next)}`, now);
  else if (old) systemNote(draft, 'Issue', issue, userId, `removed from epic ${epicRef(old)}`, now);
  if (old) onEpic(old, `removed issue ${issueRef}`);
  if (next) onEpic(next, `added issue ${issueRef}`);
}
