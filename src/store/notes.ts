// Notes (comments and system notes) on whatever they hang on: issues, merge requests, snippets,
// epics, commits. They are the core's tables, as memberships are, because several families
// write them (the issues family writes system notes, the notes family comments) and read them
// (`user_notes_count`); the kinds of noteable are the families' (their `noteables`, the
// `NoteableType` of families/world.ts). A noteable's notes are a table of their own, in id order,
// which is GitLab's `created_at` order: a page of them, a write, or a count never walks another
// noteable.
import { coreIds, type CoreState } from './state.js';
import { derived, emptyTable, tdel, tget, tlist, tset, tvalues, type Table } from './table.js';

export interface Note {
  id: number;
  /** The kind of record it hangs on, as the family that owns it names it (a `NoteableType`). */
  noteableType: string;
  /** The global id of the issue, merge request, snippet or epic; null on a commit. */
  noteableId: number | null;
  /** The commit a commit note is on. */
  commitId: string | null;
  /** The project of the noteable (null for a personal snippet or an epic). */
  projectId: number | null;
  authorId: number;
  body: string;
  system: boolean;
  /** Internal (formerly confidential): readable by Reporters and above only. */
  internal: boolean;
  createdAt: number;
  updatedAt: number;
  /** The user and time of the last edit of the body (`last_edited_at`); null when never edited. */
  updatedById: number | null;
  /** A commit note on a line: `path` and `line` (`line_type` new or old); null otherwise. */
  position: { path: string; line: number; lineType: 'new' | 'old' } | null;
  /** `DiscussionNote` for a note of a thread, `DiffNote` for one on a line of a merge request's diff; absent for a note standing alone (GitLab's plain `Note`). */
  type?: 'DiscussionNote' | 'DiffNote';
  /** A diff note's position (Position#to_h) and the commit it was made on (`commit_id`). */
  diff?: { position: DiffPosition; commitId: string | null };
  /** The thread of a reply: its first note's discussion id (`discussionIdOf`); absent on a thread's first note and on a note alone. */
  discussionId?: string;
  /** A resolvable note's resolution (merge request threads): when and by whom; absent or null while unresolved. */
  resolvedAt?: number | null;
  resolvedById?: number | null;
  /** A cross-reference's mentioner (`mentioned in issue #2`): the note is read only by those who may read it. */
  mentionedIn?: { type: 'Issue' | 'MergeRequest'; projectId: number; iid: number };
}

/** Gitlab::Diff::Position#to_h: the diff's commits, the paths, and the line (text), the area (image) or nothing more (file). */
export interface DiffPosition {
  base_sha: string;
  start_sha: string;
  head_sha: string;
  old_path: string | null;
  new_path: string | null;
  position_type: 'text' | 'image' | 'file';
  old_line?: number | null;
  new_line?: number | null;
  line_range?: Record<string, unknown> | null;
  width?: number | null;
  height?: number | null;
  x?: number | null;
  y?: number | null;
}

export interface NoteTables {
  /** Noteable key (`noteKey`) -> note id -> note. */
  byNoteable: Table<Table<Note>>;
  /** Noteable key -> how many of its notes are not system notes (`user_notes_count`). */
  userCounts: Table<number>;
  /** Project id -> the keys of its noteables that have notes: a deleted project's notes go with it. */
  byProject: Table<Table<string>>;
}

export function emptyNotes(): NoteTables {
  return { byNoteable: emptyTable(), userCounts: emptyTable(), byProject: emptyTable() };
}

/** The key a noteable's notes are kept under: `Issue:12`, `Commit:<project id>:<sha>`. */
export function noteKey(type: string, id: number | string): string {
  return `${type}:${id}`;
}

/** The notes of a noteable, as a table in id order (empty when none). */
export function notesTable(state: CoreState, key: string): Table<Note> {
  return tget(state.notes.byNoteable, key) ?? EMPTY;
}
const EMPTY = Object.freeze(emptyTable<Note>()) as Table<Note>;

export function findNote(state: CoreState, key: string, id: number): Note | undefined {
  return tget(notesTable(state, key), id);
}

export function userNotesCount(state: CoreState, key: string): number {
  return tget(state.notes.userCounts, key) ?? 0;
}

function countChange(draft: CoreState, key: string, by: number): void {
  const n = (tget(draft.notes.userCounts, key) ?? 0) + by;
  if (n === 0) tdel(draft.notes.userCounts, key);
  else tset(draft.notes.userCounts, key, n);
}

/** Adds a note (its id the next of the instance's note sequence) and returns it. */
export function addNote(draft: CoreState, key: string, fields: Omit<Note, 'id' | 'updatedById' | 'position'> & Partial<Pick<Note, 'position'>>): Note {
  const note: Note = { ...fields, id: coreIds.next(draft, 'note'), updatedById: null, position: fields.position ?? null };
  let t = tget(draft.notes.byNoteable, key);
  if (t === undefined) {
    tset(draft.notes.byNoteable, key, emptyTable<Note>());
    t = tget(draft.notes.byNoteable, key)!;
    if (note.projectId !== null) {
      if (tget(draft.notes.byProject, note.projectId) === undefined) tset(draft.notes.byProject, note.projectId, emptyTable<string>());
      tset(tget(draft.notes.byProject, note.projectId)!, key, key);
    }
  }
  tset(t, note.id, note);
  if (!note.system) countChange(draft, key, 1);
  return note;
}

/**
 * Notes::CopyService: every note of one noteable, comments and system notes, copied onto
 * another in order, each keeping its author, times and flags (a moved or cloned issue's).
 */
export function copyNotes(draft: CoreState, from: string, to: { key: string; noteableId: number; projectId: number | null }): void {
  const t = tget(draft.notes.byNoteable, from);
  if (t === undefined) return;
  // A thread's replies follow its first note, which has a new id and so a new discussion id.
  const threads = new Map<string, string>();
  for (const n of [...tvalues(t)].sort((a, b) => a.id - b.id)) {
    const { id: _, ...fields } = n;
    const discussionId = n.discussionId === undefined ? undefined : threads.get(n.discussionId) ?? n.discussionId;
    const copy = addNote(draft, to.key, { ...fields, noteableId: to.noteableId, projectId: to.projectId, ...(discussionId === undefined ? {} : { discussionId }) });
    if (n.discussionId === undefined) threads.set(discussionIdOf(n), discussionIdOf(copy));
    if (n.updatedById !== null) putNote(draft, to.key, { ...copy, updatedById: n.updatedById });
  }
}

/** Replaces a note (same id) with its new version. */
export function putNote(draft: CoreState, key: string, note: Note): void {
  const t = tget(draft.notes.byNoteable, key);
  if (t !== undefined && tget(t, note.id) !== undefined) tset(t, note.id, note);
}

export function deleteNote(draft: CoreState, key: string, id: number): boolean {
  const t = tget(draft.notes.byNoteable, key);
  const note = t && tget(t, id);
  if (!t || !note) return false;
  tdel(t, id);
  if (!note.system) countChange(draft, key, -1);
  if (t.size === 0) tdel(draft.notes.byNoteable, key);
  return true;
}

/** Drops every note on a project's noteables (the project is deleted). */
export function dropProjectNotes(draft: CoreState, projectId: number): void {
  const keys = tget(draft.notes.byProject, projectId);
  if (keys === undefined) return;
  for (const key of tvalues(keys)) dropNotes(draft, key);
  tdel(draft.notes.byProject, projectId);
}

/** Drops every note of a noteable (the noteable is deleted). */
export function dropNotes(draft: CoreState, key: string): void {
  tdel(draft.notes.byNoteable, key);
  tdel(draft.notes.userCounts, key);
}

/**
 * A noteable's notes, all or only comments or only system notes, oldest or newest first by id
 * (GitLab's `created_at` order) or by `updated_at` then id: one array per version of the
 * noteable's notes, shared by every reader.
 */
export function noteList(state: CoreState, key: string, which: NoteFilter = 'all', order: 'asc' | 'desc' = 'asc', by: 'id' | 'updated_at' = 'id'): readonly Note[] {
  return derived(notesTable(state, key), VIEWS[`${which}:${order}:${by}`]!);
}

export type NoteFilter = 'all' | 'comments' | 'activity';

const FILTER: Record<NoteFilter, (n: Note) => boolean> = { all: () => true, comments: (n) => !n.system, activity: (n) => n.system };
const byUpdated = (a: Note, b: Note) => a.updatedAt - b.updatedAt || a.id - b.id;

// One memoised list per filter and order (module-level functions: they are the memo's keys).
const VIEWS: Record<string, (t: Table<Note>) => readonly Note[]> = {};
for (const which of ['all', 'comments', 'activity'] as const) {
  const pick = (t: Table<Note>) => (which === 'all' ? tlist(t) : tlist(t).filter(FILTER[which]));
  VIEWS[`${which}:asc:id`] = pick;
  VIEWS[`${which}:desc:id`] = (t) => pick(t).reverse();
  VIEWS[`${which}:asc:updated_at`] = (t) => pick(t).sort(byUpdated);
  VIEWS[`${which}:desc:updated_at`] = (t) => pick(t).sort(byUpdated).reverse();
}

/** Note#resolvable?: a note of a merge request's thread (not a system note). */
export const isResolvable = (n: Note) => n.noteableType === 'MergeRequest' && (n.type === 'DiscussionNote' || n.type === 'DiffNote') && !n.system;

/**
 * A note's discussion id: its thread's, or (a thread's first note, a note alone) one of its own,
 * 40 hex digits as GitLab's, made from the note's id so that a world replays the same.
 */
export function discussionIdOf(note: Note): string {
  if (note.discussionId !== undefined) return note.discussionId;
  let out = '';
  // Five rounds of a 32-bit mix (murmur3's finaliser) over the id and the round: deterministic, evenly spread.
  for (let round = 1; round <= 5; round++) {
    let h = Math.imul(note.id ^ (round * 0x9e3779b9), 0x85ebca6b) ^ round;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}

export interface Discussion {
  id: string;
  /** A note standing alone (GitLab's IndividualNoteDiscussion). */
  individual: boolean;
  /** Oldest first. */
  notes: readonly Note[];
}

/** A noteable's discussions, by their first note (GitLab's order), each with its notes: one list per version of its notes. */
export function discussionList(state: CoreState, key: string): readonly Discussion[] {
  return derived(notesTable(state, key), groupDiscussions).list;
}

/** One discussion of a noteable by its id, or undefined. */
export function findDiscussion(state: CoreState, key: string, id: string): Discussion | undefined {
  return derived(notesTable(state, key), groupDiscussions).byId.get(id);
}

function groupDiscussions(t: Table<Note>): { list: readonly Discussion[]; byId: ReadonlyMap<string, Discussion> } {
  const byId = new Map<string, { id: string; individual: boolean; notes: Note[] }>();
  for (const note of tlist(t)) {
    const id = discussionIdOf(note);
    const d = byId.get(id);
    if (d) d.notes.push(note);
    else byId.set(id, { id, individual: note.type === undefined, notes: [note] });
  }
  return { list: [...byId.values()], byId };
}
