// System notes and resource events of a change to an issue or merge request, as GitLab writes
// them (app/services/system_notes/issuables_service.rb, time_tracking_service.rb,
// Issuable::CommonSystemNotesService, the update services' handle_changes): title, description,
// due date, time tracking, discussion lock, assignees and confidentiality are notes; state,
// labels, milestone, weight and iteration are resource events, never notes.
import type { Draft } from 'immer';
import { addNote, noteKey, type Note } from '../../store/notes.js';
import { tget, tset } from '../../store/table.js';
import { issueReferences } from './merge-requests.js';
import { issueByIid } from './store.js';
import type { NoteableType, State } from '../world.js';
import { formatDuration } from './duration.js';
import { recordEvent, recordLabelChange, recordMilestoneChange } from './events.js';
import type { Issue, MergeRequest } from './records.js';

/** Array#to_sentence: `a`, `a and b`, `a, b, and c`. */
export function toSentence(items: readonly string[]): string {
  if (items.length <= 2) return items.join(' and ');
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

type Op = -1 | 0 | 1;
type Diff = [Op, string];

/** A character diff of two short texts (the longest common subsequence), deletions before insertions in each change. */
function charDiff(a: string[], b: string[]): Diff[] {
  const n = a.length;
  const m = b.length;
  const width = m + 1;
  const lcs = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) {
    lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1]! + 1 : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
  }
  const out: Diff[] = [];
  const push = (op: Op, ch: string) => {
    const last = out[out.length - 1];
    if (last && last[0] === op) last[1] += ch;
    else out.push([op, ch]);
  };
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) (push(0, a[i]!), i++, j++);
    else if (j >= m || (i < n && lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!)) (push(-1, a[i]!), i++);
    else (push(1, b[j]!), j++);
  }
  return merge(out);
}

/** diff_cleanupMerge: one deletion then one insertion between equalities, their common ends moved into the equalities. */
function merge(diffs: Diff[]): Diff[] {
  const out: Diff[] = [];
  let del = '';
  let ins = '';
  const flush = () => {
    if (del !== '' && ins !== '') {
      let p = 0;
      while (p < del.length && p < ins.length && del[p] === ins[p]) p++;
      if (p > 0) {
        const prev = out[out.length - 1];
        if (prev && prev[0] === 0) prev[1] += del.slice(0, p);
        else out.push([0, del.slice(0, p)]);
        del = del.slice(p);
        ins = ins.slice(p);
      }
    }
    if (del !== '') out.push([-1, del]);
    if (ins !== '') out.push([1, ins]);
    del = '';
    ins = '';
  };
  for (const [op, text] of diffs) {
    if (op === -1) del += text;
    else if (op === 1) ins += text;
    else {
      flush();
      const prev = out[out.length - 1];
      if (prev && prev[0] === 0) prev[1] += text;
      else if (text !== '') out.push([0, text]);
    }
  }
  flush();
  return out;
}

/** diff_cleanupSemantic's elimination: an equality no longer than the edits on both sides of it becomes part of the edit. */
function cleanupSemantic(input: Diff[]): Diff[] {
  let diffs = input.map((d) => [...d] as Diff);
  let changed = true;
  while (changed) {
    changed = false;
    for (let k = 1; k < diffs.length - 1; k++) {
      if (diffs[k]![0] !== 0) continue;
      const size = (from: number, step: number) => {
        let ins = 0;
        let del = 0;
        for (let x = from; x >= 0 && x < diffs.length && diffs[x]![0] !== 0; x += step) {
          if (diffs[x]![0] === 1) ins += diffs[x]![1].length;
          else del += diffs[x]![1].length;
        }
        return Math.max(ins, del);
      };
      const len = diffs[k]![1].length;
      if (len <= size(k - 1, -1) && len <= size(k + 1, 1)) {
        diffs.splice(k, 1, [-1, diffs[k]![1]], [1, diffs[k]![1]]);
        diffs = merge(diffs);
        changed = true;
        break;
      }
    }
  }
  return diffs;
}

/**
 * `{-old-}` / `{+new+}` around what changed between two titles (Gitlab::Diff::CharDiff, a
 * character diff cleaned up semantically, and InlineDiffMarkdownMarker).
 */
export function markTitleDiff(oldTitle: string, newTitle: string): [string, string] {
  if (oldTitle === '') return [oldTitle, newTitle];
  const a = [...oldTitle];
  const b = [...newTitle];
  if (a.length * b.length > 1_000_000) return [oldTitle === newTitle ? oldTitle : `{-${oldTitle}-}`, oldTitle === newTitle ? newTitle : `{+${newTitle}+}`];
  const diffs = cleanupSemantic(charDiff(a, b));
  let o = '';
  let n = '';
  for (const [op, text] of diffs) {
    if (op === 0) (o += text, n += text);
    else if (op === -1) o += `{-${text}-}`;
    else n += `{+${text}+}`;
  }
  return [o, n];
}

/** SystemNotes::IssuablesService#change_title. */
export function titleChangeBody(oldTitle: string, newTitle: string): string {
  const [o, n] = markTitleDiff(oldTitle, newTitle);
  return `changed title from **${o}** to **${n}**`;
}

/** SystemNotes::IssuablesService#change_issuable_assignees: `assigned to @a`, `unassigned @b`, or both joined by `and`. */
export function assigneesBody(state: State, before: readonly number[], after: readonly number[]): string | null {
  const ref = (id: number) => `@${tget(state.users, id)?.username ?? 'ghost'}`;
  const added = after.filter((id) => !before.includes(id)).map(ref);
  const removed = before.filter((id) => !after.includes(id)).map(ref);
  const parts: string[] = [];
  if (added.length) parts.push(`assigned to ${toSentence(added)}`);
  if (removed.length) parts.push(`unassigned ${toSentence(removed)}`);
  return parts.length ? parts.join(' and ') : null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Date#to_fs(:long): `January 5, 2024`. */
export function longDate(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return `${MONTHS[m! - 1]} ${d}, ${y}`;
}

/** SystemNotes::TimeTrackingService#change_due_date. */
export function dueDateBody(before: string | null, after: string | null): string | null {
  if (before === after) return null;
  return after === null ? 'removed due date' : `changed due date to ${longDate(after)}`;
}

/** SystemNotes::TimeTrackingService#change_time_spent. */
export function timeSpentBody(seconds: number | 'reset', spentAt: string | null, today: string): string {
  if (seconds === 'reset') return 'removed time spent';
  let body = `${seconds > 0 ? 'added' : 'subtracted'} ${formatDuration(Math.abs(seconds))} of time spent`;
  if (spentAt && spentAt !== today) body += ` at ${spentAt}`;
  return body;
}

export const estimateBody = (seconds: number) => (seconds === 0 ? 'removed time estimate' : `changed time estimate to ${formatDuration(seconds)}`);

/** A system note on an issue or merge request. */
export function systemNote(draft: Draft<State>, type: NoteableType, on: { id: number; projectId: number | null }, authorId: number, body: string, now: number, mentionedIn?: Note['mentionedIn']): void {
  addNote(draft as State, noteKey(type, on.id), {
    noteableType: type, noteableId: on.id, commitId: null, projectId: on.projectId, authorId, body, system: true, internal: false, createdAt: now, updatedAt: now,
    ...(mentionedIn ? { mentionedIn } : {}),
  });
}

/** Time spent in a change, as the note tells it. */
export interface SpentChange {
  seconds: number | 'reset';
  /** `YYYY-MM-DD` of `/spend 1h 2024-01-02`; null for today. */
  spentAt: string | null;
  today: string;
}

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

const DRAFT_TITLE = /^\s*(?:\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s|\[wip\]|wip:|wip\s)/i;
const draftless = (title: string) => title.replace(/^\s*(?:\[draft\]|\(draft\)|draft:|draft\s-\s|draft\s|\[wip\]|wip:|wip\s)\s*/i, '');
export const isDraftTitle = (title: string) => DRAFT_TITLE.test(title);
/** MergeRequest.draftless_title: the title without its draft prefixes. */
export function draftlessTitle(title: string): string {
  let t = title;
  while (isDraftTitle(t)) t = draftless(t);
  return t;
}

/**
 * What a merge request's update records: the state event, the draft note (`marked this merge
 * request as **draft**` / `**ready**`) and the title note when more than the draft prefix
 * changed, description, time tracking, lock, milestone and label events, assignees.
 */
export function recordMergeRequestChanges(draft: Draft<State>, before: MergeRequest, after: MergeRequest, userId: number, now: number, spent?: SpentChange): void {
  const on = { type: 'MergeRequest' as const, id: after.id };
  const note = (body: string) => systemNote(draft, 'MergeRequest', after, userId, body, now);
  if (before.state !== after.state) {
    const state = after.state === 'merged' ? 'merged' : after.state === 'closed' ? 'closed' : 'reopened';
    recordEvent(draft, 'state', on, userId, now, { state, sourceCommit: null, sourceMergeRequestId: null });
  }
  if (before.draft !== after.draft) note(`marked this merge request as **${after.draft ? 'draft' : 'ready'}**`);
  if (before.title !== after.title && draftless(before.title) !== draftless(after.title)) note(titleChangeBody(before.title, after.title));
  if (before.description !== after.description) note('changed the description');
  if (before.timeEstimate !== after.timeEstimate) note(estimateBody(after.timeEstimate));
  if (spent) note(timeSpentBody(spent.seconds, spent.spentAt, spent.today));
  if ((before.discussionLocked ?? false) !== (after.discussionLocked ?? false)) note(`${after.discussionLocked ? 'locked' : 'unlocked'} the discussion in this merge request`);
  recordMilestoneChange(draft, { ...on, projectId: after.projectId, state: after.state }, userId, before.milestoneId, after.milestoneId, now);
  recordLabelChange(draft, on, userId, before.labelIds, after.labelIds, now);
  const assignees = assigneesBody(draft as State, before.assigneeIds, after.assigneeIds);
  if (assignees) note(assignees);
  if (before.title !== after.title || before.description !== after.description) {
    crossReference(draft, { type: 'MergeRequest', id: after.id, iid: after.iid, projectId: after.projectId }, `${after.title}\n${after.description}`, userId, now);
  }
}

/** Project#to_reference_base from another project: its path in the same namespace, else its full path. */
export function projectRefFrom(state: State, fromProjectId: number, projectId: number): string {
  if (fromProjectId === projectId) return '';
  const p = tget(state.projects, projectId);
  const from = tget(state.projects, fromProjectId);
  if (!p) return '';
  if (from && from.namespaceId === p.namespaceId) return p.path;
  return `${tget(state.namespaces, p.namespaceId)?.fullPath ?? ''}/${p.path}`;
}

/**
 * Mentionable#create_cross_references!: each issue a title or description names gets
 * `mentioned in issue #2` / `mentioned in merge request !1` (the mentioner as seen from it),
 * once per mentioner.
 */
export function crossReference(draft: Draft<State>, mentioner: { type: 'Issue' | 'MergeRequest'; id: number; iid: number; projectId: number }, text: string, authorId: number, now: number): void {
  const from = tget(draft.projects, mentioner.projectId);
  if (!from || !text.includes('#')) return;
  const { closes, mentions } = issueReferences(draft as State, from, text);
  for (const r of [...closes, ...mentions]) {
    const issue = issueByIid(draft as State, r.projectId, r.iid);
    if (!issue || (mentioner.type === 'Issue' && issue.id === mentioner.id)) continue;
    const key = `${issue.id}|${mentioner.type}:${mentioner.id}`;
    if (tget(draft.crossReferences, key)) continue;
    tset(draft.crossReferences, key, true);
    const [noun, sigil] = mentioner.type === 'Issue' ? ['issue', '#'] : ['merge request', '!'];
    systemNote(draft, 'Issue', issue, authorId, `mentioned in ${noun} ${projectRefFrom(draft as State, issue.projectId, mentioner.projectId)}${sigil}${mentioner.iid}`, now,
      { type: mentioner.type, projectId: mentioner.projectId, iid: mentioner.iid });
  }
}

/** EE's SystemNotes::EpicsService: `added to epic &1` / `removed from epic &1` / `changed epic to &2` on the issue, `added issue acme/app#1` / `removed issue ...` on the epics. */
function epicNotes(draft: Draft<State>, issue: Issue, from: number | null, to: number | null, userId: number, now: number): void {
  const epicOf = (id: number) => {
    const at = tget(draft.epicLocations, id);
    const t = at ? tget(draft.epics, at.groupId) : undefined;
    return at && t ? tget(t, at.iid) : undefined;
  };
  const project = tget(draft.projects, issue.projectId);
  const epicRef = (e: { groupId: number; iid: number }) => (project && project.namespaceId === e.groupId ? `&${e.iid}` : `${tget(draft.namespaces, e.groupId)?.fullPath ?? ''}&${e.iid}`);
  const issueRef = `${project ? `${tget(draft.namespaces, project.namespaceId)?.fullPath ?? ''}/${project.path}` : ''}#${issue.iid}`;
  const onEpic = (e: { id: number }, body: string) => systemNote(draft, 'Epic', { id: e.id, projectId: null }, userId, body, now);
  const old = from === null ? undefined : epicOf(from);
  const next = to === null ? undefined : epicOf(to);
  if (old && next) systemNote(draft, 'Issue', issue, userId, `changed epic to ${epicRef(next)}`, now);
  else if (next) systemNote(draft, 'Issue', issue, userId, `added to epic ${epicRef(next)}`, now);
  else if (old) systemNote(draft, 'Issue', issue, userId, `removed from epic ${epicRef(old)}`, now);
  if (old) onEpic(old, `removed issue ${issueRef}`);
  if (next) onEpic(next, `added issue ${issueRef}`);
}
