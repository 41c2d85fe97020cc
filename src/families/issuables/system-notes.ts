// The system notes issues, merge requests and epics share, as GitLab words them
// (app/services/system_notes/issuables_service.rb, time_tracking_service.rb): a title's change
// marked character by character, assignees, due date, time tracking; and the note itself.
import type { Draft } from 'immer';
import { addNote, noteKey, type Note } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import type { NoteableType, State } from '../world.js';
import { formatDuration } from './duration.js';

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
