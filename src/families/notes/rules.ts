// Notes::CreateService, UpdateService and DestroyService, with the checks of Note's validations
// and NotesHelpers: each decides against the world and returns the recipe of what it makes.
import { addNote, deleteNote, findNote, isResolvable, notesTable, putNote, type Discussion, type Note } from '../../store/notes.js';
import type { User } from '../../store/state.js';
import { awardEmoji, dropAwards, isEmojiName, normalizeEmojiName, reacted, socialTarget, touchIssuable, type AwardEmoji, type NoteCommands as Commands } from '../issuables/index.js';
import type { Change } from '../define.js';
import { emit } from '../stream.js';
import type { State } from '../world.js';
import { bodyBlank, bodyTooLong, commandsFailed, confidentialityChanged, internalNotAllowed, tooManyNotes } from './errors.js';
import { canReadInternal, type Noteable } from './noteables.js';

/** Note's `validates :note, length: { maximum: 1_000_000 }`. */
export const MAX_BODY = 1_000_000;
/** Noteable::MAX_NOTES_LIMIT: no more comments once a noteable has this many notes (system ones count). */
export const MAX_NOTES = 5_000;

export interface NoteInput {
  body: string;
  internal: boolean;
  /** Honoured only for those who may backdate (checked by the caller). */
  createdAt?: number;
  /** A thread's first note (`start`), or a reply to a discussion (a note alone becomes a thread). */
  thread?: { start: true; diff?: Note['diff'] } | { reply: Discussion };
}

/** What a create or an update made: the note, or (commands only) no note but what the commands did. */
export type NoteOutcome = { note: Note; commands: Commands | null } | { note: null; commands: Commands };

function validateBody(body: string): void {
  if (body.trim() === '') throw bodyBlank();
  if ([...body].length > MAX_BODY) throw bodyTooLong(MAX_BODY);
}

/**
 * Note#award_emoji?: a note that is one emoji alone (`:thumbsup:`), on an issue or a merge
 * request, is an award of it instead (Notes::CreateService answers the award emoji), unless the
 * caller awarded that emoji already (`:+1:` awards `thumbsup`, as AwardEmojis::AddService names
 * an alias); null when the note is a note.
 */
export function emojiReaction(state: State, n: Noteable, user: User, body: string, now: number): Change<AwardEmoji> | null {
  const m = /^:([a-z0-9_+-]+):\s?$/.exec(body);
  const target = n.issuable?.type === 'Issue' ? socialTarget('Issue', n.issuable.issue) : n.issuable?.type === 'MergeRequest' ? socialTarget('MergeRequest', n.issuable.mr) : null;
  if (!m || !target || !isEmojiName(m[1]!) || reacted(state, target, user.id, normalizeEmojiName(m[1]!))) return null;
  const change = awardEmoji(state, target, user, m[1]!, now);
  return typeof change === 'function' ? change : null;
}

/** A thread's note: a diff note when the thread is on a line (Discussion#reply_attributes gives replies its position), else a discussion note. */
function threadFields(thread: NonNullable<NoteInput['thread']>): Pick<Note, 'type' | 'diff' | 'discussionId'> {
  if ('reply' in thread) {
    const diff = thread.reply.notes[0]!.diff;
    return { type: diff ? 'DiffNote' : 'DiscussionNote', discussionId: thread.reply.id, ...(diff ? { diff } : {}) };
  }
  return thread.diff ? { type: 'DiffNote', diff: thread.diff } : { type: 'DiscussionNote' };
}

/** Notes::CreateService (after BuildService): the note, unless its body is commands only. */
export function createNote(state: State, n: Noteable, user: User, input: NoteInput, commands: Commands | null, now: number): Change<NoteOutcome> {
  validateBody(input.body);
  // BuildService keeps `internal` only for those who may mark notes internal; the model then
  // refuses it on what cannot have internal notes.
  const internal = input.internal && canReadInternal(state, user, n, now);
  if (internal && !n.issuable) throw internalNotAllowed();
  if (notesTable(state, n.key).size >= MAX_NOTES) throw tooManyNotes();
  const onlyCommands = commands !== null && commands.content === '';
  // Commands alone that say nothing ran: GitLab's `Failed to apply commands.` (and nothing changes).
  if (onlyCommands && commands.messages.length === 0) throw commandsFailed();
  const body = commands ? commands.content : input.body;
  return (draft) => {
    let note: Note | null = null;
    if (!onlyCommands) {
      const createdAt = input.createdAt ?? now;
      const thread = input.thread;
      note = addNote(draft as State, n.key, {
        noteableType: n.type, noteableId: n.commitId === undefined ? n.id : null, commitId: n.commitId ?? null, projectId: n.project?.id ?? null, authorId: user.id, body, system: false, internal,
        createdAt, updatedAt: createdAt,
        ...(thread ? threadFields(thread) : {}),
      });
      // Discussion#convert_to_discussion!: the note replied to is a thread's first note from now on.
      if (thread && 'reply' in thread && thread.reply.individual) putNote(draft as State, n.key, { ...thread.reply.notes[0]!, type: 'DiscussionNote' });
      if (n.issuable) touchIssuable(draft, n.issuable, now);
      emit(draft, { kind: 'note.created', projectId: n.project?.id ?? null, noteId: note.id, noteableType: n.type, noteableId: n.commitId ?? n.id, noteableIid: n.iid });
    }
    if (commands && commands.executed > 0) commands.apply?.(draft, note?.id ?? null);
    return note ? { note, commands } : { note: null, commands: commands! };
  };
}

/** Notes::UpdateService: a new body (quick actions in it run; commands only delete the note). */
export function updateNote(state: State, n: Noteable, note: Note, user: User, input: { body?: string; confidential?: boolean }, commands: Commands | null, now: number): Change<NoteOutcome> {
  if (input.confidential !== undefined && input.confidential !== note.internal) throw confidentialityChanged();
  if (input.body === undefined) return () => ({ note, commands: null });
  validateBody(input.body);
  const onlyCommands = commands !== null && commands.content === '';
  // Commands alone that say nothing ran leave GitLab's note with a blank body, which it refuses
  // (GitLab has deleted the note by then; here a refused request changes nothing).
  if (onlyCommands && commands.messages.length === 0) throw bodyBlank();
  const body = commands ? commands.content : input.body;
  return (draft) => {
    if (commands && commands.executed > 0) commands.apply?.(draft, onlyCommands ? null : note.id);
    if (onlyCommands) {
      deleteNote(draft as State, n.key, note.id);
      return { note: null, commands };
    }
    const next: Note = body === note.body ? note : { ...note, body, updatedAt: now, updatedById: user.id };
    putNote(draft as State, n.key, next);
    return { note: next, commands };
  };
}

/** Notes::ResolveService and unresolve!: the resolvable notes given, resolved by the user or unresolved. */
export function resolveNotes(n: Noteable, notes: readonly Note[], user: User, resolved: boolean, now: number): Change {
  return (draft) => {
    for (const note of notes) {
      if (!isResolvable(note) || !!note.resolvedAt === resolved) continue;
      putNote(draft as State, n.key, { ...note, resolvedAt: resolved ? now : null, resolvedById: resolved ? user.id : null });
    }
  };
}

export function destroyNote(n: Noteable, note: Note): Change {
  return (draft) => {
    deleteNote(draft as State, n.key, note.id);
    dropAwards(draft, { type: 'Note', id: note.id });
  };
}

export { findNote };
