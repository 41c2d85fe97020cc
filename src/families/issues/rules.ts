// Issues' services and policies (app/services/issues/*, app/models/issue.rb, ProjectPolicy and
// IssuePolicy reduced to roles): create, update, close and reopen, delete, move and clone, and
// time tracking (subscriptions, to-dos and award emoji are the issuables family's). Checks run
// before each recipe.
import type { Draft } from 'immer';
import { ACCESS, type Project, type User } from '../../store/state.js';
import { canReadProject, hasProjectRole } from '../../policy/access.js';
import { tdel, tget, tvalues } from '../../store/table.js';
import type { Change } from '../define.js';
import type { State } from '../world.js';
import { canReadIssues } from './finder.js';
import { availableLabel, findOrCreateLabels } from '../labels/index.js';
import type { Issue, IssueType, Severity } from './records.js';
import { addNote as storeNote, copyNotes, dropNotes, noteKey, noteList, putNote, type Note } from '../../store/notes.js';
import { rewriteReferences } from './rewrite.js';
import { dropIssue, ids, issueById, issueByIid, putIssue } from './store.js';
import { duplicatedIssue, issueInvalid, subtractTooMuch } from './errors.js';
import { recordIssueChanges } from './system-notes.js';
import { epicByIid, epicForProject, type Epic } from '../epics/index.js';
import { createLink, issueReference, linksOf, removeLink } from './links.js';
import { notFound } from '../../core/errors.js';
import { dropAwards, formatDuration, issueMilestone, recordEvent, type SpentChange } from '../issuables/index.js';

/** `admin_issue`: labels, assignees, milestones and time tracking (Planner and above). */
export function canAdminIssues(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.planner, now);
}

/** `create_issue`: any signed-in reader of the issues, in a project that is not archived. */
export function canCreateIssue(state: State, user: User | null, project: Project, now: number): boolean {
  return !!user && !project.archived && canReadIssues(state, user, project, now);
}

/** `update_issue`: Planners and above, and the issue's author. */
export function canUpdateIssue(state: State, user: User | null, project: Project, issue: Issue, now: number): boolean {
  return !!user && !project.archived && (canAdminIssues(state, user, project, now) || issue.authorId === user.id);
}

/** `destroy_issue`: owners and administrators. */
export function canDestroyIssue(state: State, user: User | null, project: Project, now: number): boolean {
  return hasProjectRole(state, user, project, ACCESS.owner, now);
}

/** `set_issue_created_at`, `set_issue_iid`, `set_issue_updated_at`: owners and administrators. */
export const canBackdate = canDestroyIssue;

export interface IssueInput {
  title?: string;
  description?: string;
  assigneeIds?: number[];
  milestoneId?: number | null;
  /** Label titles to set, add or remove. */
  labels?: string[];
  addLabels?: string[];
  removeLabels?: string[];
  dueDate?: string | null;
  confidential?: boolean;
  discussionLocked?: boolean;
  issueType?: IssueType;
  severity?: Severity;
  createdAt?: number;
  updatedAt?: number;
  iid?: number;
  weight?: number | null;
  /** An epic's id (or, from `epic_iid`, its iid in the project's group); 0 or null unsets. */
  epicId?: number | null;
  epicByIid?: boolean;
  stateEvent?: 'close' | 'reopen';
  /** Label ids (quick actions name existing labels): the whole set, some to add, some to remove. */
  labelIds?: number[];
  addLabelIds?: number[];
  removeLabelIds?: number[];
  /** Seconds. */
  timeEstimate?: number;
  spend?: SpentChange;
  iterationId?: number | null;
}

/** The epic an issue's input names, on the higher tiers: one of the project's group or its ancestors, or 404. */
function inputEpic(state: State, project: Project, input: IssueInput): number | null | undefined {
  if (state.instance.tier === 'free' || input.epicId === undefined) return undefined;
  if (input.epicId === null || input.epicId === 0) return null;
  let epic: Epic | undefined;
  if (input.epicByIid) {
    const ns = tget(state.namespaces, project.namespaceId);
    epic = ns && ns.kind === 'group' ? epicByIid(state, ns.id, input.epicId) : undefined;
  } else epic = epicForProject(state, project, input.epicId);
  if (!epic) throw notFound('Epic');
  return epic.id;
}

/** Issue validations: a title of at most 255 characters, a description of at most 1,048,576. */
export function validateIssue(title: string, description: string): void {
  const errors: Record<string, string[]> = {};
  if (title.trim() === '') errors.title = ["can't be blank"];
  else if (title.length > 255) errors.title = ['is too long (maximum is 255 characters)'];
  if (description.length > 1_048_576) errors.description = ['is too long (maximum is 1048576 characters)'];
  if (Object.keys(errors).length) throw issueInvalid(errors);
}

/** Users a project's issue may be assigned to: those who can read its issues. CE keeps the first. */
function keepAssignees(state: State, project: Project, ids: number[], now: number): number[] {
  const out: number[] = [];
  for (const id of ids) {
    if (id === 0 || out.includes(id)) continue;
    const u = tget(state.users, id);
    if (u && canReadProject(state, u, project, now) && canReadIssues(state, u, project, now)) out.push(id);
  }
  return state.instance.tier === 'free' ? out.slice(0, 1) : out;
}

function cleanTitles(list: string[]): string[] {
  return [...new Set(list.map((t) => t.trim()).filter((t) => t !== ''))];
}


/** A system note on the issue. */
function addNote(draft: Draft<State>, issue: Issue, authorId: number, body: string, now: number): Note {
  return storeNote(draft as State, noteKey('Issue', issue.id), {
    noteableType: 'Issue', noteableId: issue.id, commitId: null, projectId: issue.projectId, authorId, body, system: true, internal: false, createdAt: now, updatedAt: now,
  });
}

/** Issues::CreateService. */
/** `record`: false for fixture data, which starts with no system notes or events. */
export function createIssue(state: State, project: Project, author: User, input: IssueInput & { title: string }, now: number, record = true): Change<Issue> {
  const description = input.description ?? '';
  validateIssue(input.title, description);
  const admin = canAdminIssues(state, author, project, now);
  if (input.iid !== undefined && issueByIid(state, project.id, input.iid)) throw duplicatedIssue();
  const milestone = admin && input.milestoneId ? issueMilestone(state, project, input.milestoneId) : undefined;
  const assignees = admin && input.assigneeIds ? keepAssignees(state, project, input.assigneeIds, now) : [];
  const epicId = admin ? inputEpic(state, project, input) : undefined;
  return (draft) => {
    const key = `p${project.id}`;
    let iid: number;
    if (input.iid !== undefined) {
      iid = input.iid;
      const seqKey = `issue_iid:${key}`;
      if ((draft.seq[seqKey] ?? 0) < iid) draft.seq[seqKey] = iid;
    } else {
      iid = ids.next(draft as State, 'issue_iid', key);
      while (issueByIid(draft as State, project.id, iid)) iid = ids.next(draft as State, 'issue_iid', key);
    }
    const titles = admin ? cleanTitles([...(input.labels ?? []), ...(input.addLabels ?? [])]).filter((t) => !(input.removeLabels ?? []).includes(t)) : [];
    const created = input.createdAt ?? now;
    const issue: Issue = {
      id: ids.next(draft as State, 'issue'),
      iid,
      projectId: project.id,
      title: input.title,
      description,
      state: 'opened',
      createdAt: created,
      updatedAt: created,
      closedAt: null,
      closedById: null,
      authorId: author.id,
      assigneeIds: assignees,
      labelIds: [...new Set([...findOrCreateLabels(draft, project, titles, now), ...(admin ? input.addLabelIds ?? [] : [])])],
      milestoneId: milestone?.id ?? null,
      dueDate: input.dueDate ?? null,
      confidential: input.confidential ?? false,
      discussionLocked: input.discussionLocked ?? null,
      issueType: input.issueType ?? 'issue',
      severity: input.severity ?? 'unknown',
      movedToId: null,
      duplicatedToId: null,
      timeEstimate: 0,
      totalTimeSpent: 0,
      relativePosition: null,
      weight: state.instance.tier !== 'free' ? input.weight ?? null : null,
      epicId: epicId ?? null,
      iterationId: admin && state.instance.tier !== 'free' ? input.iterationId ?? null : null,
      healthStatus: null,
    };
    putIssue(draft, issue);
    // What CommonSystemNotesService records for a new issue: its due date, milestone and labels.
    if (record) recordIssueChanges(draft, { ...issue, dueDate: null, milestoneId: null, labelIds: [] }, issue, author.id, now, undefined, true);
    return issue;
  };
}

/** Issues::UpdateService (with state_event close and reopen). Returns the issue as it is after. */
export function updateIssue(state: State, project: Project, issue: Issue, user: User, input: IssueInput, now: number): Change<Issue> {
  const admin = canAdminIssues(state, user, project, now);
  const title = input.title ?? issue.title;
  const description = input.description ?? issue.description;
  validateIssue(title, description);
  const milestoneId = !admin || input.milestoneId === undefined ? issue.milestoneId : input.milestoneId ? issueMilestone(state, project, input.milestoneId)?.id ?? null : null;
  const assigneeIds = admin && input.assigneeIds !== undefined ? keepAssignees(state, project, input.assigneeIds, now) : issue.assigneeIds;
  const epicId = admin ? inputEpic(state, project, input) : undefined;
  if (admin && input.spend && input.spend.seconds !== 'reset' && issue.totalTimeSpent + input.spend.seconds < 0) throw subtractTooMuch();
  return (draft) => {
    let labelIds = issue.labelIds;
    if (admin && (input.labels !== undefined || input.addLabels !== undefined || input.removeLabels !== undefined)) {
      const current = input.labels !== undefined ? findOrCreateLabels(draft, project, cleanTitles(input.labels), now) : issue.labelIds;
      const add = findOrCreateLabels(draft, project, cleanTitles(input.addLabels ?? []), now);
      const removeTitles = new Set(cleanTitles(input.removeLabels ?? []));
      labelIds = [...new Set([...current, ...add])].filter((id) => !removeTitles.has(tget(draft.labels, id)?.title ?? ''));
    }
    if (admin && input.labelIds !== undefined) labelIds = [...new Set(input.labelIds)];
    if (admin && input.addLabelIds !== undefined) labelIds = [...new Set([...labelIds, ...input.addLabelIds])];
    if (admin && input.removeLabelIds !== undefined) labelIds = labelIds.filter((id) => !input.removeLabelIds!.includes(id));
    const spend = admin ? input.spend : undefined;
    const spent = spend === undefined ? issue.totalTimeSpent : spend.seconds === 'reset' ? 0 : issue.totalTimeSpent + spend.seconds;
    const next: Issue = {
      ...issue,
      title,
      description,
      assigneeIds,
      labelIds,
      milestoneId,
      dueDate: input.dueDate !== undefined ? input.dueDate : issue.dueDate,
      confidential: input.confidential ?? issue.confidential,
      discussionLocked: input.discussionLocked ?? issue.discussionLocked,
      issueType: input.issueType ?? issue.issueType,
      weight: input.weight !== undefined && state.instance.tier !== 'free' ? input.weight : issue.weight,
      epicId: epicId === undefined ? issue.epicId : epicId,
      iterationId: admin && input.iterationId !== undefined && state.instance.tier !== 'free' ? input.iterationId : issue.iterationId,
      timeEstimate: admin && input.timeEstimate !== undefined ? input.timeEstimate : issue.timeEstimate,
      totalTimeSpent: spent,
      createdAt: input.createdAt ?? issue.createdAt,
    };
    if (input.stateEvent === 'close' && issue.state === 'opened') Object.assign(next, { state: 'closed', closedAt: now, closedById: user.id });
    if (input.stateEvent === 'reopen' && issue.state === 'closed') Object.assign(next, { state: 'opened', closedAt: null, closedById: null, movedToId: null, duplicatedToId: null });
    const changed = (Object.keys(next) as (keyof Issue)[]).some((k) => JSON.stringify(next[k]) !== JSON.stringify(issue[k]));
    if (!changed && input.updatedAt === undefined && spend === undefined) return issue;
    next.updatedAt = input.updatedAt ?? now;
    putIssue(draft, next);
    const timeSpent = spend && !(spend.seconds === 'reset' && issue.totalTimeSpent === 0) ? spend : undefined;
    recordIssueChanges(draft, issue, next, user.id, now, timeSpent);
    return next;
  };
}

/** Issuable::DestroyService: the issue and what hangs on it; its iid is never used again. */
export function deleteIssue(issue: Issue): Change {
  return (draft) => {
    for (const link of linksOf(draft as State, issue.id)) removeLink(link)(draft);
    dropIssue(draft, issue);
    dropNotes(draft as State, noteKey('Issue', issue.id));
    dropAwards(draft, { type: 'Issue', id: issue.id });
    tdel(draft.closingMergeRequests, issue.id);
  };
}

/** TimeTrackable#time_estimate=, with the system note GitLab writes. */
export function setEstimate(issue: Issue, user: User, seconds: number, now: number): Change<Issue> {
  return (draft) => {
    if (seconds === issue.timeEstimate) return issue;
    const next = { ...issue, timeEstimate: seconds, updatedAt: now };
    addNote(draft, next, user.id, seconds === 0 ? 'removed time estimate' : `changed time estimate to ${formatDuration(seconds)}`, now);
    putIssue(draft, next);
    return next;
  };
}

/** TimeTrackable#spend_time: a timelog of `seconds` (negative subtracts); `reset` removes it all. */
export function spendTime(issue: Issue, user: User, seconds: number | 'reset', now: number, summary?: string): Change<Issue> {
  if (seconds !== 'reset' && issue.totalTimeSpent + seconds < 0) throw subtractTooMuch();
  return (draft) => {
    if (seconds === 'reset' && issue.totalTimeSpent === 0) return issue;
    const total = seconds === 'reset' ? 0 : issue.totalTimeSpent + seconds;
    const next = { ...issue, totalTimeSpent: total, updatedAt: now };
    let body: string;
    if (seconds === 'reset') body = 'removed time spent';
    else body = `${seconds > 0 ? 'added' : 'subtracted'} ${formatDuration(Math.abs(seconds))} of time spent`;
    if (summary && seconds !== 'reset') body += `\n\n${summary}`;
    addNote(draft, next, user.id, body, now);
    putIssue(draft, next);
    return next;
  };
}

/** Issues::MoveService / CloneService: a copy in the target project; a move closes the original. */
export function moveIssue(state: State, from: Project, to: Project, issue: Issue, user: User, now: number, mode: 'move' | 'clone', withNotes = false): Change<Issue> {
  return (draft) => {
    const iid = ids.next(draft as State, 'issue_iid', `p${to.id}`);
    const titles = issue.labelIds.map((id) => tget(draft.labels, id)?.title).filter((t): t is string => !!t);
    const keepLabels = titles.map((t) => availableLabel(draft as State, to, t)?.id).filter((x): x is number => x !== undefined);
    const milestone = issue.milestoneId !== null ? issueMilestone(state, from, issue.milestoneId) : undefined;
    const sameMilestone = milestone ? issueMilestone(state, to, milestone.id) : undefined;
    const copy: Issue = {
      ...issue,
      id: ids.next(draft as State, 'issue'),
      iid,
      projectId: to.id,
      state: mode === 'clone' ? 'opened' : issue.state,
      closedAt: mode === 'clone' ? null : issue.closedAt,
      closedById: mode === 'clone' ? null : issue.closedById,
      authorId: mode === 'clone' ? user.id : issue.authorId,
      createdAt: mode === 'clone' ? now : issue.createdAt,
      updatedAt: now,
      // Issues::MoveService#rewrite_description (a clone's too, Issues::CloneService).
      description: rewriteReferences(state, issue.description, from, to, user, now),
      labelIds: keepLabels,
      milestoneId: sameMilestone?.id ?? null,
      movedToId: null,
      duplicatedToId: null,
      timeEstimate: mode === 'clone' ? 0 : issue.timeEstimate,
      totalTimeSpent: mode === 'clone' ? 0 : issue.totalTimeSpent,
    };
    putIssue(draft, copy);
    // A move takes the notes along; a clone only `with_notes` (Issues::CloneService).
    if (mode === 'move' || withNotes) {
      copyNotes(draft as State, noteKey('Issue', issue.id), { key: noteKey('Issue', copy.id), noteableId: copy.id, projectId: to.id });
      // Notes::CopyService rewrites each copied note's references as the description's.
      for (const note of noteList(draft as State, noteKey('Issue', copy.id))) {
        const body = rewriteReferences(state, note.body, from, to, user, now);
        if (body !== note.body) putNote(draft as State, noteKey('Issue', copy.id), { ...note, body });
      }
    }
    const ref = (p: Project) => tget(draft.namespaces, p.namespaceId)!.fullPath + '/' + p.path;
    if (mode === 'move') {
      const old = { ...issue, state: 'closed' as const, closedAt: issue.closedAt ?? now, closedById: issue.closedById ?? user.id, movedToId: copy.id, updatedAt: now };
      putIssue(draft, old);
      // The original is closed by Issues::CloseService: a state event, not a note.
      if (issue.state === 'opened') recordEvent(draft, 'state', { type: 'Issue', id: issue.id }, user.id, now, { state: 'closed', sourceCommit: null, sourceMergeRequestId: null });
      addNote(draft, old, user.id, `moved to ${ref(to)}#${copy.iid}`, now);
      addNote(draft, copy, user.id, `moved from ${ref(from)}#${issue.iid}`, now);
    } else {
      addNote(draft, issue, user.id, `cloned to ${ref(to)}#${copy.iid}`, now);
      addNote(draft, copy, user.id, `cloned from ${ref(from)}#${issue.iid}`, now);
    }
    return copy;
  };
}

/** The MoveService's refusals, as its messages. */
export function moveRefusal(state: State, from: Project, to: Project, issue: Issue, user: User, now: number, mode: 'move' | 'clone'): string | null {
  const verb = mode === 'move' ? 'move' : 'clone';
  if (mode === 'move' && issue.movedToId !== null) return 'Cannot move issue, it has been moved before!';
  if (mode === 'move' && from.id === to.id) return 'Cannot move issue to project it originates from!';
  if (!canAdminIssues(state, user, from, now)) return `Cannot ${verb} issue due to insufficient permissions!`;
  if (!canReadProject(state, user, to, now) || !canCreateIssue(state, user, to, now)) return `Cannot ${verb} issue due to insufficient permissions!`;
  return null;
}

/**
 * Issues::DuplicateService: notes on both issues, the duplicate closed (a state event), and the
 * two related (IssueLinks::CreateService, with its notes) unless they are already.
 */
export function markDuplicate(issue: Issue, of: Issue, user: User, now: number): Change<Issue> {
  return (draft) => {
    addNote(draft, issue, user.id, `marked this issue as a duplicate of ${issueReference(draft as State, issue.projectId, of)}`, now);
    addNote(draft, of, user.id, `marked ${issueReference(draft as State, of.projectId, issue)} as a duplicate of this issue`, now);
    const next: Issue = {
      ...issue, duplicatedToId: of.id, updatedAt: now,
      ...(issue.state === 'opened' ? { state: 'closed' as const, closedAt: now, closedById: user.id } : {}),
    };
    if (issue.state === 'opened') recordEvent(draft, 'state', { type: 'Issue', id: issue.id }, user.id, now, { state: 'closed', sourceCommit: null, sourceMergeRequestId: null });
    putIssue(draft, next);
    if (!linksOf(draft as State, issue.id).some((l) => l.sourceId === of.id || l.targetId === of.id)) createLink(draft as State, next, of, 'relates_to', now, user.id)(draft);
    return next;
  };
}

/** A position for an issue that has none yet: far apart, in id order (RelativePositioning's spacing). */
const positionOf = (i: Issue) => i.relativePosition ?? i.id * 1024;

/** Issues::ReorderService: between its new neighbours (after `after`, before `before`). */
export function reorderIssue(state: State, issue: Issue, after: Issue | undefined, before: Issue | undefined, now: number): Change<Issue> {
  void state;
  let position: number;
  if (after && before) position = Math.floor((positionOf(after) + positionOf(before)) / 2);
  else if (after) position = positionOf(after) + 512;
  else position = positionOf(before!) - 512;
  return (draft) => {
    for (const n of [after, before]) if (n && n.relativePosition === null) putIssue(draft, { ...n, relativePosition: positionOf(n) });
    const next = { ...issue, relativePosition: position, updatedAt: now };
    putIssue(draft, next);
    return next;
  };
}

/** Merge requests that close the issue on merge, counted for `merge_requests_count`. */
export function closingMergeRequestCount(state: State, issue: Issue): number {
  const t = tget(state.closingMergeRequests, issue.id);
  if (!t) return 0;
  let n = 0;
  for (const r of tvalues(t)) if (r.closes) n++;
  return n;
}

export { issueById };
