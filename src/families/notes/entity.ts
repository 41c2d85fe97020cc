// Entities::Note and Entities::NoteCommands (lib/api/entities/note.rb).
import type { Note } from '../../store/notes.js';
import { tget } from '../../store/table.js';
import { iso } from '../../render/time.js';
import { userBasic, type UrlBase } from '../users/index.js';
import type { State } from '../world.js';

export function noteEntity(v: UrlBase & { state: State }, n: Note, noteableIid: number | null, commandsChanges: Record<string, unknown> = {}) {
  const author = tget(v.state.users, n.authorId);
  return {
    id: n.id,
    type: null,
    body: n.body,
    attachment: null,
    author: author ? userBasic(author, v) : null,
    created_at: iso(n.createdAt),
    updated_at: iso(n.updatedAt),
    system: n.system,
    noteable_id: n.noteableId,
    noteable_type: n.noteableType,
    project_id: n.projectId,
    resolvable: false,
    confidential: n.internal,
    internal: n.internal,
    imported: false,
    imported_from: 'none',
    noteable_iid: noteableIid,
    commands_changes: commandsChanges,
  };
}

/** The answer to a note of commands only (202): what they changed, and their messages as one line. */
export function noteCommandsEntity(changes: Record<string, unknown>, messages: string[]) {
  return { commands_changes: changes, summary: messages.length ? [messages.join(' ')] : [] };
}
